import type { SyncStatusStore } from '../../stores/syncStatusStore';
import type { FetchLike } from '../net/apiClient';

/**
 * R2: every request tells the sync status whether the server can be reached. An answer (any status)
 * means it can; no answer while the browser says it is online means it cannot ('Server unreachable',
 * not 'Online'). No answer while offline says nothing about the server, and a request the app
 * cancelled itself says nothing either.
 */
export function trackReachability(
  fetch: FetchLike,
  status: SyncStatusStore,
  isOnline: () => boolean,
): FetchLike {
  return async (input, init) => {
    try {
      const response = await fetch(input, init);
      status.getState().setServerReachable(true);
      return response;
    } catch (error) {
      if (!init?.signal?.aborted && isOnline()) status.getState().setServerReachable(false);
      throw error;
    }
  };
}
