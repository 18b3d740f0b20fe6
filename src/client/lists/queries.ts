/** Queue, Active, Completed and My List, live from the device through the one door. */

import { SCREEN_STATUS } from '../../shared/visibility';
import { type LiveQuery, type Paged, type PagedQuery, useLive, usePagedLive, useShown } from '../data/live';
import type { LifecycleScreen, ListTab, LocalItem } from '../items/queries';

export type { LifecycleScreen, ListTab, Paged };

type ScreenArgs = { screen: LifecycleScreen; tab: ListTab; text: string };

const screenListQuery: PagedQuery<ScreenArgs, LocalItem> = (reads, { screen, tab, text }, limit) =>
  reads.screenItems(screen, tab, { search: text, limit });
const myListQuery: PagedQuery<
  { screen: LifecycleScreen; text: string; enabled: boolean },
  LocalItem
> = async (reads, { screen, text, enabled }, limit) =>
  enabled ? reads.myListItems(SCREEN_STATUS[screen], { search: text, limit }) : undefined;
const myListCountsQuery: LiveQuery<string, Record<LifecycleScreen, number>> = async (reads, text) => {
  const counts = await reads.myListCounts(text);
  return { queue: counts.pending, active: counts.in_progress, completed: counts.completed };
};
/**
 * Queue/Active/Completed: the spec's visibility (created by or assigned to me) and sort orders, read
 * by index a page at a time.
 */
export function useScreenList(screen: LifecycleScreen, tab: ListTab, text: string): Paged<LocalItem> {
  const paged = usePagedLive(screenListQuery, { screen, tab, text });
  useShown(paged.items);
  return paged;
}

/** My List: items I created, per lifecycle tab, filtered by the search text, a page at a time. */
export function useMyList(screen: LifecycleScreen, text: string, enabled = true): Paged<LocalItem> {
  const paged = usePagedLive(myListQuery, { screen, text, enabled });
  useShown(paged.items);
  return paged;
}

/** My List's tab badges: from the indexes, or the matching items' count while searching. */
export function useMyListCounts(text: string): Record<LifecycleScreen, number> | undefined {
  return useLive(myListCountsQuery, text);
}
