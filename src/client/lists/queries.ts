/** Queue, Active, Completed and My List, live from the device through the one door. */

import { SCREEN_STATUS } from '../../shared/visibility';
import { type Paged, useLocal, usePagedLocal, useShown } from '../app/liveData';
import type { LifecycleScreen, ListTab, LocalItem } from '../items/queries';

export type { LifecycleScreen, ListTab, Paged };

/**
 * Queue/Active/Completed: the spec's visibility (created by or assigned to me) and sort orders, read
 * by index a page at a time.
 */
export function useScreenList(screen: LifecycleScreen, tab: ListTab, text: string): Paged<LocalItem> {
  const paged = usePagedLocal(
    (reads, limit) => reads.screenItems(screen, tab, { search: text, limit }),
    [screen, tab, text],
  );
  useShown(paged.items);
  return paged;
}

/** My List: items I created, per lifecycle tab, filtered by the search text, a page at a time. */
export function useMyList(screen: LifecycleScreen, text: string, enabled = true): Paged<LocalItem> {
  const paged = usePagedLocal(
    async (reads, limit) =>
      enabled ? reads.myListItems(SCREEN_STATUS[screen], { search: text, limit }) : undefined,
    [screen, text, enabled],
  );
  useShown(paged.items);
  return paged;
}

/** My List's tab badges: from the indexes, or the matching items' count while searching. */
export function useMyListCounts(text: string): Record<LifecycleScreen, number> | undefined {
  return useLocal(
    async (reads) => {
      const counts = await reads.myListCounts(text);
      return { queue: counts.pending, active: counts.in_progress, completed: counts.completed };
    },
    [text],
  );
}

/**
 * How many items the Tasks and Todos tabs hold, asked only when All is empty (then none of them is
 * top-level, so every one is inside a campaign or task); undefined while loading or not asked.
 */
export function useHiddenCounts(
  screen: LifecycleScreen,
  enabled: boolean,
): { task: number; todo: number } | undefined {
  return useLocal(
    async (reads) => {
      if (!enabled) return undefined;
      const [task, todo] = await Promise.all([
        reads.screenCount(screen, 'task'),
        reads.screenCount(screen, 'todo'),
      ]);
      return { task, todo };
    },
    [screen, enabled],
  );
}
