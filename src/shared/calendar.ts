/**
 * Calendar and Timeline (ARCHITECTURE §5 'Calendar and Timeline'): the month and week grids, where an
 * item sits on them (its due day, or across its start…due span, and a repeating item's next
 * occurrences), what a drag or an arrow key does to its dates (SYNC.md D10: start ≤ due, a move keeps
 * the span) and the timeline's scale (date ↔ x). Days are YYYY-MM-DD keys stepped in UTC (agenda.ts),
 * so a daylight-saving change never skips or repeats a day. Framework-free: the pages and tests share it.
 */

import { addDays, daysBetween } from './agenda';
import { nextDueDate } from './recurrence';
import { parseRecurrence } from './recurrenceRule';
import { spanProblem } from './span';

/** ISO weekday a week starts on: 1 Monday … 7 Sunday. */
export type WeekStart = 1 | 2 | 3 | 4 | 5 | 6 | 7;

/**
 * The app's week start: Monday. Outpost has no preference for it and writes its dates the en-GB way
 * ('Wed 2 Dec', agenda.ts), whose weeks start on Monday, as ISO 8601's do.
 */
export const DEFAULT_WEEK_START: WeekStart = 1;

const isoWeekday = (day: string): number => {
  const d = new Date(`${day}T00:00:00Z`).getUTCDay();
  return d === 0 ? 7 : d;
};

/** The first day of the week holding `day`. */
export function weekStartOf(day: string, weekStart: WeekStart = DEFAULT_WEEK_START): string {
  return addDays(day, -((isoWeekday(day) - weekStart + 7) % 7));
}

/** The seven days of the week holding `day`, from its first. */
export function weekDays(day: string, weekStart: WeekStart = DEFAULT_WEEK_START): string[] {
  const first = weekStartOf(day, weekStart);
  return Array.from({ length: 7 }, (_, i) => addDays(first, i));
}

/** The first day of the month holding `day`. */
export const monthStartOf = (day: string): string => `${day.slice(0, 7)}-01`;

/** The month `n` months after the one holding `day` (its first day). */
export function addMonths(day: string, n: number): string {
  const index = Number(day.slice(0, 4)) * 12 + Number(day.slice(5, 7)) - 1 + n;
  return `${String(Math.floor(index / 12)).padStart(4, '0')}-${String((index % 12) + 1).padStart(2, '0')}-01`;
}

/**
 * The month grid of the month holding `day`: whole weeks from the week holding its first day to the
 * week holding its last (four to six rows of seven days).
 */
export function monthGrid(day: string, weekStart: WeekStart = DEFAULT_WEEK_START): string[][] {
  const first = monthStartOf(day);
  const last = addDays(addMonths(first, 1), -1);
  const weeks: string[][] = [];
  for (let start = weekStartOf(first, weekStart); start <= last; start = addDays(start, 7))
    weeks.push(Array.from({ length: 7 }, (_, i) => addDays(start, i)));
  return weeks;
}

/** The dates a calendar item has: a due day, and a start day when it spans days. */
export interface Dated {
  start_date?: string | null;
  due_date: string | null;
}

/** An item's span on the calendar [start, end] (days), or null when it has no due date (it is on no day). */
export function spanOf(item: Dated): { start: string; end: string } | null {
  if (!item.due_date) return null;
  const end = item.due_date.slice(0, 10);
  const start = item.start_date ? item.start_date.slice(0, 10) : end;
  // A pair that breaks D10 (an older row) still shows, on its due day.
  return { start: spanProblem(start, end) === null ? start : end, end };
}

/** What the calendar places: the dates, and the rule of a repeating item. */
export interface CalendarItem extends Dated {
  id: number;
  recurrence?: string | null;
}

/** One appearance of an item on the calendar: the item itself, or one of its next occurrences. */
export interface Occurrence<T> {
  item: T;
  start: string;
  end: string;
  /** 0 for the item's own dates, 1 for its next occurrence, and so on (only the item's own moves). */
  index: number;
}

/** How many next occurrences of one item are looked for: a daily rule over a six-week month needs 42. */
export const OCCURRENCE_LIMIT = 60;

