/**
 * SYNC.md I12: the writes of an edit in place (I10, sideEffects.ts putInPlace) for a raw transaction
 * of the caller's own. Kept out of sideEffects.ts, which the first screen loads: only the funnel's
 * edit in place, loaded on first write, uses them.
 */

import { issueWrite } from './rawWrites';
import { SEARCH_LOG_STORE, searchLogRow } from './searchLog';
import { type InPlacePut, inPlacePut } from './sideEffects';
import type { LocalItem } from './types';

/** The stores an edit in place writes, besides the queue and undo rows beside it. */
export const IN_PLACE_STORES = ['items', SEARCH_LOG_STORE] as const;

/** The put of `row` as an edit in place (I10) in a transaction yet to be made; null when it is none. */
export function inPlacePutOf(row: LocalItem): InPlacePut | null {
  return inPlacePut(null, row);
}

/**
 * SYNC.md I12: the writes of putInPlace issued in `idb`, a read-write transaction of the caller's own
 * made since inPlacePutOf answered `put`, holding IN_PLACE_STORES (a failed write aborts it).
 */
export function issueInPlace(idb: IDBTransaction, put: InPlacePut): void {
  issueWrite(idb, 'items', put.now, put.old);
  issueWrite(idb, SEARCH_LOG_STORE, searchLogRow([put.now.id]), null, true);
}
