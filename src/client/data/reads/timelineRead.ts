import type { OutpostDb } from '../store/db';
import type { LocalComment } from '../store/types';

/**
 * An item's comments on the device, oldest first, deleted ones left out (SYNC.md K8): the timeline's
 * live read. One chain of Dexie's own promises, so a live query observes both reads: the item (its
 * uuid files its comments) and the timeline index's range.
 */
export function itemComments(db: OutpostDb, itemId: number): Promise<LocalComment[]> {
  return db.items.get(itemId).then((item) => {
    if (!item || item._deleted === 1) return [];
    const key = item.uuid ?? `#${item.id}`;
    return db.comments
      .where('[item_uuid+created_at]')
      .between([key, ''], [key, '\uffff'])
      .toArray()
      .then((rows) => rows.filter((row) => row._deleted === 0));
  });
}
