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

/**
 * One part of the client (ARCHITECTURE §6): its name, the parts it is made from (`needs`, made before
 * it and handed to `create` by name) and those it calls only once the client is made (`later`, handed
 * as getters, so two parts that call each other need no order: the API client tells the auth store of
 * a 401, and the auth store calls the API client). Each data folder's part.ts declares its parts;
 * client.ts composes them. A part is a plain object, so a folder that may import nothing names no type.
 */
export interface Part {
  readonly name: string;
  readonly needs: readonly string[];
  readonly later?: readonly string[];
  // biome-ignore lint/suspicious/noExplicitAny: each part names the deps it takes.
  create(deps: any): unknown;
}

/** What the parts make, by name. */
export type Made<P extends readonly Part[]> = { [X in P[number] as X['name']]: ReturnType<X['create']> };

/** What a part is handed: its needs as they are, its `later` parts as getters. */
type Handed<All, X extends Part> = Pick<All, X['needs'][number] & keyof All> &
  (X extends { later: readonly (infer L)[] } ? { [K in L & keyof All]: () => All[K] } : unknown);

/** Each part, or, where what it is handed is not what its `create` takes, a type error naming it. */
type Checked<All, P extends readonly Part[]> = {
  [K in keyof P]: P[K] extends Part
    ? P[K]['create'] extends (deps: infer D) => unknown
      ? Handed<All, P[K]> extends D
        ? P[K]
        : { needsDoNotGiveWhatCreateTakes: P[K]['name'] }
      : { needsDoNotGiveWhatCreateTakes: P[K]['name'] }
    : P[K];
};

/**
 * The order to make the parts in: each after its needs (`given` counts as made), in list order where
 * the needs leave a choice. Throws on a name made twice, a need or `later` part nothing makes, and a
 * circle of needs, before anything is made.
 */
export function partOrder(given: readonly string[], parts: readonly Part[]): Part[] {
  const byName = new Map<string, Part>();
  for (const part of parts) {
    if (byName.has(part.name) || given.includes(part.name))
      throw new Error(`Two parts are named '${part.name}'`);
    byName.set(part.name, part);
  }
  const order: Part[] = [];
  const done = new Set(given);
  const visit = (part: Part, path: readonly string[]): void => {
    if (done.has(part.name)) return;
    if (path.includes(part.name))
      throw new Error(`Parts need each other in a circle: ${[...path, part.name].join(' → ')}`);
    for (const name of [...part.needs, ...(part.later ?? [])]) {
      if (!done.has(name) && !byName.has(name))
        throw new Error(`Part '${part.name}' needs '${name}', which no part makes`);
    }
    for (const name of part.needs) {
      const need = byName.get(name);
      if (need) visit(need, [...path, part.name]);
    }
    done.add(part.name);
    order.push(part);
  };
  for (const part of parts) visit(part, []);
  return order;
}

/**
 * Makes every part in need order (partOrder), each handed only what it named, and answers them with
 * `given` by name. A `later` getter called before its part is made throws.
 */
export function composeParts<G extends object, const P extends readonly Part[]>(
  given: G,
  parts: P & Checked<G & Made<P>, P>,
): G & Made<P> {
  const made: Record<string, unknown> = { ...(given as Record<string, unknown>) };
  const get = (name: string) => () => {
    if (!(name in made)) throw new Error(`'${name}' is called before it is made`);
    return made[name];
  };
  for (const part of partOrder(Object.keys(given), parts)) {
    const deps: Record<string, unknown> = {};
    for (const name of part.needs) deps[name] = made[name];
    for (const name of part.later ?? []) deps[name] = get(name);
    made[part.name] = part.create(deps);
  }
  return made as G & Made<P>;
}
