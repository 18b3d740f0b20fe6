import type { OutpostDb } from './db';

/**
 * ARCHITECTURE §6 'Storage the browser keeps': the app asks for persistent storage once there is
 * something to keep (the first item), once a page.
 */
export function createStorageKeeper() {
  let asked = false;
  const keep = (): void => {
    if (asked || typeof navigator === 'undefined' || !navigator.storage?.persist) return;
    asked = true;
    void (async () => {
      try {
        if (!(await navigator.storage.persisted())) await navigator.storage.persist();
      } catch {
        // Some browsers refuse outright; Preferences shows the storage may be cleared.
      }
    })();
  };
  /** Something to keep already (a returning visitor): ask at start. */
  const service = {
    name: 'storage',
    start({ db }: { db: OutpostDb }): () => void {
      // One key, not a count: Dexie counts a limited collection by counting the whole store (and
      // IndexedDB counts by walking), 100,000 rows on the way to the first screen.
      void db.items
        .limit(1)
        .primaryKeys()
        .then((keys) => (keys.length > 0 ? keep() : undefined))
        .catch(() => undefined);
      return () => {};
    },
  };
  return { keep, service };
}
