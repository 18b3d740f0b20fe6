import Dexie from 'dexie';
import type { ContactCandidate } from '../../shared/csv';
import type { UserSummary } from '../../shared/item';
import { type AuthStore, createAuthStore } from '../stores/authStore';
import { createSyncStatusStore, type SyncStatusStore } from '../stores/syncStatusStore';
import { createToastStore, type ToastStore } from '../stores/toastStore';
import { type ApiClient, createApiClient, type FetchLike } from './apiClient';
import { browserConnectivity, type Connectivity, onTabVisible, serverChanges } from './connectivity';
import { DB_NAME, getMeta, META_KEYS, OutpostDb, setMeta } from './db';
import { clearFinishedUpgrade, moveGuestDataToAccount } from './guestUpgrade';
import * as queries from './itemQueries';
import { createItemsRepository } from './itemsRepository';
import { createSyncLock } from './locks';
import { refreshMutuals } from './mutuals';
import { createLocalSearch, createSearch } from './search';
import { createSyncEngine, type SyncResult, trackReachability } from './syncEngine';
import { shareAuthAcrossTabs, watchQueueCounts } from './tabs';
import type { Viewer } from './types';

export interface OutpostClientOptions {
  /** Origin of the server ('' = same origin, the browser default). */
  baseUrl?: string;
  fetch?: FetchLike;
  dbName?: string;
  /** IndexedDB implementation (fake-indexeddb in Node). */
  indexedDB?: IDBFactory;
  IDBKeyRange?: typeof IDBKeyRange;
  xsrfToken?: () => string | null;
  connectivity?: Connectivity;
  toastStore?: ToastStore;
  statusStore?: SyncStatusStore;
  /** Web Locks; null disables them (tests run several "devices" in one process). */
  locks?: Parameters<typeof createSyncLock>[1];
}

/** How long start() waits at most for the screen to show the device's data before it asks the server. */
const FIRST_SCREEN_WAIT_MS = 1000;

/** How long after that frame the server waits: the frame reaches the screen a moment after it is drawn. */
const SETTLE_MS = 100;

/** Resolves a moment after the next frame has been drawn. */
function afterPaint(): Promise<void> {
  return new Promise((resolve) => {
    if (typeof requestAnimationFrame !== 'function') return void setTimeout(resolve, 0);
    requestAnimationFrame(() => setTimeout(resolve, SETTLE_MS));
  });
}

/** The repository with every write waiting for the remembered account, so an early change is never the guest's. */
function afterRestore<T extends Record<string, (...args: never[]) => Promise<unknown>>>(
  repository: T,
  restored: () => Promise<void>,
): T {
  const gated: Record<string, unknown> = {};
  for (const [name, write] of Object.entries(repository)) {
    gated[name] = async (...args: never[]) => {
      await restored();
      return write(...args);
    };
  }
  return gated as T;
}

