import type { OutpostDb } from '../store/db';

/**
 * Reads of screens Home does not show (the Calendar and the Timeline, a label's list, an item's time
 * panel, the time report) load with the first screen that asks, not with Home's first load. Such a
 * read answers undefined (loading) until its module has arrived; `laterReads` then tells the live
 * queries to run again (./live.ts useLive), and from then on it reads at once, so a live query
 * observes every row it reads (no await of anything but Dexie inside it).
 */
let version = 0;
const listeners = new Set<() => void>();

export const laterReads = {
  /** Moves each time a module of later reads has arrived. */
  version: (): number => version,
  subscribe(listener: () => void): () => void {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
};

/** A read whose module loads on its first call: undefined until then (a failed load is tried again). */
export function later<Args extends unknown[], R>(
  load: () => Promise<(db: OutpostDb, ...args: Args) => R>,
): (db: OutpostDb, ...args: Args) => R | undefined {
  let read: ((db: OutpostDb, ...args: Args) => R) | null = null;
  let loading = false;
  return (db, ...args) => {
    if (read) return read(db, ...args);
    if (!loading) {
      loading = true;
      load().then(
        (loaded) => {
          read = loaded;
          version += 1;
          for (const listener of listeners) listener();
        },
        () => {
          loading = false;
        },
      );
    }
    return undefined;
  };
}
