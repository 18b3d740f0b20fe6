/**
 * Sync's parts of the client (composed by client.ts, ARCHITECTURE §6): the engine, loaded on first
 * use, and what it tells the rest of the client. The features' queue kinds come to it as a need
 * (`syncFeatures`), so sync names no feature.
 */
import type { SyncStatusStore } from '../../stores/syncStatusStore';
import type { ToastStore } from '../../stores/toastStore';
import type { FetchLike } from '../net/apiClient';
import type { SyncResult } from '.';
import { type LazyEngine, type LazyEngineDeps, lazySyncEngine } from './lazyEngine';
import { createSyncLock } from './locks';
import { trackReachability } from './reachability';

/** R2: every answer, or its absence while online, tells the badge whether the server is reachable. */
export const trackedFetchPart = {
  name: 'trackedFetch',
  needs: ['fetch', 'status', 'isOnline'],
  create: ({
    fetch,
    status,
    isOnline,
  }: {
    fetch: FetchLike;
    status: SyncStatusStore;
    isOnline: () => boolean;
  }) => trackReachability(fetch, status, isOnline),
} as const;

/** Who is told when a temporary id became the server's (an open /tasks/{id} route). */
export const idSwapsPart = {
  name: 'idSwaps',
  needs: [],
  create() {
    const listeners = new Set<(oldId: number, newId: number) => void>();
    return {
      tell(oldId: number, newId: number): void {
        for (const listener of listeners) listener(oldId, newId);
      },
      /** Adds a listener; the answer removes it. */
      listen(listener: (oldId: number, newId: number) => void): () => void {
        listeners.add(listener);
        return () => listeners.delete(listener);
      },
    };
  },
} as const;

/** The sync engine (./lazyEngine.ts): push, pull and conflicts, loaded on first use. */
export const enginePart = {
  name: 'engine',
  needs: [
    'syncFeatures',
    'download',
    'db',
    'api',
    'viewer',
    'isOnline',
    'status',
    'toasts',
    'locks',
    'idSwaps',
    'funnel',
  ],
  create({
    syncFeatures,
    download,
    db,
    api,
    viewer,
    isOnline,
    status,
    toasts,
    locks,
    idSwaps,
    funnel,
  }: Pick<LazyEngineDeps, 'download' | 'db' | 'api' | 'viewer' | 'isOnline' | 'status' | 'funnel'> & {
    syncFeatures: LazyEngineDeps['features'];
    toasts: ToastStore;
    /** Web Locks; null disables them (tests run several "devices" in one process). */
    locks: Parameters<typeof createSyncLock>[1] | undefined;
    idSwaps: { tell: (oldId: number, newId: number) => void };
  }): LazyEngine {
    return lazySyncEngine({
      features: syncFeatures,
      // The kept changes' export (Q12) downloads as the transfer's files do.
      download,
      db,
      api,
      viewer,
      isOnline,
      status,
      toast: toasts.getState().push,
      lock: createSyncLock(`outpost-sync:${db.name}`, locks),
      onIdSwap: idSwaps.tell,
      funnel,
    });
  },
} as const;

/** A sync run started in the background (after a sign-in, an import), and the last one started. */
export const backgroundSyncPart = {
  name: 'backgroundSync',
  needs: ['engine'],
  create({ engine }: { engine: LazyEngine }) {
    let last: Promise<SyncResult> | null = null;
    return {
      run(): Promise<SyncResult> {
        last = engine.sync();
        return last;
      },
      last: (): Promise<SyncResult> | null => last,
    };
  },
} as const;
