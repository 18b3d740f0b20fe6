/**
 * The counters side effect (counters.ts): every write to `items` brings the progress counters of the
 * parents it moves up to date in the same transaction, or once at the transaction's end when the
 * writer asked for that (writeFacts.ts deferCounts, then flushCounts here).
 *
 * A pull of several transactions counts its rows once, in its last one (SYNC.md I3): the ones before
 * store what they changed in meta rows (PENDING_COUNTS) instead of writing counters, because the
 * counters its transactions touch overlap (a 10,000-item pull wrote 8,100 counter rows for 3,000
 * counters, and a counter put costs about as much as an item's). Whoever next moves a counter, in
 * any tab (a local edit between two of the pull's transactions, the pull's last transaction, the
 * repair at open), reads those rows in its own transaction and counts those changes with its own: the
 * stored counters always equal what the rows would give with the pending changes undone, so nothing
 * is lost or counted twice, and a progress shown meanwhile lags by the pull's rows.
 */
import Dexie, {
  type DBCoreKeyRange,
  type DBCoreMutateRequest,
  type DBCoreMutateResponse,
  type DBCoreTable,
  type DBCoreTransaction,
  type Transaction,
} from 'dexie';
import {
  breathe,
  COUNTS_STORE,
  counterKeysOf,
  inSlices,
  movesCounters,
  type PrefetchedCounts,
  type RowChange,
  readCounters,
  updateCounts,
} from './counters';
import { tellReplacedRows } from './replacedRows';
import { getManyBySpan } from './spanReads';
import { deleteWithFlags, putWithFlags, type Row, withCarriedFlags } from './topFlags';
import type { LocalItem } from './types';
import {
  type CountTables,
  deferredOf,
  rememberStoredRow,
  storedRowKnown,
  storedRowOf,
  takeDeferred,
} from './writeFacts';

/**
 * The meta rows of the changes a pull's earlier transactions stored but did not count: one row per
 * transaction, keyed by this prefix and a sequence number, so each transaction writes only its own
 * (a row rewritten with every earlier change costs more to serialise than the counters it saves).
 */
export const PENDING_COUNTS = 'pendingCounts:';
const PENDING_RANGE = {
  type: 2 as DBCoreKeyRange['type'],
  lower: PENDING_COUNTS,
  upper: `${PENDING_COUNTS}\uffff`,
  lowerOpen: false,
  upperOpen: false,
};
/** The key of the pending row numbered `n` (zero-padded: the keys sort as the numbers). */
const pendingKey = (n: number) => `${PENDING_COUNTS}${String(n).padStart(10, '0')}`;

/**
 * What a row adds to the counters by (counters.ts signature), as one string: parent, type, status,
 * `_deleted`, `_syncStatus`; '' when absent. A row's value is flat, `[id, before, after, id, …]`:
 * strings and numbers serialise several times faster than an array per change.
 */
const counted = (row: RowChange['old']): string =>
  row ? `${row.parent_id ?? ''}|${row.type}|${row.status}|${row._deleted}|${row._syncStatus}` : '';
const rowOf = (id: number, text: string): RowChange['old'] => {
  if (text === '') return undefined;
  const [parent, type, status, deleted, sync] = text.split('|');
  return {
    id,
    parent_id: parent === '' ? null : Number(parent),
    type: type as LocalItem['type'],
    status: status as LocalItem['status'],
    _deleted: Number(deleted) as LocalItem['_deleted'],
    _syncStatus: sync as LocalItem['_syncStatus'],
  };
};

/**
 * The stored pending changes by id, folded in the order their transactions made them (empty: none).
 * Each row (one of the pull's transactions, thousands of changes) is decoded in a task of its own: a
 * 100,000-item pull's last transaction decoded them all in one of 100–275 ms.
 */
function readPending(meta: DBCoreTable, trans: DBCoreTransaction): Promise<Map<number, RowChange>> {
  return meta
    .query({ trans, values: true, query: { index: meta.schema.primaryKey, range: PENDING_RANGE } })
    .then(({ result }) => {
      const out = new Map<number, RowChange>();
      const decode = (rows: readonly { value: (number | string)[] }[]) => {
        for (const row of rows) fold(out, decoded(row.value));
      };
      return inSlices(result as { value: (number | string)[] }[], decode, () => breathe(meta, trans), 1).then(
        () => out,
      );
    });
}

/** The changes of one pending row's flat value. */
function decoded(value: readonly (number | string)[]): RowChange[] {
  const changes: RowChange[] = [];
  for (let i = 0; i < value.length; i += 3) {
    const id = value[i] as number;
    changes.push({ id, old: rowOf(id, value[i + 1] as string), now: rowOf(id, value[i + 2] as string) });
  }
  return changes;
}

