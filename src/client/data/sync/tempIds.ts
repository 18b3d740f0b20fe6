import Dexie from 'dexie';
import { getMeta, META_KEYS, type OutpostDb, setMeta } from '../store/db';
import { retarget } from './queue';

const MAX_ALIASES = 200;

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
  await retarget(db, new Map([[oldId, newId]]));
  const aliases = (await getMeta<[number, number][]>(db, META_KEYS.idAliases)) ?? [];
  aliases.push([oldId, newId]);
  await setMeta(db, META_KEYS.idAliases, aliases.slice(-MAX_ALIASES));
}

/**
 * The current id for one that may have been temporary (an open /tasks/{id} route after a swap).
 * Returns Dexie's own promise, so a live query awaiting it keeps tracking what it reads.
 */
export function resolveId(db: OutpostDb, id: number): Promise<number> {
  // Only temporary (negative) ids are ever swapped: a server or guest id answers at once, unread.
  if (id >= 0) return Dexie.Promise.resolve(id);
  return db.meta.get(META_KEYS.idAliases).then((row) => {
    const aliases = (row?.value as [number, number][] | undefined) ?? [];
    let current = id;
    for (const [from, to] of aliases) if (from === current) current = to;
    return current;
  });
}
