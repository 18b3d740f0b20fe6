/**
 * Wiping the device (ARCHITECTURE §6 'Narrow contexts'): every store of the Dexie schema goes but a
 * named keep-list, so a store added later is cleared without anyone listing it. Clear Local Data
 * clears them all; a sign-in as another account clears them all but the guest's own rows, which move
 * over to the new account (SYNC.md W10).
 */
import type { Table } from 'dexie';
import { ITEM_CHILD_STORES } from '../../../shared/itemChildren';
import { recomputeCounts } from '../store/counters';
import { META_KEYS, type OutpostDb, OWNED_STORES } from '../store/db';
import { HISTORY_STORE } from '../store/historyStore';
import { SEARCH_LOG_STORE } from '../store/searchLog';
import type { LocalItem } from '../store/types';
import { pruneToGuestRows } from './children';
import { clear as clearQueue } from './queue';

/**
 * The stores Clear Local Data keeps: the search log holds ids and times only, and the items' clear
 * writes its range mark there, so a search copy another tab saves from what it held is not trusted.
 */
export const KEPT_WHEN_CLEARED: readonly string[] = [SEARCH_LOG_STORE];

/** Clears every store but KEPT_WHEN_CLEARED, in one transaction (Clear Local Data). */
export async function clearDeviceStores(db: OutpostDb): Promise<void> {
  const cleared = db.tables.filter((t) => !KEPT_WHEN_CLEARED.includes(t.name));
  await db.transaction('rw', db.tables, async () => {
    await Promise.all(cleared.map((t) => wipe(db, t)));
  });
}

// Meta rows that are the device's, not an account's: the id counters (a guest's ids stay unique) and
// who is signed in.
const DEVICE_META: readonly string[] = [
  META_KEYS.guestCounter,
  META_KEYS.tempCounter,
  META_KEYS.account,
  META_KEYS.dataOwner,
];

/** Empties one store; the queue through its owner (SYNC.md Q13), every other store directly. */
function wipe(db: OutpostDb, table: Table): Promise<void> {
  return table.name === db.syncQueue.name ? clearQueue(db) : table.clear();
}

type Prune = (table: Table, userId: number) => Promise<unknown>;

/** Keeps the rows of a store by `owner` that are the guest's or `userId`'s. */
const keepOwners: Prune = (t, userId) => t.where('owner').noneOf([0, userId]).delete();

/**
 * What a sign-in as another account keeps of a store: the guest's rows (they move over). A store not
 * named here is cleared whole.
 */
const GUEST_ROWS: Record<string, Prune> = {
  // A scan: rare, and no index holds every row's sync status (db.ts version 24).
  items: (t) => t.filter((i: LocalItem) => i._syncStatus !== 'local').delete(),
  // Every child kind's guest rows move over with their items.
  ...Object.fromEntries(ITEM_CHILD_STORES.map((store) => [store, pruneToGuestRows])),
  // The stores of one person's rows (store/db.ts OWNED_STORES): the guest's move over, the account's
  // own stay.
  ...Object.fromEntries(OWNED_STORES.map((store) => [store, keepOwners])),
  contacts: (t, userId) => t.where('user_id').noneOf([0, userId]).delete(),
  // The guest's history log (K19): only a guest writes it, and its upgrade clears it.
  [HISTORY_STORE]: async () => undefined,
  meta: (t) => t.filter((row: { key: string }) => !DEVICE_META.includes(row.key)).delete(),
};

/**
 * Wipes another account's data at sign-in, in the caller's transaction over `db.tables`: every store
 * but KEPT_WHEN_CLEARED, less the guest's rows (GUEST_ROWS).
 */
export async function wipeOtherAccount(db: OutpostDb, userId: number): Promise<void> {
  for (const table of db.tables) {
    if (KEPT_WHEN_CLEARED.includes(table.name)) continue;
    const prune = GUEST_ROWS[table.name];
    await (prune ? prune(table, userId) : wipe(db, table));
  }
  // The counters went with the stores not named (their pending changes with meta): they are the
  // guest's rows' again, counted from scratch.
  await recomputeCounts(db.items, db.counts);
}
