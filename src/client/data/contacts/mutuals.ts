/**
 * The signed-in user's mutual contacts, kept on the device (meta 'mutuals') so the assignee pickers
 * offer them offline and on the first paint, with no request of their own. The client refreshes them
 * after a sync run when they are more than a minute old, and at once after a contacts import.
 */
import type { Mutual } from '../../../shared/item';
import type { ApiClient } from '../net/apiClient';
import { getMeta, META_KEYS, type OutpostDb, setMeta } from '../store/db';

/** How long a fetched list counts as fresh (the pickers' former cache time). */
export const MUTUALS_FRESH_MS = 60_000;

export interface StoredMutuals {
  /** Whose list this is: after an account change it is not shown. */
  userId: number;
  fetchedAt: number;
  list: Mutual[];
}

/** The stored list when it belongs to `userId`, else none. */
export function mutualsOf(stored: StoredMutuals | undefined, userId: number): Mutual[] {
  return stored && stored.userId === userId ? stored.list : [];
}

/** Fetches and stores `userId`'s mutuals unless a fresh list is stored (`force` fetches anyway). */
export async function refreshMutuals(
  db: OutpostDb,
  api: ApiClient,
  userId: number,
  { force = false, now = Date.now() }: { force?: boolean; now?: number } = {},
): Promise<Mutual[]> {
  const stored = await getMeta<StoredMutuals>(db, META_KEYS.mutuals);
  if (!force && stored?.userId === userId && now - stored.fetchedAt < MUTUALS_FRESH_MS) return stored.list;
  const { data } = await api.get<{ mutuals: Mutual[] }>('/contacts/mutuals');
  await setMeta(db, META_KEYS.mutuals, {
    userId,
    fetchedAt: now,
    list: data.mutuals,
  } satisfies StoredMutuals);
  return data.mutuals;
}
