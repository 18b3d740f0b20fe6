import type { NotificationEntry, NotificationPage } from '../../../shared/notifications';
import type { NotificationStore, PushState } from '../../stores/notificationStore';
import { initialNotificationState } from '../../stores/notificationStore';
import { type ApiClient, ApiError } from '../net/apiClient';
import { getMeta, META_KEYS, type OutpostDb, setMeta } from '../store/db';
import { registration } from './systemNotification';

const PER_PAGE = 50;

interface Cached {
  userId: number;
  entries: NotificationEntry[];
  unread: number;
  hasMore: boolean;
}

/** base64url (the server's VAPID key) as the bytes pushManager.subscribe wants. */
export function keyBytes(base64url: string): Uint8Array<ArrayBuffer> {
  const base64 = base64url.replace(/-/g, '+').replace(/_/g, '/');
  const raw = atob(base64 + '='.repeat((4 - (base64.length % 4)) % 4));
  const bytes = new Uint8Array(new ArrayBuffer(raw.length));
  for (let i = 0; i < raw.length; i++) bytes[i] = raw.charCodeAt(i);
  return bytes;
}

const pushSupported = () =>
  typeof navigator !== 'undefined' &&
  'serviceWorker' in navigator &&
  typeof window !== 'undefined' &&
  'PushManager' in window &&
  'Notification' in window;

/**
 * The signed-in user's notifications: the first pages from the server, kept on the device (Dexie's
 * meta store) so the page works offline from what was last fetched, the unread count from the event
 * stream, mark read, and Web Push through the service worker.
 */
