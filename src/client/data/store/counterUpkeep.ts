/**
 * The counters side effect (counters.ts): every write to `items` brings the progress counters of the
 * parents it moves up to date in the same transaction, or once at the transaction's end when the
 * writer asked for that (writeFacts.ts deferCounts, then flushCounts here).
 */
import Dexie, {
  type DBCoreMutateRequest,
  type DBCoreMutateResponse,
  type DBCoreTable,
  type DBCoreTransaction,
} from 'dexie';
import { counterKeysOf, type RowChange, readCounters, updateCounts } from './counters';
import { getManyBySpan } from './spanReads';
import { deleteWithFlags, putWithFlags, type Row } from './topFlags';
import type { LocalItem } from './types';
import { deferredOf, rememberStoredRow, storedRowKnown, storedRowOf, takeDeferred } from './writeFacts';

/** Counts what the current transaction wrote since deferCounts (call it before the transaction ends). */
export function flushCounts(): Promise<void> {
  const deferred = takeDeferred();
  const logged = deferred?.log && deferred.log.ids.length > 0 ? deferred.log : null;
  const trans =
    deferred?.at?.trans ?? (Dexie.currentTransaction as { idbtrans?: DBCoreTransaction } | null)?.idbtrans;
  // The search log's one row for the transaction's writes (searchLog.ts), beside the counters.
  const log: Promise<unknown> =
    logged && trans
      ? logged.table.mutate({ type: 'add', trans, values: [{ at: Date.now(), ids: logged.ids }] })
      : Dexie.Promise.resolve();
  if (!deferred?.at || deferred.changes.size === 0) return log.then(() => undefined);
  const { table, counts, trans: core } = deferred.at;
  const changes = [...deferred.changes.values()];
  return Dexie.Promise.all([
    log,
    (deferred.prefetched ?? Dexie.Promise.resolve(undefined)).then((prefetched) =>
      updateCounts(table, counts, core, changes, deferred.known, prefetched),
    ),
  ]).then(() => undefined);
}

/** updateCounts now, or folded into the transaction's deferred counting when it asked for that. */
function countChanges(
  table: DBCoreTable,
  counts: DBCoreTable,
  trans: DBCoreTransaction,
  changes: readonly RowChange[],
  known?: ReadonlyMap<number, RowChange['now']>,
): Promise<void> {
  const deferred = deferredOf(trans);
  if (!deferred) return updateCounts(table, counts, trans, changes, known);
  deferred.at ??= { table, counts, trans };
  if (deferred.expected && !deferred.prefetched) {
    const keys = counterKeysOf(deferred.expected, deferred.known);
    deferred.prefetched = readCounters(counts, trans, keys);
    // Read again at flushCounts if this read failed (the transaction then fails anyway).
    deferred.prefetched.catch(() => undefined);
  }
  for (const change of changes) {
    const earlier = deferred.changes.get(change.id);
    if (earlier) earlier.now = change.now;
    else deferred.changes.set(change.id, { ...change });
  }
  for (const [id, row] of known ?? []) deferred.known.set(id, row);
  return Dexie.Promise.resolve();
}

type PutRequest = Extract<DBCoreMutateRequest, { type: 'put' | 'add' }>;
type DeleteRequest = Extract<DBCoreMutateRequest, { type: 'delete' | 'deleteRange' }>;

/**
 * A put with the counters (counters.ts) kept: the stored rows it replaces are read first (unless the
 * caller named them, see replacing) and handed to putWithFlags, which then reads none of them again.
 */
