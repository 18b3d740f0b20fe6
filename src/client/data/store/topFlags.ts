import Dexie, {
  type DBCoreMutateRequest,
  type DBCoreMutateResponse,
  type DBCoreTable,
  type DBCoreTransaction,
  type Table,
} from 'dexie';
import { CHILDREN_INDEX, childrenRange } from './childRows';
import { getManyBySpan } from './spanReads';
import type { LocalItem } from './types';
import { deferredOf, storedRowKnown, storedRowOf } from './writeFacts';

/**
 * The maintained 'top-level' flags: `_top` behind Home's All list, read by the index
 * `[_syncStatus+_top+created_at]` instead of loading every item, and `_stop` behind the All tabs of
 * Queue, Active and Completed (db.ts LIST_INDEX mineTop/assignedTop).
 *
 * `_top` is 1 when the item is live (not marked deleted) and has no parent in its own scope: no
 * parent_id (null or 0), or the parent is not on the device, is marked deleted, or belongs to the other
 * scope (guest data vs account data, see itemQueries inScope). That is exactly the set the old full scan
 * kept as orphans. `_stop` is 1 when `_top` is, and also when the parent is live in scope with another
 * status: the item is at the top of its branch on its status's list (a finished task in a campaign
 * still running is listed on Completed › All, SYNC.md I14). The store's side effects (store/sideEffects.ts) keep both
 * true on every write to `items`, whoever makes it (repository, pull, confirmations, temp-id swaps,
 * guest upgrade, conflicts, clear), so no write path has to remember them (SYNC.md I1, I4, I14). The
 * Home list itself is kept in memory and patched with the rows each committed change names (homeList.ts).
 *
 * A flag is 1 or false, not 0: a boolean is no IndexedDB key, so an index over a flag holds only the
 * rows flagged 1, which is all its reads ask for (Home's All list, the All tabs, a new top-level
 * item's place), and the put of an unflagged row (most of a pull's: children) writes no entry to
 * those indexes (issue 69 item 2).
 */
export type TopFlag = 1 | false;

/** A flag as a row holds it: rows stored before flags were booleans say 0, which counts as false. */
export type StoredTopFlag = TopFlag | 0;

export type Row = Pick<LocalItem, 'id' | 'parent_id' | '_deleted' | '_syncStatus' | 'status'> & {
  _top?: StoredTopFlag;
  _stop?: StoredTopFlag;
};

/** Both flags of a row. */
export interface TopFlags {
  _top: TopFlag;
  _stop: TopFlag;
}

const isGuestData = (item: Pick<LocalItem, '_syncStatus'>) => item._syncStatus === 'local';

/** The flag from its definition, given the row at the item's parent_id (undefined when absent). */
export function topOf(item: Row, parent: Row | undefined): TopFlag {
  if (item._deleted === 1) return false;
  if (item.parent_id === null || item.parent_id === undefined || item.parent_id === 0) return 1;
  if (!parent || parent._deleted === 1 || isGuestData(parent) !== isGuestData(item)) return 1;
  return false;
}

/** Both flags from their definitions, given the row at the item's parent_id (undefined when absent). */
export function flagsOf(item: Row, parent: Row | undefined): TopFlags {
  const _top = topOf(item, parent);
  if (_top === 1 || item._deleted === 1) return { _top, _stop: _top };
  return { _top, _stop: parent && parent.status !== item.status ? 1 : false };
}

/** Whether a stored flag says what `flag` does (a stored 0 says false; undefined says nothing). */
const says = (stored: StoredTopFlag | undefined, flag: StoredTopFlag): boolean =>
  stored === flag || (stored !== undefined && stored !== 1 && flag !== 1);

/** The row with `flags`, itself when it already has them (a row stored with 0 is not written again for it). */
function withFlags<R extends Row>(row: R, flags: Pick<Required<Row>, '_top' | '_stop'>): R {
  return says(row._top, flags._top) && says(row._stop, flags._stop) ? row : { ...row, ...flags };
}

/** What a row's children's flags depend on: it exists, is live, its scope and its status. */
function parentSignature(row: Row | undefined): string {
  if (!row) return 'absent';
  return `${row._deleted === 1 ? 'deleted' : 'live'}:${isGuestData(row) ? 'guest' : 'account'}:${row.status}`;
}

/** The flags of every row computed from scratch (tests, the upgrade and the repair use it). */
export function topFlagsFromScratch(rows: readonly Row[]): Map<number, TopFlags> {
  const byId = new Map(rows.map((r) => [r.id, r]));
  return new Map(
    rows.map((r) => [r.id, flagsOf(r, r.parent_id == null ? undefined : byId.get(r.parent_id))]),
  );
}

/** Rewrites the flags of every item whose stored flags are wrong or missing (upgrade, repair). */
export async function recomputeTopFlags(items: Table<LocalItem, number>): Promise<number> {
  const rows = await items.toArray();
  const flags = topFlagsFromScratch(rows);
  const changed = rows.map((r) => withFlags(r, flags.get(r.id)!)).filter((r, i) => r !== rows[i]);
  // Chunks keep one request from holding a copy of the whole table twice.
  for (let i = 0; i < changed.length; i += 5_000) await items.bulkPut(changed.slice(i, i + 5_000));
  return changed.length;
}

