/**
 * The page's one client (one Dexie, one sync engine), made on first use and started once. A screen
 * with items reads the device at once through it, before start(); the door (app/door.tsx) starts it.
 */

import type { Door } from '../app/door';
import { notificationStore } from '../stores/notificationStore';
import { toastStore } from '../stores/toastStore';
import { createOutpostClient, type OutpostClient } from './client';

/**
 * The door over a data layer's client (app/door.tsx). Tests make one over their own client and hand it
 * to <DoorProvider door={…}>: the one way to inject one.
 */
export function createDoor(client: OutpostClient): Door {
  return {
    client,
    send: client.send,
    auth: client.auth,
    syncStatus: client.status,
    toasts: client.toasts,
    notifications: client.notificationState,
  };
}

let client: OutpostClient | null = null;
let started = false;

/** The page's client, made (not started) on first use; its toasts go to the app's one queue. */
export function pageClient(): OutpostClient {
  client ??= createOutpostClient({ toastStore, notificationStore });
  return client;
}

/** The page's client, started once (guest init, session check, the services). */
export function startPageClient(): OutpostClient {
  const c = pageClient();
  if (!started) {
    started = true;
    void c.start();
  }
  return c;
}
