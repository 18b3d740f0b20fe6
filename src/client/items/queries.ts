/** The device's items, live, through the one door (data/live.ts). */
import { useMemo } from 'react';
import type { ItemType } from '../../shared/item';
import { inManualOrder } from '../../shared/manualOrder';
import {
  type LiveQuery,
  type LocalItem,
  type LocalReads,
  type Paged,
  type PagedQuery,
  shownInManualOrder,
  useIsFirstRow,
  useLive,
  useMutuals,
  usePagedLive,
  useShown,
  useViewer,
  useWithFirstRows,
  type ViewerState,
} from '../data/live';

export type { LocalItem, Paged, ViewerState };
export { useMutuals, useViewer };

export type ListTab = 'all' | ItemType;
export type { LifecycleScreen } from '../../shared/visibility';

/** Oldest first (created_at, then id): the order people type a checklist in. */
export function oldestFirst(items: readonly LocalItem[]): LocalItem[] {
  return [...items].sort((a, b) =>
    a.created_at === b.created_at ? Math.abs(a.id) - Math.abs(b.id) : a.created_at < b.created_at ? -1 : 1,
  );
}

/** Progress through an item's subtree, and how many items sit inside it and are open. */
export type Inside = Awaited<ReturnType<LocalReads['inside']>>;

const itemQuery: LiveQuery<number, LocalItem | null> = (reads, id) => (id === 0 ? null : reads.item(id));
const childrenQuery: LiveQuery<{ parentId: number; enabled: boolean }, LocalItem[] | undefined> = (
  reads,
  { parentId, enabled },
) => (enabled ? reads.children(parentId) : undefined);
// Manual order (§5 'Order'): every child is read and sorted by its key, then the page is cut; a
// key order index per parent would read only the page, at the cost of another index on every row.
const childrenPageQuery: PagedQuery<number, LocalItem> = async (reads, parentId, limit) =>
  parentId === 0
    ? undefined
    : shownInManualOrder(inManualOrder(await reads.childrenPage(parentId, {})).slice(0, limit));
const progressQuery: LiveQuery<number, { total: number; completed: number } | undefined> = (reads, id) =>
  id === 0 ? undefined : reads.progress(id);
const insideQuery: LiveQuery<number, Inside | undefined> = (reads, id) =>
  id === 0 ? undefined : reads.inside(id);
const homeItemsQuery: LiveQuery<ListTab | null, LocalItem[] | undefined> = (reads, tab) =>
  tab === null ? undefined : reads.homeItems(tab);
const homeTypePageQuery: PagedQuery<ItemType | null, LocalItem> = async (reads, tab, limit) =>
  tab === null ? undefined : reads.homeItems(tab, { limit });
const typeCountsQuery: LiveQuery<ItemType[] | null, Partial<Record<ItemType, number>> | undefined> = async (
  reads,
  types,
) => {
  if (types === null) return undefined;
  const counts = await Promise.all(types.map((t) => reads.homeCount(t)));
  return Object.fromEntries(types.map((t, i) => [t, counts[i]]));
};
const homePreviewQuery: LiveQuery<number, { items: LocalItem[]; total: number } | undefined> = async (
  reads,
  limit,
) => {
  if (limit === 0) return undefined;
  const [items, total] = await Promise.all([reads.homeItems('all', { limit }), reads.homeCount('all')]);
  return { items, total };
};

/** One item, live; null when it does not exist locally (or is deleted), undefined while loading. */
export function useItem(id: number): LocalItem | null | undefined {
  const item = useLive(itemQuery, id);
  // A row on Home from memory (SYNC.md L17) is still being stored: loading, not missing.
  const storing = useIsFirstRow(id);
  return useShown(item === null && storing ? undefined : item);
}

/** The children of an item, newest first, live; undefined (nothing read) until `enabled`. */
export function useChildren(parentId: number, enabled = true): LocalItem[] | undefined {
  return useLive(childrenQuery, { parentId, enabled });
}

/** A detail page's children, oldest first (the data layer hands them newest first), live. */
export function useChildrenOldestFirst(parentId: number): LocalItem[] | undefined {
  const children = useChildren(parentId);
  return useMemo(() => (children ? oldestFirst(children) : undefined), [children]);
}

/**
 * A detail page's children in manual order (§5 'Order': sort_key, then uuid), live, shown a page at a
 * time.
 */
export function useChildrenPage(parentId: number): Paged<LocalItem> {
  const paged = usePagedLive(childrenPageQuery, parentId);
  useShown(paged.items);
  return paged;
}

/** Progress of a campaign or task (its children, completed ones), counted by index, live. */
export function useChildProgress(parentId: number): { total: number; completed: number } | undefined {
  return useLive(progressQuery, parentId);
}

/**
 * What a detail page's progress and Complete/Reopen need: progress through the subtree, how many items
 * sit inside and how many of them are open, from the item's maintained counters (one key read, so an
 * edit that changes none of them re-runs nothing); undefined while loading or for id 0.
 */
export function useInside(rootId: number): Inside | undefined {
  return useLive(insideQuery, rootId);
}

/** Home's 'all' is orphans newest first; a type tab is every item of that type, newest first. */
export function useHomeItems(tab: ListTab | null): LocalItem[] | undefined {
  const stored = useLive(homeItemsQuery, tab);
  // A fresh device's first page is on All from memory while it is stored (SYNC.md L17).
  const all = useWithFirstRows(tab === 'all' ? stored : undefined, isEmptyList, (rows) => [...rows]);
  return useShown(tab === 'all' ? all : stored);
}

const isEmptyList = (rows: readonly unknown[]) => rows.length === 0;
const isEmptyPreview = (preview: { total: number } | undefined) =>
  preview === undefined || preview.total === 0;

/** Home's type tab (every item of the type, newest first), read by index a page at a time; null reads nothing. */
export function useHomeTypePage(tab: ItemType | null): Paged<LocalItem> {
  const paged = usePagedLive(homeTypePageQuery, tab);
  useShown(paged.items);
  return paged;
}

/** How many items of each of `types` there are, counted by index; undefined while loading or not asked. */
export function useTypeCounts(
  types: readonly ItemType[] | null,
): Partial<Record<ItemType, number>> | undefined {
  return useLive(typeCountsQuery, types === null ? null : [...types]);
}

/**
 * Home's All preview: its newest `limit` rows and how many there are, read by Home's index without
 * loading the rest (100,000 items cost what 20 do). A limit of 0 asks for nothing.
 */
export function useHomePreview(limit: number): { items: LocalItem[]; total: number } | undefined {
  const stored = useLive(homePreviewQuery, limit);
  // A fresh device's first page is on All from memory while it is stored (SYNC.md L17).
  const shown = useWithFirstRows(limit === 0 ? undefined : stored, isEmptyPreview, (rows) => ({
    items: rows.slice(0, limit),
    total: rows.length,
  }));
  return useShown(limit === 0 ? stored : shown);
}
