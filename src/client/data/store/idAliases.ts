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

/** The newest moves kept: an upload's own always fit (its items are at most a device's guest data). */
const MAX_GUEST_MOVES = 20_000;

/**
 * Remembers where a sign-in moved the guest's items (guest id → temporary id), inside the caller's
 * transaction: a page still open at a guest id (in this tab or another) follows its item there.
 */
export async function noteGuestMoves(db: OutpostDb, moves: ReadonlyMap<number, number>): Promise<void> {
  if (moves.size === 0) return;
  const row = await db.meta.get(META_KEYS.guestMoves);
  const kept = new Map((row?.value as [number, number][] | undefined) ?? []);
  for (const [from, to] of moves) {
    kept.delete(from);
    kept.set(from, to);
  }
  await db.meta.put({ key: META_KEYS.guestMoves, value: [...kept].slice(-MAX_GUEST_MOVES) });
}

/**
 * The current id of the item a guest id named before the sign-in moved it (its temporary id, then the
 * server's), or null when no move names it. Dexie's own promise, so a live query keeps tracking.
 */
export function movedGuestId(db: OutpostDb, id: number): Promise<number | null> {
  return db.meta.get(META_KEYS.guestMoves).then((row) => {
    const moved = ((row?.value as [number, number][] | undefined) ?? []).find(([from]) => from === id);
    return moved ? resolveId(db, moved[1]) : null;
  });
}
