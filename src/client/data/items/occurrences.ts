import type { NextOccurrence } from '../../../shared/recurrence';
import type { OutpostDb } from '../store/db';
import type { LocalItem, Viewer } from '../store/types';
import { type StoredNewItem, storeNewItem } from './newItems';

/**
 * The device's side of recurrence (SYNC.md N1), loaded when a repeating item is first
 * completed, so it is not part of the first screen.
 */
export { nextOccurrence } from '../../../shared/recurrence';

/** What adding a next occurrence stored: the item, its queued create, and the roll-up it moved. */
export type AddedOccurrence = StoredNewItem;

/**
 * N1: the next occurrence of an item just completed, stored at once (offline, as a guest too) and,
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
  return storeNewItem(
    db,
    viewer,
    {
      ...occurrence,
      // The series' owner keeps it, whoever completed this one (the server does the same).
      user_id: completed.user_id,
      end_date: null,
      created_at: at,
      updated_at: at,
      completed_at: null,
      deleted_at: null,
      created_by: completed.created_by,
      user: completed.user,
      assignedUser: completed.assignedUser,
      parent: completed.parent,
      children_count: 0,
      completed_count: 0,
    },
    at,
    last,
  );
}
