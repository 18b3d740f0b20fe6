import type { UserSummary } from '../../shared/item';
import { isVisitorXsrf } from '../../shared/visitorXsrf';
import { type AuthStore, createAuthStore } from '../stores/authStore';
import { createNotificationStore, type NotificationStore } from '../stores/notificationStore';
import { createSyncStatusStore, type SyncStatusStore } from '../stores/syncStatusStore';
import { createToastStore, type ToastStore } from '../stores/toastStore';
import { uploadsPart } from './attachments/part';
import { echoPart, funnelPart } from './changes/part';
import { sendFor } from './commands/map';
import { contextsPart } from './commands/part';
import { mutualsService } from './contacts/mutualsService';
import { updateMutualsPart } from './contacts/part';
import { itemsPart, undoPart } from './items/part';
import { remindersService } from './items/remindersService';
import { lazily } from './lazy';
import { type ApiClient, browserXsrfToken, type FetchLike } from './net/apiClient';
import { browserConnectivity, type Connectivity } from './net/connectivity';
import { connectivityService } from './net/connectivityService';
import { apiPart } from './net/part';
import { authAcrossTabsService } from './net/tabsService';
import { notificationsService } from './notifications/notificationsService';
import { notificationsPart } from './notifications/part';
import { readsPart, viewerPart } from './reads/part';
import { searchPart } from './search/part';
import { composeParts, createServiceRunner, type Service } from './service';
import { DB_NAME, getMeta, META_KEYS, type OutpostDb, setMeta } from './store/db';
import { dbPart, storagePart } from './store/part';
import { queueCountsService } from './store/queueCounts';
import { askFirstPageAhead, checkFreshDevice } from './sync/firstPage';
import type { LazyEngine, LazyEngineDeps } from './sync/lazyEngine';
import type { createSyncLock } from './sync/locks';
import { backgroundSyncPart, enginePart, idSwapsPart, trackedFetchPart } from './sync/part';
import { syncService } from './sync/syncService';
import { downloadPart, transferPart } from './transfer/part';

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

/** The features' queue kinds for the sync engine: the composition names them, sync/ does not. */
const syncFeaturesPart = {
  name: 'syncFeatures',
  needs: [],
  create() {
    // The features' parts in sync (sync/kinds.ts), loaded with the engine: the comments', time
    // entries' and files' queue kinds, what pulled pages carry of them, and a guest's going up.
    const syncFeatures = lazily(() =>
      Promise.all([
        import('./sync/kinds'),
        import('./comments/commentSync'),
        import('./timeEntries/timeSync'),
        import('./attachments/attachmentSync'),
      ]).then(([kinds, comments, time, files]) =>
        kinds.syncRegistry([comments.commentSync, time.timeSync, files.attachmentSync]),
      ),
    );
    return syncFeatures;
  },
} as const;

/**
 * The auth store, and what a sign-in does on the device: another account's data goes, a guest's goes
 * up, then a sync. The engine is made after it (it reads the viewer), so it is called later.
 */
const authPart = {
  name: 'auth',
  needs: ['api', 'db', 'funnel', 'syncFeatures'],
  later: ['engine', 'backgroundSync'],
  create({
    api,
    db,
    funnel,
    syncFeatures,
    engine,
    backgroundSync,
  }: {
    api: ApiClient;
    db: OutpostDb;
    funnel: LazyEngineDeps['funnel'];
    syncFeatures: LazyEngineDeps['features'];
    engine: () => LazyEngine;
    backgroundSync: () => { run: () => unknown };
  }): AuthStore {
    const auth = createAuthStore({
      api: () => api,
      remember: async (user) => setMeta(db, META_KEYS.account, user),
      recall: async () => (await getMeta<UserSummary | null>(db, META_KEYS.account)) ?? null,
      // The sign-in's and sign-out's steps load when they run (./signInSteps.ts), not with Home.
      onLogin: async (user, wasGuest) =>
        (await import('./signInSteps')).afterSignIn(
          { db, api, funnel, syncFeatures, engine: engine(), backgroundSync: backgroundSync() },
          user,
          wasGuest,
        ),
      beforeLogin: () => {
        // A fresh device creates its database and reads its cursor while the sign-in is out, not
        // after: the answer then asks for the first page at once (L16).
        checkFreshDevice(db, api);
        engine().prepare();
        // What afterSignIn runs on a fresh device, both at once rather than one after the other.
        void import('./signInSteps').catch(() => undefined);
        void import('./sync/deviceWipe').catch(() => undefined);
      },
      // L16: the first page is asked for as the answer arrives, before the screen moves to Home.
      signInAnswered: () => askFirstPageAhead(db, api),
      passkeySignIn: async () => (await import('./signInSteps')).passkeySignIn(api),
      onLogout: async () => (await import('./signInSteps')).afterSignOut(db, api),
    });
    // The device starts as the account it remembers; the session check confirms it later (start()).
    void auth.getState().restore();
    return auth;
  },
} as const;

