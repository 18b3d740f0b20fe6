import { createPayload } from '../../shared/protocol';
import type { NextOccurrence } from '../../shared/recurrence';
import { nextCounter, type OutpostDb } from './db';
import { applyLocalRollUp, rootIdOf } from './localItems';
import { queueRow } from './syncQueue';
import type { LocalItem, QueueEntry, Viewer } from './types';

/**
 * The device's side of recurrence (SYNC.md O1), loaded with `rrule` when a repeating item is first
 * completed, so neither is part of the first screen.
 */
export { nextOccurrence } from '../../shared/recurrence';

/** What adding a next occurrence stored: the item, its queued create, and the roll-up it moved. */
export interface AddedOccurrence {
  item: LocalItem;
  entry: QueueEntry | null;
  /** Ancestors the roll-up moved, as they were just before and as they are now. */
  rolledBefore: LocalItem[];
  rolled: LocalItem[];
}

/**
 * O1: the next occurrence of an item just completed, stored at once (offline, as a guest too) and,
 * when signed in, queued as a create with its derived uuid after the completion (`last` is the
 * completion's seq), so the server's own next occurrence and this one are the same row. Call inside
 * the completing transaction. Answers null when the occurrence was already here.
 */
export async function addOccurrence(
  db: OutpostDb,
  viewer: Viewer,
  completed: LocalItem,
  occurrence: NextOccurrence,
  at: string,
  last: number,
): Promise<AddedOccurrence | null> {
  // Already here (this device completed it before, or a pull brought the server's): never a second.
  if ((await db.items.where('uuid').equals(occurrence.uuid).count()) > 0) return null;
  const id = viewer.isGuest ? await nextCounter(db, 'guestCounter') : -(await nextCounter(db, 'tempCounter'));
  const item: LocalItem = {
    ...occurrence,
    id,
    // The series' owner keeps it, whoever completed this one (the server does the same).
    user_id: completed.user_id,
    end_date: null,
    created_at: at,
    updated_at: at,
    completed_at: null,
    deleted_at: null,
    version: 1,
    created_by: completed.created_by,
    user: completed.user,
    assignedUser: completed.assignedUser,
    parent: completed.parent,
    children_count: 0,
    completed_count: 0,
    _syncStatus: viewer.isGuest ? 'local' : 'pending',
    _deleted: 0,
    _localVersion: 1,
    _conflict: null,
    _dirty: [],
    _base: null,
    _remote: null,
  };
  await db.items.put(item);
  let rolled: LocalItem[] = [];
  let rolledBefore: LocalItem[] = [];
  if (item.parent_id !== null) {
    const moved = await applyLocalRollUp(db, [await rootIdOf(db, item)], new Map(), [item.parent_id], at);
    rolled = [...moved.values()].filter((i) => i.id !== id);
    rolledBefore = (await db.items.bulkGet(rolled.map((i) => i.id))).filter((i): i is LocalItem => !!i);
    await db.items.bulkPut(rolled);
  }
  if (viewer.isGuest) return { item, entry: null, rolledBefore, rolled };
  const entry = queueRow({ kind: 'create', data: createPayload(item), itemId: id, baseVersion: null }, last);
  await db.syncQueue.add(entry);
  return { item, entry, rolledBefore, rolled };
}
