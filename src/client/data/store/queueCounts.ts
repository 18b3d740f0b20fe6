import Dexie, { type IndexableType, type ObservabilitySet } from 'dexie';
import type { SyncStatusStore } from '../../stores/syncStatusStore';
import { conflictedCollection, type OutpostDb } from './db';
import { keysOfPart } from './mutatedParts';

/** Runs `cb` once on the next frame (a timer when the tab is hidden or there are no frames, as in Node). */
function nextFrame(cb: () => void): void {
  const hidden = typeof document !== 'undefined' && document.visibilityState === 'hidden';
  if (typeof requestAnimationFrame === 'function' && !hidden) requestAnimationFrame(() => cb());
  else setTimeout(cb, 16);
}

/**
 * Keeps the badge's pending and conflict counts live from IndexedDB: only the tab holding the sync
 * lock replays the queue, but every tab's badge must say what is still waiting.
 *
 * O(1) per write, not a count of the whole queue after each one: the queue's ids are read once, then
 * each committed change (this tab's or another's, Dexie's 'storagemutated') names the entries it
 * touched, and only those are looked up. Changes are gathered and applied once per frame, so a burst
 * of writes costs one small read; a change that names a range (clear, bulk writes) reads the ids
 * again. Conflicts are counted from their index only when a change may have moved it.
 */
export function watchQueueCounts(db: OutpostDb, status: SyncStatusStore): () => void {
  const queuePart = `idb://${db.name}/syncQueue/`;
  const conflictPart = `idb://${db.name}/items/_conflict`;
  const unknownItemsPart = `idb://${db.name}/items/:dels`;
  let ids: Set<IndexableType> | null = null;
  const touched = new Set<IndexableType>();
  let reloadQueue = true;
  let recountConflicts = true;
  let scheduled = false;
  let stopped = false;
  let chain: Promise<void> = Promise.resolve();

  async function flush(): Promise<void> {
    const reload = reloadQueue || ids === null;
    const keys = [...touched];
    const conflicts = recountConflicts;
    reloadQueue = false;
    recountConflicts = false;
    touched.clear();
    const [queued, conflictCount] = await Promise.all([
      reload
        ? db.syncQueue.toCollection().primaryKeys()
        : keys.length > 0
          ? db.syncQueue.where(':id').anyOf(keys).primaryKeys()
          : null,
      conflicts ? conflictedCollection(db).count() : null,
    ]);
    if (stopped) return;
    if (reload) ids = new Set(queued);
    else if (queued && ids) {
      const present = new Set<IndexableType>(queued);
      for (const key of keys) {
        if (present.has(key)) ids.add(key);
        else ids.delete(key);
      }
    }
    const patch: { pendingCount?: number; conflictCount?: number } = {};
    if (ids) patch.pendingCount = ids.size;
    if (conflictCount !== null) patch.conflictCount = conflictCount;
    status.getState().set(patch);
  }

  function schedule(): void {
    if (scheduled || stopped) return;
    scheduled = true;
    nextFrame(() => {
      scheduled = false;
      // One read at a time, in order: a later change is never overwritten by an earlier answer.
      chain = chain.then(flush).catch(() => {
        // A closed database (Clear Local Data) ends the watch; the page reloads after that anyway.
        reloadQueue = true;
        recountConflicts = true;
      });
    });
  }

  const onMutated = (parts: ObservabilitySet) => {
    let changed = false;
    const queue = parts[queuePart];
    if (queue && queue.d !== 0) {
      const keys = keysOfPart(queue);
      if (keys === null) reloadQueue = true;
      else for (const key of keys) touched.add(key);
      changed = true;
    }
    const conflict = parts[conflictPart];
    const unknown = parts[unknownItemsPart];
    if ((conflict && conflict.d !== 0) || (unknown && unknown.d !== 0)) {
      recountConflicts = true;
      changed = true;
    }
    if (changed) schedule();
  };
  Dexie.on('storagemutated', onMutated);
  schedule();
  return () => {
    stopped = true;
    Dexie.on('storagemutated').unsubscribe(onMutated);
  };
}

/** The badge's pending and conflict counts follow the queue, whichever tab wrote it. */
export const queueCountsService = {
  name: 'queue counts',
  start: ({ db, status }: { db: OutpostDb; status: SyncStatusStore }): (() => void) =>
    watchQueueCounts(db, status),
};
