/** Home's list, through the one door. */
import { type ListTab, type LocalItem, useHomeItems } from '../items/queries';

export { useParentTitles } from '../items/queries';
export type { ListTab };

/** 'all' is orphans newest first; a type tab is every item of that type, newest first. */
export function useHomeList(tab: ListTab): LocalItem[] | undefined {
  return useHomeItems(tab);
}
