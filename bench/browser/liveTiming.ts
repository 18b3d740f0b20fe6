/**
 * Timing a write until a live list shows it, for the page sides of local-writes and reorder: one
 * subscription at a time, and a write timed from its call to the list's first answer that holds it
 * (and, as a breakdown, to the write resolving).
 */

interface Subscribable<T> {
  subscribe(observer: { next(value: T): void }): { unsubscribe(): void };
}

/** Resolves after `ms` milliseconds. */
export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A list subscription that a timed write waits on. */
export interface LiveWatch<T> {
  /** Times `write` until an answer of the list satisfies `shows`, and until the write resolves. */
  time(
    write: () => Promise<unknown>,
    shows: (rows: T) => boolean,
  ): Promise<{ ms: number; storedMs: number; startedAt: number }>;
  stop(): void;
}

/** Subscribes `source` and answers once its first answer has come and the page has settled. */
export async function watchLive<T>(source: Subscribable<T>): Promise<LiveWatch<T>> {
  let waiter: { shows: (rows: T) => boolean; resolve: (at: number) => void } | null = null;
  let first: () => void = () => {};
  const ready = new Promise<void>((r) => {
    first = r;
  });
  const sub = source.subscribe({
    next: (rows) => {
      const at = performance.now();
      first();
      if (waiter?.shows(rows)) {
        waiter.resolve(at);
        waiter = null;
      }
    },
  });
  await ready;
  await sleep(200);
  return {
    async time(write, shows) {
      const seen = new Promise<number>((resolve) => {
        waiter = { shows, resolve };
      });
      const t0 = performance.now();
      let storedAt = 0;
      const written = write().then(() => {
        storedAt = performance.now();
      });
      const at = await seen;
      await written;
      await sleep(50);
      return { ms: at - t0, storedMs: storedAt - t0, startedAt: t0 };
    },
    stop: () => sub.unsubscribe(),
  };
}
