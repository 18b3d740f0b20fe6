/**
 * The uploader's triggers and how it is made (./part.ts loads this module): the sync engine's
 * triggers (the app's start after a reload, coming online, a sign-in, each sync run's end, a temporary
 * item id becoming the server's) start a run when a file's bytes wait on the device. Loaded once there
 * is an account (a guest's files never go up) or a command asks for a run, never with the first screen;
 * the uploader's own code (./uploader.ts) loads later still, with the first file there is to send.
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
import { createSyncLock } from '../sync/locks';

/** What the uploader is made from: the client's parts that ./part.ts names. */
export interface UploadsDeps {
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
}

/** What the triggers follow (the service's context). */
export interface TriggerContext {
  auth: AuthStore;
  connectivity: Connectivity;
  status: SyncStatusStore;
}

/** The uploader behind its triggers: `kick` and `settled` as ./part.ts answers them, `start` the triggers. */
export function createUploads(deps: UploadsDeps) {
  const { db } = deps;
  let stopped = false;
  const load = lazily(async () => {
    const [{ createUploader }, { transportFor }] = await Promise.all([
      import('./uploader'),
      import('./transport'),
    ]);
    return createUploader({
      db,
      api: deps.api,
      send: transportFor(deps.trackedFetch, {
        baseUrl: deps.baseUrl,
        xsrfToken: deps.xsrfToken ?? browserXsrfToken,
        // A 401 to an upload goes to the auth store as the API client's does.
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
    /** Stops the uploader for good: no run starts after it. */
    stop(): void {
      stopped = true;
      if (load.started())
        void load().then(
          (uploader) => uploader.stop(),
          () => undefined,
        );
    },
    /** Starts the triggers; the answer stops them. */
    start({ auth, connectivity, status }: TriggerContext): () => void {
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
        for (const off of offs) off();
      };
    },
  };
}

export type UploadTriggers = ReturnType<typeof createUploads>;
