/** The device's items, live, through the one door (src/client/app/liveData). */
import { useMemo } from 'react';
import type { ItemType } from '../../shared/item';
import { type LocalItem, useLocal, useMutuals, useShown, useViewer, type ViewerState } from '../app/liveData';

export type { LocalItem, ViewerState };
export { useMutuals, useViewer };

export type ListTab = 'all' | ItemType;
export type { LifecycleScreen } from '../../shared/visibility';

/** One item, live; null when it does not exist locally (or is deleted), undefined while loading. */
export function useItem(id: number): LocalItem | null | undefined {
  return useShown(useLocal((reads) => (id === 0 ? null : reads.item(id)), [id]));
}

/** The children of an item, newest first, live. */
export function useChildren(parentId: number): LocalItem[] | undefined {
  return useLocal((reads) => reads.children(parentId), [parentId]);
}

/** Oldest first (created_at, then id): the order people type a checklist in. */
export function oldestFirst(items: readonly LocalItem[]): LocalItem[] {
  return [...items].sort((a, b) =>
    a.created_at === b.created_at ? Math.abs(a.id) - Math.abs(b.id) : a.created_at < b.created_at ? -1 : 1,
  );
}

/** A detail page's children, oldest first (the data layer hands them newest first), live. */
export function useChildrenOldestFirst(parentId: number): LocalItem[] | undefined {
  const children = useChildren(parentId);
  return useMemo(() => (children ? oldestFirst(children) : undefined), [children]);
}

/**
 * Every live descendant of an item (a campaign's tasks and their todos; depth is at most two below
 * a campaign), for progress through the whole subtree and for asking before a bulk completion.
 */
export function useDescendants(rootId: number): LocalItem[] | undefined {
  return useLocal(
    async (reads) => {
      if (rootId === 0) return [];
      const out: LocalItem[] = [];
      let level = await reads.children(rootId);
      for (let depth = 0; level.length > 0 && depth < 4; depth += 1) {
        out.push(...level);
        const parents = level.filter((i) => i.type !== 'todo');
        level = (await Promise.all(parents.map((p) => reads.children(p.id)))).flat();
      }
      return out;
    },
    [rootId],
  );
}

/** Home's 'all' is orphans newest first; a type tab is every item of that type, newest first. */
export function useHomeItems(tab: ListTab | null): LocalItem[] | undefined {
  return useShown(useLocal((reads) => (tab === null ? undefined : reads.homeItems(tab)), [tab]));
}

/**
 * Home's All preview: its newest `limit` rows and how many there are, read by Home's index without
 * loading the rest (100,000 items cost what 20 do). A limit of 0 asks for nothing.
 */
export function useHomePreview(limit: number): { items: LocalItem[]; total: number } | undefined {
  return useShown(
    useLocal(
      async (reads) => {
        if (limit === 0) return undefined;
        const [items, total] = await Promise.all([reads.homeItems('all', { limit }), reads.homeCount('all')]);
        return { items, total };
      },
      [limit],
    ),
  );
}
