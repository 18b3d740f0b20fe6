import type { ItemStatus, ItemType } from './item';

export interface VisibilityFields {
  id: number;
  type: ItemType;
  status: ItemStatus;
  user_id: number;
  assigned_to: number | null;
  parent_id: number | null;
}

/** Queue, Active and Completed show what the user created or was assigned. */
export function isMineOrAssigned(item: VisibilityFields, userId: number): boolean {
  return item.user_id === userId || item.assigned_to === userId;
}

/** My List shows only what the user created. */
export function isCreatedBy(item: VisibilityFields, userId: number): boolean {
  return item.user_id === userId;
}

/** Assigned to the user (and not unassigned: 0 and null both mean nobody). */
export function isAssignedTo(item: VisibilityFields, userId: number): boolean {
  return item.assigned_to !== null && item.assigned_to !== 0 && item.assigned_to === userId;
}

/** An orphan is top level, or its parent is not among the known items. */
export function isOrphan(item: VisibilityFields, knownIds: ReadonlySet<number>): boolean {
  return item.parent_id === null || item.parent_id === 0 || !knownIds.has(item.parent_id);
}

export const SCREEN_STATUS = {
  queue: 'pending',
  active: 'in_progress',
  completed: 'completed',
} as const satisfies Record<string, ItemStatus>;
export type LifecycleScreen = keyof typeof SCREEN_STATUS;

export interface ScreenFilter {
  screen: LifecycleScreen;
  userId: number;
  /** 'all' shows orphans only, as the spec's All tabs do. */
  tab: 'all' | ItemType;
}

/** Whether an item belongs on a Queue/Active/Completed tab for this user. */
export function onScreen(
  item: VisibilityFields,
  filter: ScreenFilter,
  knownIds: ReadonlySet<number>,
): boolean {
  if (item.status !== SCREEN_STATUS[filter.screen]) return false;
  if (!isMineOrAssigned(item, filter.userId)) return false;
  if (filter.tab === 'all') return isOrphan(item, knownIds);
  return item.type === filter.tab;
}

/** The list search box: title or description contains the trimmed, lower-cased text (any length). */
export function matchesFilterText(
  item: { title: string; description?: string | null },
  text: string,
): boolean {
  const q = text.trim().toLowerCase();
  if (q === '') return true;
  return item.title.toLowerCase().includes(q) || (item.description ?? '').toLowerCase().includes(q);
}
