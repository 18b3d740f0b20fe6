/** The signed-in user's notifications and this browser's Web Push (../notifications/notifications). */
import type { Lazy } from '../lazy';
import type { NotificationsClient } from '../notifications/notifications';
import { defineCommands } from './map';

/** The bell's commands use the notifications client alone (loaded on first use). */
export interface NotificationsContext {
  notifications: Lazy<NotificationsClient>;
}

export const commands = defineCommands<NotificationsContext>()({
  'notifications.refresh': async (c) => (await c.notifications()).refresh(),
  'notifications.loadMore': async (c) => (await c.notifications()).loadMore(),
  /** Marks these entries read, or every entry without ids; resolves once the device shows them read. */
  'notifications.markRead': async (c, ids?: number[]) => (await c.notifications()).markRead(ids),
  'notifications.pushState': async (c) => (await c.notifications()).push.check(),
  /** Asks for permission and subscribes through the service worker. */
  'notifications.enablePush': async (c) => (await c.notifications()).push.enable(),
  'notifications.disablePush': async (c) => (await c.notifications()).push.disable(),
});
