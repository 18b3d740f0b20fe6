import {
  parseSignOutReason,
  SERVER_EVENTS,
  SIGN_OUT_REASONS,
  type SignOutReason,
} from '../../../shared/serverEvents';

/** Where online/offline comes from: the browser, or a switch in tests. */
export interface Connectivity {
  isOnline(): boolean;
  subscribe(cb: (online: boolean) => void): () => void;
}

/** navigator.onLine plus the window's online/offline events. */
export function browserConnectivity(): Connectivity {
  return {
    isOnline: () => (typeof navigator === 'undefined' ? true : navigator.onLine),
    subscribe: (cb) => {
      if (typeof window === 'undefined') return () => {};
      const on = () => cb(true);
      const off = () => cb(false);
      window.addEventListener('online', on);
      window.addEventListener('offline', off);
      return () => {
        window.removeEventListener('online', on);
        window.removeEventListener('offline', off);
      };
    },
  };
}

/** A connectivity switch for tests and benchmarks. */
export function manualConnectivity(initial = true): Connectivity & { set(online: boolean): void } {
  let online = initial;
  const listeners = new Set<(online: boolean) => void>();
  return {
    isOnline: () => online,
    set(next) {
      if (next === online) return;
      online = next;
      for (const cb of listeners) cb(next);
    },
    subscribe(cb) {
      listeners.add(cb);
      return () => listeners.delete(cb);
    },
  };
}

/** Tab became visible (document.visibilitychange). */
export function onTabVisible(cb: () => void): () => void {
  if (typeof document === 'undefined') return () => {};
  const handler = () => {
    if (document.visibilityState === 'visible') cb();
  };
  document.addEventListener('visibilitychange', handler);
  return () => document.removeEventListener('visibilitychange', handler);
}

/** Reconnect waits for the event stream: doubling from the first to the cap, each with jitter. */
export const EVENTS_BACKOFF = { firstMs: 1000, maxMs: 30_000 } as const;

export interface ServerChangesOptions {
  baseUrl?: string;
  /** Whether a stream should be open now: signed in and online. */
  wanted: () => boolean;
  /** Calls back whenever `wanted` may have changed (sign-in, sign-out, online, offline). */
  onWantedChange: (cb: () => void) => () => void;
  random?: () => number;
  EventSource?: typeof EventSource;
  /** The stream's `notification {unread}` events (the bell's count). */
  onNotification?: (unread: number) => void;
  /** The stream's `mutuals {version}` events: the user's mutual contacts as they are now (E3). */
  onMutuals?: (version: string) => void;
  /**
   * E7: the stream's last event, its session ended on the server (a sign-out here or elsewhere, 'Sign
   * out everywhere'): the stream is not reopened.
   */
  onSignedOut?: (reason: SignOutReason) => void;
}

/** The wait before reconnect attempt `attempt` (0-based): half to all of the doubled delay. */
export function eventsBackoff(attempt: number, random: () => number = Math.random): number {
  const base = Math.min(EVENTS_BACKOFF.maxMs, EVENTS_BACKOFF.firstMs * 2 ** Math.min(attempt, 16));
  return Math.round(base * (0.5 + 0.5 * random()));
}

/**
 * The server's `changed` events (GET /api/events): `cb` runs on each, and again after every
 * reconnect, since events sent while the stream was down are lost and the client must pull. The
 * stream is open only while `wanted()`; a failed or dropped stream is reopened with backoff (the
 * browser's own retry gives up for good on an HTTP error such as a proxy's 502 while the server
 * restarts). The 30 s poll in the sync engine stays as the fallback for a stream that dies silently.
 * The engine folds events that follow its own pushes into one pull (SYNC.md E1).
 */
export function serverChanges(options: ServerChangesOptions): (cb: () => void) => () => void {
  return (cb) => {
    const Source = options.EventSource ?? (globalThis as { EventSource?: typeof EventSource }).EventSource;
    if (!Source) return () => {};
    const random = options.random ?? Math.random;
    const url = `${options.baseUrl ?? ''}/api/events`;
    let source: EventSource | null = null;
    let timer: ReturnType<typeof setTimeout> | null = null;
    let attempt = 0;
    let opened = false;
    let stopped = false;

    const clearTimer = () => {
      if (timer) clearTimeout(timer);
      timer = null;
    };
    const close = () => {
      source?.close();
      source = null;
    };
    const schedule = () => {
      if (stopped || timer || !options.wanted()) return;
      const delay = eventsBackoff(attempt, random);
      attempt += 1;
      timer = setTimeout(() => {
        timer = null;
        open();
      }, delay);
    };
    const open = () => {
      if (stopped || source || !options.wanted()) return;
      clearTimer();
      const current = new Source(url, { withCredentials: true });
      source = current;
      current.addEventListener('open', () => {
        attempt = 0;
        // The first stream opens with the start-up sync already under way; later ones may have missed events.
        if (opened) cb();
        opened = true;
      });
      current.addEventListener(SERVER_EVENTS.changed, () => cb());
      current.addEventListener(SERVER_EVENTS.notification, (event) => {
        try {
          const { unread } = JSON.parse(String((event as MessageEvent).data)) as { unread?: unknown };
          if (typeof unread === 'number') options.onNotification?.(unread);
        } catch {
          // Not ours: ignore it.
        }
      });
      current.addEventListener(SERVER_EVENTS.mutuals, (event) => {
        try {
          const { version } = JSON.parse(String((event as MessageEvent).data)) as { version?: unknown };
          if (typeof version === 'string') options.onMutuals?.(version);
        } catch {
          // Not ours: ignore it.
        }
      });
      current.addEventListener(SERVER_EVENTS.signedOut, (event) => {
        if (source !== current) return;
        // Not at once: reopened, it would only meet a 401 (which an EventSource cannot tell from a
        // lost network). The device goes guest now (wanted() turns false and the backoff's timer
        // goes); should it stay signed in (a sign-in of this tab replaced the session), the stream
        // comes back after the backoff.
        close();
        options.onSignedOut?.(parseSignOutReason((event as MessageEvent).data) ?? SIGN_OUT_REASONS.expired);
        schedule();
      });
      current.addEventListener('error', () => {
        if (source !== current) return;
        close();
        schedule();
      });
    };
    const reconsider = () => {
      if (!options.wanted()) {
        clearTimer();
        close();
        attempt = 0;
        return;
      }
      // Back online or just signed in: try now rather than at the end of a long backoff.
      if (!source) {
        clearTimer();
        attempt = 0;
        open();
      }
    };
    const off = options.onWantedChange(reconsider);
    open();
    return () => {
      stopped = true;
      off();
      clearTimer();
      close();
    };
  };
}
