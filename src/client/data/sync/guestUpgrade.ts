import type { Item, UserSummary } from '../../../shared/item';
import { ITEM_BATCH_MAX } from '../../../shared/item';
import { ITEM_CHILD_STORES } from '../../../shared/itemChildren';
import { createPayload } from '../../../shared/protocol';
import type { UpgradeProgress } from '../../stores/syncStatusStore';
import { type ApiClient, ApiError, isNetworkError } from '../net/apiClient';
import { childrenOfAny } from '../store/childRows';
import { getMeta, META_KEYS, nextCounter, type OutpostDb, setMeta } from '../store/db';
import { guestItems } from '../store/guestRows';
import { noteGuestMoves } from '../store/idAliases';
import { fromServer, summaryOf } from '../store/localItems';
import type { LocalItem, QueueEntry } from '../store/types';
import { mergeChildWrites, retargetChildren } from './children';
import type { Funnel } from './context';
import type { SyncRegistry } from './kinds';
import { confirm, lastSeq, type NewEntry, rebase, retarget } from './queue';
import { applyConfirmed } from './settle';

interface UpgradeMeta {
  total: number;
  userId: number;
}

function depthOf(item: LocalItem, byId: ReadonlyMap<number, LocalItem>): number {
  let depth = 0;
  let current: LocalItem | undefined = item;
  while (current?.parent_id != null && depth < 8) {
    current = byId.get(current.parent_id);
    depth++;
  }
  return depth;
}

/**
 * Moves the guest's items into the signed-in account: each gets a temporary id and a queued create,
 * parents first, in one transaction; the uuid kept from guest days makes a resumed upload never double.
 * Answers how many items were queued (0 when there was no guest data).
 */
export async function moveGuestDataToAccount(
  db: OutpostDb,
  user: UserSummary,
  features: SyncRegistry,
  applyLocalChange: Funnel,
): Promise<number> {
  return db.transaction('rw', ['items', 'syncQueue', 'meta', ...ITEM_CHILD_STORES], async () => {
    const guest = await guestItems(db);
    if (guest.length === 0) return 0;
    const byId = new Map(guest.map((i) => [i.id, i]));
    const ordered = guest
      .filter((i) => i._deleted === 0)
      .sort((a, b) => depthOf(a, byId) - depthOf(b, byId) || a.id - b.id);
    const ids = new Map<number, number>();
    // One read and one write of the counter for the whole upload: the same ids nextCounter hands out.
    const first = (await nextCounter(db, 'tempCounter')) - 1;
    for (const [n, item] of ordered.entries()) ids.set(item.id, -(first + n + 1));
    if (ordered.length > 1) await setMeta(db, META_KEYS.tempCounter, first + ordered.length);
    await noteGuestMoves(db, ids);
    const owner = summaryOf(user);
    const movedItems: LocalItem[] = [];
    const entries: NewEntry[] = [];
    for (const item of ordered) {
      const id = ids.get(item.id)!;
      const parentId = item.parent_id === null ? null : (ids.get(item.parent_id) ?? null);
      const moved: LocalItem = {
        ...item,
        id,
        parent_id: parentId,
        user_id: user.id,
        created_by: owner,
        user: owner,
        uuid: item.uuid ?? crypto.randomUUID(),
        _syncStatus: 'pending',
        _dirty: [],
        _base: null,
        _localVersion: item._localVersion + 1,
      };
      movedItems.push(moved);
      entries.push({
        kind: 'create',
        data: createPayload(moved),
        itemId: id,
        baseVersion: null,
        tag: 'upgrade',
      });
    }
    // The children go up after every item (K16: the guest's comments, each a create on its item's
    // new id), as each child kind's feature queues them.
    const more = await features.onGuestUpgrade(db, ids, owner);
    await applyLocalChange(db, {
      removed: guest.map((i) => i.id),
      rows: movedItems,
      children: mergeChildWrites(more.map((m) => m.children)),
      queue: { entries: [...entries, ...more.flatMap((m) => m.entries)], after: await lastSeq(db) },
    });
    const previous = await getMeta<UpgradeMeta>(db, META_KEYS.upgrade);
    const stillQueued = previous ? await db.syncQueue.where('tag').equals('upgrade').count() : 0;
    const carried = previous && stillQueued > ordered.length ? previous.total : 0;
    await setMeta(db, META_KEYS.upgrade, {
      total: carried + ordered.length,
      userId: user.id,
    } satisfies UpgradeMeta);
    return ordered.length;
  });
}

