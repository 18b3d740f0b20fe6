import Dexie, {
  type DBCore,
  type DBCoreMutateRequest,
  type DBCoreMutateResponse,
  type DBCoreTable,
  type DBCoreTransaction,
  type Middleware,
  type Table,
} from 'dexie';
import {
  COUNTS_STORE,
  counterKeysOf,
  type PrefetchedCounts,
  type RowChange,
  readCounters,
  updateCounts,
} from '../store/counters';
import { withListKeys } from '../store/listKeys';
import { getManyBySpan } from '../store/spanReads';
import type { LocalItem } from '../store/types';

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
  return { at, ids: (req.values as Row[]).map((v) => v.id) };
}

/**
 * The maintained 'top-level' flag (`_top`) behind Home's All list, read by the index
 * `[_syncStatus+_top+created_at]` instead of loading every item.
 *
 * `_top` is 1 when the item is live (not marked deleted) and has no parent in its own scope: no
 * parent_id (null or 0), or the parent is not on the device, is marked deleted, or belongs to the other
 * scope (guest data vs account data, see itemQueries inScope). That is exactly the set the old full scan
 * kept as orphans. A DBCore middleware (below) keeps it true on every write to `items`, whoever makes it
 * (repository, pull, confirmations, temp-id swaps, guest upgrade, conflicts, clear), so no write path
 * has to remember it (SYNC.md I1, I4). The list itself is kept in memory and patched with the rows each
 * committed change names (homeList.ts).
 */
export type TopFlag = 0 | 1;

type Row = Pick<LocalItem, 'id' | 'parent_id' | '_deleted' | '_syncStatus'> & { _top?: TopFlag };

const isGuestData = (item: Pick<LocalItem, '_syncStatus'>) => item._syncStatus === 'local';

/** The flag from its definition, given the row at the item's parent_id (undefined when absent). */
export function topOf(item: Row, parent: Row | undefined): TopFlag {
  if (item._deleted === 1) return 0;
  if (item.parent_id === null || item.parent_id === undefined || item.parent_id === 0) return 1;
  if (!parent || parent._deleted === 1 || isGuestData(parent) !== isGuestData(item)) return 1;
  return 0;
}

/** What a row's children's flags depend on: it exists, is live, and its scope. */
function parentSignature(row: Row | undefined): string {
  if (!row) return 'absent';
  return `${row._deleted === 1 ? 'deleted' : 'live'}:${isGuestData(row) ? 'guest' : 'account'}`;
}

/** The flag of every row computed from scratch (tests, the upgrade and the repair use it). */
export function topFlagsFromScratch(rows: readonly Row[]): Map<number, TopFlag> {
  const byId = new Map(rows.map((r) => [r.id, r]));
  return new Map(rows.map((r) => [r.id, topOf(r, r.parent_id == null ? undefined : byId.get(r.parent_id))]));
}

/** Rewrites the flag of every item whose stored flag is wrong or missing (upgrade, repair). */
export async function recomputeTopFlags(items: Table<LocalItem, number>): Promise<number> {
  const rows = await items.toArray();
  const flags = topFlagsFromScratch(rows);
  const changed = rows
    .filter((r) => r._top !== flags.get(r.id))
    .map((r) => ({ ...r, _top: flags.get(r.id)! }));
  // Chunks keep one request from holding a copy of the whole table twice.
  for (let i = 0; i < changed.length; i += 5_000) await items.bulkPut(changed.slice(i, i + 5_000));
  return changed.length;
}

const PARENT_INDEX = 'parent_id';

/*
 * Everything below chains Dexie's own promises (.then, Dexie.Promise.all), never native await: the
 * middlewares under this one (hooks) read the transaction from Dexie's zone, which a native await
 * would lose.
 */

const equal = (id: number) => ({ type: 1, lower: id, upper: id, lowerOpen: false, upperOpen: false });
const between = (lower: number, upper: number) => ({
  type: 2,
  lower,
  upper,
  lowerOpen: false,
  upperOpen: false,
});

/**
 * The stored children of `ids`. One id is one index read. Many (a pulled page of new items) would be
 * one read each, so the ids' span is counted first: usually no stored row points into it (parents
 * arrive before their children) and nothing more is read; otherwise one range read when the span is
 * small, one read per id when it is not.
 */
