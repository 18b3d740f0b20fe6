import type { ItemStatus, ItemType } from '../../shared/item';
import { progressOf, type SubtreeProgress, subtreeProgress } from '../../shared/progress';
import { type ListOrder, sortForList } from '../../shared/sort';
import {
  isAssignedTo,
  isCreatedBy,
  isMineOrAssigned,
  type LifecycleScreen,
  matchesFilterText,
  SCREEN_STATUS,
} from '../../shared/visibility';
import { conflictedCollection, type OutpostDb } from './db';
import { homeAll, mergeNewestFirst, topRange } from './homeList';
import { resolveId } from './tempIds';
import type { LocalItem, Viewer } from './types';

/**
 * Live-query functions: each returns a Promise from IndexedDB reads only, so a screen can wrap it in
 * dexie-react-hooks' useLiveQuery and re-render whenever any tab writes.
 */

export type Tab = 'all' | ItemType;

/** The guest sees only guest data; an account sees only its synced data. */
function inScope(item: LocalItem, viewer: Viewer): boolean {
  if (item._deleted === 1) return false;
  return viewer.isGuest ? item._syncStatus === 'local' : item._syncStatus !== 'local';
}

/**
 * Orphans: top level, or the parent is not an item on the device (a parent deleted here hides its
 * children with it, so it never counts). The maintained flag (topLevel.ts) answers for almost every
 * row: 0 means the parent is here, live and in scope. Only a row flagged 1 that still names a parent
 * needs a look, and only that parent is read, not every key of the table.
 */
async function withoutKnownParent(db: OutpostDb, items: LocalItem[]): Promise<LocalItem[]> {
  const hasRef = (i: LocalItem) => i.parent_id !== null && i.parent_id !== 0;
  const named = [...new Set(items.filter((i) => hasRef(i) && i._top !== 0).map((i) => i.parent_id!))];
  const known = new Set(
    named.length === 0
      ? []
      : (await db.items.bulkGet(named)).filter((p): p is LocalItem => !!p).map((p) => p.id),
  );
  return items.filter((i) => !hasRef(i) || (i._top !== 0 && !known.has(i.parent_id!)));
}

function finish(
  items: LocalItem[],
  order: ListOrder,
  opts: { search?: string; limit?: number },
): LocalItem[] {
  const filtered = opts.search ? items.filter((i) => matchesFilterText(i, opts.search!)) : items;
  const sorted = sortForList(filtered, order);
  return opts.limit === undefined ? sorted : sorted.slice(0, opts.limit);
}

export interface ListOptions {
  search?: string;
  limit?: number;
}

/** Home: All shows the orphans, newest first; a type tab shows every item of that type. */
export async function homeItems(
  db: OutpostDb,
  viewer: Viewer,
  tab: Tab,
  opts: ListOptions = {},
): Promise<LocalItem[]> {
  if (tab !== 'all') {
    const items = await db.items.where('type').equals(tab).toArray();
    return finish(
      items.filter((i) => inScope(i, viewer)),
      'home',
      opts,
    );
  }
  // Only the orphans are read, by Home's index: a page by range, the whole list from the copy
  // homeList.ts patches with the rows each change names.
  if (opts.limit !== undefined && !opts.search) {
    const limit = opts.limit;
    const pages = await Promise.all(
      scopeStatuses(viewer).map((s) => topRange(db, s).reverse().limit(limit).toArray()),
    );
    return mergeNewestFirst(pages.map((p) => p.filter((i) => i._deleted !== 1))).slice(0, limit);
  }
  const all = await homeAll(db, viewer);
  const shown = opts.search ? all.filter((i) => matchesFilterText(i, opts.search!)) : all;
  return opts.limit === undefined ? shown : shown.slice(0, opts.limit);
}

/** The sync statuses of the viewer's scope (see inScope): the guest's own, or an account's two. */
function scopeStatuses(viewer: Viewer): LocalItem['_syncStatus'][] {
  return viewer.isGuest ? ['local'] : ['pending', 'synced'];
}

/** Home's 'View All (N items)' count: All's from its index, without loading a row. */
export async function homeCount(db: OutpostDb, viewer: Viewer, tab: Tab): Promise<number> {
  if (tab !== 'all') return (await homeItems(db, viewer, tab)).length;
  const counts = await Promise.all(scopeStatuses(viewer).map((s) => topRange(db, s).count()));
  return counts.reduce((a, b) => a + b, 0);
}

/**
 * Queue, Active, Completed: items of the screen's status created by or assigned to the viewer;
 * the All tab shows orphans only. Queue newest created first, Active most recently updated,
 * Completed most recently completed.
 */
export async function screenItems(
  db: OutpostDb,
  viewer: Viewer,
  screen: LifecycleScreen,
  tab: Tab,
  opts: ListOptions = {},
): Promise<LocalItem[]> {
  const status = SCREEN_STATUS[screen];
  const items = (await db.items.where('status').equals(status).toArray()).filter(
    (i) => inScope(i, viewer) && isMineOrAssigned(i, viewer.userId) && (tab === 'all' || i.type === tab),
  );
  const listed = tab === 'all' ? await withoutKnownParent(db, items) : items;
  return finish(listed, screen, opts);
}

