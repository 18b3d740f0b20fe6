/** The notifications' part of the client (composed by client.ts, ARCHITECTURE §6). */
import type { AuthStore } from '../../stores/authStore';
import type { NotificationStore } from '../../stores/notificationStore';
import { lazily } from '../lazy';
import type { ApiClient } from '../net/apiClient';
import type { OutpostDb } from '../store/db';

/** The signed-in user's notifications and Web Push (./notifications.ts), loaded on first use. */
export const notificationsPart = {
  name: 'notifications',
  needs: ['db', 'api', 'notificationState', 'isOnline', 'auth'],
  create: ({
    db,
    api,
    notificationState,
    isOnline,
    auth,
  }: {
    db: OutpostDb;
    api: ApiClient;
    notificationState: NotificationStore;
    isOnline: () => boolean;
    auth: AuthStore;
  }) =>
    lazily(() =>
      import('./notifications').then((m) =>
        m.createNotifications({
          db,
          api,
          store: notificationState,
          isOnline,
          userId: () => (auth.getState().isAuthenticated ? auth.getState().user.id : 0),
        }),
      ),
    ),
} as const;
