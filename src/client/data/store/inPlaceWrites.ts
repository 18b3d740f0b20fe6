/**
 * The raw writes of an edit in place (changes/writeRoute.ts 'rawInTransaction'): what the store's side
 * effects would write for it, written by hand: the row with its list keys and its flag carried over
 * (sideEffects.ts inPlacePut), and its search log row; no counter moves. Kept out of sideEffects.ts,
 * which the first screen loads: only the funnel, loaded on first write, uses them.
 */
import Dexie from 'dexie';
import { COUNTS_STORE } from './counters';
import type { DexieInternals } from './dexieInternals';
import { issueWrite, rawWrite } from './rawWrites';
import { SEARCH_LOG_STORE, searchLogRow } from './searchLog';
import type { InPlacePut } from './sideEffects';

/** The stores an edit in place writes, besides the queue and undo rows beside it. */
export const IN_PLACE_STORES = ['items', COUNTS_STORE, SEARCH_LOG_STORE] as const;

/** Writes `put` raw in `idb`, the current Dexie read-write transaction holding IN_PLACE_STORES. */
export function putInPlace(
  internals: DexieInternals,
  idb: IDBTransaction,
  put: InPlacePut,
): Promise<unknown> {
  return Dexie.Promise.all([
    rawWrite(internals, idb, 'items', put.now, put.old),
    rawWrite(internals, idb, SEARCH_LOG_STORE, searchLogRow([put.now.id]), null, true),
  ]);
}

/** The writes of putInPlace issued in `idb`, a raw read-write transaction of the caller's own (a failed write aborts it). */
export function issueInPlace(internals: DexieInternals, idb: IDBTransaction, put: InPlacePut): void {
  issueWrite(internals, idb, 'items', put.now, put.old);
  issueWrite(internals, idb, SEARCH_LOG_STORE, searchLogRow([put.now.id]), null, true);
}
