/** The contacts' part of the client (composed by client.ts, ARCHITECTURE §6). */
import type { AuthStore } from '../../stores/authStore';
import type { ApiClient } from '../net/apiClient';
import type { OutpostDb } from '../store/db';
import { refreshMutuals } from './mutuals';

/** Refreshes the signed-in user's stored mutuals (see service.ts ServiceContext.updateMutuals); never throws. */
export const updateMutualsPart = {
  name: 'updateMutuals',
  needs: ['auth', 'isOnline', 'db', 'api'],
  create:
    ({
      auth,
      isOnline,
      db,
      api,
    }: {
      auth: AuthStore;
      isOnline: () => boolean;
      db: OutpostDb;
      api: ApiClient;
    }) =>
    async (force = false, version?: string): Promise<void> => {
      const state = auth.getState();
      if (!state.isAuthenticated || !isOnline()) return;
      try {
        await refreshMutuals(db, api, state.user.id, {
          force,
          ...(version !== undefined ? { version } : {}),
        });
      } catch {
        // The stored list stays; the next sync run tries again.
      }
    },
} as const;
