/**
 * The guest's rows on the device, found by the type tabs' index over `_scope` (listKeys.ts): no index
 * holds every row's sync status since db.ts version 24, so a read of the guest's rows costs no put an
 * index entry.
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

/** Every row of guest data (`_syncStatus` 'local'): the live ones (scope 'g') and any marked deleted (scope 'x', the guest's). */
export async function guestItems(db: OutpostDb): Promise<LocalItem[]> {
  const [live, deleted] = await Promise.all([
    inScope(db, 'g').toArray(),
    inScope(db, 'x')
      .filter((i) => i._syncStatus === 'local')
      .toArray(),
  ]);
  return [...live, ...deleted];
}

/** Whether the device holds any row of guest data (guestItems), counted without loading the live ones. */
export async function hasGuestItems(db: OutpostDb): Promise<boolean> {
  if ((await inScope(db, 'g').count()) > 0) return true;
  return (
    (await inScope(db, 'x')
      .filter((i) => i._syncStatus === 'local')
      .count()) > 0
  );
}
