/**
 * The signed-in user's mutual contacts, kept on the device (meta 'mutuals') so the assignee pickers
 * offer them offline and on the first paint, with no request of their own. The client refreshes them
 * after a sync run when they are more than a minute old, and at once after a contacts import.
 */
import type { Mutual } from '../../../shared/item';
import type { ApiClient } from '../net/apiClient';
import { getMeta, META_KEYS, type OutpostDb, setMeta } from '../store/db';
import type { StoredMutuals } from '../store/mutuals';

/** How long a fetched list counts as fresh (the pickers' former cache time). */
export const MUTUALS_FRESH_MS = 60_000;

export { mutualsOf, type StoredMutuals, samplesOf } from '../store/mutuals';

/**
 * Whether the stored list must be fetched again: another user's, older than a minute, asked for
 * (`force`), or not the version the server's event stream just announced (E3).
 */
export function mutualsStale(
  stored: StoredMutuals | undefined,
  userId: number,
  { force = false, now = Date.now(), version }: { force?: boolean; now?: number; version?: string } = {},
): boolean {
  if (force || !stored || stored.userId !== userId) return true;
  if (version !== undefined) return stored.version !== version;
  return now - stored.fetchedAt >= MUTUALS_FRESH_MS;
}

/** Fetches and stores `userId`'s mutuals unless the stored list will do (see mutualsStale). */
export async function refreshMutuals(
  db: OutpostDb,
  api: ApiClient,
  userId: number,
  options: { force?: boolean; now?: number; version?: string } = {},
): Promise<Mutual[]> {
  const stored = await getMeta<StoredMutuals>(db, META_KEYS.mutuals);
  if (stored && !mutualsStale(stored, userId, options)) return stored.list;
  const { data } = await api.get<{ mutuals: Mutual[]; samples?: Mutual[] }>('/contacts/mutuals');
  await setMeta(db, META_KEYS.mutuals, {
    userId,
    fetchedAt: options.now ?? Date.now(),
    list: data.mutuals,
    samples: data.samples ?? [],
    ...(options.version !== undefined ? { version: options.version } : {}),
  } satisfies StoredMutuals);
  return data.mutuals;
}
