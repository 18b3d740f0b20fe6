import { useStore } from 'zustand';
import { createStore } from 'zustand/vanilla';

export const BADGE_SHOW_MS = 3000;

export interface UpgradeProgress {
  sent: number;
  total: number;
  done: boolean;
}

/** L8: a long pull's progress, items stored of the items the server counted at its first page. */
export interface PullProgress {
  received: number;
  total: number;
}

export interface SyncStatusState {
  online: boolean;
  /**
   * R2: false once a request failed with no answer while the browser said it was online (the server
   * is down or cut off); true again at the first answer. 'Offline' is `online`, never this.
   */
  serverReachable: boolean;
  pendingCount: number;
  syncing: boolean;
  conflictCount: number;
  lastSyncAt: string | null;
  /**
   * Moves after each sync run that may have changed what the server holds for this user: every run
   * but a periodic one that pushed and pulled nothing (E8). The server-only lists refetch on it.
   */
  dataVersion: number;
  /** When connectivity last changed (ms), for the badge's 3-second showing. */
  changedAt: number | null;
  upgrade: UpgradeProgress | null;
  /** Set while a pull of more than one page runs ('Syncing 45,000 of 100,000'), null otherwise. */
  pullProgress: PullProgress | null;
  set: (patch: Partial<Omit<SyncStatusState, 'set' | 'setOnline' | 'setServerReachable'>>) => void;
  setOnline: (online: boolean, now?: number) => void;
  /** R2: what the last request said about the server; a change shows the badge for 3 s. */
  setServerReachable: (reachable: boolean, now?: number) => void;
}

export type SyncStatusStore = ReturnType<typeof createSyncStatusStore>;

/** Connectivity, pending count and syncing flag for the badge and the Upgrade dialog. */
export function createSyncStatusStore(initialOnline = true) {
  return createStore<SyncStatusState>()((set, get) => ({
    online: initialOnline,
    serverReachable: true,
    pendingCount: 0,
    syncing: false,
    conflictCount: 0,
    lastSyncAt: null,
    dataVersion: 0,
    changedAt: null,
    upgrade: null,
    pullProgress: null,
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
    setServerReachable: (serverReachable, now = Date.now()) => {
      if (get().serverReachable !== serverReachable) set({ serverReachable, changedAt: now });
    },
  }));
}

/** What the badge says the connection is: no network, a network but no server, or both fine (R2). */
export type Connection = 'offline' | 'unreachable' | 'online';

export function connectionOf(s: Pick<SyncStatusState, 'online' | 'serverReachable'>): Connection {
  if (!s.online) return 'offline';
  return s.serverReachable === false ? 'unreachable' : 'online';
}

/** 45000 → '45,000'. Not toLocaleString: its first call loads ICU data, a 60 ms task mid-sync. */
function thousands(n: number): string {
  return String(Math.round(n)).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

/** The progress line of a long pull: 'Syncing 45,000 of 100,000' (L8). */
export function pullProgressLabel(progress: PullProgress): string {
  const total = Math.max(progress.total, progress.received);
  return `Syncing ${thousands(progress.received)} of ${thousands(total)}`;
}

/**
 * The badge's text: Offline, Syncing..., 'Server unreachable (N pending)', 'Online (N pending)' or
 * Online (R2: a network with no server is never 'Online').
 */
export function badgeLabel(
  s: Pick<SyncStatusState, 'online' | 'syncing' | 'pendingCount'> &
    Partial<Pick<SyncStatusState, 'serverReachable'>>,
): string {
  if (!s.online) return 'Offline';
  if (s.syncing) return 'Syncing...';
  const pending = s.pendingCount > 0 ? ` (${s.pendingCount} pending)` : '';
  if (s.serverReachable === false) return `Server unreachable${pending}`;
  return `Online${pending}`;
}

/**
 * The badge shows for 3 s after a connectivity change and stays while offline, while the server
 * cannot be reached, or while changes are queued.
 */
export function badgeVisible(
  s: Pick<SyncStatusState, 'online' | 'pendingCount' | 'changedAt'> &
    Partial<Pick<SyncStatusState, 'serverReachable'>>,
  now: number = Date.now(),
): boolean {
  if (!s.online || s.serverReachable === false || s.pendingCount > 0) return true;
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