/**
 * Every appearance of `items` that overlaps [from, through]: each item on its own span, and a
 * repeating one also on its next occurrences (recurrence.ts nextDueDate, the dates completing it would
 * bring, the span kept as D10 says), as far as the range or the series reaches.
 */
export function occurrencesIn<T extends CalendarItem>(
  items: readonly T[],
  from: string,
  through: string,
): Occurrence<T>[] {
  const out: Occurrence<T>[] = [];
  for (const item of items) {
    const span = spanOf(item);
    if (span === null) continue;
    if (span.start <= through && span.end >= from) out.push({ item, ...span, index: 0 });
    if (!item.recurrence) continue;
    const parsed = parseRecurrence(item.recurrence);
    if (!parsed.ok) continue;
    const length = daysBetween(span.start, span.end);
    let rule = parsed.rule;
    let due: string | null = span.end;
    for (let index = 1; index <= OCCURRENCE_LIMIT; index += 1) {
      due = nextDueDate(rule, due);
      if (due === null) break;
      const start = addDays(due, -length);
      if (start > through) break;
      if (due >= from) out.push({ item, start, end: due, index });
      if (rule.count !== null) rule = { ...rule, count: rule.count - 1 };
    }
  }
  return out;
}

/** An appearance laid out on one week row: its columns (0–6), its lane, and whether it runs on. */
export interface WeekSegment<T> extends Occurrence<T> {
  startCol: number;
  endCol: number;
  lane: number;
  /** It began before this row (the row shows it without its left end). */
  continuesBefore: boolean;
  /** It goes on after this row. */
  continuesAfter: boolean;
}

/**
 * Lays `occurrences` on the week row `days` (seven consecutive days): each clipped to the row and
 * given the lowest lane free on all its days, longer spans first, so a multi-day bar never crosses
 * another and the lanes stay as few as the busiest day needs.
 */
export function weekLanes<T extends CalendarItem>(
  occurrences: readonly Occurrence<T>[],
  days: readonly string[],
): WeekSegment<T>[] {
  const first = days[0]!;
  const last = days[days.length - 1]!;
  const inRow = occurrences
    .filter((o) => o.start <= last && o.end >= first)
    .map((o) => {
      const startCol = Math.max(0, daysBetween(first, o.start));
      const endCol = Math.min(days.length - 1, daysBetween(first, o.end));
      return {
        ...o,
        startCol,
        endCol,
        lane: 0,
        continuesBefore: o.start < first,
        continuesAfter: o.end > last,
      };
    })
    .sort(
      (a, b) =>
        a.startCol - b.startCol ||
        b.endCol - b.startCol - (a.endCol - a.startCol) ||
        a.item.id - b.item.id ||
        a.index - b.index,
    );
  const busyUntil: number[] = [];
  for (const seg of inRow) {
    let lane = busyUntil.findIndex((end) => end < seg.startCol);
    if (lane === -1) lane = busyUntil.length;
    busyUntil[lane] = seg.endCol;
    seg.lane = lane;
  }
  return inRow;
}

/** New dates for an item, as a PATCH carries them (only the fields that change). */
export interface DatePatch {
  start_date?: string | null;
  due_date?: string;
}

/** The patch that moves `item` by `days` days: its due date, and its start with it (the span kept). */
export function moveBy(item: Dated, days: number): DatePatch | null {
  if (!item.due_date || days === 0) return null;
  const patch: DatePatch = { due_date: addDays(item.due_date.slice(0, 10), days) };
  if (item.start_date) patch.start_date = addDays(item.start_date.slice(0, 10), days);
  return patch;
}

/**
 * The patch that moves `item`'s end (its due date) to `end`, never before its start (D10): an item
 * without a start keeps its one day as the start when it grows.
 */
export function resizeEnd(item: Dated, end: string): DatePatch | null {
  const span = spanOf(item);
  if (span === null) return null;
  const due = end < span.start ? span.start : end;
  if (due === span.end) return null;
  const patch: DatePatch = { due_date: due };
  if (!item.start_date && due !== span.start) patch.start_date = span.start;
  return patch;
}

/**
 * The patch that moves `item`'s start to `start`, never after its due date (D10); a start on the due
 * day itself is no start (one day).
 */
