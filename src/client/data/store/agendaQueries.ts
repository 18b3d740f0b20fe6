import Dexie from 'dexie';
import { addDays, todayCounts as countsOf, todayList, upcomingBuckets } from '../../../shared/agenda';
import { DUE_INDEX, type OutpostDb } from './db';
import type { LocalItem, Viewer } from './types';

/**
 * Today and Upcoming from the device (ARCHITECTURE §5): the viewer's open items due up to a day, read
 * by the due-day index (db.ts DUE_INDEX, listKeys.ts `_due`), so 100,000 items cost what the open
 * items due by then cost, and completed or undated ones are never read. The ordering and the day
 * buckets are the shared rules (src/shared/agenda.ts); `today` is the screen's, so every tab agrees.
 */

/** Created by the viewer or assigned to them (a guest's items are all their own). */
function isMine(item: LocalItem, viewer: Viewer): boolean {
  return item.user_id === viewer.userId || item.assigned_to === viewer.userId;
}

/** The viewer's open items due on or before `through` (YYYY-MM-DD), overdue ones included, by due day. */
export async function dueThrough(db: OutpostDb, viewer: Viewer, through: string): Promise<LocalItem[]> {
  const scope = viewer.isGuest ? 'g' : 'a';
  const rows = await db.items
    .where(DUE_INDEX)
    .between([scope, Dexie.minKey], [scope, through], true, true)
    .toArray();
  // `_due` is kept only on live, open rows; the check stays for a row an older tab wrote before it was.
  return rows.filter((i) => i._deleted !== 1 && i.status !== 'completed' && isMine(i, viewer));
}

/** Today: the viewer's open items overdue or due `today`, overdue first, then by priority and due date. */
export async function todayItems(db: OutpostDb, viewer: Viewer, today: string): Promise<LocalItem[]> {
  return todayList(await dueThrough(db, viewer, today), today);
}

/** Home's Today card: how many of the viewer's open items are overdue and how many due `today`. */
export async function todayCounts(
  db: OutpostDb,
  viewer: Viewer,
  today: string,
): Promise<{ overdue: number; today: number }> {
  return countsOf(await dueThrough(db, viewer, today), today);
}

/** Upcoming: 'overdue' (when any) and the `days` days from `today`, each in the shared order. */
export async function upcomingItems(db: OutpostDb, viewer: Viewer, today: string, days: number) {
  return upcomingBuckets(await dueThrough(db, viewer, addDays(today, days - 1)), today, days);
}