const MY_LIST_ORDER = {
  pending: 'queue',
  in_progress: 'active',
  completed: 'completed',
} as const satisfies Record<ItemStatus, ListOrder>;

/** My List: items the viewer created, by status, in the spec's order for each tab. */
export async function myListItems(
  db: OutpostDb,
  viewer: Viewer,
  status: ItemStatus,
  opts: ListOptions = {},
): Promise<LocalItem[]> {
  const items = (await db.items.where('user_id').equals(viewer.userId).toArray()).filter(
    (i) => inScope(i, viewer) && isCreatedBy(i, viewer.userId) && i.status === status,
  );
  return finish(items, MY_LIST_ORDER[status], opts);
}

/** My List's tab badges. */
export async function myListCounts(db: OutpostDb, viewer: Viewer): Promise<Record<ItemStatus, number>> {
  const counts: Record<ItemStatus, number> = { pending: 0, in_progress: 0, completed: 0 };
  await db.items
    .where('user_id')
    .equals(viewer.userId)
    .each((i) => {
      if (inScope(i, viewer)) counts[i.status]++;
    });
  return counts;
}

/** Items assigned to the viewer, most recently updated first. */
export async function assignedToMe(
  db: OutpostDb,
  viewer: Viewer,
  opts: ListOptions = {},
): Promise<LocalItem[]> {
  const items = await db.items.where('assigned_to').equals(viewer.userId).toArray();
  return finish(
    items.filter((i) => inScope(i, viewer) && isAssignedTo(i, viewer.userId)),
    'active',
    opts,
  );
}

/** Items of one status the viewer can see, in that status's list order. */
export async function itemsByStatus(
  db: OutpostDb,
  viewer: Viewer,
  status: ItemStatus,
  opts: ListOptions = {},
) {
  const items = (await db.items.where('status').equals(status).toArray()).filter((i) => inScope(i, viewer));
  return finish(items, MY_LIST_ORDER[status], opts);
}

/** The children of an item, newest first, optionally of one type (a task's Todos section). */
export async function childrenOf(
  db: OutpostDb,
  viewer: Viewer,
  parentId: number,
  type?: ItemType,
  opts: ListOptions = {},
): Promise<LocalItem[]> {
  const id = await resolveId(db, parentId);
  const items = await db.items.where('parent_id').equals(id).toArray();
  return finish(
    items.filter((i) => inScope(i, viewer) && (type === undefined || i.type === type)),
    'children',
    opts,
  );
}

export interface Progress {
  total: number;
  completed: number;
  percent: number;
  remaining: number;
}

/** Progress of a campaign or task: its live children, completed ones counted. */
export async function progressFor(db: OutpostDb, viewer: Viewer, parentId: number): Promise<Progress> {
  const children = await childrenOf(db, viewer, parentId);
  const completed = children.filter((c) => c.status === 'completed').length;
  return { total: children.length, completed, ...progressOf(children.length, completed) };
}

/**
 * Progress through the whole subtree of each of `ids` (campaigns and tasks on screen), in two index
 * reads whatever the count: their children, then the children of the tasks among those.
 */
export async function subtreeProgressOf(
  db: OutpostDb,
  viewer: Viewer,
  ids: readonly number[],
): Promise<Map<number, SubtreeProgress>> {
  const out = new Map<number, SubtreeProgress>();
  if (ids.length === 0) return out;
  const children = (
    await db.items
      .where('parent_id')
      .anyOf([...ids])
      .toArray()
  ).filter((i) => inScope(i, viewer));
  const tasks = children.filter((c) => c.type === 'task').map((c) => c.id);
  const grandchildren =
    tasks.length === 0
      ? []
      : (await db.items.where('parent_id').anyOf(tasks).toArray()).filter((i) => inScope(i, viewer));
  const nodes = [...children, ...grandchildren];
  for (const id of ids) out.set(id, subtreeProgress(nodes, id));
  return out;
}

/** One item with its parent resolved from local data; follows a swapped temporary id. */
export async function itemById(db: OutpostDb, viewer: Viewer, id: number): Promise<LocalItem | null> {
  const item = await db.items.get(await resolveId(db, id));
  if (!item || !inScope(item, viewer)) return null;
  if (item.parent_id === null) return { ...item, parent: null };
  const parent = await db.items.get(item.parent_id);
  if (!parent || !inScope(parent, viewer)) return { ...item, parent: item.parent };
  return {
    ...item,
    parent: {
      id: parent.id,
      title: parent.title,
      type: parent.type,
      status: parent.status,
      parent_id: parent.parent_id,
    },
  };
}

/** How many changes wait in the queue (the badge's 'Online (N pending)'). */
export function pendingCount(db: OutpostDb): Promise<number> {
  return db.syncQueue.count();
}

/** Items with an open conflict, for the conflict dialog. */
export function conflictedItems(db: OutpostDb): Promise<LocalItem[]> {
  return conflictedCollection(db).toArray();
}
