/**
 * Today and Upcoming (ARCHITECTURE §5): which day an item falls on, how late it is, the order of
 * Today, and Upcoming's day buckets. Days are the device's calendar days as YYYY-MM-DD keys; every
 * step between days is done on those keys in UTC, so a daylight-saving change (a 23- or 25-hour day)
 * never skips or repeats a day. Framework-free: the client's pages and the tests share it.
 */

import { addDays, dayStart, daysBetween } from './dateOnly';

// The day steps live in ./dateOnly.ts; re-exported here, where the pages and tests have always found them.
export { addDays, daysBetween };

/** How many days Upcoming shows, today included. */
export const UPCOMING_DAYS = 14;

/**
 * The fields the rules read; a stored item fits. `priority` is optional: rows from before it read as 4.
 * `sort_key` and `uuid` are the manual order within a day (§5 'Order'); a row without them reads as ''.
 */
export interface AgendaItem {
  id: number;
  due_date: string | null;
  priority?: number;
  sort_key?: string | null;
  uuid?: string | null;
}

const pad = (n: number) => String(n).padStart(2, '0');

/** The calendar day of `at` on this device (or in `timeZone`), as YYYY-MM-DD. */
export function dayKey(at: Date, timeZone?: string): string {
  if (timeZone === undefined) return `${at.getFullYear()}-${pad(at.getMonth() + 1)}-${pad(at.getDate())}`;
  const parts = new Intl.DateTimeFormat('en-CA', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).formatToParts(at);
  const part = (type: string) => parts.find((p) => p.type === type)?.value ?? '';
  return `${part('year')}-${part('month')}-${part('day')}`;
}

/** The due day of an item (a stored due date may carry a time part), or null. */
export function dueDay(item: Pick<AgendaItem, 'due_date'>): string | null {
  return item.due_date ? item.due_date.slice(0, 10) : null;
}

/** How many days late an item is on `today` (0 when due today or later, or undated). */
export function daysOverdue(item: Pick<AgendaItem, 'due_date'>, today: string): number {
  const due = dueDay(item);
  return due === null ? 0 : Math.max(0, daysBetween(due, today));
}

/** '1 day overdue', '3 days overdue'. */
export function overdueText(days: number): string {
  return `${days} ${days === 1 ? 'day' : 'days'} overdue`;
}

/** The next Monday after `today` (a week from today when today is a Monday): 'Next week'. */
export function nextWeek(today: string): string {
  const weekday = new Date(dayStart(today)).getUTCDay();
  return addDays(today, ((8 - weekday) % 7) + (weekday === 1 ? 7 : 0));
}

/** An item's priority, 1 (most urgent) to 4; a row stored before the field reads as 4. */
export const priorityOf = (item: Pick<AgendaItem, 'priority'>): number => item.priority ?? 4;

/**
 * An item's manual order within a day as one string (the agenda indexes' `_ord`, listKeys.ts): its
 * sort key, a space, its uuid. A key holds only [0-9A-Za-z], all above the space, so comparing these
 * strings by code unit orders as (sort_key, uuid) does, whatever the keys' lengths.
 */
export function dayOrderKey(item: Pick<AgendaItem, 'sort_key' | 'uuid'>): string {
  return `${item.sort_key ?? ''} ${item.uuid ?? ''}`;
}

/** What the order within a day reads. */
export type WithinDay = Pick<AgendaItem, 'id' | 'priority' | 'sort_key' | 'uuid'>;

/**
 * Same day (SYNC.md O6): the most urgent first (p1), then manual order (sort_key, ties by uuid), then
 * by id (a stable order). Rows without a key (stored before the field) come first among their priority.
 */
export function compareWithinDay(a: WithinDay, b: WithinDay): number {
  const oa = dayOrderKey(a);
  const ob = dayOrderKey(b);
  return priorityOf(a) - priorityOf(b) || (oa < ob ? -1 : oa > ob ? 1 : 0) || a.id - b.id;
}

