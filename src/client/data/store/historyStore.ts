/**
 * The guest's history log on the device (SYNC.md K19): its store, the timeline's read, and the scope
 * that puts it in every write's transaction. Light on purpose: the store and the live reads load with
 * the first screen; what records entries (deviceHistory.ts, with the update rule) loads with the writes.
 */
import Dexie, { type DBCore, type DBCoreKeyRange, type DBCoreTransaction, type Middleware } from 'dexie';
import type { HistoryEntry } from '../../../shared/history';
import type { OutpostDb } from './db';
import { scopeIsExact } from './exactScope';

export const HISTORY_STORE = 'history';
/** The timeline's read: an item's entries by time (ids break ties, oldest first). */
export const HISTORY_INDEX = '[item_id+at]';
export const HISTORY_SCHEMA = `++id, ${HISTORY_INDEX}`;

/** Who a guest's entries name: the guest has no account, the timeline says 'You' (as the Activity tab). */
export const GUEST_ACTOR = { id: 0, name: 'You' } as const;

/** One entry as the device stores it: the server's feed entry, with the item it is about. */
export interface DeviceHistoryRow {
  /** Given by the store (auto-increment): also the order of entries written in the same millisecond. */
  id?: number;
  /** A guest item's id never changes (it is never swapped); the log goes when the guest signs in (K19). */
  item_id: number;
  item_uuid: string | null;
  at: string;
  user: { id: number; name: string };
  action: string;
  /** The feed's `{field: {old, new}}` (ids beside names), which a restore plans from (planRevert). */
  metadata: Record<string, unknown>;
}

/** A device entry as the timeline reads it: the API's shape plus what a restore plans from. */
export interface DeviceHistoryEntry extends HistoryEntry {
  metadata: Record<string, unknown>;
}

export const currentTrans = () =>
  (Dexie.currentTransaction as { idbtrans?: DBCoreTransaction } | null)?.idbtrans ?? undefined;

/** Every key (DBCoreRangeType.Any, a const enum the build cannot import). */
const ALL_KEYS = { type: 3 } as unknown as DBCoreKeyRange;

/**
 * Clears the guest's log in the caller's transaction (K19): the guest upgrade hands the guest's items
 * to the account there, and from then on their history is the server's, which starts with their
 * creates. Also called by no one else: Clear Local Data clears the store with the others.
 */
export async function clearDeviceHistory(db: OutpostDb): Promise<void> {
  const trans = currentTrans();
  if (!trans) return;
  await db.core.table(HISTORY_STORE).mutate({ type: 'deleteRange', trans, range: ALL_KEYS });
}

/**
 * Puts the history store in every read-write transaction that writes items, whatever stores it named
 * (as the store's side effects add their own): the funnel writes its entries in the change's own
 * transaction, and the callers' store lists need not know of it.
 */
export const historyScope: Middleware<DBCore> = {
  stack: 'dbcore',
  name: 'OutpostDeviceHistory',
  create(down) {
    if (!down.schema.tables.some((t) => t.name === HISTORY_STORE)) return down;
    return {
      ...down,
      transaction(stores, mode, options) {
        const scoped =
          mode === 'readwrite' &&
          stores.includes('items') &&
          !stores.includes(HISTORY_STORE) &&
          !scopeIsExact()
            ? [...stores, HISTORY_STORE]
            : stores;
        return down.transaction(scoped, mode, options);
      },
    };
  },
};