/** Items sent of items to send while a guest upgrade is under way; null when none is. */
export async function upgradeProgress(db: OutpostDb): Promise<UpgradeProgress | null> {
  const meta = await getMeta<UpgradeMeta>(db, META_KEYS.upgrade);
  if (!meta) return null;
  const remaining = await db.syncQueue.where('tag').equals('upgrade').count();
  const total = Math.max(meta.total, remaining);
  return { sent: total - remaining, total, done: remaining === 0 };
}

/**
 * Forgets a finished upgrade, so the dialog does not show it again, and where its guest ids went: a page
 * open at one has followed its item's address by now, and a later 'not found' at that number must not
 * turn into the moved item.
 */
export async function clearFinishedUpgrade(db: OutpostDb): Promise<void> {
  const progress = await upgradeProgress(db);
  if (progress?.done) await db.meta.bulkDelete([META_KEYS.upgrade, META_KEYS.guestMoves]);
}

// ---------------------------------------------------------------------------------------------
// U1: the upload in batches (POST /api/items/batch)
// ---------------------------------------------------------------------------------------------

/** At least this many steps of progress for an upload that fits them (4 items: 4 requests of 1). */
const UPGRADE_STEPS = 5;
/** A batch's JSON stays well under the server's 1 MB body limit, whatever the descriptions hold. */
const BATCH_MAX_BYTES = 512 * 1024;
/** The id aliases open routes resolve through (as tempIds.ts keeps them). */
const MAX_ALIASES = 200;

/** What sending one batch of the upgrade came to; null: send the first entry on its own (push.ts). */
export type UpgradeBatchOutcome =
  | { kind: 'done'; itemId: number; count: number }
  | { kind: 'network'; error: ApiError }
  | null;

/** How many items one batch carries: about a fifth of the upload, 1 to ITEM_BATCH_MAX. */
export function upgradeBatchSize(total: number): number {
  return Math.min(ITEM_BATCH_MAX, Math.max(1, Math.ceil(total / UPGRADE_STEPS)));
}

/** Imports still writing their items on each device's store (a count: two may overlap). */
const importsWriting = new WeakMap<OutpostDb, number>();

/**
 * P9: holds an import's batch upload back while the import is still writing its items, so a sync that
 * starts meanwhile (the timer, coming online, another write) does not chase it a few items a request
 * (712 requests of ~3 for 2,020 items); the import's own sync at the end sends them ITEM_BATCH_MAX at a
 * time. Answers the release, which the import calls once, however it ends.
 */
export function holdImportUpload(db: OutpostDb): () => void {
  importsWriting.set(db, (importsWriting.get(db) ?? 0) + 1);
  let released = false;
  return () => {
    if (released) return;
    released = true;
    const left = (importsWriting.get(db) ?? 1) - 1;
    if (left > 0) importsWriting.set(db, left);
    else importsWriting.delete(db);
  };
}

/** Whether an import is still writing on this store (its upload waits, holdImportUpload). */
export function importUploadHeld(db: OutpostDb): boolean {
  return (importsWriting.get(db) ?? 0) > 0;
}

/** Servers without the batch route (404/405): each item goes on its own, as before. */
const noBatchRoute = new WeakSet<OutpostDb>();

