/**
 * The signed-in user's mutual contacts as the device keeps them (meta 'mutuals'): the row's shape and
 * what the pickers read of it. Fetching and storing them is contacts/mutuals.ts.
 */
import type { Mutual } from '../../../shared/item';

export interface StoredMutuals {
  /** Whose list this is: after an account change it is not shown. */
  userId: number;
  fetchedAt: number;
  list: Mutual[];
  /** The sample users the server seeded (none where it seeds none): the pickers offer only those. */
  samples?: Mutual[];
  /** The server's fingerprint of the list when it was fetched after a `mutuals` event (E3). */
  version?: string;
}

/** The stored list when it belongs to `userId`, else none. */
export function mutualsOf(stored: StoredMutuals | undefined, userId: number): Mutual[] {
  return stored && stored.userId === userId ? stored.list : [];
}

/** The stored sample users when the list belongs to `userId`, else none. */
export function samplesOf(stored: StoredMutuals | undefined, userId: number): Mutual[] {
  return stored && stored.userId === userId ? (stored.samples ?? []) : [];
}