function childrenOf(table: DBCoreTable, trans: DBCoreTransaction, ids: number[]): Promise<Row[]> {
  const index = table.schema.getIndexByKeyPath(PARENT_INDEX);
  if (!index || ids.length === 0) return Dexie.Promise.resolve([]);
  const read = (range: ReturnType<typeof between>) =>
    table.query({ trans, values: true, query: { index, range } }).then((r) => r.result as Row[]);
  const perId = () => Dexie.Promise.all(ids.map((id) => read(equal(id)))).then((lists) => lists.flat());
  if (ids.length === 1) return read(equal(ids[0]!));
  let low = ids[0]!;
  let high = ids[0]!;
  for (const id of ids) {
    if (id < low) low = id;
    if (id > high) high = id;
  }
  const wanted = new Set(ids);
  return table.count({ trans, query: { index, range: between(low, high) } }).then((n) => {
    if (n === 0) return [];
    if (n <= ids.length * 4 + 100) {
      return read(between(low, high)).then((rows) => rows.filter((r) => wanted.has(r.parent_id!)));
    }
    return perId();
  });
}

function putFixes(table: DBCoreTable, trans: DBCoreTransaction, fixes: Row[], res: DBCoreMutateResponse) {
  if (fixes.length === 0) return res;
  return table.mutate({ type: 'put', trans, values: fixes }).then(() => res);
}

const storedRows = new WeakMap<object, Row | null>();

/**
 * Tells the middleware which stored row `value` replaces (null: none is stored), read in the same
 * transaction with nothing written to it since. The middleware then does not read it again; and when
 * none of what the flag depends on changed (parent, liveness, scope), the flag carries over and the
 * write costs no extra read at all (a title edit).
 */
export function replacing<T extends object>(value: T, stored: LocalItem | null): T {
  storedRows.set(value, stored);
  return value;
}

function carriedOver(value: Row): TopFlag | undefined {
  const stored = storedRows.get(value);
  if (!stored || stored._top === undefined) return undefined;
  const same =
    stored.id === value.id &&
    (stored.parent_id ?? 0) === (value.parent_id ?? 0) &&
    stored._deleted === value._deleted &&
    isGuestData(stored) === isGuestData(value);
  return same ? stored._top : undefined;
}

function putWithFlags(
  table: DBCoreTable,
  req: Extract<DBCoreMutateRequest, { type: 'put' | 'add' }>,
  /** Parent rows the caller has just read in this transaction (putCounted): not read again. */
  known?: ReadonlyMap<number, Row | undefined>,
  /** Told the parents this put read (undefined where none is stored), for the counters to reuse. */
  onParents?: (parents: ReadonlyMap<number, Row | undefined>) => void,
): Promise<DBCoreMutateResponse> {
  const { trans } = req;
  const values = req.values as Row[];
  const carried = values.map(carriedOver);
  if (carried.every((top) => top !== undefined)) {
    const flagged = values.map((v, i) => (v._top === carried[i] ? v : { ...v, _top: carried[i] }));
    return table.mutate({ ...req, values: flagged });
  }
  const batch = new Map<number, Row>();
  for (const v of values) batch.set(v.id, v);
  const parentIds = [
    ...new Set(values.map((v) => v.parent_id).filter((p): p is number => typeof p === 'number' && p !== 0)),
  ].filter((p) => !batch.has(p) && !known?.has(p));
  const keys = [...batch.keys()];
  // Stored rows the caller already read (replacing) are not read again.
  const old = new Map<number, Row>();
  const unknown: number[] = [];
  for (const id of keys) {
    const value = batch.get(id)!;
    if (!storedRows.has(value)) unknown.push(id);
    else {
      const stored = storedRows.get(value);
      if (stored) old.set(id, stored);
    }
  }
  const toRead = [...unknown, ...parentIds];
  const read: Promise<(Row | undefined)[]> =
    toRead.length === 0
      ? Dexie.Promise.resolve([])
      : (getManyBySpan(table, trans, toRead) as Promise<(Row | undefined)[]>);
  return read.then((stored: (Row | undefined)[]) => {
    const parents = new Map<number, Row>();
    for (const [id, row] of known ?? []) if (row) parents.set(id, row);
    stored.forEach((row, i) => {
      if (!row) return;
      if (i < unknown.length) old.set(unknown[i]!, row);
      else parents.set(parentIds[i - unknown.length]!, row);
    });
    onParents?.(new Map(parentIds.map((id) => [id, parents.get(id)])));
    const parentOf = (row: Row) =>
      row.parent_id == null ? undefined : (batch.get(row.parent_id) ?? parents.get(row.parent_id));
    const flagged = values.map((v) => {
      const _top = topOf(v, parentOf(v));
      return v._top === _top ? v : { ...v, _top };
    });
    // Rows whose own presence, liveness or scope changed move their children's flags.
    const moved = keys.filter((id) => parentSignature(old.get(id)) !== parentSignature(batch.get(id)));
    return childrenOf(table, trans, moved).then((found) =>
      table.mutate({ ...req, values: flagged }).then((res) => {
        // A row another put of the transaction writes (knowRows) has its flag from the rows it will
        // hold, and may have been written since `found` was read: a fix would put back a stale copy.
        const written = deferredCounts.get(trans)?.written;
        const fixes = found
          .filter((c) => !batch.has(c.id) && !written?.has(c.id))
          .map((c) => ({ c, top: topOf(c, batch.get(c.parent_id!)) }))
          .filter(({ c, top }) => c._top !== top)
          .map(({ c, top }) => ({ ...c, _top: top }));
        return putFixes(table, trans, fixes, res);
      }),
    );
  });
}

