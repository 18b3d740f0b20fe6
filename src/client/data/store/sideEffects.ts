/**
 * The items store's side effects (as tldraw's StoreSideEffects): what every write to `items` also
 * keeps true in the same transaction, whoever makes it (the funnel, a pull, a confirmation, a
 * temporary-id swap, the guest upgrade, a conflict, a clear), so no write path has to remember them.
 * They run in this order, each a wrapper of the one below:
 *
 * - `listKeys` (listKeys.ts): every row stored gets the derived keys the list indexes read;
 * - `topFlags` (topFlags.ts): Home's top-level flag of the row and of the children it moves;
 * - `counters` (counterUpkeep.ts): the progress counters of the parents the write moves, read beside
 *   the flags' own reads (the stored rows and their parents are read once for both);
 * - `searchLog` (searchLog.ts): one log row naming the ids the write touched.
 *
 * What a writer already knows (the row it replaces, a pulled page's rows) it tells them through
 * writeFacts.ts, so they read nothing again.
 */
import type { DBCore, DBCoreMutateRequest, DBCoreMutateResponse, DBCoreTable, Middleware } from 'dexie';
import { COUNTS_STORE } from './counters';
import { deleteCounted, inPlace, putCounted } from './counterUpkeep';
import { scopeIsExact } from './exactScope';
import { withKeys, withListKeys } from './listKeys';
import { SEARCH_LOG_STORE, withSearchLog } from './searchLog';
import { deleteWithFlags, putWithFlags } from './topFlags';
import type { LocalItem } from './types';
import { storedRowOf } from './writeFacts';

/** The side effects of a write to `items`, in the order they run. */
export const ITEM_SIDE_EFFECTS = ['listKeys', 'topFlags', 'counters', 'searchLog'] as const;
export type ItemSideEffect = (typeof ITEM_SIDE_EFFECTS)[number];

export const storeSideEffects: Middleware<DBCore> = {
  stack: 'dbcore',
  name: 'OutpostStoreSideEffects',
  create(down) {
    // Absent while an upgrade runs the versions before 7 (that upgrade then computes every counter).
    const hasCounts = down.schema.tables.some((t) => t.name === COUNTS_STORE);
    // Absent likewise before version 8 (an upgrade's writes then log nothing: no copy is saved yet).
    const hasLog = down.schema.tables.some((t) => t.name === SEARCH_LOG_STORE);
    // The meta store holds the changes a pull left for a later transaction to count (counterUpkeep.ts).
    const added = [...(hasCounts ? [COUNTS_STORE, 'meta'] : []), ...(hasLog ? [SEARCH_LOG_STORE] : [])];
    // Dexie asks for a table's stack once per transaction that uses it, and the layers below rebuild
    // theirs on each ask (the virtual-index layer its index maps): built once per store instead, as
    // nothing in them depends on the transaction (they read it from Dexie's zone when they run).
    const built = new Map<string, DBCoreTable>();
    const tableOf = (name: string): DBCoreTable => {
      let table = built.get(name);
      if (!table) {
        table = name === 'items' ? itemsTable(name) : down.table(name);
        built.set(name, table);
      }
      return table;
    };
    const itemsTable = (name: string): DBCoreTable => {
      // listKeys: every put below (the caller's and the flag fixes) gets its list keys.
      const table = withListKeys(down.table(name));
      const counts = hasCounts ? down.table(COUNTS_STORE) : undefined;
      const meta = hasCounts ? down.table('meta') : undefined;
      // topFlags, with counters when the store has them.
      const flagged = {
        ...table,
        mutate(req: DBCoreMutateRequest): Promise<DBCoreMutateResponse> {
          if (req.type === 'put' || req.type === 'add')
            return counts ? putCounted(table, counts, req, meta) : putWithFlags(table, req);
          return counts ? deleteCounted(table, counts, req, meta) : deleteWithFlags(table, req);
        },
      };
      // searchLog, beside the write.
      return hasLog ? withSearchLog(flagged, down.table(SEARCH_LOG_STORE)) : flagged;
    };
    return {
      ...down,
      transaction(stores, mode, options) {
        // A write to items writes its counters (and reads the ones a pull left pending) and its log
        // row in the same transaction, whatever stores it named.
        const withAdded =
          mode === 'readwrite' && stores.includes('items') && !scopeIsExact()
            ? [...stores, ...added.filter((s) => !stores.includes(s))]
            : stores;
        return down.transaction(withAdded, mode, options);
      },
      table: tableOf,
    };
  },
};

/** What an edit in place stores (I10): the row with its list keys and carried flag, over the row it replaces. */
export interface InPlacePut {
  now: LocalItem;
  old: LocalItem;
}

/**
 * The put an edit in place of `row` makes in `trans` (null: one not yet made); null when it is none.
 * The write's route (changes/writeRoute.ts) may then store it raw (store/inPlaceWrites.ts).
 */
export function inPlacePut(trans: IDBTransaction | null, row: LocalItem): InPlacePut | null {
  const old = storedRowOf(row);
  const flagged = old ? inPlace(trans, [row]) : null;
  if (!old || !flagged?.[0]) return null;
  return { now: withKeys(flagged[0] as LocalItem), old: withKeys(old) };
}
