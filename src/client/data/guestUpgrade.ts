import type { UserSummary } from '../../shared/item';
import { createPayload } from '../../shared/protocol';
import type { UpgradeProgress } from '../stores/syncStatusStore';
import { getMeta, META_KEYS, nextCounter, type OutpostDb, setMeta } from './db';
import { summaryOf } from './localItems';
import { enqueue } from './syncQueue';
import type { LocalItem } from './types';

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
export async function moveGuestDataToAccount(db: OutpostDb, user: UserSummary): Promise<number> {
  return db.transaction('rw', [db.items, db.syncQueue, db.meta], async () => {
    const guest = await db.items.where('_syncStatus').equals('local').toArray();
    if (guest.length === 0) return 0;
    const byId = new Map(guest.map((i) => [i.id, i]));
    const ordered = guest
      .filter((i) => i._deleted === 0)
      .sort((a, b) => depthOf(a, byId) - depthOf(b, byId) || a.id - b.id);
    const ids = new Map<number, number>();
    for (const item of ordered) ids.set(item.id, -(await nextCounter(db, 'tempCounter')));
    await db.items.bulkDelete(guest.map((i) => i.id));
    const owner = summaryOf(user);
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
      await db.items.put(moved);
      await enqueue(db, {
        kind: 'create',
        data: createPayload(moved),
        itemId: id,
        baseVersion: null,
        tag: 'upgrade',
      });
    }
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

/** Forgets a finished upgrade, so the dialog does not show it again. */
export async function clearFinishedUpgrade(db: OutpostDb): Promise<void> {
  const progress = await upgradeProgress(db);
  if (progress?.done) await db.meta.delete(META_KEYS.upgrade);
}