function deleteWithFlags(
  table: DBCoreTable,
  req: Extract<DBCoreMutateRequest, { type: 'delete' | 'deleteRange' }>,
): Promise<DBCoreMutateResponse> {
  const { trans } = req;
  // clear() (DBCoreRangeType.Any): nothing is left to fix.
  if (req.type === 'deleteRange' && req.range.type === 3) return table.mutate(req);
  const keysRead: Promise<number[]> =
    req.type === 'delete'
      ? Dexie.Promise.resolve(req.keys as number[])
      : table
          .query({ trans, values: false, query: { index: table.schema.primaryKey, range: req.range } })
          .then((r) => r.result as number[]);
  return keysRead.then((keys) => {
    const gone = new Set(keys);
    return childrenOf(table, trans, keys).then((found) =>
      table.mutate(req).then((res) => {
        const fixes = found
          .filter((c) => !gone.has(c.id) && c._top !== topOf(c, undefined))
          .map((c) => ({ ...c, _top: topOf(c, undefined) }));
        return putFixes(table, trans, fixes, res);
      }),
    );
  });
}

/**
 * Counter work a transaction asked to do once at its end (deferCounts, flushCounts): a pulled page
 * writes its rows in chunks, and counting each chunk on its own costs the page three round trips a
 * chunk; the page's changes are counted together instead. Per id the first stored row and the last
 * written one are kept, so an id written twice in the transaction counts once.
 */
interface DeferredCounts {
  at?: { table: DBCoreTable; counts: DBCoreTable; trans: DBCoreTransaction };
  changes: Map<number, RowChange>;
  known: Map<number, RowChange['now']>;
  /** Ids the transaction's puts write as named in `known` (knowRows): no flag fix rewrites them. */
  written?: ReadonlySet<number>;
  /** The changes the caller named ahead (expectChanges): their counters are read at the first write. */
  expected?: RowChange[];
  /** Those counters, read while the rows are being written (no counter is written before flushCounts). */
  prefetched?: Promise<PrefetchedCounts>;
}
const deferredCounts = new WeakMap<object, DeferredCounts>();

const currentIdbTransaction = (): object | undefined =>
  (Dexie.currentTransaction as { idbtrans?: object } | null)?.idbtrans ?? undefined;

/** Inside a rw transaction over items: its writes' counters are brought up to date at flushCounts, once. */
export function deferCounts(): void {
  const trans = currentIdbTransaction();
  if (trans) deferredCounts.set(trans, { changes: new Map(), known: new Map() });
}

/**
 * Tells the current transaction's writes (after deferCounts) what rows hold once it commits, by id
 * (undefined: none): a pulled page's own rows and the parents it read for them. The flags and the
 * counters then read none of them again, chunk after chunk, and a chunk whose rows have parents in a
 * later chunk of the page gets their final flags without waiting for that chunk to land, so the
 * page's chunks may be written while others are still being stored. `written` are the ids the
 * transaction's own puts write with exactly those rows: no flag fix touches them. Only rows nothing
 * else writes in the transaction may be named (a page's deletes, its puts and their parents).
 */
export function knowRows(
  rows: Iterable<readonly [number, LocalItem | undefined]>,
  written: Iterable<number>,
): void {
  const trans = currentIdbTransaction();
  const deferred = trans ? deferredCounts.get(trans) : undefined;
  if (!deferred) return;
  for (const [id, row] of rows) deferred.known.set(id, row);
  deferred.written = new Set(written);
}

/**
 * Names the rows the current transaction (after deferCounts) is about to write, as they are stored
 * now and as they will be, so that their counters are read while the rows are written, not after.
 * The writes still count what they do; a change named here that no write makes is never counted.
 */
export function expectChanges(changes: Iterable<RowChange>): void {
  const trans = currentIdbTransaction();
  const deferred = trans ? deferredCounts.get(trans) : undefined;
  if (!deferred) return;
  deferred.expected = [...changes];
}

