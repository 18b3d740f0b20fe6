import Dexie, { type DBCoreTable, type DBCoreTransaction, type Table } from 'dexie';
import {
  addCounts,
  type ChildCounts,
  contributionOf,
  countsFromScratch,
  isEmptyCounts,
  NO_COUNTS,
  sameCounts,
} from '../../../shared/subtreeCounts';
import { type ListScope, scopeOf } from './listKeys';
import { getManyBySpan } from './spanReads';
import type { LocalItem } from './types';

/**
 * The maintained progress counters (store `counts`, database version 7): per parent and scope, what
 * the parent's live children in that scope add up to (src/shared/subtreeCounts.ts), so a campaign's
 * or task's progress, and its open items for Complete/Reopen, are one key read, never a subtree load.
 * The store's side effects (sideEffects.ts, counterUpkeep.ts) update them in the same transaction as
 * every write to `items` (a pull of several transactions: in its last, SYNC.md I3), and only the
 * counters that change are written: a title edit writes none, so no progress query re-runs. One more row (ROWS_KEY) counts the stored items, so rows written around Dexie are found at
 * open and the counters computed again.
 */
export type CountScope = Exclude<ListScope, 'x'>;

export interface CountsRow extends ChildCounts {
  parent: number | (typeof ROWS_KEY)[0];
  scope: CountScope | (typeof ROWS_KEY)[1];
}

/** The key of the row whose `n` is how many items are stored (the repair at open compares it). */
export const ROWS_KEY = ['rows', 'all'] as const;

export const COUNTS_STORE = 'counts';
export const COUNTS_SCHEMA = '[parent+scope]';

type Row = Pick<LocalItem, 'id' | 'parent_id' | 'type' | 'status' | '_deleted' | '_syncStatus'>;

/** The counter a row adds to ([parent, scope]), none when it is marked deleted or has no parent. */
function targetOf(row: Row | undefined): [number, CountScope] | undefined {
  if (!row || row.parent_id === null || row.parent_id === undefined || row.parent_id === 0) return undefined;
  const scope = scopeOf(row);
  return scope === 'x' ? undefined : [row.parent_id, scope];
}

/** What decides a row's contribution; rows whose signature did not change add nothing new. */
function signature(row: Row | undefined): string {
  if (!row) return 'absent';
  return `${row.parent_id ?? 0}|${scopeOf(row)}|${row.type}|${row.status}`;
}

/** A counter row is a handful of numbers: a range read may pass this many per counter wanted. */
const COUNTERS_PER_KEY = 16;

const keyText = (key: readonly [number | string, string]): string => `${key[0]}|${key[1]}`;

export interface RowChange {
  id: number;
  old: Row | undefined;
  now: Row | undefined;
}

function countsOf(row: CountsRow | undefined): ChildCounts {
  if (!row) return NO_COUNTS;
  const { n, done, gn, gdone, tk, tkdone } = row;
  return { n, done, gn, gdone, tk, tkdone };
}

type CounterKey = [number | string, string];

/** Stored counter rows by key text (undefined: none stored), read ahead of updateCounts. */
export type PrefetchedCounts = ReadonlyMap<string, CountsRow | undefined>;

/**
 * The counters updateCounts reads first for `changes` (by key text): the rows' targets, a task's own,
 * and, where the parent's row is at hand in `known`, the counter a task lifts into.
 */
export function counterKeysOf(
  changes: readonly RowChange[],
  known?: ReadonlyMap<number, Row | undefined>,
): Map<string, CounterKey> {
  const keys = new Map<string, CounterKey>();
  const want = (key: CounterKey) => {
    const text = keyText(key);
    if (!keys.has(text)) keys.set(text, key);
  };
  const rowsDelta = changes.reduce((sum, c) => sum + (c.now ? 1 : 0) - (c.old ? 1 : 0), 0);
  if (rowsDelta !== 0) want([...ROWS_KEY]);
  const batch = new Map(changes.map((c) => [c.id, c.now]));
  wantKeys(changes, (id) => (batch.has(id) ? batch.get(id) : known?.get(id)), want);
  return keys;
}

/**
 * For each change that moves a counter (its signature changed): `changed(it)`, then `want` for the
 * counters it reads (counterKeysOf), the row of an id found with `rowOf`.
 */
