import { v5 as uuidV5 } from 'uuid';
import { addDays, daysBetween } from './dateOnly';
import type { ItemType } from './item';
import { CARRY_FIELDS, type CarryField, type DeclaredItemFields, defaultOf } from './itemFields';
import { formatRecurrence, parseRecurrence, type RecurrenceRule, ruleDateAfter } from './recurrenceRule';
import { DEFAULT_TIME_ZONE, instantAt, shiftWallClock, wallClockOf } from './timeZone';

/**
 * The next occurrence of a repeating item (ARCHITECTURE §5, SYNC.md N1). One pure function that the
 * client runs at once (offline, as a guest) and the server runs in the completing transaction: the
 * same input gives the same item, uuid included, so both sides and every device meet on one row.
 */

/**
 * What an occurrence carries into the next one: the fields declared `carry` (./itemFields.ts), each
 * absent one read as its default, and what the rule moves on.
 */
export type OccurrenceSource = Partial<Pick<DeclaredItemFields, CarryField>> &
  Pick<DeclaredItemFields, 'title'> & {
    uuid: string | null;
    series_uuid: string | null;
    type: ItemType;
    due_date: string | null;
    /** Moved on with the due date, keeping the span (D10); absent reads as none. */
    start_date?: string | null;
    remind_at: string | null;
    recurrence: string | null;
    /** The IANA zone whose wall clock the reminder keeps (N5); absent or null reads as UTC. */
    time_zone?: string | null;
  };

/**
 * The create of the next occurrence: a pending item with its derived uuid, carrying every field
 * declared `carry` (a p1 chore stays p1, with its labels); the rest (its place, its end) are a new
 * item's own.
 */
export type NextOccurrence = Required<Pick<DeclaredItemFields, CarryField>> & {
  uuid: string;
  series_uuid: string;
  type: ItemType;
  status: 'pending';
  due_date: string;
  start_date: string | null;
  remind_at: string | null;
  recurrence: string;
};

const pad = (n: number) => String(n).padStart(2, '0');

/**
 * The next reminder, `days` on at the same wall-clock time in `zone` (N5), and the time the rule must
 * carry (N11): when the clocks skip that time on the new day the reminder is the moment they jump,
 * and the rule keeps the series' time so the one after goes back to it (02:30, not 03:00, as RFC 5545
 * and dateutil do). The rule's time counts only while the reminder is still where it put it: a
 * reminder moved by hand since is the series' time from then on.
 */
function nextReminder(
  remindAt: string,
  days: number,
  zone: string,
  at: RecurrenceRule['at'],
): { remind_at: string; at: RecurrenceRule['at'] } {
  const wall = wallClockOf(remindAt, zone);
  const day = wall.slice(0, 10);
  const kept =
    at && instantAt(day, at.hour, at.minute, zone) === new Date(remindAt).toISOString() ? at : null;
  const hour = kept?.hour ?? Number(wall.slice(11, 13));
  const minute = kept?.minute ?? Number(wall.slice(14, 16));
  const next = addDays(day, days);
  // Same local time the same number of days on: a fixed shift in ms would move it an hour whenever
  // a daylight-saving change lies between the two dates.
  const remind = kept ? instantAt(next, hour, minute, zone) : shiftWallClock(remindAt, days, zone);
  const skipped = wallClockOf(remind, zone).slice(11, 16) !== `${pad(hour)}:${pad(minute)}`;
  return { remind_at: remind, at: skipped ? { hour, minute } : null };
}

/** The rule's first date strictly after `due` (YYYY-MM-DD), or null when the series has ended or has no such date. */
export function nextDueDate(rule: RecurrenceRule, due: string): string | null {
  if (rule.count !== null && rule.count <= 1) return null;
  return ruleDateAfter(rule, due);
}

/** The uuid of a series' occurrence due on `due`: a UUID v5 in the series' namespace (N1). */
export function occurrenceUuid(seriesUuid: string, due: string): string {
  return uuidV5(due, seriesUuid);
}

/** The occurrence that completing `item` brings, or null when it does not repeat or its series has ended. */
export function nextOccurrence(item: OccurrenceSource): NextOccurrence | null {
  if (item.recurrence === null || item.due_date === null || item.uuid === null) return null;
  const parsed = parseRecurrence(item.recurrence);
  if (!parsed.ok) return null;
  const due = nextDueDate(parsed.rule, item.due_date);
  if (due === null) return null;
  const series = item.series_uuid ?? item.uuid;
  const days = daysBetween(item.due_date, due);
  const zone = item.time_zone ?? DEFAULT_TIME_ZONE;
  const { count } = parsed.rule;
  const reminder = item.remind_at === null ? null : nextReminder(item.remind_at, days, zone, parsed.rule.at);
  const carried: Record<string, unknown> = {};
  for (const field of CARRY_FIELDS) {
    const value = item[field] ?? defaultOf(field);
    carried[field] = Array.isArray(value) ? [...value] : value;
  }
  return {
    ...(carried as Required<Pick<DeclaredItemFields, CarryField>>),
    uuid: occurrenceUuid(series, due),
    series_uuid: series,
    type: item.type,
    status: 'pending',
    due_date: due,
    start_date: item.start_date ? addDays(item.start_date, days) : null,
    remind_at: reminder?.remind_at ?? null,
    recurrence: formatRecurrence({
      ...parsed.rule,
      count: count === null ? null : count - 1,
      at: reminder?.at ?? null,
    }),
  };
}
