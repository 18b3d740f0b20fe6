import Dexie from 'dexie';
import { addDays, compareToday, compareUpcomingOverdue, compareWithinDay } from '../../../shared/agenda';
import { PRIORITIES } from '../../../shared/planning';
import { AGENDA_INDEX, type OutpostDb } from '../store/db';
import type { LocalItem, Viewer } from '../store/types';

/**
 * Today and Upcoming from the device (ARCHITECTURE §5), read by the agenda indexes (db.ts
 * AGENDA_INDEX over listKeys.ts `_pri`, `_due` and `_ord`): per owner (created by the viewer, or
 * assigned to them by someone else) and priority, an index range holds one priority's open items of a
 * span of days in (due day, sort_key, uuid, id) order, manual order within a day (SYNC.md O6). Every
 * order the screens use (src/shared/agenda.ts) agrees with that order inside one range, so the first
 * `limit` rows of a group are among the first `limit` of each range: a screen reads what it shows and
 * counts the rest without reading it, whether the device holds 10,000 items or 100,000.
 */

/** A group of the agenda (overdue, a day): the rows a screen shows first, and how many there are. */
export interface AgendaGroup {
  items: LocalItem[];
  count: number;
}

/** Today's two groups. */
export interface TodayPage {
  overdue: AgendaGroup;
  today: AgendaGroup;
}

/** One of Upcoming's groups: 'overdue' (day null) or a day's key. */
export interface UpcomingGroup extends AgendaGroup {
  key: string;
  day: string | null;
}

/** The ranges of one span of due days [from, through], one per owner index and priority. */
function ranges(db: OutpostDb, viewer: Viewer, from: string | null, through: string) {
  const scope = viewer.isGuest ? 'g' : 'a';
  // A guest's items are all the guest's own: nobody assigns them.
  const owners = viewer.isGuest ? [AGENDA_INDEX.mine] : [AGENDA_INDEX.mine, AGENDA_INDEX.assigned];
  return owners.flatMap((index) =>
    PRIORITIES.map((p) =>
      db.items
        .where(index)
        .between(
          [scope, viewer.userId, p, from ?? Dexie.minKey, Dexie.minKey],
          [scope, viewer.userId, p, through, Dexie.maxKey],
          true,
          true,
        ),
    ),
  );
}

/** Open and live: `_pri` is kept only on such rows; the check stays for a row an older tab wrote. */
const open = (i: LocalItem) => i._deleted !== 1 && i.status !== 'completed';

/** How many of the viewer's open items are due in [from, through] (from null: any day before). */
async function countSpan(
  db: OutpostDb,
  viewer: Viewer,
  from: string | null,
  through: string,
): Promise<number> {
  const counts = await Promise.all(ranges(db, viewer, from, through).map((r) => r.count()));
  return counts.reduce((sum, n) => sum + n, 0);
}

/** The first `limit` of the viewer's open items due in [from, through] in `compare`'s order, and the count. */
async function readSpan(
  db: OutpostDb,
  viewer: Viewer,
  from: string | null,
  through: string,
  compare: (a: LocalItem, b: LocalItem) => number,
  limit: number,
): Promise<AgendaGroup> {
  const spans = ranges(db, viewer, from, through);
  const [rows, count] = await Promise.all([
    Promise.all(spans.map((r) => (Number.isFinite(limit) ? r.limit(limit) : r).toArray())),
    countSpan(db, viewer, from, through),
  ]);
  const items = rows.flat().filter(open).sort(compare);
  return { items: items.length > limit ? items.slice(0, limit) : items, count };
}

/** Today: the first rows of the viewer's overdue items and of those due `today`, in Today's order. */
export async function todayPage(
  db: OutpostDb,
  viewer: Viewer,
  today: string,
  limits: { overdue: number; today: number },
): Promise<TodayPage> {
  const order = compareToday(today);
  const [overdue, dueToday] = await Promise.all([
    readSpan(db, viewer, null, addDays(today, -1), order, limits.overdue),
    readSpan(db, viewer, today, today, order, limits.today),
  ]);
  return { overdue, today: dueToday };
}

/** Today's whole list (overdue, then due today), for tests and callers that want every row. */
export async function todayItems(db: OutpostDb, viewer: Viewer, today: string): Promise<LocalItem[]> {
  const page = await todayPage(db, viewer, today, { overdue: Infinity, today: Infinity });
  return [...page.overdue.items, ...page.today.items];
}

/** Home's Today card: how many of the viewer's open items are overdue and how many due `today`, unread. */
export async function todayCounts(
  db: OutpostDb,
  viewer: Viewer,
  today: string,
): Promise<{ overdue: number; today: number }> {
  const [overdue, due] = await Promise.all([
    countSpan(db, viewer, null, addDays(today, -1)),
    countSpan(db, viewer, today, today),
  ]);
  return { overdue, today: due };
}

/**
 * Upcoming: 'overdue' (when any) and the `days` days from `today`, each group's first rows in its
 * order (`limits[key]`, else `limit`) with its count.
 */
export async function upcomingPage(
  db: OutpostDb,
  viewer: Viewer,
  today: string,
  days: number,
  limit: number,
  limits: Readonly<Record<string, number>> = {},
): Promise<UpcomingGroup[]> {
  const dayKeys = Array.from({ length: days }, (_, i) => addDays(today, i));
  const [overdue, ...byDay] = await Promise.all([
    readSpan(db, viewer, null, addDays(today, -1), compareUpcomingOverdue, limits.overdue ?? limit),
    ...dayKeys.map((day) => readSpan(db, viewer, day, day, compareWithinDay, limits[day] ?? limit)),
  ]);
  const groups: UpcomingGroup[] = dayKeys.map((day, i) => ({ key: day, day, ...byDay[i]! }));
  return overdue!.count > 0 ? [{ key: 'overdue', day: null, ...overdue! }, ...groups] : groups;
}

/** Upcoming with every row of every group (tests). */
export async function upcomingItems(db: OutpostDb, viewer: Viewer, today: string, days: number) {
  return upcomingPage(db, viewer, today, days, Infinity);
}
