import { type Item, isTombstone, type SyncChange, type SyncPage } from '../../shared/item';
import { deleteConflicts, mergeEdits } from '../../shared/merge';
import type { PatchableField } from '../../shared/schemas';
import type { SyncStatusStore } from '../stores/syncStatusStore';
import type { ToastInput } from '../stores/toastStore';
import { type ApiClient, ApiError, isNetworkError } from './apiClient';
import { conflictedCollection, getMeta, META_KEYS, nextCounter, type OutpostDb, setMeta } from './db';
import { moveGuestDataToAccount, upgradeProgress } from './guestUpgrade';
import { fromServer, mergeBase, toServerShape, usersOf } from './localItems';
import { BUSY, createSyncLock, type SyncLock } from './locks';
import {
  applyConfirmed,
  enqueue,
  entriesFor,
  rebaseEntries,
  removeLocally,
  restoreDescendants,
  settleAfterDrop,
} from './syncQueue';
import { swapTempId } from './tempIds';
import type { ConflictType, LocalItem, QueueEntry, Viewer } from './types';

export const SYNC_INTERVAL_MS = 30_000;
export const MAX_RETRIES = 3;
/** How long to hold the queue after a 429 that carries no Retry-After. */
export const DEFAULT_RETRY_AFTER_S = 30;
const MAX_PAGES = 10_000;

export type PushOutcome =
  | { kind: 'done'; itemId: number }
  | { kind: 'dropped'; error: ApiError }
  | { kind: 'retry'; error: ApiError }
  | { kind: 'network'; error: ApiError }
  | { kind: 'conflict' }
  | { kind: 'held'; error?: ApiError }
  | { kind: 'unauthorized'; error: ApiError }
  | { kind: 'queued' };

export interface SyncResult {
  skipped?: 'guest' | 'offline' | 'syncing';
  pushed: number;
  dropped: number;
  pulled: number;
  conflicts: number;
  stopped: PushOutcome['kind'] | null;
  error?: unknown;
}

export interface Conflict {
  itemId: number;
  type: ConflictType;
  /** The local copy (for a local delete it is the item as it was before deleting). */
  local: LocalItem;
  /** The server copy; null when the server deleted the item. */
  remote: Item | null;
}

export type Resolution = 'local' | 'remote';

export interface SyncEngineDeps {
  db: OutpostDb;
  api: ApiClient;
  viewer: () => Viewer & { user: import('../../shared/item').UserSummary };
  isOnline: () => boolean;
  status: SyncStatusStore;
  toast: (t: ToastInput) => void;
  lock?: SyncLock;
  onIdSwap?: (oldId: number, newId: number) => void;
}

const TABLES = ['items', 'syncQueue', 'meta', 'users'] as const;

function entryKind(entry: QueueEntry): string {
  if (entry.method === 'POST' && entry.url.endsWith('/assign')) return 'assignment';
  return entry.method === 'POST' ? 'new item' : entry.method === 'PATCH' ? 'change' : 'delete';
}

/** A create payload from a local item: the fields POST /api/items accepts. */
export function createPayload(item: LocalItem): Record<string, unknown> {
  return {
    title: item.title,
    type: item.type,
    parent_id: item.parent_id,
    status: item.status,
    description: item.description,
    assigned_to: item.assigned_to,
    due_date: item.due_date,
    end_date: item.end_date,
    uuid: item.uuid,
  };
}

function patchPayload(item: LocalItem, fields: readonly PatchableField[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const f of fields) out[f] = item[f] ?? null;
  return out;
}

/**
 * Applies one pulled page and its cursor in one transaction: new items are added, synced ones
 * replaced, pending ones merged by version (a conflict only when the same field changed on both sides).
 */
