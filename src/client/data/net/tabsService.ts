import type { Service } from '../service';
import { shareAuthAcrossTabs, watchQueueCounts } from './tabs';

/** A sign-in or sign-out in one tab reaches the others; a sign-in there syncs here too. */
export const authAcrossTabsService: Service = {
  name: 'auth across tabs',
  start({ auth, db, syncInBackground }) {
    return shareAuthAcrossTabs(auth, `outpost-auth:${db.name}`, () => {
      void auth
        .getState()
        .checkSession()
        .then(() => syncInBackground());
    });
  },
};

/** The badge's pending and conflict counts follow the queue, whichever tab wrote it. */
export const queueCountsService: Service = {
  name: 'queue counts',
  start: ({ db, status }) => watchQueueCounts(db, status),
};
