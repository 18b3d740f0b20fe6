import type { Page } from 'playwright-core';
import { COUNTS_STORE, countRowsFromScratch } from '../../src/client/data/store/counters';
import type { LocalItem } from '../../src/client/data/store/types';

/**
 * Writes guest rows with the browser's own IndexedDB into the database the app has just created, and
 * moves the guest id counter to `total`; answers how many items are stored.
 */
export async function seedGuestItems(page: Page, items: LocalItem[], total: number): Promise<number> {
  return page.evaluate(
    async ([rows, counter]) => {
      const db = await new Promise<IDBDatabase>((resolve, reject) => {
        const open = indexedDB.open('Outpost');
        open.onsuccess = () => resolve(open.result);
        open.onerror = () => reject(open.error);
      });
      await new Promise<void>((resolve, reject) => {
        const tx = db.transaction(['items', 'meta'], 'readwrite');
        const store = tx.objectStore('items');
        for (const row of rows) store.put(row);
        // The next guest item must not reuse an id (src/client/src/client/data/store/db.ts nextCounter).
        tx.objectStore('meta').put({ key: 'guestCounter', value: counter });
        tx.oncomplete = () => resolve();
        tx.onerror = () => reject(tx.error);
      });
      const count = await new Promise<number>((resolve, reject) => {
        const request = db.transaction('items').objectStore('items').count();
        request.onsuccess = () => resolve(request.result);
        request.onerror = () => reject(request.error);
      });
      db.close();
      return count;
    },
    [items, total] as const,
  );
}

/**
 * Writes the progress counters of `items` (every seeded row), as the app's middleware keeps them
 * (src/client/src/client/data/store/counters.ts), so the app's first open finds them true and rebuilds nothing.
 */
export async function seedGuestCounts(page: Page, items: readonly LocalItem[]): Promise<number> {
  const rows = countRowsFromScratch(items);
  // In slices, as the items: one message of every row would be tens of megabytes.
  for (let from = 0; from < rows.length; from += 10_000) {
    await page.evaluate(
      async ([slice, store]) => {
        const db = await new Promise<IDBDatabase>((resolve, reject) => {
          const open = indexedDB.open('Outpost');
          open.onsuccess = () => resolve(open.result);
          open.onerror = () => reject(open.error);
        });
        await new Promise<void>((resolve, reject) => {
          const tx = db.transaction(store, 'readwrite');
          for (const row of slice) tx.objectStore(store).put(row);
          tx.oncomplete = () => resolve();
          tx.onerror = () => reject(tx.error);
        });
        db.close();
      },
      [rows.slice(from, from + 10_000), COUNTS_STORE] as const,
    );
  }
  return rows.length;
}
