import type { Item } from '../../../shared/item';
import type { PatchableField } from '../../../shared/schemas';
import type { OutpostDb } from '../store/db';
import { descendantIds, fieldsOfEntry, fromServer, toServerShape } from '../store/localItems';
import type { LocalItem, QueueEntry } from '../store/types';
import { removeChildrenOf } from './children';
import { discardFor, entriesFor, reissue } from './queue';

function pick(item: LocalItem, fields: readonly PatchableField[]): Partial<LocalItem> {
  const out: Record<string, unknown> = {};
  for (const f of fields) out[f] = item[f];
  // completed_at travels with status.
  if (fields.includes('status')) out.completed_at = item.completed_at;
  return out as Partial<LocalItem>;
}

/**
 * Stores the server's answer for an item: the server copy, with any fields still waiting in the queue
 * laid over it, pending until the queue holds nothing more for it.
 */
export async function applyConfirmed(
  db: OutpostDb,
  server: Item,
  local: LocalItem | undefined,
): Promise<LocalItem> {
  const remaining = await entriesFor(db, server.id);
  const dirty = [...new Set(remaining.flatMap(fieldsOfEntry))];
  const deleting = remaining.some((e) => e.kind === 'delete');
  const next: LocalItem = {
    ...fromServer(server, local?._localVersion ?? 0),
    ...(local ? pick(local, dirty) : {}),
  };
  if (remaining.length > 0) {
    next._syncStatus = 'pending';
    next._dirty = dirty;
    next._base = server;
    next._deleted = deleting ? 1 : 0;
  }
  await db.items.put(next);
  await db.users.bulkPut([server.created_by, ...(server.assignedUser ? [server.assignedUser] : [])]);
  return next;
}

/**
 * Removes an item the server deleted, its descendants, their children (comments…) and anything queued for them,
 * but not a row the server holds elsewhere (SYNC.md C5): one moved in here by a change the server
 * has not taken stays, with what is under it and what is queued for it (that move is refused, and its
 * server copy comes back, settleAfterDrop).
 */
export async function removeLocally(db: OutpostDb, id: number): Promise<void> {
  const below = await descendantIds(db, id);
  const rows = (await db.items.bulkGet(below)).filter((row): row is LocalItem => row !== undefined);
  const inside = new Set([id, ...below]);
  const children = new Map<number, LocalItem[]>();
  for (const row of rows)
    if (row.parent_id !== null) children.set(row.parent_id, [...(children.get(row.parent_id) ?? []), row]);
  const ids = [id];
  for (let i = 0; i < ids.length; i++) {
    for (const row of children.get(ids[i]!) ?? []) {
      // Where the server has it: its base copy's parent while a change to it is pending.
      const serverParent = row._base ? row._base.parent_id : row.parent_id;
      const movedIn = row.id > 0 && (serverParent === null || !inside.has(serverParent));
      if (!movedIn) ids.push(row.id);
    }
  }
  await db.items.bulkDelete(ids);
  await removeChildrenOf(db, ids);
  // A restore queued after this delete (an undo) still goes: it brings the item back.
  await discardFor(db, ids, ['restore']);
}

/**
 * After a queued change was dropped: with nothing else queued for the item, put the server's copy back
 * (a rejected edit or delete is undone); an item the server never had keeps its local pending copy.
 */
export async function settleAfterDrop(db: OutpostDb, itemId: number): Promise<void> {
  const item = await db.items.get(itemId);
  if (!item) return;
  const remaining = await entriesFor(db, itemId);
  if (remaining.length > 0) {
    const dirty = [...new Set(remaining.flatMap(fieldsOfEntry))];
    await db.items.put({
      ...item,
      _dirty: dirty,
      _deleted: remaining.some((e) => e.kind === 'delete') ? 1 : 0,
    });
    return;
  }
  if (item._base === null && item.id < 0) {
    // A create the server refused: there is nothing to fall back to, and keeping a copy that can
    // never sync would leave this device different from every other one. The toast says so.
    await db.items.delete(itemId);
    return;
  }
  if (item._base) {
    await db.items.put(fromServer(item._base, item._localVersion + 1));
    await restoreDescendants(db, itemId);
  } else if (item._deleted === 1) {
    await db.items.put({ ...item, _deleted: 0, _localVersion: item._localVersion + 1 });
    await restoreDescendants(db, itemId);
  }
}

/** Un-hides descendants a local delete hid, when that delete did not happen. */
export async function restoreDescendants(db: OutpostDb, id: number): Promise<void> {
  const ids = await descendantIds(db, id);
  const items = await db.items.bulkGet(ids);
  const restored = items.filter(
    (i): i is LocalItem => !!i && i._deleted === 1 && i._syncStatus !== 'pending',
  );
  await db.items.bulkPut(restored.map((i) => ({ ...i, _deleted: 0 as const })));
}

/** Marks an item and its local state from the entries still queued for it (after queue surgery). */
export async function refreshPendingState(db: OutpostDb, itemId: number): Promise<void> {
  const item = await db.items.get(itemId);
  if (!item || item._syncStatus === 'local') return;
  const remaining = await entriesFor(db, itemId);
  if (remaining.length === 0 && item._conflict === null) {
    await db.items.put({ ...item, _syncStatus: 'synced', _dirty: [], _base: null });
  }
}

export { toServerShape };

/** Whether a 422's field errors name the assignee and nothing else (`assigned_to`, `items.N.assigned_to`). */
export function refusedOnlyForAssignee(data: unknown): boolean {
  const errors = (data as { errors?: Record<string, unknown> } | null)?.errors;
  const fields = errors ? Object.keys(errors) : [];
  return fields.length > 0 && fields.every((f) => /^(items\.\d+\.)?assigned_to$/.test(f));
}

/**
 * P22: a create or edit the server refused only for its assignee (a person it does not know, or no
 * longer lets the writer assign) goes again without it, under a fresh Idempotency-Key, and the item
 * keeps everything else: a create stays, unassigned, and an edit keeps the server's assignee. Answers
 * the entry as it now stands, or null when it carried no assignee to leave out.
 */
export async function withoutAssignee(db: OutpostDb, entry: QueueEntry): Promise<QueueEntry | null> {
  if (entry.kind !== 'create' && entry.kind !== 'update') return null;
  if (!entry.data || !('assigned_to' in entry.data)) return null;
  const { assigned_to: _refused, ...data } = entry.data;
  return db.transaction('rw', [db.items, db.syncQueue], async () => {
    const next = await reissue(db, entry, data);
    const item = await db.items.get(entry.itemId);
    if (item)
      await db.items.put({
        ...item,
        assigned_to: item._base?.assigned_to ?? null,
        assignedUser: item._base?.assignedUser ?? null,
        _dirty: item._dirty.filter((f) => f !== 'assigned_to'),
      });
    return next;
  });
}