/** Counts what the current transaction wrote since deferCounts (call it before the transaction ends). */
export function flushCounts(): Promise<void> {
  const trans = currentIdbTransaction();
  const deferred = trans ? deferredCounts.get(trans) : undefined;
  if (trans) deferredCounts.delete(trans);
  if (!deferred?.at || deferred.changes.size === 0) return Dexie.Promise.resolve();
  const { table, counts, trans: core } = deferred.at;
  const changes = [...deferred.changes.values()];
  return (deferred.prefetched ?? Dexie.Promise.resolve(undefined)).then((prefetched) =>
    updateCounts(table, counts, core, changes, deferred.known, prefetched),
  );
}

/** updateCounts now, or folded into the transaction's deferred counting when it asked for that. */
function countChanges(
  table: DBCoreTable,
  counts: DBCoreTable,
  trans: DBCoreTransaction,
  changes: readonly RowChange[],
  known?: ReadonlyMap<number, RowChange['now']>,
): Promise<void> {
  const deferred = deferredCounts.get(trans);
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
function putCounted(table: DBCoreTable, counts: DBCoreTable, req: PutRequest): Promise<DBCoreMutateResponse> {
  const { trans } = req;
  const values = req.values as Row[];
  const unknown = values.filter((v) => !storedRows.has(v));
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
        ].filter((p) => !ids.has(p) && !deferredCounts.get(trans)?.known.has(p));
  const toRead = [...unknown.map((v) => v.id), ...parentIds];
  const read: Promise<(Row | undefined)[]> =
    toRead.length === 0
      ? Dexie.Promise.resolve([])
      : (getManyBySpan(table, trans, toRead) as Promise<(Row | undefined)[]>);
  return read.then((stored) => {
    unknown.forEach((v, i) => {
      storedRows.set(v, (stored[i] as LocalItem | undefined) ?? null);
    });
    const deferred = deferredCounts.get(trans);
    // Rows the transaction named (knowRows) are parents the flags need not read.
    const parents = new Map<number, Row | undefined>(deferred?.known ?? []);
    parentIds.forEach((id, i) => {
      parents.set(id, stored[unknown.length + i]);
    });
    const old = new Map<number, Row | undefined>();
    for (const v of values) if (!old.has(v.id)) old.set(v.id, storedRows.get(v) ?? undefined);
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
function deleteCounted(
  table: DBCoreTable,
  counts: DBCoreTable,
  req: DeleteRequest,
): Promise<DBCoreMutateResponse> {
  const { trans } = req;
  // clear(): every counter goes with the rows.
  if (req.type === 'deleteRange' && req.range.type === 3) {
    // What was deferred counted rows that are gone now with every counter, and read counters.
    const deferred = deferredCounts.get(trans);
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

/**
 * Keeps `_top`, the list keys (listKeys.ts) and the progress counters (counters.ts) true on every write
 * to the items store (see the top of this file).
 */
export const topLevelMiddleware: Middleware<DBCore> = {
  stack: 'dbcore',
  name: 'OutpostTopLevel',
  create(down) {
    // Absent while an upgrade runs the versions before 7 (that upgrade then computes every counter).
    const hasCounts = down.schema.tables.some((t) => t.name === COUNTS_STORE);
    // Absent likewise before version 8 (an upgrade's writes then log nothing: no copy is saved yet).
    const hasLog = down.schema.tables.some((t) => t.name === SEARCH_LOG_STORE);
    const added = [...(hasCounts ? [COUNTS_STORE] : []), ...(hasLog ? [SEARCH_LOG_STORE] : [])];
    return {
      ...down,
      transaction(stores, mode, options) {
        // A write to items writes its counters and its log row in the same transaction, whatever
        // stores it named.
        const withAdded =
          mode === 'readwrite' && stores.includes('items')
            ? [...stores, ...added.filter((s) => !stores.includes(s))]
            : stores;
        return down.transaction(withAdded, mode, options);
      },
      table(name) {
        if (name !== 'items') return down.table(name);
        // Every put below (the caller's and the flag fixes) also gets its list keys (listKeys.ts).
        const table = withListKeys(down.table(name));
        const counts = hasCounts ? down.table(COUNTS_STORE) : undefined;
        const log = hasLog ? down.table(SEARCH_LOG_STORE) : undefined;
        const write = (req: DBCoreMutateRequest): Promise<DBCoreMutateResponse> => {
          if (req.type === 'put' || req.type === 'add') {
            return counts ? putCounted(table, counts, req) : putWithFlags(table, req);
          }
          return counts ? deleteCounted(table, counts, req) : deleteWithFlags(table, req);
        };
        return {
          ...table,
          mutate(req) {
            if (!log) return write(req);
            // One add beside the write, no read: a value that fails is still named, and naming an
            // unchanged row only costs a page one more read. The flag fixes move no searched field.
            return Dexie.Promise.all([
              write(req),
              log.mutate({ type: 'add', trans: req.trans, values: [logRowOf(req)] }),
            ]).then(([res]) => res);
          },
        };
      },
    };
  },
};
