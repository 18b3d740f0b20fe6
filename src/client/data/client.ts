import Dexie from 'dexie';
import type { ContactCandidate } from '../../shared/csv';
import type { Item, UserSummary } from '../../shared/item';
import { type AuthStore, createAuthStore } from '../stores/authStore';
import { createNotificationStore, type NotificationStore } from '../stores/notificationStore';
import { createSyncStatusStore, type SyncStatusStore } from '../stores/syncStatusStore';
import { createToastStore, type ToastStore } from '../stores/toastStore';
import { type ApiClient, createApiClient, type FetchLike } from './apiClient';
import { browserConnectivity, type Connectivity, onTabVisible, serverChanges } from './connectivity';
import {
  conflictedCollection,
  DB_NAME,
  getMeta,
  META_KEYS,
  OutpostDb,
  SEARCH_COPY_HEAD,
  setMeta,
} from './db';
import { whenIdle } from './idle';
import * as queries from './itemQueries';
import type { ItemsRepository } from './itemsRepository';
import { createLocalEcho } from './localEcho';
import { createSyncLock } from './locks';
import { refreshMutuals } from './mutuals';
import type { NotificationsClient } from './notifications';
import type { LocalSearch, SearchRow } from './search';
import type { SyncEngine, SyncEngineDeps, SyncResult } from './sync';
import { trackReachability } from './sync/reachability';
import { shareAuthAcrossTabs, watchQueueCounts } from './tabs';
import type { LocalItem, Viewer } from './types';
import type { UndoStack } from './undoStack';

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
  /** The bell's count and the notifications page (the page's one store in the browser). */
  notificationStore?: NotificationStore;
  /** Opens an app path (a reminder toast's Open); by default the page's router follows a history push. */
  openPath?: (path: string) => void;
  /** Web Locks; null disables them (tests run several "devices" in one process). */
  locks?: Parameters<typeof createSyncLock>[1];
}

/** Opens a path in this page: React Router follows history changes announced by popstate. */
function openInPage(path: string): void {
  if (typeof window === 'undefined') return;
  window.history.pushState(null, '', path);
  window.dispatchEvent(new PopStateEvent('popstate'));
}

/** How long start() waits at most for the screen to show the device's data before it asks the server. */
const FIRST_SCREEN_WAIT_MS = 1000;

/** How long after the first screen the reminder watch starts. */
const REMINDERS_DELAY_MS = 2000;
/**
 * After the first screen, the device's search copy is read and indexed in the background (in slices,
 * search.ts), so the first Ctrl/Cmd+K answers from a ready index instead of reading every item.
 */
const SEARCH_WARM_DELAY_MS = 4000;
/**
 * With a saved search copy (search.ts) the copy is read in a fraction of a full read's time: it is
 * warmed at the first idle moment after this instead.
 */
const SEARCH_WARM_SAVED_DELAY_MS = 500;

/** How long after that frame the server waits: the frame reaches the screen a moment after it is drawn. */
const SETTLE_MS = 100;

/** Resolves a moment after the next frame has been drawn. */
function afterPaint(): Promise<void> {
  return new Promise((resolve) => {
    if (typeof requestAnimationFrame !== 'function') return void setTimeout(resolve, 0);
    requestAnimationFrame(() => setTimeout(resolve, SETTLE_MS));
  });
}

const WRITES = [
  'create',
  'update',
  'remove',
  'toggle',
  'assign',
  'setStatus',
  'changeStatus',
  'start',
  'complete',
  'reopen',
  // Undo puts fields back through the raw write (./undoStack.ts).
  'write',
] as const satisfies readonly (keyof ItemsRepository)[];

/**
 * The repository's writes, each waiting for the remembered account (so an early change is never the
 * guest's) and loading the repository on the first one: the first screen only reads.
 */
function gatedRepository(
  load: () => Promise<ItemsRepository>,
  restored: () => Promise<void>,
): ItemsRepository {
  const gated: Record<string, unknown> = {};
  for (const name of WRITES) {
    gated[name] = async (...args: never[]) => {
      await restored();
      const repository = await load();
      return (repository[name] as (...xs: never[]) => Promise<unknown>)(...args);
    };
  }
  return gated as ItemsRepository;
}

type SyncTriggers = Parameters<SyncEngine['start']>[0];

/**
 * The sync engine behind the same methods, loaded on first use: a guest who never signs in never
 * downloads the push, pull, conflict and upgrade code (bench/bundle.ts budgets Home's first load).
 */
