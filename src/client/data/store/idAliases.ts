import Dexie from 'dexie';
import { META_KEYS, type OutpostDb } from './db';

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
