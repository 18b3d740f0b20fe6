/**
 * The client is composed of services, each with `start(ctx) → stop` (ARCHITECTURE §6): connectivity,
 * sync, reminders, the search index, notifications… The composition file (client.ts) only wires them.
 */
import type { AuthStore } from '../stores/authStore';
import type { NotificationStore } from '../stores/notificationStore';
import type { SyncStatusStore } from '../stores/syncStatusStore';
import type { ToastStore } from '../stores/toastStore';
import type { Lazy } from './lazy';
import type { ApiClient } from './net/apiClient';
import type { Connectivity } from './net/connectivity';
import type { NotificationsClient } from './notifications/notifications';
import type { OutpostDb } from './store/db';
import type { Viewer } from './store/types';
import type { SyncResult } from './sync';
import type { LazyEngine } from './sync/lazyEngine';

/** What a service may use: the client's parts, never another service. */
export interface ServiceContext {
  db: OutpostDb;
  api: ApiClient;
  auth: AuthStore;
  status: SyncStatusStore;
  toasts: ToastStore;
  notificationState: NotificationStore;
  connectivity: Connectivity;
  engine: LazyEngine;
  viewer: () => Viewer;
  notifications: Lazy<NotificationsClient>;
  /** Starts a sync run in the background (after a sign-in in another tab, say). */
  syncInBackground: () => Promise<SyncResult>;
  /** Refreshes the stored mutual contacts when stale (always with `force`); never throws. */
  /**
   * Refreshes the stored mutuals when stale (or always with `force`, or when the server's `version`
   * differs from the stored one, E3); never throws.
   */
  updateMutuals: (force?: boolean, version?: string) => Promise<void>;
  options: { baseUrl: string; openPath: (path: string) => void };
}

/** A part of the client that runs while the client runs. */
export interface Service {
  /** Says what it is in errors and tests. */
  name: string;
  /** Starts the service; the answer stops it (and works at any time, even before it got going). */
  start(ctx: ServiceContext): () => void;
}

/**
 * The services a client runs, started in waves: it keeps every started service's stop, and `stopAll`
 * stops each once, the last started first; a wave asked for after that starts nothing (W11).
 */
export function createServiceRunner(ctx: ServiceContext) {
  const stops: (() => void)[] = [];
  let stopped = false;
  return {
    /** Starts the services in order, unless stopped already; answers whether they started. */
    start(services: readonly Service[]): boolean {
      if (stopped) return false;
      for (const service of services) stops.push(service.start(ctx));
      return true;
    },
    /** Whether `stopAll` has run (a start under way gives up at its next wave). */
    stopped: () => stopped,
    /** Stops every started service once, in reverse order of start; any later wave starts nothing. */
    stopAll(): void {
      stopped = true;
      for (let stop = stops.pop(); stop; stop = stops.pop()) stop();
    },
  };
}

/** Starts services in order; the answer stops them in reverse. */
export function startAll(services: readonly Service[], ctx: ServiceContext): () => void {
  const stops = services.map((service) => service.start(ctx));
  return () => {
    for (const stop of stops.reverse()) stop();
  };
}