/** Folds `changes` into `into`: per id the first stored row and the last written one. */
function fold(into: Map<number, RowChange>, changes: Iterable<RowChange>): void {
  for (const change of changes) {
    const earlier = into.get(change.id);
    if (earlier) earlier.now = change.now;
    else into.set(change.id, { ...change });
  }
}

/** Drops every pending row (their changes are counted, or the counters are gone). */
function dropPending(meta: DBCoreTable, trans: DBCoreTransaction): Promise<unknown> {
  return meta.mutate({ type: 'deleteRange', trans, range: PENDING_RANGE });
}

/**
 * Counts `changes` with the pending ones (read in this transaction, then dropped), or does nothing
 * when neither moves a counter; `force`: read the pending ones even when `changes` move none.
 */
function countWithPending(
  { table, counts, meta, trans }: CountTables,
  changes: readonly RowChange[],
  known?: ReadonlyMap<number, RowChange['now']>,
  prefetched?: PrefetchedCounts,
  force = false,
): Promise<void> {
  const moves = movesCounters(changes);
  if (!moves && !force) return Dexie.Promise.resolve();
  if (!meta) return updateCounts(table, counts, trans, changes, known, prefetched);
  // The write's own counters are read beside the pending rows: none pending (nearly always) costs no
  // round trip more.
  const own: Promise<PrefetchedCounts | undefined> =
    moves && !prefetched
      ? readCounters(counts, trans, counterKeysOf(changes, known))
      : Dexie.Promise.resolve(prefetched);
  return Dexie.Promise.all([readPending(meta, trans), own]).then(([pending, read]) => {
    if (pending.size === 0) return updateCounts(table, counts, trans, changes, known, read);
    fold(pending, changes);
    return Dexie.Promise.all([
      dropPending(meta, trans),
      updateCounts(table, counts, trans, [...pending.values()], known, read),
    ]).then(() => undefined);
  });
}

/**
 * Stores `changes` as a new pending row after the others (a pull's transaction before its last):
 * no counter is read or written, and no earlier row is read.
 */
function storePending(
  meta: DBCoreTable,
  trans: DBCoreTransaction,
  changes: Iterable<RowChange>,
): Promise<void> {
  return meta
    .query({ trans, values: false, query: { index: meta.schema.primaryKey, range: PENDING_RANGE } })
    .then(({ result }) => {
      const last = result.at(-1) as string | undefined;
      const n = last === undefined ? 0 : Number(last.slice(PENDING_COUNTS.length)) + 1;
      const value: (number | string)[] = [];
      for (const c of changes) value.push(c.id, counted(c.old), counted(c.now));
      return meta
        .mutate({ type: 'put', trans, values: [{ key: pendingKey(n), value }] })
        .then(() => undefined);
    });
}

/** The tables and transaction of the current Dexie transaction, below nothing the side effects add. */
function currentCore(): {
  table: DBCoreTable;
  counts: DBCoreTable;
  meta: DBCoreTable;
  trans: DBCoreTransaction;
} | null {
  const current = Dexie.currentTransaction as (Transaction & { idbtrans?: DBCoreTransaction }) | null;
  if (!current?.idbtrans) return null;
  const core = current.db.core;
  return {
    table: core.table('items'),
    counts: core.table(COUNTS_STORE),
    meta: core.table('meta'),
    trans: current.idbtrans,
  };
}

/**
 * Counts what the current transaction wrote since deferCounts (call it before the transaction ends),
 * with the changes earlier transactions left pending; or, when it deferred them to a later
 * transaction (`deferCounts(true)`), adds them to the pending ones and writes no counter.
 */
export function flushCounts(): Promise<void> {
  const deferred = takeDeferred();
  const logged = deferred?.log && deferred.log.ids.length > 0 ? deferred.log : null;
  const core = currentCore();
  const trans = deferred?.at?.trans ?? core?.trans;
  // The search log's one row for the transaction's writes (searchLog.ts), beside the counters.
  const log: Promise<unknown> =
    logged && trans
      ? logged.table.mutate({ type: 'add', trans, values: [{ at: Date.now(), ids: logged.ids }] })
      : Dexie.Promise.resolve();
  const at = deferred?.at ?? core;
  if (!deferred || !at) return log.then(() => undefined);
  const meta = at.meta ?? core?.meta;
  if (deferred.later && meta) {
    if (deferred.changes.size === 0) return log.then(() => undefined);
    return Dexie.Promise.all([log, storePending(meta, at.trans, deferred.changes.values())]).then(
      () => undefined,
    );
  }
  const changes = [...deferred.changes.values()];
  return Dexie.Promise.all([
    log,
    (deferred.prefetched ?? Dexie.Promise.resolve(undefined)).then((prefetched) =>
      countWithPending({ ...at, meta }, changes, deferred.known, prefetched, true),
    ),
  ]).then(() => undefined);
}