function lazySyncEngine(deps: SyncEngineDeps) {
  const { db } = deps;
  let loading: Promise<SyncEngine> | null = null;
  const load = () => {
    loading ??= import('./sync').then((m) => m.createSyncEngine(deps));
    return loading;
  };
  // Calls made before the engine has loaded, so `settled` waits for them too.
  const starting = new Set<Promise<unknown>>();
  function track<T>(work: Promise<T>): Promise<T> {
    starting.add(work);
    const done = () => starting.delete(work);
    work.then(done, done);
    return work;
  }
  return {
    sync: (...args: Parameters<SyncEngine['sync']>) => track(load().then((e) => e.sync(...args))),
    pushNow: (entryId: string) => track(load().then((e) => e.pushNow(entryId))),
    /**
     * Resolves when no push or sync run is under way and none is waiting to start (W2: a write only
     * starts its push). Tests wait on it where they mean "after it synced"; see SyncEngine.settled.
     */
    async settled(): Promise<void> {
      for (;;) {
        if (starting.size > 0) await Promise.allSettled([...starting]);
        if (!loading) return;
        await (await loading).settled();
        if (starting.size === 0) return;
      }
    },
    resolveConflicts: (...args: Parameters<SyncEngine['resolveConflicts']>) =>
      load().then((e) => e.resolveConflicts(...args)),
    // The conflict list is watched on every screen; with none stored (always, for a guest) it needs no engine.
    listConflicts: async () =>
      loading || (await conflictedCollection(db).count()) > 0 ? (await load()).listConflicts() : [],
    refreshStatus: () => load().then((e) => e.refreshStatus()),
    pull: () => load().then((e) => e.pull()),
    pushQueue: (...args: Parameters<SyncEngine['pushQueue']>) => load().then((e) => e.pushQueue(...args)),
    /** Starts the triggers once the engine has loaded; the stop function works before that too. */
    start(triggers: SyncTriggers): () => void {
      let stop: (() => void) | null = null;
      let stopped = false;
      void load().then((e) => {
        if (!stopped) stop = e.start(triggers);
      });
      return () => {
        stopped = true;
        stop?.();
      };
    },
  };
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
  const notificationState = options.notificationStore ?? createNotificationStore();
  let auth: AuthStore;
  let lastSync: Promise<SyncResult> | null = null;
  const swapListeners = new Set<(oldId: number, newId: number) => void>();

  const api: ApiClient = createApiClient({
    baseUrl: options.baseUrl ?? '',
    // R2: every answer, or its absence while online, tells the badge whether the server is reachable.
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

  const engine = lazySyncEngine({
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
      await db.transaction('rw', [db.items, db.syncQueue, db.meta, db.trash, db.undo], async () => {
        const owner = await getMeta<number>(db, META_KEYS.dataOwner);
        if (owner !== undefined && owner !== user.id) {
          // Another account's data must not leak into this one; guest data stays and moves over.
          await db.items.where('_syncStatus').equals('pending').delete();
          await db.items.where('_syncStatus').equals('synced').delete();
          await db.trash.where('owner').noneOf([0, user.id]).delete();
          await db.undo.where('owner').noneOf([0, user.id]).delete();
          await db.syncQueue.clear();
          await db.meta.bulkDelete([META_KEYS.cursor, META_KEYS.upgrade, META_KEYS.lastSyncAt]);
        }
        await setMeta(db, META_KEYS.dataOwner, user.id);
      });
      if (wasGuest) await (await import('./guestUpgrade')).moveGuestDataToAccount(db, user);
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
  const echo = createLocalEcho();
  let repository: Promise<ItemsRepository> | null = null;
  const items = gatedRepository(
    () => {
      repository ??= import('./itemsRepository').then((m) =>
        m.createItemsRepository({ db, viewer, pushNow: engine.pushNow, echo }),
      );
      return repository;
    },
    () => auth.getState().restore(),
  );
  // Undo and the trash load on first use (a toast's Undo, Ctrl/Cmd+Z, Preferences): not with Home.
  let undoStack: Promise<UndoStack> | null = null;
  const undo = (): Promise<UndoStack> => {
    undoStack ??= import('./undoStack').then((m) =>
      m.createUndoStack({
        db,
        api,
        viewer,
        items,
        pushNow: engine.pushNow,
        isOnline: () => connectivity.isOnline(),
      }),
    );
    return undoStack;
  };
  // §6 'Storage the browser keeps': ask once there is something to keep (the first item), once a page.
  let persistAsked = false;
  const askPersistence = async (): Promise<void> => {
    if (persistAsked || typeof navigator === 'undefined' || !navigator.storage?.persist) return;
    persistAsked = true;
    try {
      if (!(await navigator.storage.persisted())) await navigator.storage.persist();
    } catch {
      // Some browsers refuse outright; Preferences shows the storage may be cleared.
    }
  };
  const create = items.create;
  items.create = async (...args) => {
    const created = await create(...args);
    void askPersistence();
    return created;
  };
  // Search (and its cache of every title) loads when the dialog first asks.
  let localSearch: LocalSearch | null = null;
  type Searcher = (
    query: string,
    limit?: number,
    onLocal?: (found: SearchRow[]) => void,
  ) => Promise<(Item | SearchRow)[]>;
  let searcher: Promise<Searcher> | null = null;
  /** See search.ts createSearch: `onLocal` gets the device's hits first when the server is asked. */
  const loadSearcher = () => {
    searcher ??= import('./search').then((m) => {
      localSearch = m.createLocalSearch(db);
      return m.createSearch({ api, local: localSearch, viewer, isOnline: () => connectivity.isOnline() });
    });
    return searcher;
  };
  const search: Searcher = async (query, limit, onLocal) => (await loadSearcher())(query, limit, onLocal);
  let closed = false;
  const warmSearch = async () => {
    if (closed) return;
    await loadSearcher();
    await localSearch?.warm();
  };
  // Notifications and reminders load after the first screen, with their own chunk.
  let notificationsLoading: Promise<NotificationsClient> | null = null;
  const loadNotifications = () => {
    notificationsLoading ??= import('./notifications').then((m) =>
      m.createNotifications({
        db,
        api,
        store: notificationState,
        isOnline: () => connectivity.isOnline(),
        userId: () => (auth.getState().isAuthenticated ? auth.getState().user.id : 0),
      }),
    );
    return notificationsLoading;
  };
  const notifications = {
    userChanged: async () => {
      // A guest has no notifications: the module is not even loaded for them.
      if (!auth.getState().isAuthenticated && notificationsLoading === null) {
        notificationState.setState({ userId: 0, unread: 0, entries: null });
        return;
      }
      await (await loadNotifications()).userChanged();
    },
    onUnread: (unread: number) => void loadNotifications().then((n) => n.onUnread(unread)),
    refresh: async () => (await loadNotifications()).refresh(),
    loadMore: async () => (await loadNotifications()).loadMore(),
    markRead: async (ids?: number[]) => (await loadNotifications()).markRead(ids),
    push: {
      check: async () => (await loadNotifications()).push.check(),
      enable: async () => (await loadNotifications()).push.enable(),
      disable: async () => (await loadNotifications()).push.disable(),
    },
  };

  let markScreenShown = () => {};
  const screenShown = new Promise<void>((resolve) => {
    markScreenShown = resolve;
  });
  const bound = {
    homeItems: (tab: queries.Tab, o?: queries.ListOptions) => queries.homeItems(db, viewer(), tab, o),
    homeCount: (tab: queries.Tab) => queries.homeCount(db, viewer(), tab),
    screenItems: (
      screen: Parameters<typeof queries.screenItems>[2],
      tab: queries.Tab,
      o?: queries.ListOptions,
    ) => queries.screenItems(db, viewer(), screen, tab, o),
    screenCount: (screen: Parameters<typeof queries.screenCount>[2], tab: queries.Tab) =>
      queries.screenCount(db, viewer(), screen, tab),
    myListItems: (s: Parameters<typeof queries.myListItems>[2], o?: queries.ListOptions) =>
      queries.myListItems(db, viewer(), s, o),
    myListCounts: (search?: string) => queries.myListCounts(db, viewer(), search),
    assignedToMe: (o?: queries.ListOptions) => queries.assignedToMe(db, viewer(), o),
    itemsByStatus: (s: Parameters<typeof queries.itemsByStatus>[2], o?: queries.ListOptions) =>
      queries.itemsByStatus(db, viewer(), s, o),
    childrenOf: (id: number, type?: Parameters<typeof queries.childrenOf>[3]) =>
      queries.childrenOf(db, viewer(), id, type),
    childrenOldestFirst: (id: number, o?: { limit?: number; after?: LocalItem }) =>
      queries.childrenOldestFirst(db, viewer(), id, o),
    progressFor: (id: number) => queries.progressFor(db, viewer(), id),
    subtreeProgress: (ids: readonly number[]) => queries.subtreeProgressOf(db, viewer(), ids),
    inside: (id: number) => queries.insideOf(db, viewer(), id),
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
    /** Edits in place shown on the lists before they commit (localEcho.ts); live lists listen. */
    echo,
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
    /** Undo and the trash (./undoStack.ts), loaded on first use. */
    undo,
    /** Export, import and what the device stores; loaded on first use (papaparse stays out of Home). */
    transfer: async () => (await import('./dataTransfer')).createDataTransfer({ db, viewer, items }),
    /** The signed-in user's mutual contacts, kept locally for the assignee pickers (./mutuals.ts). */
    mutuals: { refresh: () => updateMutuals(true) },
    /** The signed-in user's notifications and Web Push (./notifications.ts). */
    notifications,
    notificationState,
    /** Tells an open /tasks/{id} route that its temporary id became the server's. */
    onIdSwap(listener: (oldId: number, newId: number) => void): () => void {
      swapListeners.add(listener);
      return () => swapListeners.delete(listener);
    },
    /** The last background sync started by login, for tests and the Upgrade dialog. */
    lastSync: () => lastSync,
    clearFinishedUpgrade: async () => (await import('./guestUpgrade')).clearFinishedUpgrade(db),
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
      // Something to keep already (a returning visitor): ask for persistent storage now.
      void db.items
        .limit(1)
        .count()
        .then((n) => (n > 0 ? askPersistence() : undefined))
        .catch(() => undefined);
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
      // Reminders come due from the device's own items, signed in or not (./reminders.ts). The watch
      // starts a moment after the first screen has settled: one already due shows then (it catches up),
      // and its code is not part of the first screen's download.
      let offReminders = () => {};
      let stopped = false;
      const remindersLater = setTimeout(() => {
        void import('./reminders').then((m) => {
          if (!stopped) offReminders = m.watchReminders({ db, toast, open: options.openPath ?? openInPage });
        });
      }, REMINDERS_DELAY_MS);
      // Not while a first sync streams in: its pages would make the copy stale as it is read.
      let warming = false;
      const warmWhenIdle = () => {
        if (stopped || warming) return;
        if (status.getState().pullProgress !== null)
          searchLater = setTimeout(warmWhenIdle, SEARCH_WARM_DELAY_MS);
        else {
          warming = true;
          void warmSearch().catch(() => undefined);
        }
      };
      let searchLater = setTimeout(warmWhenIdle, SEARCH_WARM_DELAY_MS);
      // A saved copy costs little to read: sooner, then (the head row only, a few bytes).
      void db.searchCopy.get(SEARCH_COPY_HEAD).then(
        (head) => {
          if (!head || stopped || warming) return;
          clearTimeout(searchLater);
          searchLater = setTimeout(() => whenIdle(warmWhenIdle, 0), SEARCH_WARM_SAVED_DELAY_MS);
        },
        () => undefined,
      );
      await auth.getState().checkSession();
      void notifications.userChanged();
      const offNotificationUser = auth.subscribe((state, prev) => {
        if (state.isAuthenticated !== prev.isAuthenticated || state.user.id !== prev.user.id)
          void notifications.userChanged();
      });
      // The badge follows the network for everyone; the engine (and its chunk) only for an account.
      status.getState().setOnline(connectivity.isOnline());
      const offOnlineStatus = connectivity.subscribe((online) => status.getState().setOnline(online));
      let offEngine: (() => void) | null = null;
      const startEngine = () => {
        offEngine ??= engine.start({
          onOnlineChange: (cb) => connectivity.subscribe(cb),
          onVisible: onTabVisible,
          // A stream only for a signed-in user who is online; it follows sign-in, sign-out and the network.
          onServerChange: serverChanges({
            baseUrl: options.baseUrl ?? '',
            onNotification: (unread) => notifications.onUnread(unread),
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
      };
      if (auth.getState().isAuthenticated) startEngine();
      const offStartOnLogin = auth.subscribe((state) => {
        if (state.isAuthenticated) startEngine();
      });
      return () => {
        stopped = true;
        clearTimeout(remindersLater);
        clearTimeout(searchLater);
        offReminders();
        offNotificationUser();
        offStartOnLogin();
        offOnlineStatus();
        offEngine?.();
        offMutuals();
        offCounts();
        offAuth();
      };
    },
    /** Changes not on the server yet (the queue): what Clear Local Data and Log out would lose. */
    pendingChanges: () => db.syncQueue.count(),
    /**
     * Clear Local Data: wipes IndexedDB; a signed-in user's data comes back with the next sync. The
     * saved search copy goes too (it holds titles); the items' clear leaves a range row in the search
     * log, so a copy another tab saves from what it held before is not trusted either.
     */
    async clearLocalData(): Promise<void> {
      const stores = [
        db.items,
        db.syncQueue,
        db.meta,
        db.users,
        db.contacts,
        db.trash,
        db.undo,
        db.searchCopy,
      ];
      await db.transaction('rw', stores, async () => {
        await Promise.all([
          db.searchCopy.clear(),
          db.trash.clear(),
          db.undo.clear(),
          db.items.clear(),
          db.syncQueue.clear(),
          db.meta.clear(),
          db.users.clear(),
          db.contacts.clear(),
        ]);
      });
    },
    close(): void {
      closed = true;
      localSearch?.dispose();
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
