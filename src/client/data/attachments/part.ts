/**
 * The uploader's part of the client (composed by client.ts, ARCHITECTURE §6) and what starts it: the
 * sync engine's triggers (the app's start after a reload, coming online, a sign-in, each sync run's
 * end, a temporary item id becoming the server's) and the commands that add or retry a file. Its code
 * loads with the first file there is to send (./uploader.ts), never with the first screen.
 */
import { type AuthStore, unauthorizedHooks } from '../../stores/authStore';
import type { SyncStatusStore } from '../../stores/syncStatusStore';
import type { ToastStore } from '../../stores/toastStore';
import { lazily } from '../lazy';
import { type ApiClient, browserXsrfToken, type FetchLike } from '../net/apiClient';
import type { Connectivity } from '../net/connectivity';
import type { OutpostDb } from '../store/db';
import type { Viewer } from '../store/types';
import type { LazyEngine } from '../sync/lazyEngine';
import type { createSyncLock } from '../sync/locks';

export interface Uploads {
  /** A run of the uploader: now, or once the one under way ends. */
  kick(): void;
  /** Resolves once no upload run is under way or asked for (tests wait on it). */
  settled(): Promise<void>;
  /** Starts the triggers (AFTER_SESSION_CHECK in client.ts). */
  service: {
    name: string;
    start(ctx: { auth: AuthStore; connectivity: Connectivity; status: SyncStatusStore }): () => void;
  };
}

export const uploadsPart = {
  name: 'uploads',
  needs: [
    'db',
    'api',
    'viewer',
    'isOnline',
    'trackedFetch',
    'baseUrl',
    'xsrfToken',
    'toasts',
    'download',
    'idSwaps',
    'locks',
    'engine',
  ],
  // A 401 to an upload goes to the auth store as the API client's does.
  later: ['auth'],
  create(deps: {
    db: OutpostDb;
    api: ApiClient;
    viewer: () => Viewer;
    isOnline: () => boolean;
    trackedFetch: FetchLike;
    baseUrl: string;
    xsrfToken: (() => string | null) | undefined;
    toasts: ToastStore;
    download: (file: { name: string; mime: string; text: string }) => void;
    idSwaps: { listen: (listener: () => void) => () => void };
    /** Web Locks; null disables them (tests run several "devices" in one process). */
    locks: Parameters<typeof createSyncLock>[1] | undefined;
    engine: LazyEngine;
    auth: () => AuthStore;
  }): Uploads {
    const { db } = deps;
    let stopped = false;
    const load = lazily(async () => {
      const [{ createUploader }, { transportFor }, { createSyncLock }] = await Promise.all([
        import('./uploader'),
        import('./transport'),
        import('../sync/locks'),
      ]);
      return createUploader({
        db,
        api: deps.api,
        send: transportFor(deps.trackedFetch, {
          baseUrl: deps.baseUrl,
          xsrfToken: deps.xsrfToken ?? browserXsrfToken,
          ...unauthorizedHooks(deps.auth),
        }),
        viewer: deps.viewer,
        isOnline: deps.isOnline,
        // Its own lock, not the sync run's: the queue never waits for a file (A2).
        lock: createSyncLock(`outpost-upload:${db.name}`, deps.locks),
        toast: deps.toasts.getState().push,
        download: deps.download,
        pushNow: deps.engine.pushNow,
      });
    });
    const starting = new Set<Promise<unknown>>();
    const kick = () => {
      if (stopped) return;
      const work = load().then((uploader) => (stopped ? undefined : uploader.kick()));
      starting.add(work);
      const done = () => starting.delete(work);
      work.then(done, done);
    };
    /** A trigger: the uploader's code loads only when a file's bytes wait on the device. */
    const kickIfAny = () => {
      if (stopped || deps.viewer().isGuest || !deps.isOnline()) return;
      if (load.started()) return kick();
      void db.fileBlobs
        .limit(1)
        .primaryKeys()
        .then((keys) => (keys.length > 0 ? kick() : undefined))
        .catch(() => undefined);
    };
    return {
      kick,
      async settled() {
        for (;;) {
          if (starting.size > 0) await Promise.allSettled([...starting]);
          if (!load.started()) return;
          await (await load()).settled();
          if (starting.size === 0) return;
        }
      },
      service: {
        name: 'uploads',
        start({ auth, connectivity, status }) {
          // A5: after a reload, a waiting file starts again from its Blob.
          kickIfAny();
          const offs = [
            connectivity.subscribe((online) => (online ? kickIfAny() : undefined)),
            auth.subscribe((state, prev) => {
              if (state.isAuthenticated && !prev.isAuthenticated) kickIfAny();
            }),
            // Each sync run's end: its pushes may have put items on the server (A3), its pull may
            // have brought a file's twin; the queue's cadence is the uploader's too (A5).
            status.subscribe((state, prev) => {
              if (prev.syncing && !state.syncing) kickIfAny();
            }),
            // A3: an item's create answered by a write's own push.
            deps.idSwaps.listen(() => kickIfAny()),
          ];
          return () => {
            stopped = true;
            for (const off of offs) off();
            if (load.started())
              void load().then(
                (uploader) => uploader.stop(),
                () => undefined,
              );
          };
        },
      },
    };
  },
} as const;