export async function applyPulled(
  db: OutpostDb,
  items: readonly SyncChange[],
  cursor: string,
): Promise<number> {
  let conflicts = 0;
  await db.transaction('rw', [...TABLES], async () => {
    const existing = await db.items.bulkGet(items.map((i) => i.id));
    let temps: Map<string, LocalItem> | null = null;
    const puts = new Map<number, LocalItem>();
    const deletes: number[] = [];
    const users = new Map<number, Item['created_by']>();
    for (let index = 0; index < items.length; index++) {
      const remote = items[index]!;
      let local = existing[index];
      if (!local && remote.uuid) {
        // A create whose answer never arrived: the server has it, the device still has the temporary id.
        temps ??= new Map((await db.items.where('id').below(0).toArray()).map((t) => [t.uuid ?? '', t]));
        const temp = temps.get(remote.uuid);
        if (temp) {
          await swapTempId(db, temp.id, remote.id);
          local = await db.items.get(remote.id);
        }
      }
      if (isTombstone(remote)) {
        if (!local || local._syncStatus === 'local') continue;
        if (local._syncStatus === 'synced' && local._conflict === null) deletes.push(local.id);
        else if (local._deleted === 1) {
          deletes.push(local.id);
          await db.syncQueue.where('itemId').equals(local.id).delete();
        } else {
          puts.set(local.id, { ...local, _conflict: 'delete', _remote: null });
          conflicts++;
        }
        continue;
      }
      for (const u of usersOf(remote)) users.set(u.id, u);
      if (!local) {
        puts.set(remote.id, fromServer(remote));
        continue;
      }
      if (local._syncStatus === 'local') continue;
      if (local._syncStatus === 'synced' && local._conflict === null) {
        if (remote.version >= local.version) puts.set(remote.id, fromServer(remote, local._localVersion));
        continue;
      }
      if (local._conflict !== null) {
        puts.set(local.id, { ...local, _remote: remote });
        conflicts++;
        continue;
      }
      const base = mergeBase(local);
      if (base && remote.version <= base.version) continue;
      if (local._deleted === 1) {
        if (deleteConflicts(base?.version ?? null, remote.version)) {
          puts.set(local.id, { ...local, _conflict: 'delete', _remote: remote });
          conflicts++;
        }
        continue;
      }
      const merge = mergeEdits({
        base: base ?? remote,
        local: toServerShape(local),
        remote,
        dirty: local._dirty,
      });
      if (merge.conflicts.length > 0) {
        puts.set(local.id, { ...local, _conflict: 'update', _remote: remote });
        conflicts++;
        continue;
      }
      const completedAt = local._dirty.includes('status') ? local.completed_at : remote.completed_at;
      puts.set(local.id, { ...local, ...merge.merged, completed_at: completedAt, _base: remote });
      await rebaseEntries(db, local.id, remote.version);
    }
    if (deletes.length > 0) await db.items.bulkDelete(deletes);
    if (puts.size > 0) await db.items.bulkPut([...puts.values()]);
    if (users.size > 0) await db.users.bulkPut([...users.values()]);
    await setMeta(db, META_KEYS.cursor, cursor);
  });
  return conflicts;
}

/** The open conflicts, for the conflict dialog. */
export async function listConflicts(db: OutpostDb): Promise<Conflict[]> {
  const items = await conflictedCollection(db).toArray();
  return items.map((i) => ({ itemId: i.id, type: i._conflict!, local: i, remote: i._remote }));
}

/** The wait before the next periodic sync: the interval ±20 %, so a user's devices do not knock in step. */
export function nextSyncDelay(
  interval: number = SYNC_INTERVAL_MS,
  random: () => number = Math.random,
): number {
  return Math.round(interval * (0.8 + 0.4 * random()));
}

export type SyncEngine = ReturnType<typeof createSyncEngine>;

