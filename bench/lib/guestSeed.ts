import type { Page } from 'playwright-core';
import type { ItemType } from '../../src/shared/item';
import { COUNTS_STORE, countRowsFromScratch, type LocalItem } from './appData';

/** When the seeded guest rows start: row `id` is made `id` minutes later. */
export const SEED_START = Date.parse('2026-01-01T00:00:00.000Z');

const GUEST = {
  id: 0,
  name: 'Guest User',
  phone: '',
  created_at: '2026-01-01T00:00:00.000Z',
  updated_at: '',
};

/** A seeded guest row as the device stores it: pending, undated, made `id` minutes after SEED_START; `fields` override. */
export function guestRow(
  id: number,
  type: ItemType,
  parent: number | null,
  fields: Partial<LocalItem> = {},
): LocalItem {
  const created = new Date(SEED_START + id * 60_000).toISOString();
  return {
    id,
    uuid: `00000000-0000-4000-8000-${String(id).padStart(12, '0')}`,
    title: `Bench ${type} ${id}`,
    description: null,
    type,
    status: 'pending',
    user_id: 0,
    assigned_to: null,
    parent_id: parent,
    due_date: null,
    end_date: null,
    remind_at: null,
    created_at: created,
    updated_at: created,
    completed_at: null,
    deleted_at: null,
    version: 1,
    created_by: GUEST,
    user: GUEST,
    assignedUser: null,
    parent: null,
    children_count: 0,
    completed_count: 0,
    _syncStatus: 'local',
    _deleted: 0,
    _localVersion: 1,
    _conflict: null,
    _dirty: [],
    _base: null,
    _remote: null,
    ...fields,
  };
}

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
        // The next guest item must not reuse an id (src/client/data/store/db.ts nextCounter).
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
 * (src/client/data/store/counters.ts), so the app's first open finds them true and rebuilds nothing.
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