/** A key that names this exact request: the same batch resent (a lost answer) is recognised. */
async function batchKey(body: unknown): Promise<string> {
  const bytes = new TextEncoder().encode(JSON.stringify(body));
  const digest = await crypto.subtle.digest('SHA-256', bytes);
  const hex = Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, '0')).join('');
  return `upgrade-batch-${hex}`;
}

/** The leading run of queued upgrade creates, at most `size` of them and BATCH_MAX_BYTES of JSON. */
async function headOfUpload(db: OutpostDb, size: number): Promise<QueueEntry[]> {
  const head = await db.syncQueue.orderBy('seq').limit(size).toArray();
  const out: QueueEntry[] = [];
  let bytes = 0;
  // One kind of upload at a time: an upgrade's slice, or an import's.
  const tag = head[0]?.tag ?? null;
  for (const entry of head) {
    if (tag === null || entry.tag !== tag || entry.kind !== 'create' || !entry.data) break;
    bytes += JSON.stringify(entry.data).length * 3;
    if (out.length > 0 && bytes > BATCH_MAX_BYTES) break;
    out.push(entry);
  }
  return out;
}

/**
 * The batch's items: each create payload with its uuid; a parent still on a temporary id (earlier in
 * this batch) is named by its uuid instead. Null when an entry cannot go in a batch (no uuid).
 */
async function batchPayload(db: OutpostDb, entries: QueueEntry[]): Promise<Record<string, unknown>[] | null> {
  const parents = await db.items.bulkGet(
    entries.map((e) => Number(e.data?.parent_id ?? 0)).filter((id) => id < 0),
  );
  const uuidOf = new Map(parents.flatMap((p) => (p?.uuid ? [[p.id, p.uuid] as const] : [])));
  const items: Record<string, unknown>[] = [];
  for (const entry of entries) {
    const data = { ...entry.data } as Record<string, unknown>;
    if (typeof data.uuid !== 'string') return null;
    const parentId = typeof data.parent_id === 'number' ? data.parent_id : null;
    if (parentId !== null && parentId < 0) {
      const uuid = uuidOf.get(parentId);
      if (!uuid) return null;
      delete data.parent_id;
      data.parent_uuid = uuid;
    }
    items.push(data);
  }
  return items;
}

/**
 * Stores a batch's answer in one transaction: each entry leaves the queue and its temporary id
 * becomes the server's everywhere (the item, its children, queued URLs and payloads, the aliases), as
 * tempIds.ts does for one item, here once for the whole batch instead of one queue scan per item.
 */
async function confirmBatch(
  db: OutpostDb,
  entries: QueueEntry[],
  answered: Item[],
  onIdSwap?: (oldId: number, newId: number) => void,
): Promise<void> {
  const byUuid = new Map(answered.map((i) => [i.uuid, i]));
  const swaps: [number, number][] = [];
  await db.transaction('rw', ['items', 'syncQueue', 'meta', 'users', ...ITEM_CHILD_STORES], async () => {
    const answered = entries.filter((entry) => byUuid.has(String(entry.data?.uuid)));
    const pairs = (
      await confirm(
        db,
        answered.map((e) => e.id),
      )
    ).map((entry) => ({
      entry,
      server: byUuid.get(String(entry.data?.uuid))!,
    }));
    const locals = await db.items.bulkGet(pairs.map((p) => p.entry.itemId));
    const map = new Map<number, number>();
    for (const { entry, server } of pairs) if (entry.itemId !== server.id) map.set(entry.itemId, server.id);
    if (map.size > 0) {
      const oldIds = [...map.keys()];
      await db.items.bulkDelete(oldIds);
      await childrenOfAny(db.items, oldIds).modify((child) => {
        child.parent_id = map.get(child.parent_id!) ?? child.parent_id;
      });
      await retargetChildren(db, map);
      await retarget(db, map);
      const aliases = (await getMeta<[number, number][]>(db, META_KEYS.idAliases)) ?? [];
      aliases.push(...map);
      await setMeta(db, META_KEYS.idAliases, aliases.slice(-MAX_ALIASES));
      swaps.push(...map);
    }
    // Most moved items have nothing else queued: stored at once; the others as push.ts confirms one.
    const queued = new Set(await db.syncQueue.orderBy('itemId').uniqueKeys());
    const plain: LocalItem[] = [];
    for (const [n, { server }] of pairs.entries()) {
      const local = locals[n];
      if (!queued.has(server.id)) {
        plain.push(fromServer(server, local?._localVersion ?? 0));
        continue;
      }
      await rebase(db, server.id, server.version);
      await applyConfirmed(db, server, local ? { ...local, id: server.id } : undefined);
    }
    await db.items.bulkPut(plain);
    const users = new Map(
      pairs
        .flatMap(({ server }) => [server.created_by, ...(server.assignedUser ? [server.assignedUser] : [])])
        .map((u) => [u.id, u]),
    );
    await db.users.bulkPut([...users.values()]);
  });
  for (const [from, to] of swaps) onIdSwap?.(from, to);
}

