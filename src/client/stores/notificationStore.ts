import { createStore } from 'zustand/vanilla';
import type { NotificationEntry } from '../../shared/notifications';

/** Whether Web Push can be turned on here, and whether it is. */
export type PushState = 'on' | 'off' | 'blocked' | 'unsupported' | 'unknown';

export interface NotificationState {
  /** Whose entries these are (0: nobody signed in, nothing shown). */
  userId: number;
  /** The unread count the bell shows. */
  unread: number;
  /** The first page as last fetched (or cached on the device); null before anything is known. */
  entries: NotificationEntry[] | null;
  /** True while showing the device's copy because the server could not be asked. */
  fromCache: boolean;
  loading: boolean;
  /** Whether more pages exist on the server. */
  hasMore: boolean;
  push: PushState;
}

export const initialNotificationState: NotificationState = {
  userId: 0,
  unread: 0,
  entries: null,
  fromCache: false,
  loading: false,
  hasMore: false,
  push: 'unknown',
};

/**
 * The bell's count and the Notifications page's entries: a light store in the first screen's chunk,
 * so the header shows the count without loading the data layer; ../data/notifications fills it.
 */
export const notificationStore = createNotificationStore();
export type NotificationStore = ReturnType<typeof createNotificationStore>;

/** A fresh store (tests make one per simulated device). */
export function createNotificationStore() {
  return createStore<NotificationState>()(() => ({ ...initialNotificationState }));
}