/** Everything the screens need, wired together; tests make one per simulated device. */
export function createOutpostClient(options: OutpostClientOptions = {}) {
  const dbOptions =
    options.indexedDB && options.IDBKeyRange
      ? { indexedDB: options.indexedDB, IDBKeyRange: options.IDBKeyRange }
      : undefined;
  if (dbOptions && !Dexie.dependencies.indexedDB) {
    // liveQuery checks the global dependency before every run; without it (Node) it never fires.
    Dexie.dependencies.indexedDB = dbOptions.indexedDB;
    Dexie.dependencies.IDBKeyRange = dbOptions.IDBKeyRange;
  }
  const db = new OutpostDb(options.dbName ?? DB_NAME, dbOptions);
  const connectivity = options.connectivity ?? browserConnectivity();
  const toasts = options.toastStore ?? createToastStore();
  const status = options.statusStore ?? createSyncStatusStore(connectivity.isOnline());
  const toast = toasts.getState().push;
  let auth: AuthStore;
  let lastSync: Promise<SyncResult> | null = null;
  const swapListeners = new Set<(oldId: number, newId: number) => void>();

  const api: ApiClient = createApiClient({
    baseUrl: options.baseUrl ?? '',
    // R1: every answer, or its absence while online, tells the badge whether the server is reachable.
    fetch: trackReachability(options.fetch ?? ((input, init) => globalThis.fetch(input, init)), status, () =>
      connectivity.isOnline(),
    ),
    ...(options.xsrfToken ? { xsrfToken: options.xsrfToken } : {}),
    onUnauthorized: () => auth.getState().toGuest(),
  });

  const viewer = (): Viewer & { user: UserSummary } => {
    const s = auth.getState();
    return { userId: s.isAuthenticated ? s.user.id : 0, isGuest: !s.isAuthenticated, user: s.user };
  };

  const engine = createSyncEngine({
    db,
    api,
    viewer,
    isOnline: () => connectivity.isOnline(),
    status,
    toast,
    lock: createSyncLock(`outpost-sync:${db.name}`, options.locks === undefined ? undefined : options.locks),
    onIdSwap: (oldId, newId) => {
      for (const listener of swapListeners) listener(oldId, newId);
    },
  });

  const syncInBackground = () => {
    lastSync = engine.sync();
    return lastSync;
  };

  auth = createAuthStore({
    api: () => api,
    remember: async (user) => setMeta(db, META_KEYS.account, user),
    recall: async () => (await getMeta<UserSummary | null>(db, META_KEYS.account)) ?? null,
    onLogin: async (user, wasGuest) => {
      await db.transaction('rw', [db.items, db.syncQueue, db.meta], async () => {
        const owner = await getMeta<number>(db, META_KEYS.dataOwner);
        if (owner !== undefined && owner !== user.id) {
          // Another account's data must not leak into this one; guest data stays and moves over.
          await db.items.where('_syncStatus').equals('pending').delete();
          await db.items.where('_syncStatus').equals('synced').delete();
          await db.syncQueue.clear();
          await db.meta.bulkDelete([META_KEYS.cursor, META_KEYS.upgrade, META_KEYS.lastSyncAt]);
        }
        await setMeta(db, META_KEYS.dataOwner, user.id);
      });
      if (wasGuest) await moveGuestDataToAccount(db, user);
      await engine.refreshStatus();
      void syncInBackground();
    },
  });

  /** Refreshes the signed-in user's stored mutuals (when stale, or always with `force`); never throws. */
  const updateMutuals = async (force = false): Promise<void> => {
    const state = auth.getState();
    if (!state.isAuthenticated || !connectivity.isOnline()) return;
    try {
      await refreshMutuals(db, api, state.user.id, { force });
    } catch {
      // The stored list stays; the next sync run tries again.
    }
  };

  // The device starts as the account it remembers; the session check confirms it later (start()).
  void auth.getState().restore();
  const items = afterRestore(createItemsRepository({ db, viewer, pushNow: engine.pushNow }), () =>
    auth.getState().restore(),
  );
  const localSearch = createLocalSearch(db);
  const search = createSearch({ api, local: localSearch, viewer, isOnline: () => connectivity.isOnline() });

  let markScreenShown = () => {};
  const screenShown = new Promise<void>((resolve) => {
    markScreenShown = resolve;
  });
  const bound = {
    homeItems: (tab: queries.Tab, o?: queries.ListOptions) => queries.homeItems(db, viewer(), tab, o),
    screenItems: (
      screen: Parameters<typeof queries.screenItems>[2],
      tab: queries.Tab,
      o?: queries.ListOptions,
    ) => queries.screenItems(db, viewer(), screen, tab, o),
    myListItems: (s: Parameters<typeof queries.myListItems>[2], o?: queries.ListOptions) =>
      queries.myListItems(db, viewer(), s, o),
    myListCounts: () => queries.myListCounts(db, viewer()),
    assignedToMe: (o?: queries.ListOptions) => queries.assignedToMe(db, viewer(), o),
    itemsByStatus: (s: Parameters<typeof queries.itemsByStatus>[2], o?: queries.ListOptions) =>
      queries.itemsByStatus(db, viewer(), s, o),
    childrenOf: (id: number, type?: Parameters<typeof queries.childrenOf>[3]) =>
      queries.childrenOf(db, viewer(), id, type),
    progressFor: (id: number) => queries.progressFor(db, viewer(), id),
    subtreeProgress: (ids: readonly number[]) => queries.subtreeProgressOf(db, viewer(), ids),
    itemById: (id: number) => queries.itemById(db, viewer(), id),
    pendingCount: () => queries.pendingCount(db),
    conflicts: () => engine.listConflicts(),
  };

  return {
    db,
    api,
    auth,
    status,
    toasts,
    engine,
    items,
    queries: bound,
    search,
    // Loaded on first use: papaparse and the phone rules are not needed for the first screen.
    contacts: {
      pickFromPhone: async (nav?: unknown) => (await import('./contactsImport')).pickPhoneContacts(nav),
      fromCsv: async (text: string) => (await import('./contactsImport')).contactsFromCsv(text),
      import: async (candidates: readonly ContactCandidate[]) =>
        (await import('./contactsImport')).importContacts(api, db, viewer().userId, candidates),
    },
    viewer,
    /** The screen has drawn its first list from the device; start() asks the server after that paint. */
    screenShown: () => markScreenShown(),
    /** The signed-in user's mutual contacts, kept locally for the assignee pickers (./mutuals.ts). */
    mutuals: { refresh: () => updateMutuals(true) },
    /** Tells an open /tasks/{id} route that its temporary id became the server's. */
    onIdSwap(listener: (oldId: number, newId: number) => void): () => void {
      swapListeners.add(listener);
      return () => swapListeners.delete(listener);
    },
    /** The last background sync started by login, for tests and the Upgrade dialog. */
    lastSync: () => lastSync,
    clearFinishedUpgrade: () => clearFinishedUpgrade(db),
    /** Guest init, session check, then the sync triggers and the cross-tab wiring. Returns a stop function. */
    async start(): Promise<() => void> {
      auth.getState().initGuest();
      const offAuth = shareAuthAcrossTabs(auth, `outpost-auth:${db.name}`, () => {
        void auth
          .getState()
          .checkSession()
          .then(() => syncInBackground());
      });
      const offCounts = watchQueueCounts(db, status);
      // Each finished sync run is a moment the server is reachable: refresh stale mutuals then.
      const offMutuals = status.subscribe((state, prev) => {
        if (state.lastSyncAt !== prev.lastSyncAt) void updateMutuals();
      });
      await auth.getState().restore();
      // The server is asked once the first screen has drawn what the device holds: its answer only
      // confirms the remembered account or turns the device back to guest, and its request (and the
      // sync after it) no longer competes with that first screen.
      await Promise.race([screenShown, new Promise((resolve) => setTimeout(resolve, FIRST_SCREEN_WAIT_MS))]);
      await afterPaint();
      await auth.getState().checkSession();
      const offEngine = engine.start({
        onOnlineChange: (cb) => connectivity.subscribe(cb),
        onVisible: onTabVisible,
        // A stream only for a signed-in user who is online; it follows sign-in, sign-out and the network.
        onServerChange: serverChanges({
          baseUrl: options.baseUrl ?? '',
          wanted: () => connectivity.isOnline() && !auth.getState().isAnonymous,
          onWantedChange: (cb) => {
            const offAuthChange = auth.subscribe((state, prev) => {
              if (state.isAnonymous !== prev.isAnonymous || state.user.id !== prev.user.id) cb();
            });
            const offOnline = connectivity.subscribe(() => cb());
            return () => {
              offAuthChange();
              offOnline();
            };
          },
        }),
      });
      return () => {
        offEngine();
        offMutuals();
        offCounts();
        offAuth();
      };
    },
    /** Changes not on the server yet (the queue): what Clear Local Data and Log out would lose. */
    pendingChanges: () => db.syncQueue.count(),
    /** Clear Local Data: wipes IndexedDB; a signed-in user's data comes back with the next sync. */
    async clearLocalData(): Promise<void> {
      await db.transaction('rw', [db.items, db.syncQueue, db.meta, db.users, db.contacts], async () => {
        await Promise.all([
          db.items.clear(),
          db.syncQueue.clear(),
          db.meta.clear(),
          db.users.clear(),
          db.contacts.clear(),
        ]);
      });
    },
    close(): void {
      localSearch.dispose();
      db.close();
    },
  };
}

export type OutpostClient = ReturnType<typeof createOutpostClient>;

let singleton: OutpostClient | null = null;

/** The app's client (same origin, the browser's IndexedDB, fetch and connectivity). */
export function getOutpostClient(): OutpostClient {
  singleton ??= createOutpostClient();
  return singleton;
}
