/**
 * The one door to the data for every screen (ARCHITECTURE §6 'One door'). This module is the light
 * half, in the first screen's chunk: the services' interface, the provider (also the tests' one way to
 * inject a client), the shell's stand-ins used before the data layer has loaded, the toast queue and
 * the typed server reads. The data layer itself (Dexie, the sync engine: ~40 KB gzip) loads after the
 * first paint through ./dataServices; the device's live queries and writes are in ./liveData, which
 * feature folders reach through their own queries.ts and mutations.ts. Screens never import Dexie, the
 * API client or the sync engine.
 */
import { createContext, type ReactNode, useContext, useEffect, useState } from 'react';
import { useStore } from 'zustand';
import { createStore } from 'zustand/vanilla';
import type { ContactCandidate } from '../../shared/csv';
import type { ActivityEntry, Item, ItemStatus, Mutual, Paginated, UserSummary } from '../../shared/item';
import type { TrashView } from '../data/changes/undoStack';
import { type ApiClient, createApiClient } from '../data/net/apiClient';
import type { ConflictType } from '../data/store/types';
import type { ExportFile, ImportPreview, ImportResult } from '../data/transfer/dataTransfer';
import { type AuthState, type AuthStore, guestUser } from '../stores/authStore';
import { type NotificationStore, notificationStore, type PushState } from '../stores/notificationStore';
import { createSyncStatusStore, type SyncStatusStore } from '../stores/syncStatusStore';
import { type ToastInput, type ToastStore, toastStore } from '../stores/toastStore';

/** One version of a conflicting item, as the conflict dialog shows it. */
export interface ConflictVersion {
  title: string;
  description: string | null;
  status: ItemStatus;
  /** ISO time of the last change; null when unknown. */
  modifiedAt: string | null;
  deleted: boolean;
}

export interface ConflictView {
  id: number;
  type: ConflictType;
  /** null when there is no local version to keep. */
  local: ConflictVersion | null;
  /** null when the server deleted the item. */
  remote: ConflictVersion | null;
}

export type ConflictChoice = 'local' | 'remote';

export type AuthMode = 'demo' | 'otp';

/** What 'Sync Now' came to (R1, SYNC.md): `ok` only when the run reached the server and sent what it could. */
export interface SyncNowResult {
  ok: boolean;
  outcome: 'synced' | 'offline' | 'unreachable' | 'failed' | 'conflicts' | 'busy' | 'guest';
  /** Changes still not on the server. */
  pending: number;
}

/** The server-only reads (and the sign-in code request): typed, over the same origin and session. */
export interface ServerReads {
  /** One page of the signed-in user's campaigns. */
  campaignPage: (page: number, signal?: AbortSignal) => Promise<Paginated<Item>>;
  /** One page of a campaign's activity. */
  activity: (campaignId: number, page: number, signal?: AbortSignal) => Promise<Paginated<ActivityEntry>>;
  /** The signed-in user's mutual contacts. */
  mutuals: () => Promise<Mutual[]>;
  /** Which sign-in flow the server wants. */
  authMode: () => Promise<AuthMode>;
  /** Asks the server to text a sign-in code; answers the mode it runs in. */
  requestCode: (phone: string) => Promise<AuthMode>;
}

/** What the contacts import needs from the data layer (loaded on first use). */
export interface ContactsDoor {
  pickFromPhone: () => Promise<ContactCandidate[]>;
  fromCsv: (text: string) => Promise<ContactCandidate[]>;
  import: (candidates: readonly ContactCandidate[]) => Promise<{ toast: ToastInput }>;
  /** Refreshes the device's copy of the mutual contacts (the assignee pickers read it). */
  refreshMutuals: () => Promise<void>;
}

/** What the device stores for the viewer, and whether the browser promised to keep it. */
export interface StorageInfo {
  items: number;
  /** Bytes used by this origin (navigator.storage.estimate), when the browser tells. */
  bytes: number | null;
  /** true: kept; false: may be cleared by the browser; null: the browser does not say. */
  persisted: boolean | null;
}

export type { ExportFile, ImportPreview, ImportResult, TrashView };

/** Undo, the trash, export and import, and the device's storage (ARCHITECTURE §5, §6). */
export interface SafetyDoor {
  /** The newest undoable change's number (a toast's Undo takes back that one), or null. */
  latestUndo: () => Promise<number | null>;
  /** Takes back one change (the newest without `seq`); answers its label, or null when none. */
  undo: (seq?: number) => Promise<string | null>;
  /** The trash: this device's deletes and, signed in and online, the server's. */
  trash: () => Promise<TrashView[]>;
  restore: (entry: TrashView) => Promise<void>;
  /** Outpost JSON or CSV of the device's items, offline and as a guest. */
  exportFile: (format: 'json' | 'csv') => Promise<ExportFile>;
  /** Reads a picked file into what an import would create (nothing is written). */
  planImport: (file: File) => Promise<ImportPreview>;
  runImport: (
    preview: ImportPreview,
    onProgress?: (done: number, total: number) => void,
  ) => Promise<ImportResult>;
  storage: () => Promise<StorageInfo>;
}

