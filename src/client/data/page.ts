/**
 * The page's one client (one Dexie, one sync engine), made on first use and started once. A screen
 * with items reads the device at once through it, before start(); the door (app/door.tsx) starts it.
 */
import { notificationStore } from '../stores/notificationStore';
import { toastStore } from '../stores/toastStore';
import { createOutpostClient, type OutpostClient } from './client';

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