export function putCounted(
  table: DBCoreTable,
  counts: DBCoreTable,
  req: PutRequest,
): Promise<DBCoreMutateResponse> {
  const { trans } = req;
  const values = req.values as Row[];
  const unknown = values.filter((v) => !storedRowKnown(v));
  // When the replaced rows must be read (a pulled page), their parents come in the same read: the
  // flags and the counters both need them. A caller that named the stored rows (a title edit) reads
  // nothing here.
  const ids = new Set(values.map((v) => v.id));
  const parentIds =
    unknown.length === 0
      ? []
      : [
          ...new Set(
            values.map((v) => v.parent_id).filter((p): p is number => typeof p === 'number' && p !== 0),
          ),
        ].filter((p) => !ids.has(p) && !deferredOf(trans)?.known.has(p));
  const toRead = [...unknown.map((v) => v.id), ...parentIds];
  const read: Promise<(Row | undefined)[]> =
    toRead.length === 0
      ? Dexie.Promise.resolve([])
      : (getManyBySpan(table, trans, toRead) as Promise<(Row | undefined)[]>);
  return read.then((stored) => {
    unknown.forEach((v, i) => {
      rememberStoredRow(v, (stored[i] as LocalItem | undefined) ?? null);
    });
    const deferred = deferredOf(trans);
    // Rows the transaction named (knowRows) are parents the flags need not read.
    const parents = new Map<number, Row | undefined>(deferred?.known ?? []);
    parentIds.forEach((id, i) => {
      parents.set(id, stored[unknown.length + i]);
    });
    const old = new Map<number, Row | undefined>();
    for (const v of values) if (!old.has(v.id)) old.set(v.id, storedRowOf(v) ?? undefined);
    const known = parents as ReadonlyMap<number, RowChange['now']>;
    /** What each id holds after the write: its last value (an add: its first); a failed one wrote nothing. */
    const storedAfter = (failures: DBCoreMutateResponse['failures'] | null) => {
      const now = new Map<number, Row | undefined>();
      values.forEach((v, i) => {
        if (failures?.[i]) return;
        if (!(req.type === 'add' && now.get(v.id))) now.set(v.id, v);
      });
      return now;
    };
    const changesTo = (now: Map<number, Row | undefined>, from: (id: number) => Row | undefined) =>
      [...now].map(
        ([id, row]): RowChange => ({
          id,
          old: from(id) as RowChange['old'],
          now: row as RowChange['now'],
        }),
      );
    if (req.type === 'add') {
      return putWithFlags(table, req, parents).then((res) =>
        countChanges(
          table,
          counts,
          trans,
          changesTo(storedAfter(res.failures), (id) => old.get(id)),
          known,
        ).then(() => res),
      );
    }
    // A put stores every value unless the request fails: the counters are brought up to date beside
    // it, not after it (a pulled page's chunks wait on each other, so every round trip saved counts).
    const assumed = storedAfter(null);
    // Deferred counting (a pulled page) reuses the parents the flags read: the counters need them too.
    const remember = deferred
      ? (read: ReadonlyMap<number, Row | undefined>) => {
          for (const [id, row] of read) deferred.known.set(id, row as RowChange['now']);
        }
      : undefined;
    return Dexie.Promise.all([
      putWithFlags(table, req, parents, remember),
      countChanges(
        table,
        counts,
        trans,
        changesTo(assumed, (id) => old.get(id)),
        known,
      ),
    ]).then(([res]) => {
      if (!res.numFailures) return res;
      // A value that failed was counted as stored: count the row back to what is stored.
      const actual = storedAfter(res.failures);
      const undo = changesTo(
        new Map(
          [...assumed.keys()]
            .filter((id) => actual.get(id) !== assumed.get(id))
            .map((id) => [id, actual.get(id) ?? old.get(id)]),
        ),
        (id) => assumed.get(id),
      );
      return countChanges(table, counts, trans, undo, known).then(() => res);
    });
  });
}

/** A delete with the counters kept: the rows it removes are read first. */
export function deleteCounted(
  table: DBCoreTable,
  counts: DBCoreTable,
  req: DeleteRequest,
): Promise<DBCoreMutateResponse> {
  const { trans } = req;
  // clear(): every counter goes with the rows.
  if (req.type === 'deleteRange' && req.range.type === 3) {
    // What was deferred counted rows that are gone now with every counter, and read counters.
    const deferred = deferredOf(trans);
    deferred?.changes.clear();
    if (deferred) deferred.prefetched = undefined;
    return table
      .mutate(req)
      .then((res) => counts.mutate({ type: 'deleteRange', trans, range: req.range }).then(() => res));
  }
  const read: Promise<(Row | undefined)[]> =
    req.type === 'delete'
      ? table.getMany({ trans, keys: req.keys as number[] })
      : table
          .query({ trans, values: true, query: { index: table.schema.primaryKey, range: req.range } })
          .then((r) => r.result as Row[]);
  return read.then((rows) => {
    const gone = new Map<number, Row>();
    for (const row of rows) if (row) gone.set(row.id, row);
    return deleteWithFlags(table, req).then((res) => {
      const changes = [...gone].map(([id, row]) => ({ id, old: row as RowChange['old'], now: undefined }));
      return countChanges(table, counts, trans, changes).then(() => res);
    });
  });
}