/** Every part of the client (each folder's part.ts), made in need order by composeParts. */
const PARTS = [
  dbPart,
  trackedFetchPart,
  apiPart,
  viewerPart,
  syncFeaturesPart,
  downloadPart,
  idSwapsPart,
  funnelPart,
  enginePart,
  backgroundSyncPart,
  authPart,
  updateMutualsPart,
  echoPart,
  itemsPart,
  undoPart,
  transferPart,
  notificationsPart,
  storagePart,
  searchPart,
  readsPart,
  uploadsPart,
  contextsPart,
] as const;

/** Started at once: they need nothing from the server. */
const AT_START: readonly Service[] = [authAcrossTabsService, queueCountsService, mutualsService];
/** Started once the first screen has drawn what the device holds, so they never compete with it. */
const AFTER_FIRST_SCREEN: readonly Service[] = [remindersService];
/** Started once the server has confirmed (or refused) the remembered account. */
const AFTER_SESSION_CHECK: readonly Service[] = [notificationsService, connectivityService, syncService];

/** Everything the screens need, made from the parts; tests make one per simulated device. */
export function createOutpostClient(options: OutpostClientOptions = {}) {
  const connectivity = options.connectivity ?? browserConnectivity();
  // What the page (or a test) gives: the stores it shares, and how to reach IndexedDB and the server.
  const parts = composeParts(
    {
      dbName: options.dbName ?? DB_NAME,
      idb:
        options.indexedDB && options.IDBKeyRange
          ? { indexedDB: options.indexedDB, IDBKeyRange: options.IDBKeyRange }
          : undefined,
      baseUrl: options.baseUrl ?? '',
      fetch: options.fetch ?? (((input, init) => globalThis.fetch(input, init)) as FetchLike),
      xsrfToken: options.xsrfToken,
      locks: options.locks,
      openPath: options.openPath ?? openInPage,
      connectivity,
      isOnline: () => connectivity.isOnline(),
      toasts: options.toastStore ?? createToastStore(),
      status: options.statusStore ?? createSyncStatusStore(connectivity.isOnline()),
      notificationState: options.notificationStore ?? createNotificationStore(),
    },
    PARTS,
  );
  const { db, auth, search } = parts;
  // Any session, signed in or not, sets the readable anti-forgery cookie beside its own; a visitor's
  // is marked (the tutorial's code request fetches one before the sign-in), and no account stands
  // behind it. Outside a browser without that cookie (tests with their own jar), the server is asked.
  const readXsrf = options.xsrfToken ?? browserXsrfToken;
  const mayHaveSession = () => {
    const xsrf = readXsrf();
    if (xsrf !== null && isVisitorXsrf(xsrf)) return false;
    return typeof document === 'undefined' || xsrf !== null;
  };

  // Every service may use the client's parts (ServiceContext names them), never another service.
  const running = createServiceRunner({
    ...parts,
    syncInBackground: parts.backgroundSync.run,
    options: { baseUrl: parts.baseUrl, openPath: parts.openPath },
  });

  let markScreenShown = () => {};
  const screenShown = new Promise<void>((resolve) => {
    markScreenShown = resolve;
  });
  return {
    db,
    api: parts.api,
    auth,
    status: parts.status,
    toasts: parts.toasts,
    engine: parts.engine,
    /** The repository's writes, loaded on the first, once the remembered account is restored. */
    items: parts.items,
    /** The device's reads for the viewer of now (reads/viewerReads.ts); useLive wraps them. */
    reads: parts.reads,
    /** Runs a command by name with its namespace's context (the door's `send`). */
    send: sendFor(parts.contexts),
    /** Edits in place shown on the lists before they commit (localEcho.ts); live lists listen. */
    echo: parts.echo,
    search: search.search,
    viewer: parts.viewer,
    /** The screen has drawn its first list from the device; start() asks the server after that paint. */
    screenShown: () => markScreenShown(),
    /** Undo and the trash (./items/undoStack.ts), loaded on first use. */
    undo: parts.undo,
    /** Export, import and what the device stores (./transfer/dataTransfer.ts), loaded on first use. */
    transfer: parts.transfer,
    /** The signed-in user's notifications and Web Push (./notifications/notifications.ts), loaded on first use. */
    notifications: parts.notifications,
    notificationState: parts.notificationState,
    /** Tells an open /tasks/{id} route that its temporary id became the server's. */
    onIdSwap: parts.idSwaps.listen,
    /** The last background sync started by login, for tests and the Upgrade dialog. */
    lastSync: parts.backgroundSync.last,
    /** The files' uploader beside the queue (./attachments/part.ts): `settled` for tests. */
    uploads: parts.uploads,
    /**
     * Guest init, then the services in three waves: at once; after the first screen has drawn what the
     * device holds; after the session check. Answers the stop of every service it started (close()
     * stops them too, W11); after a close, no further wave starts.
     */
    async start(): Promise<() => void> {
      const stop = running.stopAll;
      if (running.stopped()) return stop;
      auth.getState().initGuest();
      running.start([...AT_START, parts.storage.service]);
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
      running.start([...AFTER_SESSION_CHECK, parts.uploads.service]);
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