function wantKeys(
  changes: readonly RowChange[],
  rowOf: (id: number) => Row | undefined,
  want: (key: CounterKey) => void,
  changed?: (change: RowChange) => void,
): void {
  for (const change of changes) {
    const { old, now } = change;
    if (signature(old) === signature(now)) continue;
    changed?.(change);
    for (const row of [old, now]) {
      const target = targetOf(row);
      if (!row || !target) continue;
      want(target);
      // A task's contribution looks through its own children's counts.
      if (row.type === 'task') want([row.id, target[1]]);
      // The counter a task lifts into (see updateCounts) is read with the others when the task's row
      // is at hand: one read less when its children's counts move.
      const parent = rowOf(target[0]);
      const lift = parent?.type === 'task' ? targetOf(parent) : undefined;
      if (lift && lift[1] === target[1]) want(lift);
    }
  }
}

/** Reads the counter rows of `keys` (by key text), in one range when they lie close together. */
export function readCounters(
  counts: DBCoreTable,
  trans: DBCoreTransaction,
  keys: ReadonlyMap<string, CounterKey>,
): Promise<Map<string, CountsRow | undefined>> {
  const list = [...keys.keys()];
  if (list.length === 0) return Dexie.Promise.resolve(new Map());
  return getManyBySpan(
    counts,
    trans,
    list.map((t) => keys.get(t)!),
    COUNTERS_PER_KEY,
  ).then((found) => new Map(list.map((text, i) => [text, (found as (CountsRow | undefined)[])[i]])));
}

/** Whether `changes` move any counter (a title edit moves none; updateCounts then does nothing). */
export function movesCounters(changes: readonly RowChange[]): boolean {
  let rows = 0;
  for (const c of changes) {
    rows += (c.now ? 1 : 0) - (c.old ? 1 : 0);
    if (signature(c.old) !== signature(c.now)) return true;
  }
  return rows !== 0;
}

/** Changes from this many on are counted in several tasks (breathe), and their counters written in turns. */
const LARGE_BATCH = 2_000;
/**
 * Changes one task goes through in a large batch: 100,000 pending changes took 0.45 s of one pull's
 * last transaction on a slow machine, in tasks of 160–275 ms (issue 19: none over 100 ms).
 */
export const COUNT_SLICE = 5_000;
/**
 * Counter rows one request writes when a batch writes many: a counter put costs the main thread
 * about 0.1 ms, as an item's does (Chromium issues each request on it), so 1,000 took 160 ms.
 */
const PUT_TURN = 200;

/** One cheap read in `trans`: what follows its answer runs in a task of its own, the transaction open. */
export function breathe(table: DBCoreTable, trans: DBCoreTransaction): Promise<unknown> {
  // No store here keys a row 0: the read finds nothing, at the cost of one round trip.
  return table.get({ trans, key: 0 });
}

/**
 * Runs `step` over `list` `size` (COUNT_SLICE) at a time, each slice after a breath (a task of its own), the
 * first at once; the whole list in this task when it is short. Chains Dexie promises only.
 */
export function inSlices<T>(
  list: readonly T[],
  step: (slice: readonly T[]) => void,
  breath: () => Promise<unknown>,
  size = COUNT_SLICE,
): Promise<void> {
  let chain: Promise<unknown> = Dexie.Promise.resolve();
  for (let start = 0; start < list.length; start += size) {
    const slice = list.slice(start, start + size);
    chain = start === 0 ? Dexie.Promise.resolve(step(slice)) : chain.then(breath).then(() => step(slice));
  }
  return chain.then(() => undefined);
}

/**
 * Writes `rows` PUT_TURN at a time, each turn issued once the one two before it is stored (so one is
 * always being stored meanwhile): every turn is a short task, and IndexedDB never waits for the next.
 */
function putInTurns(counts: DBCoreTable, trans: DBCoreTransaction, rows: CountsRow[]): Promise<unknown> {
  const turns: Promise<unknown>[] = [];
  for (let start = 0; start < rows.length; start += PUT_TURN) {
    const values = rows.slice(start, start + PUT_TURN);
    const after = turns[turns.length - 2] ?? Dexie.Promise.resolve();
    turns.push(after.then(() => counts.mutate({ type: 'put', trans, values })));
  }
  return Dexie.Promise.all(turns);
}

/**
 * Brings the counters up to date with `changes` (each stored row before and after one write to
 * `items`, in the same transaction). Chains Dexie promises only (see topFlags.ts).
 */
