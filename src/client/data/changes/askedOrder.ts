/**
 * SYNC.md W15: one tab's edits of one item are stored in the order they were asked. An edit made
 * again from a fresh read (W9: its guess was stale) opens its transaction after every edit asked for
 * meanwhile has opened theirs, and would commit after them: with a held arrow's absolute dates, the
 * second-to-last key would win. So an edit of an item waits for the one asked before it to settle.
 */
import Dexie from 'dexie';

const byDb = new WeakMap<object, Map<number, Promise<void>>>();

/** Runs `write` of item `id` once every write of it this tab asked for earlier has settled. */
export function inAskedOrder<T>(db: object, id: number, write: () => Promise<T>): Promise<T> {
  // Inside a transaction its requests are ordered already, and a wait would leave it.
  if (Dexie.currentTransaction) return write();
  let writes = byDb.get(db);
  if (!writes) {
    writes = new Map();
    byDb.set(db, writes);
  }
  const before = writes.get(id);
  const run = before ? before.then(write) : write();
  const known = writes;
  // Registered before the caller can await `run`, so the entry is gone when the caller goes on and
  // the next edit of a settled item starts at once, with no wait.
  const forget = () => {
    if (known.get(id) === settled) known.delete(id);
  };
  const settled: Promise<void> = run.then(forget, forget);
  writes.set(id, settled);
  return run;
}
