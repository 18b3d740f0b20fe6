import Dexie from 'dexie';
import type { UserSummary } from '../../shared/item';
import { isVisitorXsrf } from '../../shared/visitorXsrf';
import { type AuthStore, createAuthStore, unauthorizedHooks } from '../stores/authStore';
import { createNotificationStore, type NotificationStore } from '../stores/notificationStore';
import { createSyncStatusStore, type SyncStatusStore } from '../stores/syncStatusStore';
import { createToastStore, type ToastStore } from '../stores/toastStore';
import { createLocalEcho } from './changes/localEcho';
import { type CommandContexts, sendFor } from './commands/map';
import type { CampaignMember } from './commands/sharing';
import { refreshMutuals } from './contacts/mutuals';
import { mutualsService } from './contacts/mutualsService';
import { remindersService } from './items/remindersService';
import { lazily, lazyMethods } from './lazy';
import { type ApiClient, browserXsrfToken, createApiClient, type FetchLike } from './net/apiClient';
import { browserConnectivity, type Connectivity } from './net/connectivity';
import { connectivityService } from './net/connectivityService';
import { authAcrossTabsService } from './net/tabsService';
import { notificationsService } from './notifications/notificationsService';
import { viewerReads } from './reads/viewerReads';
import { createSearchPart } from './search/searchService';
import { createServiceRunner, type Service, type ServiceContext } from './service';
import { DB_NAME, getMeta, META_KEYS, OutpostDb, setMeta } from './store/db';
import { queueCountsService } from './store/queueCounts';
import { createStorageKeeper } from './store/storage';
import type { Viewer } from './store/types';
import type { SyncResult } from './sync';
import { lazySyncEngine } from './sync/lazyEngine';
import { createSyncLock } from './sync/locks';
import { trackReachability } from './sync/reachability';
import { syncService } from './sync/syncService';
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

/** How long after that frame the server waits: the frame reaches the screen a moment after it is drawn. */
const SETTLE_MS = 100;

/** Resolves a moment after the next frame has been drawn. */
function afterPaint(): Promise<void> {
  return new Promise((resolve) => {
    if (typeof requestAnimationFrame !== 'function') return void setTimeout(resolve, 0);
    requestAnimationFrame(() => setTimeout(resolve, SETTLE_MS));
  });
}

/** The repository's writes; undo puts fields back through the raw `write` (./items/undoStack.ts). */
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
  'write',
] as const;

/** The funnel (./changes/applyLocalChange.ts), loaded with the first write or the sync engine. */
const loadFunnel = () => import('./changes/applyLocalChange').then((m) => m.applyLocalChange);

