import { useEffect } from 'react';
import { useStore } from 'zustand';
import type { NotificationEntry } from '../../shared/notifications';
import { itemRoute } from '../../shared/notifications';
import { useDoor, useSignedInUser } from '../app/door';
import { useItem } from '../items/queries';
import type { NotificationState } from '../stores/notificationStore';

/** The notifications as last fetched (or kept on the device), fetched again when the page opens. */
export function useNotifications(): NotificationState {
  const { notifications, send } = useDoor();
  const user = useSignedInUser();
  const state = useStore(notifications);
  useEffect(() => {
    if (user) void send('notifications.refresh');
  }, [send, user]);
  return state;
}

/** This browser's Web Push state, looked up when the screen opens. */
export function usePushState(): NotificationState['push'] {
  const { notifications, send } = useDoor();
  const push = useStore(notifications, (s) => s.push);
  useEffect(() => {
    void send('notifications.pushState').catch(() => {});
  }, [send]);
  return push;
}

/** Where an entry's item opens: its page, or a todo's parent's page (from the device's copy). */
export function useEntryRoute(item: NonNullable<NotificationEntry['item']>): string {
  const local = useItem(item.type === 'todo' ? item.id : 0);
  const parent = useItem(local?.parent_id ?? 0);
  return itemRoute(item, parent ? { id: parent.id, type: parent.type } : null);
}
