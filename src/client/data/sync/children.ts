/**
 * An item's children on the device, whatever their kind (src/shared/itemChildren.ts): sync/ keeps
 * them with their item through these, and names no feature's store (the boundary check holds it).
 */
import Dexie, { type Table } from 'dexie';
import { ITEM_CHILDREN } from '../../../shared/itemChildren';
import type { OutpostDb } from '../store/db';
import type { ChildWrites } from '../store/types';

/** What every child row has on the device, whatever its kind. */
interface ChildRow {
  item_id: number;
  _syncStatus: string;
}

/** The children's stores the transaction of now holds (every one outside a transaction). */
function childTables(db: OutpostDb): Table<ChildRow>[] {
  const held = Dexie.currentTransaction?.storeNames;
  return ITEM_CHILDREN.filter((c) => !held || held.includes(c.store)).map((c) => db.table<ChildRow>(c.store));
}

/** Moves the children of each item in `ids` (old id → new) to the item's new id (a temporary id swapped). */
export async function retargetChildren(db: OutpostDb, ids: ReadonlyMap<number, number>): Promise<void> {
  if (ids.size === 0) return;
  const oldIds = [...ids.keys()];
  for (const table of childTables(db))
    await table
      .where('item_id')
      .anyOf(oldIds)
      .modify((row) => {
        row.item_id = ids.get(row.item_id) ?? row.item_id;
      });
}

/** Removes every child of the items `itemIds` from the device (the items left it: K14, X6). */
export async function removeChildrenOf(db: OutpostDb, itemIds: readonly number[]): Promise<void> {
  if (itemIds.length === 0) return;
  for (const table of childTables(db))
    await table
      .where('item_id')
      .anyOf([...itemIds])
      .delete();
}

/** Removes every child row that is not a guest's own (a sign-in as another account, W10): the guest's move over. */
export function pruneToGuestRows(table: Table): Promise<number> {
  return table.filter((row: ChildRow) => row._syncStatus !== 'local').delete();
}

/** The several features' writes of their children as one (a guest upgrade's, say), store by store. */
export function mergeChildWrites(all: readonly (ChildWrites | undefined)[]): ChildWrites {
  const merged: Record<string, { put: unknown[]; removed: (number | string)[] }> = {};
  for (const writes of all)
    for (const [store, own] of Object.entries(writes ?? {})) {
      const into = merged[store] ?? { put: [], removed: [] };
      merged[store] = into;
      into.put.push(...(own.put ?? []));
      into.removed.push(...(own.removed ?? []));
    }
  return merged as ChildWrites;
}