/** Started at once: they need nothing from the server. */
const AT_START: readonly Service[] = [authAcrossTabsService, queueCountsService, mutualsService];
/** Started once the first screen has drawn what the device holds, so they never compete with it. */
const AFTER_FIRST_SCREEN: readonly Service[] = [remindersService];
/** Started once the server has confirmed (or refused) the remembered account. */
const AFTER_SESSION_CHECK: readonly Service[] = [notificationsService, connectivityService, syncService];

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
  // Any session, signed in or not, sets the readable anti-forgery cookie beside its own; a visitor's
  // is marked (the tutorial's code request fetches one before the sign-in), and no account stands
  // behind it. Outside a browser without that cookie (tests with their own jar), the server is asked.
  const readXsrf = options.xsrfToken ?? browserXsrfToken;
  const mayHaveSession = () => {
    const xsrf = readXsrf();
    if (xsrf !== null && isVisitorXsrf(xsrf)) return false;
    return typeof document === 'undefined' || xsrf !== null;
  };
  const connectivity = options.connectivity ?? browserConnectivity();
  const isOnline = () => connectivity.isOnline();
  const toasts = options.toastStore ?? createToastStore();
  const status = options.statusStore ?? createSyncStatusStore(connectivity.isOnline());
  const notificationState = options.notificationStore ?? createNotificationStore();
  let auth: AuthStore;
  let lastSync: Promise<SyncResult> | null = null;
  const swapListeners = new Set<(oldId: number, newId: number) => void>();

  const api: ApiClient = createApiClient({
    baseUrl: options.baseUrl ?? '',
    // R2: every answer, or its absence while online, tells the badge whether the server is reachable.
    fetch: trackReachability(
      options.fetch ?? ((input, init) => globalThis.fetch(input, init)),
      status,
      isOnline,
    ),
    ...(options.xsrfToken ? { xsrfToken: options.xsrfToken } : {}),
    // A 401 signs the device out only if it answers the session of now, not one a sign-in replaced.
    ...unauthorizedHooks(() => auth),
  });

  const viewer = (): Viewer & { user: UserSummary } => {
    const s = auth.getState();
    return { userId: s.isAuthenticated ? s.user.id : 0, isGuest: !s.isAuthenticated, user: s.user };
  };

  // The features' parts in sync (sync/kinds.ts), loaded with the engine: the comments' and time
  // entries' queue kinds, what pulled pages carry of them, and a guest's going up.
  const syncFeatures = lazily(() =>
    Promise.all([
      import('./sync/kinds'),
      import('./comments/commentSync'),
      import('./timeEntries/timeSync'),
    ]).then(([kinds, comments, time]) => kinds.syncRegistry([comments.commentSync, time.timeSync])),
  );
  const engine = lazySyncEngine({
    features: syncFeatures,
    // The kept changes' export (Q12) downloads as the transfer's files do.
    download: (file) => void import('./transfer/downloadFile').then((m) => m.downloadFile(file)),
    db,
    api,
    viewer,
    isOnline,
    status,
    toast: toasts.getState().push,
    lock: createSyncLock(`outpost-sync:${db.name}`, options.locks === undefined ? undefined : options.locks),
    onIdSwap: (oldId, newId) => {
      for (const listener of swapListeners) listener(oldId, newId);
    },
    funnel: loadFunnel,
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
      // Loaded at sign-in, not with the first screen; before the transaction, which an await of
      // anything but IndexedDB would end.
      const { wipeOtherAccount } = await import('./store/deviceWipe');
      await db.transaction('rw', db.tables, async () => {
        const owner = await getMeta<number>(db, META_KEYS.dataOwner);
        // Another account's data must not leak into this one: every store goes (SYNC.md W10), but
        // the guest's rows, which stay and move over.
        if (owner !== undefined && owner !== user.id) await wipeOtherAccount(db, user.id);
        await setMeta(db, META_KEYS.dataOwner, user.id);
      });
      if (wasGuest) {
        const [upgrade, funnel, features] = await Promise.all([
          import('./sync/guestUpgrade'),
          loadFunnel(),
          syncFeatures(),
        ]);
        await upgrade.moveGuestDataToAccount(db, user, features, funnel);
      }
      await engine.refreshStatus();
      void syncInBackground();
    },
    passkeySignIn: async () => {
      const { commands } = await import('./commands/server');
      return commands['server.passkeySignIn']({ api });
    },
    // The calendar feed URL kept on this device is a secret of the account that leaves (F9).
    onLogout: async () => {
      const { forgetCalendarLink } = await import('./store/calendarLink');
      await forgetCalendarLink(db);
    },
  });

  /** Refreshes the signed-in user's stored mutuals (see ServiceContext.updateMutuals); never throws. */
  const updateMutuals = async (force = false, version?: string): Promise<void> => {
    const state = auth.getState();
    if (!state.isAuthenticated || !connectivity.isOnline()) return;
    try {
      await refreshMutuals(db, api, state.user.id, { force, ...(version !== undefined ? { version } : {}) });
    } catch {
      // The stored list stays; the next sync run tries again.
    }
  };

  // The device starts as the account it remembers; the session check confirms it later (start()).
  void auth.getState().restore();
  const echo = createLocalEcho();
  const repository = lazily(() =>
    import('./items/itemsRepository').then((m) =>
      m.createItemsRepository({ db, viewer, pushNow: engine.pushNow, echo }),
    ),
  );
  // The repository's writes as methods (the items commands, undo, the transfer and tests call them):
  // the first loads it, once the remembered account is restored, so an early change is never the guest's.
  const items = lazyMethods(repository, WRITES, () => auth.getState().restore());
  // Undo and the trash load on first use (a toast's Undo, Ctrl/Cmd+Z, Preferences): not with Home.
  const undo = lazily(() =>
    import('./items/undoStack').then((m) =>
      m.createUndoStack({ db, api, viewer, items, pushNow: engine.pushNow, isOnline }),
    ),
  );
  // Export, import and what the device stores (papaparse stays out of Home).
  const transfer = lazily(() =>
    import('./transfer/dataTransfer').then((m) =>
      m.createDataTransfer({
        db,
        viewer,
        items,
        syncSoon: syncInBackground,
        // An export names each campaign's people as the server lists them, when it can ask now.
        members: async (campaignId) => {
          if (!isOnline() || viewer().isGuest) return null;
          const { data } = await api.get<{ members: CampaignMember[] }>(`/campaigns/${campaignId}/members`);
          return data.members.map((m) => ({ name: m.user.name, phone: m.user.phone || null, role: m.role }));
        },
      }),
    ),
  );
  const notifications = lazily(() =>
    import('./notifications/notifications').then((m) =>
      m.createNotifications({
        db,
        api,
        store: notificationState,
        isOnline,
        userId: () => (auth.getState().isAuthenticated ? auth.getState().user.id : 0),
      }),
    ),
  );
  const storage = createStorageKeeper();
  const search = createSearchPart({ db, api, viewer, isOnline });

  const services: ServiceContext = {
    db,
    api,
    auth,
    status,
    toasts,
    notificationState,
    connectivity,
    engine,
    viewer,
    notifications,
    syncInBackground,
    updateMutuals,
    options: { baseUrl: options.baseUrl ?? '', openPath: options.openPath ?? openInPage },
  };

  const restored = () => auth.getState().restore();
  const keepStorage = storage.keep;
  /** Each command namespace's context: the services it declared, and nothing else (commands/map.ts). */
  const contexts: CommandContexts = {
    items: { repository: items, db, keepStorage },
    undo: { undo },
    trash: { undo },
    transfer: { transfer },
    sync: { engine, db },
    device: { db },
    notifications: { notifications },
    contacts: { api, db, viewer, refreshMutuals: () => updateMutuals(true) },
    search: { search: search.search, db },
    server: { api },
    sharing: { api, engine },
    comments: { api, db, viewer, restored, pushNow: engine.pushNow, keepStorage },
    webhooks: { api },
    time: { api, db, viewer, restored, pushNow: engine.pushNow, keepStorage },
  };

  const running = createServiceRunner(services);

  let markScreenShown = () => {};
  const screenShown = new Promise<void>((resolve) => {
    markScreenShown = resolve;
  });
  return {
    db,
    api,
    auth,
    status,
    toasts,
    engine,
    /** The repository's writes, loaded on the first, once the remembered account is restored. */
    items,
    /** The device's reads for the viewer of now (reads/viewerReads.ts); useLive wraps them. */
    reads: viewerReads(db, viewer),
    /** Runs a command by name with its namespace's context (the door's `send`). */
    send: sendFor(contexts),
    /** Edits in place shown on the lists before they commit (localEcho.ts); live lists listen. */
    echo,
    search: search.search,
    viewer,
    /** The screen has drawn its first list from the device; start() asks the server after that paint. */
    screenShown: () => markScreenShown(),
    /** Undo and the trash (./items/undoStack.ts), loaded on first use. */
    undo,
    /** Export, import and what the device stores (./transfer/dataTransfer.ts), loaded on first use. */
    transfer,
    /** The signed-in user's notifications and Web Push (./notifications/notifications.ts), loaded on first use. */
    notifications,
    notificationState,
    /** Tells an open /tasks/{id} route that its temporary id became the server's. */
    onIdSwap(listener: (oldId: number, newId: number) => void): () => void {
      swapListeners.add(listener);
      return () => swapListeners.delete(listener);
    },
    /** The last background sync started by login, for tests and the Upgrade dialog. */
    lastSync: () => lastSync,
    /**
     * Guest init, then the services in three waves: at once; after the first screen has drawn what the
     * device holds; after the session check. Answers the stop of every service it started (close()
     * stops them too, W11); after a close, no further wave starts.
     */
    async start(): Promise<() => void> {
      const stop = running.stopAll;
      if (running.stopped()) return stop;
      auth.getState().initGuest();
      running.start([...AT_START, storage.service]);
      await auth.getState().restore();
      // The server is asked once the first screen has drawn what the device holds: its answer only
      // confirms the remembered account or turns the device back to guest, and its request (and the
      // sync after it) no longer competes with that first screen.
      await Promise.race([screenShown, new Promise((resolve) => setTimeout(resolve, FIRST_SCREEN_WAIT_MS))]);
      await afterPaint();
      if (!running.start([...AFTER_FIRST_SCREEN, search.service])) return stop;
      // A device that remembers no account and holds no session cookie is a guest's: asking the
      // server would only earn a 401 on every page load, and a guest's app calls no server.
      if (auth.getState().isAuthenticated || mayHaveSession()) await auth.getState().checkSession();
      else auth.getState().toGuest();
      running.start(AFTER_SESSION_CHECK);
      return stop;
    },
    /** Stops every service start() started (each once, the last first, W11), then closes the database. */
    close(): void {
      running.stopAll();
      search.dispose();
      db.close();
    },
  };
}

export type OutpostClient = ReturnType<typeof createOutpostClient>;
