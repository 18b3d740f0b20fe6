/**
 * What a writer tells the store's side effects (store/sideEffects.ts) about its transaction, so they
 * read nothing it already knows: the stored row a value replaces (`replacing`), and for a pulled page
 * the rows it holds once it commits (`knowRows`), the changes it is about to make (`expectChanges`)
 * and that its counters are brought up to date once at its end (`deferCounts`, then
 * store/counterUpkeep.ts flushCounts). Keyed by the IndexedDB transaction, so facts never outlive it.
 */
import Dexie, { type DBCoreTable, type DBCoreTransaction } from 'dexie';
import type { PrefetchedCounts, RowChange } from './counters';
import type { LocalItem } from './types';

const storedRows = new WeakMap<object, LocalItem | null>();

/**
 * Tells the store's side effects which stored row `value` replaces (null: none is stored), read in the
 * same transaction with nothing written to it since. They then do not read it again; and when none of
 * what the flag depends on changed (parent, liveness, scope), the flag carries over and the write
 * costs no extra read at all (a title edit).
 */
export function replacing<T extends object>(value: T, stored: LocalItem | null): T {
  storedRows.set(value, stored);
  return value;
}

/** The stored row a value replaces, as its writer named it or a side effect read it; undefined: not known. */
export function storedRowOf(value: object): LocalItem | null | undefined {
  return storedRows.get(value);
}

/** Whether the stored row a value replaces is known (named or read in this transaction). */
export function storedRowKnown(value: object): boolean {
  return storedRows.has(value);
}

/** Remembers the stored row a value replaces, once a side effect has read it. */
export function rememberStoredRow(value: object, stored: LocalItem | null): void {
  storedRows.set(value, stored);
}

/**
 * Counter work a transaction asked to do once at its end (deferCounts, flushCounts): a pulled page
 * writes its rows in chunks, and counting each chunk on its own costs the page three round trips a
 * chunk; the page's changes are counted together instead. Per id the first stored row and the last
 * written one are kept, so an id written twice in the transaction counts once.
 */
/** Where a transaction's counting happens: its items, counters and meta stores, and itself. */
export interface CountTables {
  table: DBCoreTable;
  counts: DBCoreTable;
  /** Where a pull's changes wait to be counted (absent before the store exists: none wait). */
  meta?: DBCoreTable;
  trans: DBCoreTransaction;
}

export interface DeferredCounts {
  at?: CountTables;
  /**
   * A later transaction counts these changes (a pull's transaction before its last, SYNC.md I3):
   * flushCounts adds them to the stored pending ones and writes no counter.
   */
  later?: boolean;
  changes: Map<number, RowChange>;
  known: Map<number, RowChange['now']>;
  /** Ids the transaction's puts write as named in `known` (knowRows): no flag fix rewrites them. */
  written?: ReadonlySet<number>;
  /** The changes the caller named ahead (expectChanges): their counters are read at the first write. */
  expected?: RowChange[];
  /** Those counters, read while the rows are being written (no counter is written before flushCounts). */
  prefetched?: Promise<PrefetchedCounts>;
  /**
   * The ids the transaction's writes name for the search log, written as one row at flushCounts (a
   * pulled page's chunks would otherwise add a row each).
   */
  log?: { table: DBCoreTable; ids: number[] };
}
const deferredCounts = new WeakMap<object, DeferredCounts>();

/** The deferred counting state of a transaction (undefined when it did not ask for it). */
export function deferredOf(trans: object): DeferredCounts | undefined {
  return deferredCounts.get(trans);
}

/** Ends a transaction's deferred counting, answering what it gathered. */
export function takeDeferred(): DeferredCounts | undefined {
  const trans = currentIdbTransaction();
  const deferred = trans ? deferredCounts.get(trans) : undefined;
  if (trans) deferredCounts.delete(trans);
  return deferred;
}

const currentIdbTransaction = (): object | undefined =>
  (Dexie.currentTransaction as { idbtrans?: object } | null)?.idbtrans ?? undefined;

/**
 * Inside a rw transaction over items: its writes' counters are brought up to date at flushCounts,
 * once; `later`: left pending for a later transaction to count (store/counterUpkeep.ts).
 */
export function deferCounts(later = false): void {
  const trans = currentIdbTransaction();
  if (trans) deferredCounts.set(trans, { changes: new Map(), known: new Map(), later });
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
  rows: Iterable<readonly [number, RowChange['now']]>,
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
