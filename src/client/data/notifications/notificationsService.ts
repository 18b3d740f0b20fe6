import type { AuthStore } from '../../stores/authStore';
import type { NotificationStore } from '../../stores/notificationStore';
import type { Lazy } from '../lazy';
import type { NotificationsClient } from './notifications';

/** The notifications follow the signed-in user; a guest has none, and their code is not even loaded. */
export const notificationsService = {
  name: 'notifications',
  start({
    auth,
    notifications,
    notificationState,
  }: {
    auth: AuthStore;
    notifications: Lazy<NotificationsClient>;
    notificationState: NotificationStore;
  }): () => void {
    const userChanged = async () => {
      if (!auth.getState().isAuthenticated && !notifications.started()) {
        notificationState.setState({ userId: 0, unread: 0, entries: null });
        return;
      }
      await (await notifications()).userChanged();
    };
    void userChanged();
    return auth.subscribe((state, prev) => {
      if (state.isAuthenticated !== prev.isAuthenticated || state.user.id !== prev.user.id)
        void userChanged();
    });
  },
};