/** The sync engine: pushes the queue, pulls from the cursor, holds conflicts; one tab at a time. */
export function createSyncEngine(deps: SyncEngineDeps) {
  const { db, api, status } = deps;
  const lock = deps.lock ?? createSyncLock(`outpost-sync:${db.name}`);
  let again = false;
  let timer: ReturnType<typeof setTimeout> | null = null;
  // After a 429 the server asked for a pause: nothing is replayed before `heldUntil`, and one run is
  // scheduled for when it ends. The change stays queued: the limit is not the change's fault.
  let heldUntil = 0;
  let holdTimer: ReturnType<typeof setTimeout> | null = null;

  function holdFor(error: ApiError): void {
    const wasHeld = Date.now() < heldUntil;
    const ms = Math.max(1, error.retryAfter ?? DEFAULT_RETRY_AFTER_S) * 1000;
    heldUntil = Date.now() + ms;
    if (holdTimer) clearTimeout(holdTimer);
    holdTimer = setTimeout(() => {
      holdTimer = null;
      void sync();
    }, ms);
    // Once per pause, so a burst of writes does not stack up toasts; the server's text names the wait.
    if (!wasHeld) deps.toast({ title: 'Slow down', description: error.message, variant: 'destructive' });
  }

  async function refreshStatus(): Promise<void> {
    const [pendingCount, conflictCount, lastSyncAt, upgrade] = await Promise.all([
      db.syncQueue.count(),
      conflictedCollection(db).count(),
      getMeta<string>(db, META_KEYS.lastSyncAt),
      upgradeProgress(db),
    ]);
    status.getState().set({ pendingCount, conflictCount, lastSyncAt: lastSyncAt ?? null, upgrade });
  }

  async function hasConflicts(): Promise<boolean> {
    return (await conflictedCollection(db).count()) > 0;
  }

  async function drop(entry: QueueEntry, error: ApiError, silent: boolean): Promise<void> {
    const item = await db.items.get(entry.itemId);
    await db.transaction('rw', [...TABLES], async () => {
      await db.syncQueue.delete(entry.id);
      await settleAfterDrop(db, entry.itemId);
    });
    if (!silent) {
      deps.toast({
        title: 'Change not synced',
        description: `The ${entryKind(entry)}${item ? ` for "${item.title}"` : ''} was rejected by the server: ${error.message}`,
        variant: 'destructive',
      });
    }
  }

  async function confirm(entry: QueueEntry, body: unknown): Promise<number> {
    let finalId = entry.itemId;
    const swaps: [number, number][] = [];
    await db.transaction('rw', [...TABLES], async () => {
      const current = await db.syncQueue.get(entry.id);
      if (!current) return;
      await db.syncQueue.delete(entry.id);
      if (current.method === 'DELETE') {
        await removeLocally(db, current.itemId);
        return;
      }
      const server = body as Item;
      let local = await db.items.get(current.itemId);
      if (local && local.id !== server.id) {
        await swapTempId(db, local.id, server.id);
        swaps.push([local.id, server.id]);
        local = await db.items.get(server.id);
      }
      finalId = server.id;
      await rebaseEntries(db, server.id, server.version);
      await applyConfirmed(db, server, local);
    });
    for (const [from, to] of swaps) deps.onIdSwap?.(from, to);
    return finalId;
  }

  /** A 412: merge silently when the edits touch different fields, else open a conflict. */
  async function handleStale(entry: QueueEntry, remote: Item | undefined): Promise<'merged' | 'conflict'> {
    let outcome: 'merged' | 'conflict' = 'conflict';
    await db.transaction('rw', [...TABLES], async () => {
      const local = await db.items.get(entry.itemId);
      if (!local || !remote) return;
      if (entry.method === 'DELETE') {
        await db.items.put({ ...local, _conflict: 'delete', _remote: remote });
        return;
      }
      const merge = mergeEdits({
        base: mergeBase(local) ?? remote,
        local: toServerShape(local),
        remote,
        dirty: local._dirty,
      });
      if (merge.conflicts.length > 0) {
        await db.items.put({ ...local, _conflict: 'update', _remote: remote });
        return;
      }
      const completedAt = local._dirty.includes('status') ? local.completed_at : remote.completed_at;
      await db.items.put({ ...local, ...merge.merged, completed_at: completedAt, _base: remote });
      await rebaseEntries(db, local.id, remote.version);
      outcome = 'merged';
    });
    return outcome;
  }

  /** The server no longer has (or shows) an item with local edits: a delete conflict. */
  async function remoteGone(entry: QueueEntry): Promise<void> {
    await db.transaction('rw', [...TABLES], async () => {
      const local = await db.items.get(entry.itemId);
      if (local) await db.items.put({ ...local, _conflict: 'delete', _remote: null });
    });
  }

  async function sendEntry(first: QueueEntry, silent: boolean): Promise<PushOutcome> {
    let entry = first;
    for (let attempt = 0; attempt < 4; attempt++) {
      const headers: Record<string, string> = { 'Idempotency-Key': entry.idempotencyKey };
      const isCreate = entry.method === 'POST' && !entry.url.endsWith('/assign');
      if (!isCreate && entry.baseVersion !== null) headers['If-Match'] = `"${entry.baseVersion}"`;
      try {
        const res = await api.request<unknown>(entry.method, entry.url, {
          body: entry.data ?? undefined,
          headers,
        });
        return { kind: 'done', itemId: await confirm(entry, res.data) };
      } catch (caught) {
        if (!(caught instanceof ApiError)) throw caught;
        const error = caught;
        if (isNetworkError(error)) return { kind: 'network', error };
        if (error.status === 401) return { kind: 'unauthorized', error };
        if (error.status === 419) {
          // The anti-forgery token went missing (a new session): fetch one and try again, never drop.
          if (attempt === 0) {
            await api.csrfCookie().catch(() => undefined);
            continue;
          }
          return { kind: 'held', error };
        }
        if (error.status === 429) {
          holdFor(error);
          return { kind: 'held', error };
        }
        if (error.status === 412) {
          const remote = (error.data as { item?: Item } | null)?.item;
          if ((await handleStale(entry, remote)) === 'conflict') return { kind: 'conflict' };
          const reloaded = await db.syncQueue.get(entry.id);
          if (!reloaded) return { kind: 'done', itemId: entry.itemId };
          entry = reloaded;
          continue;
        }
        if (error.status === 404 && entry.method === 'DELETE') {
          return { kind: 'done', itemId: await confirm(entry, null) };
        }
        if (error.status === 404 && !isCreate && entry.itemId > 0) {
          await remoteGone(entry);
          return { kind: 'conflict' };
        }
        if (error.status >= 400 && error.status < 500 && !(silent && isCreate)) {
          await drop(entry, error, silent);
          return { kind: 'dropped', error };
        }
        const retries = entry.retries + 1;
        if (retries >= MAX_RETRIES) {
          await drop(entry, error, silent);
          return { kind: 'dropped', error };
        }
        await db.syncQueue.update(entry.id, { retries });
        return { kind: 'retry', error };
      }
    }
    return { kind: 'held' };
  }

  /** Replays the queue in order until it is empty or something must stop it. */
  async function pushQueue(opts: { until?: string; silentFor?: string } = {}) {
    const result = {
      pushed: 0,
      dropped: 0,
      stopped: null as PushOutcome['kind'] | null,
      target: null as PushOutcome | null,
    };
    if (Date.now() < heldUntil) {
      result.stopped = 'held';
      return result;
    }
    if (await hasConflicts()) {
      result.stopped = 'conflict';
      return result;
    }
    const budget = (await db.syncQueue.count()) * 3 + 10;
    for (let i = 0; i < budget; i++) {
      const entry = await db.syncQueue.orderBy('seq').first();
      if (!entry) break;
      const outcome = await sendEntry(entry, entry.id === opts.silentFor);
      if (entry.id === opts.until) result.target = outcome;
      if (entry.tag === 'upgrade') await refreshStatus();
      if (outcome.kind === 'done') result.pushed++;
      else if (outcome.kind === 'dropped') result.dropped++;
      else {
        result.stopped = outcome.kind;
        break;
      }
      if (entry.id === opts.until) break;
    }
    return result;
  }

  /**
   * With everything pushed and pulled, a roll-up this device predicted that the server did not make
   * (say the write behind it was refused) would stay forever: put the server's copy back.
   */
  async function dropStalePredictions(): Promise<void> {
    await db.transaction('rw', [...TABLES], async () => {
      if ((await db.syncQueue.count()) > 0) return;
      const ids = (await getMeta<number[]>(db, META_KEYS.predicted)) ?? [];
      if (ids.length === 0) return;
      const items = (await db.items.bulkGet(ids)).filter((i): i is LocalItem => !!i?._predicted);
      const stale = items.filter((i) => i._syncStatus === 'synced' && i._conflict === null);
      await db.items.bulkPut(
        stale.map((i) => (i._base ? fromServer(i._base, i._localVersion + 1) : { ...i, _predicted: null })),
      );
      const kept = items.filter((i) => !stale.includes(i)).map((i) => i.id);
      await setMeta(db, META_KEYS.predicted, kept);
    });
  }

  async function pull(): Promise<{ pulled: number; conflicts: number }> {
    let cursor = (await getMeta<string>(db, META_KEYS.cursor)) ?? '';
    let pulled = 0;
    let conflicts = 0;
    for (let page = 0; page < MAX_PAGES; page++) {
      const { data } = await api.get<SyncPage>(`/sync?cursor=${encodeURIComponent(cursor)}`);
      conflicts += await applyPulled(db, data.items, data.cursor);
      pulled += data.items.length;
      cursor = data.cursor;
      if (!data.has_more) break;
    }
    await setMeta(db, META_KEYS.lastSyncAt, new Date().toISOString());
    await dropStalePredictions();
    return { pulled, conflicts };
  }

  async function ensureUpgrade(): Promise<void> {
    const viewer = deps.viewer();
    if (viewer.isGuest) return;
    if ((await moveGuestDataToAccount(db, viewer.user)) > 0) await refreshStatus();
  }

  async function runOnce(result: SyncResult): Promise<void> {
    do {
      again = false;
      await ensureUpgrade();
      const push = await pushQueue();
      result.pushed += push.pushed;
      result.dropped += push.dropped;
      result.stopped = push.stopped;
      if (push.stopped === 'network' || push.stopped === 'unauthorized') {
        if (push.stopped === 'network') throw new ApiError('Network error', 0, null, 'NETWORK_ERROR');
        return;
      }
      const pulled = await pull();
      result.pulled += pulled.pulled;
      // A conflict found now holds the queue until the user resolves it.
    } while (again && deps.isOnline() && !deps.viewer().isGuest);
  }

  /** One sync run: skipped for guests, offline, or while one runs; 'Sync Now' passes manual. */
  async function sync(opts: { manual?: boolean } = {}): Promise<SyncResult> {
    const result: SyncResult = { pushed: 0, dropped: 0, pulled: 0, conflicts: 0, stopped: null };
    if (deps.viewer().isGuest) return { ...result, skipped: 'guest' };
    if (!deps.isOnline()) return { ...result, skipped: 'offline' };
    if (lock.held) {
      again = true;
      return { ...result, skipped: 'syncing' };
    }
    status.getState().set({ syncing: true });
    try {
      const ran = await lock.tryRun(() => runOnce(result));
      if (ran === BUSY) return { ...result, skipped: 'syncing' };
      result.conflicts = (await listConflicts(db)).length;
      if (opts.manual) {
        deps.toast({ title: 'Sync complete', description: 'Your items have been synchronized.' });
      }
    } catch (error) {
      result.error = error;
      if (opts.manual) {
        deps.toast({
          title: 'Sync failed',
          description: 'Failed to sync items. Please try again.',
          variant: 'destructive',
        });
      }
    } finally {
      status.getState().set({ syncing: false });
      await refreshStatus();
    }
    return result;
  }

  /**
   * Sends a just-queued write now, under the sync lock (queue order kept: earlier entries go first).
   * Answers 'queued' when offline, a guest, or another sync holds the lock; that run sends it.
   */
  async function pushNow(entryId: string): Promise<PushOutcome> {
    if (deps.viewer().isGuest || !deps.isOnline()) {
      await refreshStatus();
      return { kind: 'queued' };
    }
    if (lock.held) {
      again = true;
      await refreshStatus();
      return { kind: 'queued' };
    }
    let outcome: PushOutcome = { kind: 'queued' };
    try {
      const ran = await lock.tryRun(async () => {
        await ensureUpgrade();
        const push = await pushQueue({ until: entryId, silentFor: entryId });
        return push.target;
      });
      if (ran !== BUSY && ran) outcome = ran;
    } finally {
      await refreshStatus();
    }
    if (again) void sync();
    return outcome;
  }

  /** Resolves every open conflict ('local' re-queues the local change, 'remote' keeps the server's), then syncs. */
  async function resolveConflicts(choices: ReadonlyMap<number, Resolution> | Record<number, Resolution>) {
    const map =
      choices instanceof Map ? choices : new Map(Object.entries(choices).map(([k, v]) => [Number(k), v]));
    const open = await listConflicts(db);
    const missing = open.filter((c) => !map.has(c.itemId));
    if (missing.length > 0) throw new Error('Choose a version for every conflict.');
    await db.transaction('rw', [...TABLES], async () => {
      for (const conflict of open) {
        const choice = map.get(conflict.itemId)!;
        const local = await db.items.get(conflict.itemId);
        if (!local) continue;
        const remote = local._remote;
        const entries = await entriesFor(db, local.id);
        await db.syncQueue.bulkDelete(entries.map((e) => e.id));
        if (choice === 'remote') {
          if (remote === null) await removeLocally(db, local.id);
          else {
            await db.items.put(fromServer(remote, local._localVersion + 1));
            await restoreDescendants(db, local.id);
          }
          continue;
        }
        const cleared = { ...local, _conflict: null, _remote: null, _localVersion: local._localVersion + 1 };
        if (remote === null) {
          // The server deleted it; keeping the local version creates it again under a new id.
          const id = -(await nextCounter(db, 'tempCounter'));
          const recreated: LocalItem = {
            ...cleared,
            id,
            uuid: crypto.randomUUID(),
            version: 1,
            _syncStatus: 'pending',
            _deleted: 0,
            _dirty: [],
            _base: null,
          };
          await db.items.delete(local.id);
          await db.items.put(recreated);
          await enqueue(db, {
            method: 'POST',
            url: '/api/items',
            data: createPayload(recreated),
            itemId: id,
            baseVersion: null,
          });
          continue;
        }
        if (conflict.type === 'delete') {
          await db.items.put({ ...cleared, _syncStatus: 'pending', _deleted: 1, _base: remote });
          await enqueue(db, {
            method: 'DELETE',
            url: `/api/items/${local.id}`,
            data: null,
            itemId: local.id,
            baseVersion: remote.version,
          });
          continue;
        }
        const dirty = local._dirty.length > 0 ? local._dirty : [];
        if (dirty.length === 0) {
          await db.items.put(fromServer(remote, cleared._localVersion));
          continue;
        }
        await db.items.put({
          ...cleared,
          _syncStatus: 'pending',
          _base: remote,
          _dirty: dirty,
          version: remote.version,
        });
        await enqueue(db, {
          method: 'PATCH',
          url: `/api/items/${local.id}`,
          data: patchPayload(local, dirty),
          itemId: local.id,
          baseVersion: remote.version,
        });
      }
    });
    await refreshStatus();
    return sync();
  }

  /** Registers the spec's triggers: start-up, coming online, tab visible, every 30 s with jitter. */
  function start(
    sources: {
      onOnlineChange?: (cb: (online: boolean) => void) => () => void;
      onVisible?: (cb: () => void) => () => void;
      onServerChange?: (cb: () => void) => () => void;
      random?: () => number;
      intervalMs?: number;
    } = {},
  ): () => void {
    const interval = sources.intervalMs ?? SYNC_INTERVAL_MS;
    const random = sources.random ?? Math.random;
    const offs: (() => void)[] = [];
    status.getState().setOnline(deps.isOnline());
    if (deps.isOnline()) void sync();
    offs.push(
      sources.onOnlineChange?.((online) => {
        status.getState().setOnline(online);
        if (online) void sync();
      }) ?? (() => {}),
    );
    offs.push(sources.onVisible?.(() => deps.isOnline() && void sync()) ?? (() => {}));
    offs.push(sources.onServerChange?.(() => void sync()) ?? (() => {}));
    let stopped = false;
    const schedule = () => {
      if (stopped) return;
      timer = setTimeout(
        () => {
          void sync().finally(schedule);
        },
        nextSyncDelay(interval, random),
      );
    };
    schedule();
    void refreshStatus();
    return () => {
      stopped = true;
      for (const off of offs) off();
      if (timer) clearTimeout(timer);
      timer = null;
      if (holdTimer) clearTimeout(holdTimer);
      holdTimer = null;
    };
  }

  return {
    sync,
    pushNow,
    resolveConflicts,
    listConflicts: () => listConflicts(db),
    refreshStatus,
    start,
    pull,
    pushQueue,
  };
}

export { isNetworkError };