export function createNotifications(deps: {
  db: OutpostDb;
  api: ApiClient;
  store: NotificationStore;
  isOnline: () => boolean;
  userId: () => number;
}) {
  const { db, api, store } = deps;
  let refreshing: Promise<void> | null = null;

  const save = async (state: Cached) => {
    await setMeta(db, META_KEYS.notifications, state).catch(() => {});
  };

  const fromCache = async (userId: number) => {
    const cached = await getMeta<Cached>(db, META_KEYS.notifications).catch(() => undefined);
    if (!cached || cached.userId !== userId || store.getState().userId !== userId) return;
    if (store.getState().entries !== null && !store.getState().fromCache) return;
    store.setState({
      entries: cached.entries,
      unread: cached.unread,
      hasMore: cached.hasMore,
      fromCache: true,
    });
  };

  const fetchFirst = async () => {
    const userId = deps.userId();
    if (userId === 0) return;
    store.setState({ loading: true });
    try {
      const { data } = await api.get<NotificationPage>(`/notifications?per_page=${PER_PAGE}`);
      if (deps.userId() !== userId) return;
      const state = {
        entries: data.data,
        unread: data.unread,
        hasMore: data.last_page > 1,
      };
      store.setState({ ...state, fromCache: false });
      await save({ userId, ...state });
    } catch {
      await fromCache(userId);
    } finally {
      store.setState({ loading: false });
    }
  };

  const refresh = (): Promise<void> => {
    refreshing ??= fetchFirst().finally(() => {
      refreshing = null;
    });
    return refreshing;
  };

  return {
    /** The signed-in user changed (or signed out): shows their cached entries, then the server's. */
    async userChanged(): Promise<void> {
      const userId = deps.userId();
      store.setState({ ...initialNotificationState, userId, push: store.getState().push });
      if (userId === 0) return;
      await fromCache(userId);
      if (deps.isOnline()) await refresh();
    },
    /** The event stream's `notification {unread}`: a new count means new or read entries. */
    onUnread(unread: number): void {
      if (deps.userId() === 0) return;
      const state = store.getState();
      if (state.unread === unread && state.entries !== null && !state.fromCache) return;
      store.setState({ unread });
      void refresh();
    },
    refresh,
    /** The next page after what is shown (older entries). */
    async loadMore(): Promise<void> {
      const entries = store.getState().entries ?? [];
      const page = Math.floor(entries.length / PER_PAGE) + 1;
      const { data } = await api.get<NotificationPage>(`/notifications?per_page=${PER_PAGE}&page=${page}`);
      const known = new Set(entries.map((e) => e.id));
      store.setState({
        entries: [...entries, ...data.data.filter((e) => !known.has(e.id))],
        hasMore: data.current_page < data.last_page,
        unread: data.unread,
      });
    },
    /** Marks some entries (or all) read: at once on the device, then on the server. */
    async markRead(ids?: number[]): Promise<void> {
      const userId = deps.userId();
      if (userId === 0) return;
      const now = new Date().toISOString();
      const state = store.getState();
      const wanted = ids === undefined ? null : new Set(ids);
      const entries = (state.entries ?? []).map((e) =>
        e.read_at === null && (wanted === null || wanted.has(e.id)) ? { ...e, read_at: now } : e,
      );
      const newlyRead = (state.entries ?? []).filter(
        (e) => e.read_at === null && (wanted === null || wanted.has(e.id)),
      ).length;
      const unread = wanted === null ? 0 : Math.max(0, state.unread - newlyRead);
      store.setState({ entries, unread });
      await save({ userId, entries, unread, hasMore: state.hasMore });
      try {
        const { data } = await api.post<{ unread: number }>('/notifications/read', ids ? { ids } : {});
        store.setState({ unread: data.unread });
      } catch {
        // Offline: the device shows them read; the server's count returns with the next fetch.
      }
    },
    push: {
      /** Where Web Push stands on this device for this browser. */
      async check(): Promise<PushState> {
        let state: PushState;
        if (!pushSupported()) state = 'unsupported';
        else if (Notification.permission === 'denied') state = 'blocked';
        else {
          const reg = await registration();
          const subscription = reg ? await reg.pushManager.getSubscription() : null;
          state = subscription && Notification.permission === 'granted' ? 'on' : 'off';
        }
        store.setState({ push: state });
        return state;
      },
      /** Asks for permission and subscribes through the service worker; answers the new state. */
      async enable(): Promise<PushState> {
        if (!pushSupported()) {
          store.setState({ push: 'unsupported' });
          return 'unsupported';
        }
        const permission = await Notification.requestPermission();
        if (permission !== 'granted') {
          const state: PushState = permission === 'denied' ? 'blocked' : 'off';
          store.setState({ push: state });
          return state;
        }
        const reg = await registration();
        if (!reg) throw new Error('The app’s offline worker is not running, so push cannot be turned on.');
        const { data } = await api.get<{ publicKey: string }>('/push/key');
        const subscribe = () =>
          reg.pushManager.subscribe({
            userVisibleOnly: true,
            applicationServerKey: keyBytes(data.publicKey),
          });
        const existing = await reg.pushManager.getSubscription();
        try {
          await api.post('/push/subscriptions', (existing ?? (await subscribe())).toJSON());
        } catch (error) {
          // 409: the browser's subscription is still another account's (signed in here before and
          // never turned push off). The server never hands it over; a new subscription is ours.
          if (!(error instanceof ApiError) || error.status !== 409 || !existing) throw error;
          await existing.unsubscribe();
          await api.post('/push/subscriptions', (await subscribe()).toJSON());
        }
        store.setState({ push: 'on' });
        return 'on';
      },
      /** Unsubscribes this browser and tells the server to forget it. */
      async disable(): Promise<PushState> {
        const reg = await registration();
        const subscription = reg ? await reg.pushManager.getSubscription() : null;
        if (subscription) {
          await api
            .delete('/push/subscriptions', { body: { endpoint: subscription.endpoint } })
            .catch(() => {});
          await subscription.unsubscribe();
        }
        store.setState({ push: 'off' });
        return 'off';
      },
    },
  };
}

export type NotificationsClient = ReturnType<typeof createNotifications>;
