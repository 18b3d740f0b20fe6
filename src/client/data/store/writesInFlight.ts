/**
 * The local writes under way on a database, so a pull can wait for the ones made while it streamed
 * before it ends (SYNC.md L8): a pull stores several pages per transaction, and an edit made
 * meanwhile may have to wait for the last one.
 */
const inFlight = new WeakMap<object, Set<Promise<unknown>>>();

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
  void settled.then(() => writes.delete(settled));
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