/**
 * Counts the changes a pull left pending, in a transaction of its own (a pull that failed before its
 * last transaction, the open of a database a pull was interrupted in).
 */
export function flushPendingCounts(db: Dexie): Promise<void> {
  return db.transaction('rw', ['items', COUNTS_STORE, 'meta'], () => {
    const core = currentCore();
    if (!core) return undefined;
    return countWithPending(core, [], undefined, undefined, true);
  });
}

/** updateCounts now, or folded into the transaction's deferred counting when it asked for that. */
function countChanges(
  where: CountTables,
  changes: readonly RowChange[],
  known?: ReadonlyMap<number, RowChange['now']>,
): Promise<void> {
  const { counts, trans } = where;
  const deferred = deferredOf(trans);
  if (!deferred) return countWithPending(where, changes, known);
  deferred.at ??= where;
  // A transaction that leaves its counting to a later one reads no counter.
  if (deferred.expected && !deferred.prefetched && !deferred.later) {
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
  if (known !== deferred.known) for (const [id, row] of known ?? []) deferred.known.set(id, row);
  return Dexie.Promise.resolve();
}

type PutRequest = Extract<DBCoreMutateRequest, { type: 'put' | 'add' }>;
type DeleteRequest = Extract<DBCoreMutateRequest, { type: 'delete' | 'deleteRange' }>;

/**
 * The rows as stored when putting them is an edit in place: each one's writer named the row it
 * replaces, and no flag and no counter moves, so nothing needs reading or counting (and a pulled
 * page's transaction, which counts at its end, is never one). Null when the put must go the long way.
 */
export function inPlace(trans: DBCoreTransaction | null, values: readonly Row[]): Row[] | null {
  // A transaction not yet made (null) has nothing deferred to it.
  if (trans && deferredOf(trans)) return null;
  const flagged = withCarriedFlags(values);
  if (!flagged || new Set(values.map((v) => v.id)).size !== values.length) return null;
  const changes = values.map((v) => ({
    id: v.id,
    old: storedRowOf(v) ?? undefined,
    now: v as RowChange['now'],
  }));
  return movesCounters(changes) ? null : flagged;
}

/**
 * A put with the counters (counters.ts) kept: the stored rows it replaces are read first (unless the
 * caller named them, see replacing) and handed to putWithFlags, which then reads none of them again.
 */
export function putCounted(
  table: DBCoreTable,
  counts: DBCoreTable,
  req: PutRequest,
  /** The meta store, where a pull's changes wait to be counted (absent before it exists: none wait). */
  meta?: DBCoreTable,
): Promise<DBCoreMutateResponse> {
  const { trans } = req;
  const values = req.values as Row[];
  // An edit in place (a title, a date, an order key): its writer named the rows it replaces, no flag
  // and no counter moves, so the put goes straight down, with nothing read, counted or waited on.
  const flagged = req.type === 'put' ? inPlace(trans, values) : null;
  if (flagged) {
    // Every replaced row is known here (inPlace found each): live queries learn them (I9).
    tellReplacedRows(
      trans,
      values.map((v) => v.id),
      values.map((v) => storedRowOf(v) as LocalItem),
    );
    return table.mutate({ ...req, values: flagged });
  }
  const where: CountTables = { table, counts, meta, trans };
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
    // Rows the transaction named (knowRows) are parents the flags need not read: used as they are
    // when this put read none (a pulled page's chunks), not copied once a chunk.
    const parents: Map<number, Row | undefined> =
      deferred && parentIds.length === 0 ? deferred.known : new Map(deferred?.known ?? []);
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
          where,
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
        where,
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
      return countChanges(where, undo, known).then(() => res);
    });
  });
}

/** A delete with the counters kept: the rows it removes are read first. */
export function deleteCounted(
  table: DBCoreTable,
  counts: DBCoreTable,
  req: DeleteRequest,
  meta?: DBCoreTable,
): Promise<DBCoreMutateResponse> {
  const { trans } = req;
  // clear(): every counter goes with the rows.
  if (req.type === 'deleteRange' && req.range.type === 3) {
    // What was deferred or left pending counted rows that are gone now with every counter, and read counters.
    const deferred = deferredOf(trans);
    deferred?.changes.clear();
    if (deferred) deferred.prefetched = undefined;
    return table
      .mutate(req)
      .then((res) =>
        Dexie.Promise.all([
          counts.mutate({ type: 'deleteRange', trans, range: req.range }),
          meta ? dropPending(meta, trans) : null,
        ]).then(() => res),
      );
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
      return countChanges({ table, counts, meta, trans }, changes).then(() => res);
    });
  });
}
