/**
 * The guest's rows on the device, found by the type tabs' index over `_scope` (listKeys.ts): since
 * db.ts version 24 no index holds every row's sync status, which every put paid an entry for.
 */
import Dexie from 'dexie';
import { LIST_INDEX, type OutpostDb } from './db';
import type { LocalItem } from './types';

/** The rows of a scope (listKeys.ts `_scope`) by the type tabs' index. */
function inScope(db: OutpostDb, scope: 'g' | 'x') {
  return db.items
    .where(LIST_INDEX.typeTab)
    .between([scope, Dexie.minKey, Dexie.minKey], [scope, Dexie.maxKey, Dexie.maxKey], true, true);
}

/** The guest's rows marked deleted: scope 'x' holds every deleted row, the guest's among them. */
const deletedGuestRows = (db: OutpostDb) => inScope(db, 'x').filter((i) => i._syncStatus === 'local');

/** Every row of guest data (`_syncStatus` 'local'): the live ones (scope 'g') and any marked deleted. */
export async function guestItems(db: OutpostDb): Promise<LocalItem[]> {
  const [live, deleted] = await Promise.all([inScope(db, 'g').toArray(), deletedGuestRows(db).toArray()]);
  return [...live, ...deleted];
}

/** Whether the device holds any row of guest data (guestItems), counted without loading the live ones. */
export async function hasGuestItems(db: OutpostDb): Promise<boolean> {
  return (await inScope(db, 'g').count()) > 0 || (await deletedGuestRows(db).count()) > 0;
}