/** The signed-in user's notifications and this browser's Web Push (loaded with the data layer). */
export interface NotificationsDoor {
  /** The bell's count and the page's entries (cached on the device for offline use). */
  store: NotificationStore;
  refresh: () => Promise<void>;
  loadMore: () => Promise<void>;
  /** Marks these entries read, or every entry without ids. */
  markRead: (ids?: number[]) => Promise<void>;
  pushState: () => Promise<PushState>;
  /** Asks for permission and subscribes through the service worker. */
  enablePush: () => Promise<PushState>;
  disablePush: () => Promise<PushState>;
}

export interface AppServices {
  auth: AuthStore;
  syncStatus: SyncStatusStore;
  /** The app's one toast queue (screens, the sync engine, the service worker's update notice). */
  toasts: ToastStore;
  server: ServerReads;
  contacts: ContactsDoor;
  notifications: NotificationsDoor;
  /** Tells an open /tasks/{id} route that its temporary id became the server's. */
  onIdSwap: (listener: (oldId: number, newId: number) => void) => () => void;
  /** Live list of open conflicts. */
  useConflicts: () => ConflictView[];
  resolveConflicts: (choices: Record<number, ConflictChoice>) => Promise<void>;
  /**
   * A manual sync run ('Sync Now'); its outcome is answered (never 'complete' when it was not) and
   * toasted, unless `quiet` (a dialog that reports it in place).
   */
  syncNow: (opts?: { quiet?: boolean }) => Promise<SyncNowResult>;
  /** How many changes are not on the server yet (Clear Local Data and Log out ask before losing them). */
  pendingChanges: () => Promise<number>;
  /** Forgets a finished guest upgrade so its dialog does not come back. */
  clearFinishedUpgrade: () => Promise<void>;
  /** Deletes IndexedDB and local storage (the caller reloads). */
  clearLocalData: () => Promise<void>;
  safety: SafetyDoor;
}

/** The typed server reads over an API client. */
export function serverReads(api: ApiClient): ServerReads {
  return {
    campaignPage: async (page, signal) =>
      (await api.get<Paginated<Item>>(`/items?type=campaign&page=${page}`, signal ? { signal } : {})).data,
    activity: async (campaignId, page, signal) =>
      (
        await api.get<Paginated<ActivityEntry>>(
          `/campaigns/${campaignId}/activity?page=${page}`,
          signal ? { signal } : {},
        )
      ).data,
    mutuals: async () => (await api.get<{ mutuals: Mutual[] }>('/contacts/mutuals')).data.mutuals,
    authMode: async () => {
      const { data } = await api.get<{ mode?: unknown }>('/auth/mode');
      return data.mode === 'otp' ? 'otp' : 'demo';
    },
    requestCode: async (phone) => {
      await api.csrfCookie();
      const { data } = await api.post<{ mode?: AuthMode }>('/login/code', { phone });
      return data.mode === 'otp' ? 'otp' : 'demo';
    },
  };
}

let loaded: AppServices | null = null;
let loading: Promise<AppServices> | null = null;
const loadedListeners = new Set<(services: AppServices) => void>();

/**
 * Loads the data layer (Dexie, the sync engine: ~40 KB gzip) and starts it, once per page. The shell
 * asks for it when the screen needs items (useDataLayer), and anything that needs it sooner (a
 * sign-in, Sync Now) waits for the same promise.
 */
export function loadAppServices(): Promise<AppServices> {
  loading ??= import('./dataServices').then(
    (m) => {
      const services = m.startAppServices();
      loaded = services;
      for (const listener of loadedListeners) listener(services);
      return services;
    },
    (error: unknown) => {
      loading = null;
      throw error;
    },
  );
  return loading;
}

/**
 * Starts the data layer for the screen on show. A screen with items (`needsItems`) starts it right
 * after its first paint, so the first paint never waits for IndexedDB. The sign-in and onboarding
 * screens show no items: they start it on the visitor's first press or key, well before they can
 * finish, and otherwise leave it to the screen that follows.
 */
export function useDataLayer(needsItems: boolean): void {
  useEffect(() => {
    if (loaded) return;
    const start = () => {
      loadAppServices().catch((error: unknown) =>
        console.error('Outpost: the data layer failed to load', error),
      );
    };
    if (!needsItems) {
      const events = ['pointerdown', 'keydown'] as const;
      const once = () => {
        for (const name of events) window.removeEventListener(name, once, true);
        start();
      };
      for (const name of events) window.addEventListener(name, once, true);
      return () => {
        for (const name of events) window.removeEventListener(name, once, true);
      };
    }
    // After the first paint: a timer queued from the next frame runs after it is drawn.
    let timer = 0;
    const frame = requestAnimationFrame(() => {
      timer = window.setTimeout(start, 0);
    });
    return () => {
      cancelAnimationFrame(frame);
      window.clearTimeout(timer);
    };
  }, [needsItems]);
}