/** Upcoming's overdue group: the longest overdue first, then as within a day. */
export function compareUpcomingOverdue(a: AgendaItem, b: AgendaItem): number {
  const da = dueDay(a) ?? '';
  const db = dueDay(b) ?? '';
  return (da < db ? -1 : da > db ? 1 : 0) || compareWithinDay(a, b);
}

/**
 * Today's order: overdue before due today; within each, by priority (p1 first), then by due date
 * (the longest overdue first among equal priorities), then in manual order (compareWithinDay).
 */
export function compareToday(today: string): (a: AgendaItem, b: AgendaItem) => number {
  return (a, b) => {
    const da = dueDay(a) ?? today;
    const db = dueDay(b) ?? today;
    const lateA = da < today ? 0 : 1;
    const lateB = db < today ? 0 : 1;
    return (
      lateA - lateB ||
      priorityOf(a) - priorityOf(b) ||
      (da < db ? -1 : da > db ? 1 : 0) ||
      compareWithinDay(a, b)
    );
  };
}

/** Today's items (open ones due on or before `today`; any others are left out), in Today's order. */
export function todayList<T extends AgendaItem>(items: readonly T[], today: string): T[] {
  return items
    .filter((i) => {
      const due = dueDay(i);
      return due !== null && due <= today;
    })
    .sort(compareToday(today));
}

/** How many of `items` are overdue and how many due today. */
export function todayCounts(items: readonly AgendaItem[], today: string): { overdue: number; today: number } {
  let overdue = 0;
  let due = 0;
  for (const item of items) {
    const day = dueDay(item);
    if (day === null) continue;
    if (day < today) overdue += 1;
    else if (day === today) due += 1;
  }
  return { overdue, today: due };
}

export interface DayBucket<T> {
  /** 'overdue', or the day's YYYY-MM-DD key. */
  key: string;
  /** The day (null for the overdue bucket). */
  day: string | null;
  items: T[];
}

/** The `count` days from `today` on, as keys. */
export function upcomingDays(today: string, count = UPCOMING_DAYS): string[] {
  return Array.from({ length: count }, (_, i) => addDays(today, i));
}

/**
 * Upcoming's buckets: 'overdue' (when any item is), then one per day of the next `count` days (each,
 * empty or not, so every day can be added to), each in priority order; the overdue bucket oldest
 * first. Items due later or undated are on no bucket.
 */
export function upcomingBuckets<T extends AgendaItem>(
  items: readonly T[],
  today: string,
  count = UPCOMING_DAYS,
): DayBucket<T>[] {
  const days = upcomingDays(today, count);
  const byDay = new Map<string, T[]>(days.map((d) => [d, []]));
  const overdue: T[] = [];
  for (const item of items) {
    const due = dueDay(item);
    if (due === null) continue;
    if (due < today) overdue.push(item);
    else byDay.get(due)?.push(item);
  }
  overdue.sort(compareUpcomingOverdue);
  const buckets: DayBucket<T>[] = days.map((day) => ({
    key: day,
    day,
    items: byDay.get(day)!.sort(compareWithinDay),
  }));
  return overdue.length > 0 ? [{ key: 'overdue', day: null, items: overdue }, ...buckets] : buckets;
}

const weekdayDayMonth = new Intl.DateTimeFormat('en-GB', {
  weekday: 'short',
  day: 'numeric',
  month: 'short',
  timeZone: 'UTC',
});

/** 'Wed 2 Dec': a day key in words (the key's own calendar day, whatever the device's zone). */
export function dayLabel(day: string): string {
  return weekdayDayMonth.format(new Date(dayStart(day)));
}

/** A day's heading: 'Today', 'Tomorrow', then 'Wed 2 Dec'. */
export function dayHeading(day: string, today: string): string {
  const offset = daysBetween(today, day);
  if (offset === 0) return 'Today';
  if (offset === 1) return 'Tomorrow';
  return dayLabel(day);
}