/**
 * U1: sends the next slice of the guest's upload in one `POST /api/items/batch`, parents first (the
 * queue's order), and applies the answer in one transaction, so the Upgrade dialog moves a batch at a
 * time. A resent batch (a lost answer, a reload) creates nothing twice: its Idempotency-Key names the
 * exact request, and every item keeps its uuid. Answers null when the first entry should go on its
 * own through the single-entry path (a refusal, a server error, a rate limit: its policy applies
 * there), and 'network' when the server could not be reached (the queue stays as it was, Q2).
 */
export async function sendUpgradeBatch(
  ctx: { db: OutpostDb; api: ApiClient; onIdSwap?: (oldId: number, newId: number) => void },
  run: { sent: number },
): Promise<UpgradeBatchOutcome> {
  const { db, api } = ctx;
  if (noBatchRoute.has(db)) return null;
  const meta = await getMeta<UpgradeMeta>(db, META_KEYS.upgrade);
  const head = await db.syncQueue.orderBy('seq').first();
  // An import goes in the largest batches (nothing shows its steps); an upgrade in the dialog's steps.
  let size =
    head?.tag === 'batch'
      ? ITEM_BATCH_MAX
      : upgradeBatchSize(meta?.total ?? (await db.syncQueue.where('tag').equals('upgrade').count()));
  for (let attempt = 0; attempt < 3; attempt++) {
    const entries = await headOfUpload(db, size);
    if (entries.length === 0) return null;
    const items = await batchPayload(db, entries);
    if (!items) return null;
    const body = { items };
    run.sent++;
    try {
      const res = await api.request<{ items: Item[] }>('POST', '/api/items/batch', {
        body,
        headers: { 'Idempotency-Key': await batchKey(body) },
      });
      await confirmBatch(db, entries, res.data.items, ctx.onIdSwap);
      return { kind: 'done', itemId: res.data.items[0]?.id ?? entries[0]!.itemId, count: entries.length };
    } catch (caught) {
      if (!(caught instanceof ApiError)) throw caught;
      if (isNetworkError(caught)) return { kind: 'network', error: caught };
      if (caught.status === 404 || caught.status === 405) noBatchRoute.add(db);
      // A refused item: send those before it as a batch, then it goes alone (and is dropped with a toast).
      const errors = (caught.data as { errors?: Record<string, unknown> } | null)?.errors ?? {};
      const bad = Math.min(
        ...Object.keys(errors).map((key) => Number(/^items\.(\d+)/.exec(key)?.[1] ?? Number.NaN)),
      );
      if (caught.status === 422 && Number.isInteger(bad) && bad > 0 && bad < entries.length) {
        size = bad;
        continue;
      }
      return null;
    }
  }
  return null;
}
