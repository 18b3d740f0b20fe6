/** Home's list, through the one door. */
import { useLocal } from '../app/liveData';
import { type ListTab, type LocalItem, useHomeItems, useHomePreview } from '../items/queries';

export type { ListTab };
export { useHomePreview };

/** 'all' is orphans newest first; a type tab is every item of that type, newest first; null reads nothing. */
export function useHomeList(tab: ListTab | null): LocalItem[] | undefined {
  return useHomeItems(tab);
}

/** How many tasks and todos Home's type tabs hold, asked only when All is empty. */
export function useHomeHiddenCounts(enabled: boolean): { task: number; todo: number } | undefined {
  return useLocal(
    async (reads) => {
      if (!enabled) return undefined;
      const [task, todo] = await Promise.all([reads.homeItems('task'), reads.homeItems('todo')]);
      return { task: task.length, todo: todo.length };
    },
    [enabled],
  );
}
