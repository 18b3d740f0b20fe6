/**
 * The sync engine behind the same methods, loaded on first use: a guest who never signs in never
 * downloads the push, pull, conflict and upgrade code (bench/bundle.ts budgets Home's first load).
 */
import { lazily } from '../lazy';
import { conflictedCollection } from '../store/db';
import type { SyncEngine, SyncEngineDeps } from '.';
import type { Funnel } from './context';
import type { SyncRegistry } from './kinds';

type SyncTriggers = Parameters<SyncEngine['start']>[0];

export type LazyEngine = ReturnType<typeof lazySyncEngine>;

/**
 * The engine's dependencies; the funnel (changes/applyLocalChange.ts) and the features' hooks
 * (./kinds.ts) load with it: the composition names them, sync/ does not.
 */
export type LazyEngineDeps = Omit<SyncEngineDeps, 'funnel' | 'features'> & {
  funnel: () => Promise<Funnel>;
  features: () => Promise<SyncRegistry>;
};

export function lazySyncEngine(deps: LazyEngineDeps) {
  const { db } = deps;
  const load = lazily(() =>
    Promise.all([import('.'), deps.funnel(), deps.features()]).then(([m, funnel, features]) =>
      m.createSyncEngine({ ...deps, funnel, features }),
    ),
  );
  let loaded = false;
  // Calls made before the engine has loaded, so `settled` waits for them too.
  const starting = new Set<Promise<unknown>>();
  function track<T>(work: Promise<T>): Promise<T> {
    starting.add(work);
    const done = () => starting.delete(work);
    work.then(done, done);
    return work;
  }
  /** Runs `use` on the engine, loading it first when needed. */
  const withEngine = <T>(use: (engine: SyncEngine) => Promise<T>): Promise<T> => {
    loaded = true;
    return load().then(use);
  };
  return {
    sync: (...args: Parameters<SyncEngine['sync']>) => track(withEngine((e) => e.sync(...args))),
    pushNow: (entryId: string) => track(withEngine((e) => e.pushNow(entryId))),
    /**
     * Resolves when no push or sync run is under way and none is waiting to start (W2: a write only
     * starts its push). Tests wait on it where they mean "after it synced"; see SyncEngine.settled.
     */
    async settled(): Promise<void> {
      for (;;) {
        if (starting.size > 0) await Promise.allSettled([...starting]);
        if (!loaded) return;
        await (await load()).settled();
        if (starting.size === 0) return;
      }
    },
    resolveConflicts: (...args: Parameters<SyncEngine['resolveConflicts']>) =>
      withEngine((e) => e.resolveConflicts(...args)),
    // The conflict list is watched on every screen; with none stored (always, for a guest) it needs no engine.
    listConflicts: async () =>
      loaded || (await conflictedCollection(db).count()) > 0 ? withEngine((e) => e.listConflicts()) : [],
    refreshStatus: () => withEngine((e) => e.refreshStatus()),
    /** Loads the engine without using it (a sign-in under way will): a failure waits for the first use. */
    prepare: () => void load().catch(() => undefined),
    pull: () => withEngine((e) => e.pull()),
    pushQueue: (...args: Parameters<SyncEngine['pushQueue']>) => withEngine((e) => e.pushQueue(...args)),
    /** Starts the triggers once the engine has loaded; the stop function works before that too. */
    start(triggers: SyncTriggers): () => void {
      let stop: (() => void) | null = null;
      let stopped = false;
      void withEngine(async (e) => {
        if (!stopped) stop = e.start(triggers);
      });
      return () => {
        stopped = true;
        stop?.();
      };
    },
  };
}
