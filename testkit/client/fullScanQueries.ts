/**
 * The list queries as they were before issue 19 gave them indexes: every row of the table filtered
 * and sorted in JS. Kept only as the reference the index-based queries (src/client/data/reads/itemQueries.ts)
 * must agree with, row for row, in order, and in every count.
 */
import type { LocalItem, Viewer } from '../../src/client/data/store/types';
import type { ItemStatus, ItemType } from '../../src/shared/item';
import { subtreeProgress } from '../../src/shared/progress';
import { type ListOrder, sortForList } from '../../src/shared/sort';
import {
  isAssignedTo,
  isCreatedBy,
  isMineOrAssigned,
  type LifecycleScreen,
  matchesFilterText,
  SCREEN_STATUS,
} from '../../src/shared/visibility';

export type Tab = 'all' | ItemType;

const ORDER_OF_STATUS = {
  pending: 'queue',
  in_progress: 'active',
  completed: 'completed',
} as const satisfies Record<ItemStatus, ListOrder>;

function inScope(item: LocalItem, viewer: Viewer): boolean {
  if (item._deleted === 1) return false;
  return viewer.isGuest ? item._syncStatus === 'local' : item._syncStatus !== 'local';
}

function finish(items: LocalItem[], order: ListOrder, search?: string): LocalItem[] {
  const filtered = search ? items.filter((i) => matchesFilterText(i, search)) : items;
  return sortForList(filtered, order);
}

/** Home's type tab: every in-scope item of the type, newest first. */
export function homeTypeByScan(rows: LocalItem[], viewer: Viewer, type: ItemType, search?: string) {
  return finish(
    rows.filter((i) => i.type === type && inScope(i, viewer)),
    'home',
    search,
  );
}

/** Queue/Active/Completed: created by or assigned to the viewer; All keeps the top of each branch of the status (I14). */
export function screenByScan(
  rows: LocalItem[],
  viewer: Viewer,
  screen: LifecycleScreen,
  tab: Tab,
  search?: string,
): LocalItem[] {
  const byId = new Map(rows.map((r) => [r.id, r]));
  const items = rows.filter(
    (i) =>
      i.status === SCREEN_STATUS[screen] &&
      inScope(i, viewer) &&
      isMineOrAssigned(i, viewer.userId) &&
      (tab === 'all' || i.type === tab),
  );
  // All (SYNC.md I14): each item whose parent is not on this list; a parent stored but deleted or
  // in the other scope hides it, as on Home.
  const branchTop = (i: LocalItem) => {
    if (i.parent_id === null || i.parent_id === 0) return true;
    const parent = byId.get(i.parent_id);
    return (
      !parent ||
      (parent._deleted !== 1 &&
        (parent._syncStatus === 'local') === (i._syncStatus === 'local') &&
        parent.status !== i.status)
    );
  };
  const listed = tab === 'all' ? items.filter(branchTop) : items;
  return finish(listed, screen, search);
}

/** My List: the viewer's own items of a status. */
export function myListByScan(rows: LocalItem[], viewer: Viewer, status: ItemStatus, search?: string) {
  return finish(
    rows.filter((i) => inScope(i, viewer) && isCreatedBy(i, viewer.userId) && i.status === status),
    ORDER_OF_STATUS[status],
    search,
  );
}

/** My List's tab badges. */
export function myListCountsByScan(rows: LocalItem[], viewer: Viewer): Record<ItemStatus, number> {
  const counts: Record<ItemStatus, number> = { pending: 0, in_progress: 0, completed: 0 };
  for (const i of rows) if (i.user_id === viewer.userId && inScope(i, viewer)) counts[i.status]++;
  return counts;
}

/** Assigned to the viewer, most recently updated first. */
export function assignedToMeByScan(rows: LocalItem[], viewer: Viewer, search?: string) {
  return finish(
    rows.filter((i) => inScope(i, viewer) && isAssignedTo(i, viewer.userId)),
    'active',
    search,
  );
}

/** Every in-scope item of a status. */
export function itemsByStatusByScan(rows: LocalItem[], viewer: Viewer, status: ItemStatus, search?: string) {
  return finish(
    rows.filter((i) => i.status === status && inScope(i, viewer)),
    ORDER_OF_STATUS[status],
    search,
  );
}

/** The in-scope children of an item, newest first, optionally of one type. */
export function childrenByScan(rows: LocalItem[], viewer: Viewer, parentId: number, type?: ItemType) {
  return finish(
    rows.filter(
      (i) => i.parent_id === parentId && inScope(i, viewer) && (type === undefined || i.type === type),
    ),
    'children',
  );
}

/** Progress: children, completed ones counted. */
export function progressByScan(rows: LocalItem[], viewer: Viewer, parentId: number) {
  const children = childrenByScan(rows, viewer, parentId);
  return { total: children.length, completed: children.filter((c) => c.status === 'completed').length };
}

/**
 * What subtreeProgressOf read before the counters: the in-scope children of `id` and the in-scope
 * children of its task children (the two levels a campaign's progress goes through).
 */
export function twoLevelsByScan(rows: LocalItem[], viewer: Viewer, id: number): LocalItem[] {
  // The root itself is never inside (subtreeProgress marks it seen).
  const children = rows.filter((i) => i.parent_id === id && i.id !== id && inScope(i, viewer));
  const tasks = new Set(children.filter((c) => c.type === 'task').map((c) => c.id));
  return [
    ...children,
    ...rows.filter((i) => i.parent_id !== null && tasks.has(i.parent_id) && inScope(i, viewer)),
  ];
}

/** Progress through the subtree of `id`, as subtreeProgressOf computed it from the loaded rows. */
export function subtreeProgressByScan(rows: LocalItem[], viewer: Viewer, id: number) {
  return subtreeProgress(twoLevelsByScan(rows, viewer, id), id);
}

/** The items inside `id` and the open ones among them (a detail page's Complete/Reopen). */
export function insideByScan(rows: LocalItem[], viewer: Viewer, id: number) {
  const inside = twoLevelsByScan(rows, viewer, id);
  return { inside: inside.length, open: inside.filter((i) => i.status !== 'completed').length };
}
