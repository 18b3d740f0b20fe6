import { useStore } from 'zustand';
import { createStore } from 'zustand/vanilla';

export const BADGE_SHOW_MS = 3000;

export interface UpgradeProgress {
  sent: number;
  total: number;
  done: boolean;
}

export interface SyncStatusState {
  online: boolean;
  pendingCount: number;
  syncing: boolean;
  conflictCount: number;
  lastSyncAt: string | null;
  /** When connectivity last changed (ms), for the badge's 3-second showing. */
  changedAt: number | null;
  upgrade: UpgradeProgress | null;
  set: (patch: Partial<Omit<SyncStatusState, 'set' | 'setOnline'>>) => void;
  setOnline: (online: boolean, now?: number) => void;
}

export type SyncStatusStore = ReturnType<typeof createSyncStatusStore>;

/** Connectivity, pending count and syncing flag for the badge and the Upgrade dialog. */
export function createSyncStatusStore(initialOnline = true) {
  return createStore<SyncStatusState>()((set, get) => ({
    online: initialOnline,
    pendingCount: 0,
    syncing: false,
    conflictCount: 0,
    lastSyncAt: null,
    changedAt: null,
    upgrade: null,
    // A patch that changes nothing notifies no one: the counts are refreshed after writes and sync
    // steps, and every notice re-renders the badge and whatever else selects from the store.
    set: (patch) => {
      const state = get() as unknown as Record<string, unknown>;
      for (const [key, value] of Object.entries(patch)) {
        if (!Object.is(state[key], value)) return set(patch);
      }
    },
    setOnline: (online, now = Date.now()) => {
      if (get().online !== online) set({ online, changedAt: now });
    },
  }));
}

/** The badge's text: Offline, Syncing..., Online (N pending) or Online. */
export function badgeLabel(s: Pick<SyncStatusState, 'online' | 'syncing' | 'pendingCount'>): string {
  if (!s.online) return 'Offline';
  if (s.syncing) return 'Syncing...';
  if (s.pendingCount > 0) return `Online (${s.pendingCount} pending)`;
  return 'Online';
}

/** The badge shows for 3 s after a connectivity change and stays while offline or changes are queued. */
export function badgeVisible(
  s: Pick<SyncStatusState, 'online' | 'pendingCount' | 'changedAt'>,
  now: number = Date.now(),
): boolean {
  if (!s.online || s.pendingCount > 0) return true;
  return s.changedAt !== null && now - s.changedAt < BADGE_SHOW_MS;
}

/** The app's sync status. */
export const syncStatusStore = createSyncStatusStore(
  typeof navigator === 'undefined' ? true : navigator.onLine,
);

export function useSyncStatus<T>(
  selector: (s: SyncStatusState) => T,
  store: SyncStatusStore = syncStatusStore,
): T {
  return useStore(store, selector);
}