export function updateCounts(
  items: DBCoreTable,
  counts: DBCoreTable,
  trans: DBCoreTransaction,
  changes: readonly RowChange[],
  /** Rows already read in this transaction (the batch's parents): not read again. */
  known?: ReadonlyMap<number, Row | undefined>,
  /** Counter rows read earlier in this transaction, with no counter written since: not read again. */
  prefetched?: PrefetchedCounts,
): Promise<void> {
  // A pull's last transaction counts tens of thousands of changes: its work goes in several tasks,
  // each begun by an answer from IndexedDB, so no one of them holds the main thread for long. The
  // first begins after a breath too: the caller has just decoded the pending changes (a 100,000-item
  // first sync's last task took 165 ms with this one's opening part in it).
  if (changes.length >= LARGE_BATCH)
    return breathe(counts, trans).then(() => countChanges(items, counts, trans, changes, known, prefetched));
  return countChanges(items, counts, trans, changes, known, prefetched);
}

function countChanges(
  items: DBCoreTable,
  counts: DBCoreTable,
  trans: DBCoreTransaction,
  changes: readonly RowChange[],
  known: ReadonlyMap<number, Row | undefined> | undefined,
  prefetched: PrefetchedCounts | undefined,
): Promise<void> {
  const before = new Map<string, ChildCounts>();
  const after = new Map<string, ChildCounts>();
  const keys = new Map<string, CounterKey>();
  const want = (key: CounterKey, into: Set<string>) => {
    const text = keyText(key);
    if (!keys.has(text)) {
      keys.set(text, key);
      into.add(text);
    }
  };
  const take = (text: string, row: CountsRow | undefined) => {
    before.set(text, countsOf(row));
    after.set(text, countsOf(row));
  };
  const read = (texts: Set<string>) => {
    const missing = new Map<string, CounterKey>();
    for (const text of texts) {
      if (prefetched?.has(text)) take(text, prefetched.get(text));
      else missing.set(text, keys.get(text)!);
    }
    return readCounters(counts, trans, missing).then((found) => {
      for (const [text, row] of found) take(text, row);
    });
  };
  const own = (row: Row) => {
    const scope = scopeOf(row);
    return scope === 'x' ? undefined : before.get(keyText([row.id, scope]));
  };
  const add = (key: [number, CountScope], c: ChildCounts, sign: 1 | -1) => {
    const text = keyText(key);
    after.set(text, addCounts(after.get(text)!, c, sign));
  };

  const large = changes.length >= LARGE_BATCH;
  const breath = () => (large ? breathe(counts, trans) : Dexie.Promise.resolve());
  // A large batch goes through `list` a slice a task; any other in this task, with no promise hop
  // (a single edit's counting stays as short as it was).
  const each = <T>(
    list: readonly T[],
    step: (slice: readonly T[]) => void,
    next: () => Promise<unknown>,
  ): Promise<unknown> => {
    if (!large) {
      step(list);
      return next();
    }
    return inSlices(list, step, breath).then(next);
  };
  // Two passes over the changes: what each id holds after them all (a task's lift reads it), then
  // which change moves a counter and which counters it reads.
  let rowsDelta = 0;
  const batch = new Map<number, Row | undefined>();
  const changed: RowChange[] = [];
  const first = new Set<string>();
  const rowNow = (id: number) => (batch.has(id) ? batch.get(id) : known?.get(id));
  const wantFirst = (key: CounterKey) => want(key, first);
  const wantChanged = (change: RowChange) => changed.push(change);
  const holds = (slice: readonly RowChange[]) => {
    for (const c of slice) {
      batch.set(c.id, c.now);
      rowsDelta += (c.now ? 1 : 0) - (c.old ? 1 : 0);
    }
  };
  const moves = (slice: readonly RowChange[]) => wantKeys(slice, rowNow, wantFirst, wantChanged);
  const readFirst = (): Promise<unknown> => {
    if (changed.length === 0 && rowsDelta === 0) return Dexie.Promise.resolve();
    if (rowsDelta !== 0) wantFirst([...ROWS_KEY]);
    return Dexie.Promise.all([read(first), breath()]).then(countRead);
  };
  return each(changes, holds, () => each(changes, moves, readFirst)).then(() => undefined);

  /** Once the first counters are read: the changes' contributions, the lifts, then the writes. */
  function countRead() {
    if (rowsDelta !== 0) {
      const text = keyText([...ROWS_KEY]);
      const c = after.get(text)!;
      after.set(text, { ...c, n: c.n + rowsDelta });
    }
    const contribute = (slice: readonly RowChange[]) => {
      for (const { old, now } of slice) {
        const from = targetOf(old);
        if (old && from) add(from, contributionOf(old, own(old)), -1);
        const to = targetOf(now);
        if (now && to) add(to, contributionOf(now, own(now)), 1);
      }
    };
    return each(changed, contribute, countLifts);
  }

  /** A task whose children's counts moved lifts into its parent's counter; then the writes. */
  function countLifts() {
    // A parent whose own children changed (n, done) changes what it adds to its parent, when it is a
    // task: one level up, and no further (what it adds there moves only gn/gdone/tk/tkdone, which no
    // contribution reads).
    const moved = [...after.keys()].filter((text) => {
      const key = keys.get(text)!;
      if (typeof key[0] !== 'number') return false;
      const b = before.get(text)!;
      const a = after.get(text)!;
      return a.n !== b.n || a.done !== b.done;
    });
    const unknown = [...new Set(moved.map((t) => keys.get(t)![0] as number))].filter(
      (id) => !batch.has(id) && !known?.has(id),
    );
    const rowsRead: Promise<(Row | undefined)[]> =
      unknown.length === 0
        ? Dexie.Promise.resolve([])
        : (getManyBySpan(items, trans, unknown) as Promise<(Row | undefined)[]>);
    return Dexie.Promise.all([rowsRead, breath()]).then(([stored]) => {
      const rowOf = new Map<number, Row | undefined>([...(known ?? []), ...batch]);
      unknown.forEach((id, i) => {
        rowOf.set(id, stored[i]);
      });
      const lifts: { text: string; row: Row; target: [number, CountScope] }[] = [];
      const second = new Set<string>();
      for (const text of moved) {
        const [id, scope] = keys.get(text)! as [number, CountScope];
        const row = rowOf.get(id);
        const target = targetOf(row);
        if (!row || !target || target[1] !== scope || row.type !== 'task') continue;
        want(target, second);
        lifts.push({ text, row, target });
      }
      return read(second).then(() => {
        // Every lift from the counts as they stand now, before any is applied (a lift may land on a
        // counter another one reads).
        const deltas = lifts.map(({ text, row, target }) => ({
          target,
          delta: addCounts(contributionOf(row, after.get(text)), contributionOf(row, before.get(text)), -1),
        }));
        for (const { target, delta } of deltas) add(target, delta, 1);
        const puts: CountsRow[] = [];
        const deletes: [number | string, string][] = [];
        for (const [text, a] of after) {
          if (sameCounts(a, before.get(text)!)) continue;
          const [parent, scope] = keys.get(text)!;
          if (isEmptyCounts(a)) deletes.push([parent, scope]);
          else puts.push({ parent, scope, ...a } as CountsRow);
        }
        const writes: Promise<unknown>[] = [];
        if (puts.length > 0) writes.push(putInTurns(counts, trans, puts));
        if (deletes.length > 0) writes.push(counts.mutate({ type: 'delete', trans, keys: deletes }));
        return Dexie.Promise.all(writes).then(() => undefined);
      });
    });
  }
}

/** The counters' rows computed from scratch over every stored item (the upgrade, the repair at open). */
export function countRowsFromScratch(rows: readonly Row[]): CountsRow[] {
  // As updateCounts keeps them: a row that would hold only zeros is not stored.
  const out: CountsRow[] =
    rows.length === 0 ? [] : [{ parent: ROWS_KEY[0], scope: ROWS_KEY[1], ...NO_COUNTS, n: rows.length }];
  for (const scope of ['g', 'a'] as const) {
    const live = rows.filter((r) => scopeOf(r) === scope);
    for (const [parent, c] of countsFromScratch(live)) out.push({ parent, scope, ...c });
  }
  return out;
}

/** Rewrites the whole counts store from the stored items (call inside a rw transaction over both). */
export async function recomputeCounts(
  items: Table<LocalItem, number>,
  counts: Table<CountsRow, [number | string, string]>,
): Promise<number> {
  const rows = await items.toArray();
  const fresh = countRowsFromScratch(rows);
  await counts.clear();
  await counts.bulkPut(fresh);
  return fresh.length;
}
