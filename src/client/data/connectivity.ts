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

/** The server's `changed` events (GET /api/events) where EventSource exists; the client then pulls. */
export function serverChanges(baseUrl = ''): (cb: () => void) => () => void {
  return (cb) => {
    const Source = (globalThis as { EventSource?: typeof EventSource }).EventSource;
    if (!Source) return () => {};
    const source = new Source(`${baseUrl}/api/events`, { withCredentials: true });
    source.addEventListener('changed', cb);
    return () => source.close();
  };
}
