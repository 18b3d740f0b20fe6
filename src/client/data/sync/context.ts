import type { UserSummary } from '../../../shared/item';
import { ITEM_CHILD_STORES } from '../../../shared/itemChildren';
import { SYNC_LISTS } from '../../../shared/syncLists';
import type { SyncStatusStore } from '../../stores/syncStatusStore';
import type { ToastInput } from '../../stores/toastStore';
import type { applyLocalChange } from '../changes/applyLocalChange';
import type { ApiClient } from '../net/apiClient';
import { conflictedCollection, getMeta, META_KEYS, type OutpostDb } from '../store/db';
import type { Viewer } from '../store/types';
import { upgradeProgress } from './guestUpgrade';
import type { SyncRegistry } from './kinds';
import type { SyncLock } from './locks';

/**
 * The tables a sync step writes in one transaction (an item's children go with it: K14, X10; the
 * lists shared with a campaign go with it too: L14).
 */
export const TABLES: readonly string[] = [
  'items',
  'syncQueue',
  'meta',
  'users',
  ...ITEM_CHILD_STORES,
  ...SYNC_LISTS,
];

/**
 * The funnel every local change goes through (changes/applyLocalChange.ts): the composition hands it
 * to the engine, so sync, which the funnel's queue writes sit under, names no layer above it.
 */
export type Funnel = typeof applyLocalChange;

export interface SyncEngineDeps {
  /** The funnel a resolution or the guest upgrade writes its local change through. */
  funnel: Funnel;
  db: OutpostDb;
  api: ApiClient;
  viewer: () => Viewer & { user: UserSummary };
  isOnline: () => boolean;
  status: SyncStatusStore;
  toast: (t: ToastInput) => void;
  lock?: SyncLock;
  onIdSwap?: (oldId: number, newId: number) => void;
  /** What the features' queue kinds and pulled rows mean on the device (./kinds.ts). */
  features: SyncRegistry;
  /** Saves a file the device made (the kept changes' export, Q12): a browser's download. */
  download: (file: { name: string; mime: string; text: string }) => void;
}

/** What every sync module gets: the engine's dependencies and the status refresh. */
export interface SyncContext extends SyncEngineDeps {
  refreshStatus(): Promise<void>;
}

/**
 * What a write changes in the sync status besides the counts: the last sync time and the guest
 * upgrade's progress. Pending and conflict counts are kept live by store/queueCounts.ts watchQueueCounts (O(1) per
 * write), so the write path never counts the whole queue.
 */
export async function refreshProgress(db: OutpostDb, status: SyncStatusStore): Promise<void> {
  const [lastSyncAt, upgrade] = await Promise.all([
    getMeta<string>(db, META_KEYS.lastSyncAt),
    upgradeProgress(db),
  ]);
  status.getState().set({ lastSyncAt: lastSyncAt ?? null, upgrade });
}

/** Recomputes the whole sync status the badge and 'Pending sync' show (start, sync runs, resolutions). */
export async function refreshStatus(db: OutpostDb, status: SyncStatusStore): Promise<void> {
  const [pendingCount, conflictCount, lastSyncAt, upgrade] = await Promise.all([
    db.syncQueue.count(),
    conflictedCollection(db).count(),
    getMeta<string>(db, META_KEYS.lastSyncAt),
    upgradeProgress(db),
  ]);
  status.getState().set({ pendingCount, conflictCount, lastSyncAt: lastSyncAt ?? null, upgrade });
}
