export const BUSY: unique symbol = Symbol('busy');

interface LockManagerLike {
  request<T>(name: string, options: { ifAvailable: boolean }, cb: (lock: unknown) => Promise<T>): Promise<T>;
}

/** The browser's Web Locks manager when there is one (Node 20 and old browsers have none). */
export function webLocks(): LockManagerLike | null {
  const nav = (globalThis as { navigator?: { locks?: LockManagerLike } }).navigator;
  return nav?.locks && typeof nav.locks.request === 'function' ? nav.locks : null;
}

/**
 * One holder at a time: inside this tab by a flag, across tabs by a Web Lock of the same name when
 * the browser has them. `tryRun` never waits: a busy lock answers BUSY.
 */
export function createSyncLock(name: string, locks: LockManagerLike | null = webLocks()) {
  let held = false;
  return {
    get held() {
      return held;
    },
    async tryRun<T>(fn: () => Promise<T>): Promise<T | typeof BUSY> {
      if (held) return BUSY;
      held = true;
      try {
        if (!locks) return await fn();
        const out = await locks.request(name, { ifAvailable: true }, async (lock) =>
          lock ? { value: await fn() } : null,
        );
        return out ? out.value : BUSY;
      } finally {
        held = false;
      }
    },
  };
}
export type SyncLock = ReturnType<typeof createSyncLock>;
