import type { OutpostDb } from './db';

/**
 * SYNC.md A14: the files whose bytes are kept only on this device (not uploaded yet, a guest's, or
 * kept with the changes that could not be applied), and their size: what the keeper keeps beside the
 * rows, and what Clear Local Data names before it goes.
 */
export async function waitingFiles(db: OutpostDb): Promise<{ count: number; bytes: number }> {
  let count = 0;
  let bytes = 0;
  await db.fileBlobs.each((row) => {
    count += 1;
    bytes += row.size;
  });
  return { count, bytes };
}

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
      // Files waiting on the device count as much as items (A14): their bytes are nowhere else.
      void Promise.all([db.items.limit(1).primaryKeys(), db.fileBlobs.limit(1).primaryKeys()])
        .then(([items, files]) => (items.length + files.length > 0 ? keep() : undefined))
        .catch(() => undefined);
      return () => {};
    },
  };
  return { keep, service };
}
