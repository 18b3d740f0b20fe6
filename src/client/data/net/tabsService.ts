import type { AuthStore } from '../../stores/authStore';
import { shareAuthAcrossTabs } from './tabs';

/** A sign-in or sign-out in one tab reaches the others; a sign-in there syncs here too. */
export const authAcrossTabsService = {
  name: 'auth across tabs',
  start({
    auth,
    db,
    syncInBackground,
  }: {
    auth: AuthStore;
    /** Names the channel: one per database, so tests' devices in one process stay apart. */
    db: { name: string };
    syncInBackground: () => Promise<unknown>;
  }): () => void {
    return shareAuthAcrossTabs(auth, `outpost-auth:${db.name}`, () => {
      void auth
        .getState()
        .checkSession()
        .then(() => syncInBackground());
    });
  },
};
