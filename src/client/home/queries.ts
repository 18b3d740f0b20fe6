/** Home's list, through the one door. */
import type { ItemType } from '../../shared/item';
import {
  type ListTab,
  type LocalItem,
  type Paged,
  useHomeItems,
  useHomePreview,
  useHomeTypePage,
  useTypeCounts,
} from '../items/queries';

export type { ListTab, Paged };
export { useHomePreview, useHomeTypePage };

/** 'all' is orphans newest first; a type tab is every item of that type, newest first; null reads nothing. */
export function useHomeList(tab: ListTab | null): LocalItem[] | undefined {
  return useHomeItems(tab);
}

const HIDDEN_TYPES: readonly ItemType[] = ['task', 'todo'];

/** How many tasks and todos Home's type tabs hold (by index), asked only when All is empty. */
export function useHomeHiddenCounts(enabled: boolean): { task: number; todo: number } | undefined {
  const counts = useTypeCounts(enabled ? HIDDEN_TYPES : null);
  return counts === undefined ? undefined : { task: counts.task ?? 0, todo: counts.todo ?? 0 };
}
