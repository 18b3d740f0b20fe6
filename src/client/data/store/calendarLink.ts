/**
 * The calendar feed URL on the device that made it (SYNC.md F9): the server keeps only the secret's
 * hash, so the URL is shown again only here. It goes with Clear Local Data and a sign-in as another
 * account (the meta store is wiped) and with a logout (`forgetCalendarLink`).
 */
import { getMeta, META_KEYS, type OutpostDb, setMeta } from './db';

/** What the device keeps of the link it made: whose, the URL, and the server's time for it. */
export interface KeptCalendarLink {
  userId: number;
  url: string;
  createdAt: string;
}

/** The link this device made for `userId`, if it is the one the server has active since `createdAt`. */
export async function keptCalendarLink(
  db: OutpostDb,
  userId: number,
  createdAt: string | null,
): Promise<string | null> {
  const kept = await getMeta<KeptCalendarLink>(db, META_KEYS.calendarLink);
  if (!kept || kept.userId !== userId || createdAt === null) return null;
  // A newer link made on another device retired this one: its URL would answer 404.
  return Date.parse(kept.createdAt) === Date.parse(createdAt) ? kept.url : null;
}

/** Keeps the link just made on this device (it replaces any kept before). */
export function keepCalendarLink(db: OutpostDb, link: KeptCalendarLink): Promise<void> {
  return setMeta(db, META_KEYS.calendarLink, link);
}

/** Forgets the kept link (logout). */
export async function forgetCalendarLink(db: OutpostDb): Promise<void> {
  await db.meta.delete(META_KEYS.calendarLink);
}
