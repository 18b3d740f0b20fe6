import Dexie, { type IndexableType, type IntervalTree, type ObservabilitySet, RangeSet } from 'dexie';
import type { AuthStore } from '../../stores/authStore';
import type { SyncStatusStore } from '../../stores/syncStatusStore';
import { conflictedCollection, type OutpostDb } from '../store/db';

type AuthMessage = { type: 'signed-out' } | { type: 'signed-in'; userId: number };

/**
 * Signing out in one tab signs out every tab of the browser profile, and signing in in one makes the
 * others check the (shared) session cookie: without it a second tab would keep showing an account
 * whose session the server has already deleted until its next request failed.
 */
export function shareAuthAcrossTabs(
  auth: AuthStore,
  channelName: string,
  onSignedInElsewhere: () => void,
): () => void {
  if (typeof BroadcastChannel === 'undefined') return () => {};
  const channel = new BroadcastChannel(channelName);
  // Applying another tab's change must not echo it back as this tab's own.
  let applying = false;
  channel.onmessage = (event: MessageEvent<AuthMessage>) => {
    const message = event.data;
    const state = auth.getState();
    applying = true;
    try {
      if (message.type === 'signed-out' && state.isAuthenticated) state.toGuest();
      if (message.type === 'signed-in' && (!state.isAuthenticated || state.user.id !== message.userId)) {
        onSignedInElsewhere();
      }
    } finally {
      applying = false;
    }
  };
  const off = auth.subscribe((state, prev) => {
    if (applying) return;
    if (prev.isAuthenticated && !state.isAuthenticated) {
      channel.postMessage({ type: 'signed-out' } satisfies AuthMessage);
    } else if (state.isAuthenticated && (!prev.isAuthenticated || prev.user.id !== state.user.id)) {
      channel.postMessage({ type: 'signed-in', userId: state.user.id } satisfies AuthMessage);
    }
  });
  return () => {
    off();
    channel.close();
  };
}

/** Keys named by a mutated part (a Dexie RangeSet tree), or null when it holds a range (clear, bulk writes). */
export function keysOfPart(part: IntervalTree | undefined): IndexableType[] | null {
  if (!part || part.d === 0) return [];
  const keys: IndexableType[] = [];
  for (const node of RangeSet(part)) {
    if (node.from !== node.to) return null;
    keys.push(node.from);
  }
  return keys;
}

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
