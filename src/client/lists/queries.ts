/** Queue, Active, Completed and My List, live from the device through the one door. */

import { SCREEN_STATUS } from '../../shared/visibility';
import { useLocal, useShown } from '../app/liveData';
import type { LifecycleScreen, ListTab, LocalItem } from '../items/queries';

export type { LifecycleScreen, ListTab };

/** Queue/Active/Completed: the spec's visibility (created by or assigned to me) and sort orders. */
export function useScreenList(screen: LifecycleScreen, tab: ListTab, text: string): LocalItem[] | undefined {
  return useShown(useLocal((reads) => reads.screenItems(screen, tab, { search: text }), [screen, tab, text]));
}

/** My List: items I created, per lifecycle tab, filtered by the search text. */
export function useMyList(screen: LifecycleScreen, text: string): LocalItem[] | undefined {
  return useShown(
    useLocal((reads) => reads.myListItems(SCREEN_STATUS[screen], { search: text }), [screen, text]),
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
        reads.screenItems(screen, 'task'),
        reads.screenItems(screen, 'todo'),
      ]);
      return { task: task.length, todo: todo.length };
    },
    [screen, enabled],
  );
}
