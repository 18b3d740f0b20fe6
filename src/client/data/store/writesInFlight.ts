/**
 * The local writes under way on a database, so a pull can wait for the ones made while it streamed
 * before it ends (SYNC.md L8): a pull stores several pages per transaction, and an edit made
 * meanwhile may have to wait for the last one. And on any database, so background work waits for a
 * quiet moment (localWritesQuietIn): an edit is never shown late for an idle task's slice.
 */
const inFlight = new WeakMap<object, Set<Promise<unknown>>>();

/**
 * How long after a local write settles the page stays busy with it: its live queries read again and
 * the screen renders the change (a few ms at 10,000 items), with room to spare.
 */
export const LOCAL_WRITE_QUIET_MS = 20;
let underWay = 0;
let lastSettledAt = Number.NEGATIVE_INFINITY;

/** Milliseconds until no local write is under way or just settled (0: quiet now). */
export function localWritesQuietIn(now = performance.now()): number {
  if (underWay > 0) return LOCAL_WRITE_QUIET_MS;
  return Math.max(0, lastSettledAt + LOCAL_WRITE_QUIET_MS - now);
}

/** Counts `written` as under way on `db` until it settles; answers it unchanged. */
export function trackLocalWrite<T>(db: object, written: Promise<T>): Promise<T> {
  let writes = inFlight.get(db);
  if (!writes) {
    writes = new Set();
    inFlight.set(db, writes);
  }
  const settled: Promise<unknown> = written.then(
    () => undefined,
    () => undefined,
  );
  writes.add(settled);
  underWay++;
  void settled.then(() => {
    writes.delete(settled);
    underWay--;
    lastSettledAt = performance.now();
  });
  return written;
}

/** Resolves once every local write under way on `db` now has committed or failed. */
export async function localWritesSettled(db: object): Promise<void> {
  const writes = inFlight.get(db);
  if (writes && writes.size > 0) await Promise.all([...writes]);
}

/** `writes` with every method's call counted as under way on `db` until it settles. */
export function trackedWrites<T extends Record<string, (...args: never[]) => Promise<unknown>>>(
  db: object,
  writes: T,
): T {
  const out: Record<string, unknown> = {};
  for (const [name, write] of Object.entries(writes))
    out[name] = (...args: never[]) => trackLocalWrite(db, write(...args));
  return out as T;
}
