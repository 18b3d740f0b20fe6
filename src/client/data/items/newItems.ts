import { DEFAULT_PRIORITY } from '../../../shared/planning';
import { createPayload } from '../../../shared/protocol';
import { keyBetween } from '../../../shared/sortKey';
import { applyLocalChange } from '../changes/applyLocalChange';
import { HOME_INDEX, nextCounter, type OutpostDb } from '../store/db';
import { applyLocalRollUp, rootIdOf } from '../store/localItems';
import { type LocalItem, type QueueEntry, SYNC_STATUSES, type Viewer } from '../store/types';

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
 * rolls its parent's status up, and when signed in queues its create after the entry `last`. Both
 * the repository's create and a repeating item's next occurrence store items this way. Call inside a
 * transaction over items, meta and syncQueue.
 */
export async function storeNewItem(
  db: OutpostDb,
  viewer: Viewer,
  fields: NewItemFields,
  at: string,
  last: number,
  /** The queue entry's tag: 'batch' sends it with its neighbours in one request (an import). */
  tag: QueueEntry['tag'] = null,
): Promise<StoredNewItem> {
  const id = viewer.isGuest ? await nextCounter(db, 'guestCounter') : -(await nextCounter(db, 'tempCounter'));
  const item: LocalItem = {
    ...fields,
    // Planning fields (ARCHITECTURE §4): p4 and no labels unless given; without a place, last.
    priority: fields.priority ?? DEFAULT_PRIORITY,
    labels: [...(fields.labels ?? [])],
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
  await applyLocalChange(db, { rows: [item] });
  let rolled: LocalItem[] = [];
  let rolledBefore: LocalItem[] = [];
  if (item.parent_id !== null) {
    const moved = await applyLocalRollUp(db, [await rootIdOf(db, item)], new Map(), [item.parent_id], at);
    rolled = [...moved.values()].filter((i) => i.id !== id);
    rolledBefore = (await db.items.bulkGet(rolled.map((i) => i.id))).filter((i): i is LocalItem => !!i);
  }
  const [entry] = await applyLocalChange(db, {
    rows: rolled,
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
 * Top-level rows read to place a new top-level item: the newest of each sync status. Reading every
 * top-level row (thousands at 100,000 items) on each create would cost more than the rest of the
 * write, and the top level is no manually ordered list (§5 'Order'): a key after the newest rows'
 * puts a new item after everything made before it, and only an older item moved out of a campaign
 * onto the top level since (the server puts it last) can end up after it.
 */
const TOP_LEVEL_READ = 50;

/**
 * A key after the last sibling's (§5 'Order', as the server's items/order.ts): the greatest key
 * among the items under `parentId`, or among `owner`'s newest top-level items. Rows stored before
 * the field ('' or absent) have no place and are passed over.
 */
async function keyAfterLastSibling(db: OutpostDb, parentId: number | null, owner: number): Promise<string> {
  const siblings =
    parentId === null
      ? (
          await Promise.all(
            SYNC_STATUSES.map((status) =>
              db.items
                .where(HOME_INDEX)
                .between([status, 1, ''], [status, 1, '\uffff'])
                .reverse()
                .limit(TOP_LEVEL_READ)
                .toArray(),
            ),
          )
        )
          .flat()
          .filter((i) => i.user_id === owner)
      : await db.items.where('parent_id').equals(parentId).toArray();
  let last: string | null = null;
  for (const sibling of siblings) {
    const key = sibling.sort_key;
    if (key && (last === null || key > last)) last = key;
  }
  try {
    return keyBetween(last, null);
  } catch {
    // A key no fractional index could follow (the server refuses such keys; a stored row is not
    // checked again): the list's first key, so a create never fails over a neighbour's place.
    return keyBetween(null, null);
  }
}
