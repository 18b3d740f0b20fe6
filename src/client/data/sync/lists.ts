/**
 * The lists a person keeps beside their items (src/shared/syncLists.ts: templates, saved views) on
 * the device: a pulled page's rows go into the store of the same name, its tombstones take rows out,
 * and a campaign that leaves the device takes the rows shared with it (SYNC.md L13, L14). sync/ loops
 * over the declaration and names no list's store.
 */
import Dexie from 'dexie';
import { isListTombstone, SYNC_LISTS, type SyncPageLists } from '../../../shared/syncLists';
import type { OutpostDb } from '../store/db';

/** What every list row has on the device. */
interface ListRow {
  id: number;
  campaign_id: number | null;
}

/** The stores of the lists, as sync's transactions hold them beside the items. */
export const LIST_STORES: readonly string[] = SYNC_LISTS;

/** How many rows a page (or a fold of pages) carries of every list. */
export function listCount(page: SyncPageLists): number {
  let count = 0;
  for (const name of SYNC_LISTS) count += page[name]?.length ?? 0;
  return count;
}

/** The lists of two pages in order, list by list (the later page's change of a row wins when stored). */
export function joinLists(before: SyncPageLists, page: SyncPageLists): SyncPageLists {
  const joined: Record<string, readonly unknown[]> = {};
  for (const name of SYNC_LISTS) {
    const more = page[name] ?? [];
    joined[name] = more.length === 0 ? (before[name] ?? []) : [...(before[name] ?? []), ...more];
  }
  return joined as SyncPageLists;
}

/**
 * Stores a page's lists, inside its transaction, after its items (L14): the rows shared with a
 * campaign the page took off the device go first, then the page's own rows and tombstones in order,
 * so a row the reader still has (their own) comes back in the same pull.
 */
export async function applyPulledLists(
  db: OutpostDb,
  page: SyncPageLists,
  goneItemIds: readonly number[],
): Promise<void> {
  const held = Dexie.currentTransaction?.storeNames;
  for (const name of SYNC_LISTS) {
    if (held && !held.includes(name)) continue;
    const table = db.table<ListRow, number>(name);
    if (goneItemIds.length > 0) {
      const gone = new Set(goneItemIds);
      await table.filter((row) => row.campaign_id !== null && gone.has(row.campaign_id)).delete();
    }
    const changes = page[name] ?? [];
    if (changes.length === 0) continue;
    // The last change of each row wins: a rename then a delete in one fold leaves it deleted.
    const last = new Map<number, (typeof changes)[number]>();
    for (const change of changes) {
      last.delete(change.id);
      last.set(change.id, change);
    }
    const removed: number[] = [];
    const put: ListRow[] = [];
    for (const change of last.values()) {
      if (isListTombstone(change)) removed.push(change.id);
      else put.push(change as ListRow);
    }
    if (removed.length > 0) await table.bulkDelete(removed);
    if (put.length > 0) await table.bulkPut(put);
  }
}
