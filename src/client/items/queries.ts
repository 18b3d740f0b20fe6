/** The device's items, live, through the one door (src/client/app/liveData). */
import type { ItemType } from '../../shared/item';
import { type LocalItem, useLocal, useMutuals, useShown, useViewer, type ViewerState } from '../app/liveData';

export type { LocalItem, ViewerState };
export { useMutuals, useViewer };

export type ListTab = 'all' | ItemType;
export type { LifecycleScreen } from '../../shared/visibility';

const EMPTY_TITLES: ReadonlyMap<number, string> = new Map();

/** Titles of every local campaign and task, for 'in {parent}' on rows. */
export function useParentTitles(): ReadonlyMap<number, string> {
  return useLocal((reads) => reads.parentTitles(), []) ?? EMPTY_TITLES;
}

/** One item, live; null when it does not exist locally (or is deleted), undefined while loading. */
export function useItem(id: number): LocalItem | null | undefined {
  return useShown(useLocal((reads) => (id === 0 ? null : reads.item(id)), [id]));
}

/** The children of an item, newest first, live. */
export function useChildren(parentId: number): LocalItem[] | undefined {
  return useLocal((reads) => reads.children(parentId), [parentId]);
}

/** Home's 'all' is orphans newest first; a type tab is every item of that type, newest first. */
export function useHomeItems(tab: ListTab): LocalItem[] | undefined {
  return useShown(useLocal((reads) => reads.homeItems(tab), [tab]));
}
