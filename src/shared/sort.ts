/** Timestamps the list orders read; ISO strings compare correctly as text. */
export interface Sortable {
  id: number;
  created_at: string;
  updated_at?: string | null;
  completed_at?: string | null;
}

type Key<T> = (item: T) => string;

/** The sort key of each order, newest first with ties by id descending (also what indexes store). */
export const createdKey: Key<Sortable> = (i) => i.created_at;
export const updatedKey: Key<Sortable> = (i) => i.updated_at || i.created_at;
export const completedKey: Key<Sortable> = (i) => i.completed_at || i.updated_at || i.created_at;

function newestBy<T extends Sortable>(key: Key<T>): (a: T, b: T) => number {
  return (a, b) => {
    const ka = key(a);
    const kb = key(b);
    if (ka !== kb) return ka < kb ? 1 : -1;
    // Equal timestamps still need a stable order, or two tabs could show the same list differently.
    return b.id - a.id;
  };
}

/** Newest created first: Home All, Queue, My List queue. */
export const byCreatedDesc = newestBy<Sortable>(createdKey);

/** Most recently updated first (falling back to created_at): Active, My List active. */
export const byUpdatedDesc = newestBy<Sortable>(updatedKey);

/** Most recently completed first (falling back to updated_at): Completed, My List completed. */
export const byCompletedDesc = newestBy<Sortable>(completedKey);

export const LIST_ORDERS = {
  queue: byCreatedDesc,
  active: byUpdatedDesc,
  completed: byCompletedDesc,
  home: byCreatedDesc,
  children: byCreatedDesc,
} as const;
export type ListOrder = keyof typeof LIST_ORDERS;

/** The key each list order sorts by (newest first), for reading a list by index. */
export const LIST_KEYS = {
  queue: createdKey,
  active: updatedKey,
  completed: completedKey,
  home: createdKey,
  children: createdKey,
} as const satisfies Record<ListOrder, Key<Sortable>>;

/** A sorted copy of `items` in the named list's order. */
export function sortForList<T extends Sortable>(items: readonly T[], order: ListOrder): T[] {
  return [...items].sort(LIST_ORDERS[order]);
}
