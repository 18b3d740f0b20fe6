import type { DBCoreMutateRequest, DBCoreTable } from 'dexie';
import Dexie from 'dexie';
import { deferredOf } from './writeFacts';

/**
 * The search log (search.ts): one row per write to `items`, naming the ids it put or deleted, so a
 * page that loads the saved search copy reads again only the items changed since it was saved. Keyed
 * by an auto-incremented `seq` (IndexedDB picks it: two writes in one millisecond never collide, and
 * finding a key costs no read), with an index on `at` (Date.now() when the write was issued): a page
 * reads, and a save prunes, by time.
 */
export const SEARCH_LOG_STORE = 'searchLog';
export const SEARCH_LOG_SCHEMA = '++seq, at';

/** A write's ids, or `range` for a delete by range (clear): the saved copy can no longer be trusted. */
export interface SearchLogRow {
  seq?: number;
  at: number;
  ids?: number[];
  range?: 1;
}

/** The log row of one mutate of `items`: its ids, or a range mark for a delete by range. */
function logRowOf(req: DBCoreMutateRequest): SearchLogRow {
  const at = Date.now();
  if (req.type === 'deleteRange') return { at, range: 1 };
  if (req.type === 'delete') return { at, ids: req.keys as number[] };
  return searchLogRow((req.values as { id: number }[]).map((v) => v.id));
}

/** The log row of a write that put the rows of `ids`. */
export function searchLogRow(ids: number[]): SearchLogRow {
  return { at: Date.now(), ids };
}

/**
 * The search log side effect: one add beside each write to `items`, no read. A value that fails is
 * still named, and naming an unchanged row only costs a page one more read; the flag fixes move no
 * searched field.
 */
export function withSearchLog(table: DBCoreTable, log: DBCoreTable): DBCoreTable {
  return {
    ...table,
    mutate: (req) => {
      // A transaction that counts once at its end (a pulled page) logs once then too: one row naming
      // every id its chunks wrote (../store/counterUpkeep.ts flushCounts).
      const deferred = req.type === 'deleteRange' ? undefined : deferredOf(req.trans);
      if (deferred) {
        deferred.log ??= { table: log, ids: [] };
        deferred.log.ids.push(...(logRowOf(req).ids ?? []));
        return table.mutate(req);
      }
      return Dexie.Promise.all([
        table.mutate(req),
        log.mutate({ type: 'add', trans: req.trans, values: [logRowOf(req)] }),
      ]).then(([res]) => res);
    },
  };
}