let shell: AppServices | null = null;

/**
 * The services before the data layer has loaded: a guest with no conflicts and nothing pending, the
 * module-level toast queue (the Toaster shows it too), a real API client, and actions that wait for the
 * data layer. ServicesProvider swaps in the real services as soon as they are up.
 */
function shellServices(): AppServices {
  if (shell) return shell;
  const later = async () => loadAppServices();
  const auth: AuthStore = createStore<AuthState>()(() => ({
    user: guestUser(),
    isAuthenticated: false,
    isAnonymous: true,
    checking: false,
    restored: false,
    initGuest: () => {},
    restore: async () => (await later()).auth.getState().restore(),
    toGuest: () => void later().then((s) => s.auth.getState().toGuest()),
    checkSession: async () => (await later()).auth.getState().checkSession(),
    login: async (phone, name, code) => (await later()).auth.getState().login(phone, name, code),
    logout: async () => (await later()).auth.getState().logout(),
  }));
  // Same origin, same cookies and XSRF header as the client's; a 401 sends the client's auth to guest.
  const api = createApiClient({ onUnauthorized: () => auth.getState().toGuest() });
  shell = {
    auth,
    server: serverReads(api),
    contacts: {
      pickFromPhone: async () => (await later()).contacts.pickFromPhone(),
      fromCsv: async (text) => (await later()).contacts.fromCsv(text),
      import: async (candidates) => (await later()).contacts.import(candidates),
      refreshMutuals: async () => (await later()).contacts.refreshMutuals(),
    },
    notifications: {
      store: notificationStore,
      refresh: async () => (await later()).notifications.refresh(),
      loadMore: async () => (await later()).notifications.loadMore(),
      markRead: async (ids) => (await later()).notifications.markRead(ids),
      pushState: async () => (await later()).notifications.pushState(),
      enablePush: async () => (await later()).notifications.enablePush(),
      disablePush: async () => (await later()).notifications.disablePush(),
    },
    // No temporary ids exist before the data layer (FollowIdSwaps subscribes again once it is up).
    onIdSwap: () => () => {},
    syncStatus: createSyncStatusStore(typeof navigator === 'undefined' ? true : navigator.onLine),
    toasts: toastStore,
    useConflicts: () => [],
    resolveConflicts: async (choices) => (await later()).resolveConflicts(choices),
    syncNow: async (opts) => (await later()).syncNow(opts),
    pendingChanges: async () => (await later()).pendingChanges(),
    clearFinishedUpgrade: async () => (await later()).clearFinishedUpgrade(),
    clearLocalData: async () => (await later()).clearLocalData(),
    safety: {
      latestUndo: async () => (await later()).safety.latestUndo(),
      undo: async (seq) => (await later()).safety.undo(seq),
      trash: async () => (await later()).safety.trash(),
      restore: async (entry) => (await later()).safety.restore(entry),
      exportFile: async (format) => (await later()).safety.exportFile(format),
      planImport: async (file) => (await later()).safety.planImport(file),
      runImport: async (preview, onProgress) => (await later()).safety.runImport(preview, onProgress),
      storage: async () => (await later()).safety.storage(),
    },
  };
  return shell;
}

/** The app's services: the data layer's once loaded, the shell's (see shellServices) before. */
export function appServices(): AppServices {
  return loaded ?? shellServices();
}

/** False for the shell services, whose hooks (useConflicts) differ from the real ones. */
export function servicesLoaded(services: AppServices): boolean {
  return services !== shell;
}

const ServicesContext = createContext<AppServices | null>(null);

export function ServicesProvider({ services, children }: { services?: AppServices; children: ReactNode }) {
  const [current, setCurrent] = useState(appServices);
  useEffect(() => {
    if (services) return;
    // Loaded between this render and now: show it (no listener will fire again).
    if (loaded) return setCurrent(loaded);
    loadedListeners.add(setCurrent);
    return () => {
      loadedListeners.delete(setCurrent);
    };
  }, [services]);
  return (
    <ServicesContext.Provider value={services ?? loaded ?? current}>{children}</ServicesContext.Provider>
  );
}

export function useServices(): AppServices {
  const services = useContext(ServicesContext);
  if (!services) throw new Error('useServices needs a ServicesProvider');
  return services;
}

export function useAuthState<T>(selector: (s: AuthState) => T): T {
  return useStore(useServices().auth, selector);
}

/** The signed-in user or null for the guest. */
export function useSignedInUser(): UserSummary | null {
  const user = useAuthState((s) => s.user);
  const signedIn = useAuthState((s) => s.isAuthenticated && !s.isAnonymous);
  return signedIn ? user : null;
}

/** Shows a toast in the app's one toast queue (the one the Toaster shows), from outside React. */
export function toast(input: ToastInput): string {
  return appServices().toasts.getState().push(input);
}

/** The toast queue of the services on screen (a test's own, or the app's one queue). */
export function useToast(): (input: ToastInput) => string {
  const { toasts } = useServices();
  return toasts.getState().push;
}
