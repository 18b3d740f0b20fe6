/**
 * SYNC.md I9: a put whose writer named the rows it replaces tells Dexie's live queries what they were.
 *
 * Dexie's observability layer decides which live queries a put wakes. Without the replaced rows it
 * must assume the worst: every index of the row moved and the old row may be gone, which wakes every
 * count over `items` and every list over any of the row's 23 index keys. Given them, it marks only
 * the index keys that changed, as it does for its own `Table.update`: a title edit then re-runs the
 * lists that show the row, and no count. It reads them from the transaction's value cache (the one
 * its `getMany` fills for `Table.update`), which the put below clears again; the layer sits under the
 * store's side effects, so this is set just before it runs.
 */
import type { DBCoreTransaction } from 'dexie';
import { dexieInternals } from './dexieInternals';
import { withKeys } from './listKeys';
import type { LocalItem } from './types';

/**
 * Names `replaced` (as stored, in the order of `ids`) as the rows the next put of `ids` replaces.
 * Their list keys are derived again: a row remembered from a list read may hold none of its own. In
 * plain-Dexie mode nothing is named, and Dexie wakes what it wakes for any put.
 */
export function tellReplacedRows(
  trans: DBCoreTransaction,
  ids: readonly number[],
  replaced: readonly LocalItem[],
): void {
  dexieInternals()?.nameReplaced(trans, ids, replaced.map(withKeys));
}
