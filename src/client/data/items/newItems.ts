import { declaredValues } from '../../../shared/itemFields';
import { keyForLast, lastKeyOf } from '../../../shared/order';
import { createPayload } from '../../../shared/protocol';
import { applyLocalChange } from '../changes/applyLocalChange';
import { childrenWhere } from '../store/childRows';
import { nextCounter, type OutpostDb, TOP_ORDER_INDEX } from '../store/db';
import { applyLocalRollUp, rootIdOf } from '../store/localItems';
import type { LocalItem, QueueEntry, UndoRecord, Viewer } from '../store/types';

/** What a new item's server-side fields are before the device gives it an id (the rest is local state). */
export type NewItemFields = Omit<
  LocalItem,
  | 'id'
  | 'version'
  | '_syncStatus'
  | '_deleted'
  | '_localVersion'
  | '_conflict'
  | '_dirty'
  | '_base'
  | '_remote'
>;

/** What storing a new item wrote: the item, its queued create, and the ancestors the roll-up moved. */
export interface StoredNewItem {
  item: LocalItem;
  entry: QueueEntry | null;
  /** Ancestors the roll-up moved, as they were just before and as they are now. */
  rolledBefore: LocalItem[];
  rolled: LocalItem[];
}

/**
 * Stores a new item on the device (a guest id, or a temporary negative one until the server answers),
 * rolls its parent's status up, and when signed in queues its create after the entry `last`: the item,
 * the roll-up, the queued create and what undoes them (`undoOf`) are one write through the funnel.
 * Both the repository's create and a repeating item's next occurrence store items this way. Call
 * inside a transaction over items, meta and syncQueue.
 */
export async function storeNewItem(
  db: OutpostDb,
  viewer: Viewer,
  fields: NewItemFields,
  at: string,
  last: number,
  /** The queue entry's tag: 'batch' sends it with its neighbours in one request (an import). */
  tag: QueueEntry['tag'] = null,
  /** What undoes the creation, from what it stores (none: not recorded, a next occurrence's). */
  undoOf?: (stored: Omit<StoredNewItem, 'entry'>) => Promise<UndoRecord | null>,
): Promise<StoredNewItem> {
  const id = viewer.isGuest ? await nextCounter(db, 'guestCounter') : -(await nextCounter(db, 'tempCounter'));
  const item: LocalItem = {
    ...fields,
    // Every declared field a caller left out holds its default (shared/itemFields.ts): p4, no labels…;
    // without a place, last.
    ...declaredValues(fields),
    sort_key: fields.sort_key || (await keyAfterLastSibling(db, fields.parent_id, fields.user_id)),
    id,
    version: 1,
    _syncStatus: viewer.isGuest ? 'local' : 'pending',
    _deleted: 0,
    _localVersion: 1,
    _conflict: null,
    _dirty: [],
    _base: null,
    _remote: null,
  };
  let rolled: LocalItem[] = [];
  let rolledBefore: LocalItem[] = [];
  if (item.parent_id !== null) {
    // The family as the new item joins it (the item is not stored yet: it goes in the same write).
    const moved = await applyLocalRollUp(
      db,
      [await rootIdOf(db, item)],
      new Map(),
      [item.parent_id],
      at,
      new Map([[id, item]]),
    );
    rolled = [...moved.values()].filter((i) => i.id !== id);
    rolledBefore = (await db.items.bulkGet(rolled.map((i) => i.id))).filter((i): i is LocalItem => !!i);
  }
  const undo = undoOf ? await undoOf({ item, rolledBefore, rolled }) : null;
  const [entry] = await applyLocalChange(db, {
    rows: [item, ...rolled],
    undo,
    ...(viewer.isGuest
      ? {}
      : {
          queue: {
            entries: [{ kind: 'create', data: createPayload(item), itemId: id, baseVersion: null, tag }],
            after: last,
          },
        }),
  });
  return { item, entry: entry ?? null, rolledBefore, rolled };
}

/**
 * A key after the last sibling's (§5 'Order', SYNC.md O4, as the server's items/order.ts): the greatest
 * key among the live items under `parentId`, or among `owner`'s top-level items, one step down the
 * top-level order index. Rows stored before the field ('') have no place and are passed over.
 */
export async function keyAfterLastSibling(
  db: OutpostDb,
  parentId: number | null,
  owner: number,
): Promise<string> {
  if (parentId === null) {
    const last = await db.items.where(TOP_ORDER_INDEX).between([1, owner, ''], [1, owner, '\uffff']).last();
    return keyForLast(last?.sort_key || null);
  }
  const siblings = await childrenWhere(db.items, parentId).toArray();
  return keyForLast(lastKeyOf(siblings.filter((i) => i._deleted === 0)));
}