export function resizeStart(item: Dated, start: string): DatePatch | null {
  const span = spanOf(item);
  if (span === null) return null;
  const next = start > span.end ? span.end : start;
  const stored = next === span.end ? null : next;
  if (stored === (item.start_date ? item.start_date.slice(0, 10) : null)) return null;
  return { start_date: stored };
}

/** The dates `item` has once `patch` is applied. */
export function applyDates<T extends Dated>(item: T, patch: DatePatch): T {
  return { ...item, ...patch };
}

/** The timeline's scales: how many pixels a day takes on each. */
export const TIMELINE_SCALES = { day: 36, week: 14, month: 4 } as const;
export type TimelineScale = keyof typeof TIMELINE_SCALES;

/** A timeline's axis: its first day and how wide a day is. */
export interface TimelineAxis {
  origin: string;
  dayWidth: number;
}

/** The axis of `scale` from `origin`. */
export function timelineAxis(origin: string, scale: TimelineScale): TimelineAxis {
  return { origin, dayWidth: TIMELINE_SCALES[scale] };
}

/** The x (pixels from the axis' start) of the beginning of `day`. */
export function xOfDay(axis: TimelineAxis, day: string): number {
  return daysBetween(axis.origin, day) * axis.dayWidth;
}

/** The day under `x` (the day whose column holds it). */
export function dayAtX(axis: TimelineAxis, x: number): string {
  return addDays(axis.origin, Math.floor(x / axis.dayWidth));
}

/** Whole days a horizontal drag of `dx` pixels moves by (rounded to the nearest day). */
export function daysForDx(axis: TimelineAxis, dx: number): number {
  return Math.round(dx / axis.dayWidth) || 0;
}

/**
 * The days a timeline of `spans` shows: from a little before the earliest start (and `today`) to a
 * little after the latest end, whole scale units (weeks from Monday, months from the 1st) on each side.
 */
export function timelineRange(
  spans: readonly { start: string; end: string }[],
  today: string,
  scale: TimelineScale,
): { from: string; through: string } {
  let low = today;
  let high = today;
  for (const s of spans) {
    if (s.start < low) low = s.start;
    if (s.end > high) high = s.end;
  }
  if (scale === 'month') return { from: addMonths(low, -1), through: addDays(addMonths(high, 2), -1) };
  if (scale === 'week')
    return { from: weekStartOf(addDays(low, -14)), through: addDays(weekStartOf(high), 27) };
  return { from: addDays(low, -7), through: addDays(high, 14) };
}

/** One tick of the timeline's header: the day it marks, its label, and whether it begins a larger unit. */
export interface Tick {
  day: string;
  label: string;
  major: boolean;
}

const monthShort = new Intl.DateTimeFormat('en-GB', { month: 'short', timeZone: 'UTC' });
const monthYear = new Intl.DateTimeFormat('en-GB', { month: 'short', year: 'numeric', timeZone: 'UTC' });
const utc = (day: string) => new Date(`${day}T00:00:00Z`);

/**
 * The header ticks of [from, through] on `scale`: every day (major on Mondays), every week's Monday
 * (major on a month's first week), or every month's first (major in January).
 */
export function timelineTicks(from: string, through: string, scale: TimelineScale): Tick[] {
  const ticks: Tick[] = [];
  if (scale === 'month') {
    for (let day = monthStartOf(from); day <= through; day = addMonths(day, 1)) {
      if (day < from) continue;
      const january = day.slice(5, 7) === '01';
      ticks.push({
        day,
        label: january ? monthYear.format(utc(day)) : monthShort.format(utc(day)),
        major: january,
      });
    }
    return ticks;
  }
  if (scale === 'week') {
    for (let day = weekStartOf(from); day <= through; day = addDays(day, 7)) {
      if (day < from) continue;
      const first = Number(day.slice(8, 10)) <= 7;
      ticks.push({
        day,
        label: first
          ? `${monthShort.format(utc(day))} ${Number(day.slice(8, 10))}`
          : String(Number(day.slice(8, 10))),
        major: first,
      });
    }
    return ticks;
  }
  for (let day = from; day <= through; day = addDays(day, 1))
    ticks.push({ day, label: String(Number(day.slice(8, 10))), major: isoWeekday(day) === 1 });
  return ticks;
}
