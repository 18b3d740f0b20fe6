import { childrenWhere } from '../store/childRows';
import { getMeta, META_KEYS, type OutpostDb, setMeta } from '../store/db';
import { retargetChildren } from './children';
import { retarget } from './queue';

const MAX_ALIASES = 200;

/**
 * Replaces a temporary id with the server's everywhere: the item, its children's parent_id, queued
 * URLs, payloads and item references, its children, and the alias table open routes resolve through.
 * Call inside one rw transaction over the sync tables (context.ts TABLES).
 */
export async function swapTempId(db: OutpostDb, oldId: number, newId: number): Promise<void> {
  if (oldId === newId) return;
  const item = await db.items.get(oldId);
  if (item) {
    await db.items.delete(oldId);
    await db.items.put({ ...item, id: newId });
  }
  await childrenWhere(db.items, oldId).modify((child) => {
    child.parent_id = newId;
  });
  // Its children keep naming it (a timeline reads its comments by the item's uuid, which stays).
  const swap = new Map([[oldId, newId]]);
  await retargetChildren(db, swap);
  await retarget(db, swap);
  const aliases = (await getMeta<[number, number][]>(db, META_KEYS.idAliases)) ?? [];
  aliases.push([oldId, newId]);
  await setMeta(db, META_KEYS.idAliases, aliases.slice(-MAX_ALIASES));
}

/** Kept here too for the sync modules that swap ids (it moved to the store: reads resolve ids too). */
export { resolveId } from '../store/idAliases';
