import Dexie from 'dexie';
import { getMeta, META_KEYS, type OutpostDb, setMeta } from '../store/db';
import { retarget } from './queue';

const MAX_ALIASES = 200;

/** Whether the transaction of now (if any) may touch `table`. */
function holds(table: string): boolean {
  const tx = Dexie.currentTransaction;
  return !tx || tx.storeNames.includes(table);
}

/**
 * Replaces a temporary id with the server's everywhere: the item, its children's parent_id, queued
 * URLs, payloads and item references, its comments, and the alias table open routes resolve through.
 * Call inside one rw transaction over items, syncQueue, meta and comments.
 */
export async function swapTempId(db: OutpostDb, oldId: number, newId: number): Promise<void> {
  if (oldId === newId) return;
  const item = await db.items.get(oldId);
  if (item) {
    await db.items.delete(oldId);
    await db.items.put({ ...item, id: newId });
  }
  await db.items
    .where('parent_id')
    .equals(oldId)
    .modify((child) => {
      child.parent_id = newId;
    });
  // Its comments keep naming it (the timeline reads them by the item's uuid, which stays).
  await db.comments
    .where('item_id')
    .equals(oldId)
    .modify((comment) => {
      comment.item_id = newId;
    });
  // And its time entries (X10), when the transaction holds them (a sync step's always does).
  if (holds('timeEntries'))
    await db.timeEntries
      .where('item_id')
      .equals(oldId)
      .modify((entry) => {
        entry.item_id = newId;
      });
  await retarget(db, new Map([[oldId, newId]]));
  const aliases = (await getMeta<[number, number][]>(db, META_KEYS.idAliases)) ?? [];
  aliases.push([oldId, newId]);
  await setMeta(db, META_KEYS.idAliases, aliases.slice(-MAX_ALIASES));
}

/** Kept here too for the sync modules that swap ids (it moved to the store: reads resolve ids too). */
export { resolveId } from '../store/idAliases';