/*
 * Everything below chains Dexie's own promises (.then, Dexie.Promise.all), never native await: the
 * middlewares under this one (hooks) read the transaction from Dexie's zone, which a native await
 * would lose.
 */

// The children index read by its first key: every row under the parents `lower`–`upper`.
const between = (lower: number, upper: number) => ({
  type: 2,
  lower: childrenRange(lower)[0],
  upper: childrenRange(upper)[1],
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
  const index = table.schema.getIndexByKeyPath(CHILDREN_INDEX);
  if (!index || ids.length === 0) return Dexie.Promise.resolve([]);
  const read = (range: ReturnType<typeof between>) =>
    table.query({ trans, values: true, query: { index, range } }).then((r) => r.result as Row[]);
  const perId = () => Dexie.Promise.all(ids.map((id) => read(between(id, id)))).then((lists) => lists.flat());
  if (ids.length === 1) return read(between(ids[0]!, ids[0]!));
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

/**
 * The values with their flags as stored when every one's flag carries over (its stored row named, and
 * nothing its flag depends on changed); null when one must be worked out.
 */
export function withCarriedFlags(values: readonly Row[]): Row[] | null {
  const out: Row[] = [];
  for (const v of values) {
    const flags = carriedOver(v);
    if (flags === undefined) return null;
    out.push(withFlags(v, flags));
  }
  return out;
}

/**
 * The stored flags when nothing they depend on changed. A new status needs a look at the parent
 * (`_stop`), and moves the children's `_stop`, so it is worked out.
 */
function carriedOver(value: Row): Pick<Required<Row>, '_top' | '_stop'> | undefined {
  const stored = storedRowOf(value);
  if (!stored || stored._top === undefined || stored._stop === undefined) return undefined;
  const same =
    stored.id === value.id &&
    (stored.parent_id ?? 0) === (value.parent_id ?? 0) &&
    stored._deleted === value._deleted &&
    stored.status === value.status &&
    isGuestData(stored) === isGuestData(value);
  return same ? { _top: stored._top, _stop: stored._stop } : undefined;
}

export function putWithFlags(
  table: DBCoreTable,
  req: Extract<DBCoreMutateRequest, { type: 'put' | 'add' }>,
  /** Parent rows the caller has just read in this transaction (putCounted): not read again. */
  known?: ReadonlyMap<number, Row | undefined>,
  /** Told the parents this put read (undefined where none is stored), for the counters to reuse. */
  onParents?: (parents: ReadonlyMap<number, Row | undefined>) => void,
): Promise<DBCoreMutateResponse> {
  const { trans } = req;
  const values = req.values as Row[];
  const flagged = withCarriedFlags(values);
  if (flagged) return table.mutate({ ...req, values: flagged });
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
    if (!storedRowKnown(value)) unknown.push(id);
    else {
      const stored = storedRowOf(value);
      if (stored) old.set(id, stored);
    }
  }
  const toRead = [...unknown, ...parentIds];
  const read: Promise<(Row | undefined)[]> =
    toRead.length === 0
      ? Dexie.Promise.resolve([])
      : (getManyBySpan(table, trans, toRead) as Promise<(Row | undefined)[]>);
  return read.then((stored: (Row | undefined)[]) => {
    // The parents read here; the caller's (`known`) are looked up where they are, not copied: a
    // pulled page's chunks each get the whole page's rows.
    const parents = new Map<number, Row>();
    stored.forEach((row, i) => {
      if (!row) return;
      if (i < unknown.length) old.set(unknown[i]!, row);
      else parents.set(parentIds[i - unknown.length]!, row);
    });
    onParents?.(new Map(parentIds.map((id) => [id, parents.get(id)])));
    const parentOf = (row: Row) =>
      row.parent_id == null
        ? undefined
        : (batch.get(row.parent_id) ?? parents.get(row.parent_id) ?? known?.get(row.parent_id));
    const flagged = values.map((v) => withFlags(v, flagsOf(v, parentOf(v))));
    // Rows whose own presence, liveness, scope or status changed move their children's flags.
    const moved = keys.filter((id) => parentSignature(old.get(id)) !== parentSignature(batch.get(id)));
    // The children are read beside the put, not before it: the put writes only the batch's rows,
    // which are left out of the fixes, so what is read of the others is the same either way, and a
    // pulled page's chunks go to IndexedDB without waiting one round trip each.
    return Dexie.Promise.all([
      childrenOf(table, trans, moved),
      table.mutate({ ...req, values: flagged }),
    ]).then(([found, res]) => {
      // A row another put of the transaction writes (knowRows) has its flag from the rows it will
      // hold, and may have been written since `found` was read: a fix would put back a stale copy.
      const written = deferredOf(trans)?.written;
      const fixes = found
        .filter((c) => !batch.has(c.id) && !written?.has(c.id))
        .map((c) => ({ c, fixed: withFlags(c, flagsOf(c, batch.get(c.parent_id!))) }))
        .filter(({ c, fixed }) => fixed !== c)
        .map(({ fixed }) => fixed);
      return putFixes(table, trans, fixes, res);
    });
  });
}

export function deleteWithFlags(
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
          .filter((c) => !gone.has(c.id))
          .map((c) => ({ c, fixed: withFlags(c, flagsOf(c, undefined)) }))
          .filter(({ c, fixed }) => fixed !== c)
          .map(({ fixed }) => fixed);
        return putFixes(table, trans, fixes, res);
      }),
    );
  });
}
