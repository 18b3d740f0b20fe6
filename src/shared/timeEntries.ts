/**
 * Time entries (ARCHITECTURE §4 'Start dates, estimates and time', §5 'Time tracking'): the types
 * (their zod shapes are in timeEntrySchemas.ts), the timer rule and the per-field merge, one table for the server's writing transaction,
 * the device's local write and the tests (SYNC.md X).
 *
 * The timer rule, in one sentence: one person's entries, ordered by start (then uuid), never overlap,
 * so an entry ends at the latest when the next one starts, and only the last may still be running.
 * Starting a timer therefore ends the running one at that instant, and a start that reaches the
 * server after a later one (two devices offline) ends where the later one begins.
 */

/** Longest note, in characters (§4). */
export const TIME_NOTE_MAX = 500;
/** Longest entry: anything longer is a forgotten timer or a typo (§4: over 24 h → 422). */
export const TIME_ENTRY_MAX_MS = 24 * 60 * 60 * 1000;
export { formatElapsed, formatMinutes, minutesOf, TIMER_ALERT_MS } from './timerClock';
/** Entries a page of `GET /api/items/{id}/time_entries` and `GET /api/time_entries` holds. */
export const TIME_ENTRIES_PER_PAGE = 50;

export const TIME_ENTRY_ORDER_MESSAGE = 'The end must not be before the start.';
export const TIME_ENTRY_LENGTH_MESSAGE = 'An entry can be at most 24 hours long.';
export const TIME_ENTRY_OVERLAP_MESSAGE = 'This overlaps another of your time entries.';
/** The earliest start an entry may have: anything before is a typo (a year of 0026, 1970 from a zero). */
export const TIME_ENTRY_EARLIEST = '2000-01-01T00:00:00.000Z';
/** How far ahead of now an entry may start: a day covers every time zone and a clock a little fast. */
export const TIME_ENTRY_AHEAD_MS = 24 * 60 * 60 * 1000;
export const TIME_ENTRY_WHEN_MESSAGE =
  'A time entry must start after 1 January 2000 and no more than a day from now.';

/** X12: why an entry may not start at `startedAt` (before 2000, or over a day after `now`), or null. */
export function startProblem(startedAt: string, now: number = Date.now()): string | null {
  const start = Date.parse(startedAt);
  if (Number.isNaN(start)) return null;
  return start < Date.parse(TIME_ENTRY_EARLIEST) || start > now + TIME_ENTRY_AHEAD_MS
    ? TIME_ENTRY_WHEN_MESSAGE
    : null;
}

/** A time entry as the API answers it (§4). */
export interface TimeEntry {
  id: number;
  uuid: string;
  item_id: number;
  user: { id: number; name: string };
  started_at: string;
  ended_at: string | null;
  minutes: number;
  note: string;
  created_at: string;
  updated_at: string;
}

/** A deleted entry as a sync page carries it (X5). */
export interface TimeEntryTombstone {
  id: number;
  uuid: string;
  item_id: number;
  deleted_at: string;
}

/** A live entry as a sync page carries it: with its item's uuid, as a synced comment (X5). */
export interface SyncedTimeEntry extends TimeEntry {
  item_uuid: string | null;
}

/** One entry of a sync page's `time_entries` (X5). */
export type SyncTimeEntryChange = SyncedTimeEntry | TimeEntryTombstone;

/** True for a sync entry that removes the time entry from the device. */
export function isTimeEntryTombstone(change: SyncTimeEntryChange): change is TimeEntryTombstone {
  return 'deleted_at' in change;
}

/** What a sync page adds for time entries (X5); absent on pages of servers from before them. */
export interface SyncPageTimeEntries {
  time_entries?: SyncTimeEntryChange[];
}

/** Why a start and end are not a time entry (X1, X12), by field, or null when they are one (an item's dates: ./span.ts spanProblem). */
export function entryProblem(
  startedAt: string,
  endedAt: string | null,
  now: number = Date.now(),
): Record<string, string[]> | null {
  const when = startProblem(startedAt, now);
  if (when) return { started_at: [when] };
  if (endedAt === null) return null;
  const length = Date.parse(endedAt) - Date.parse(startedAt);
  if (length < 0) return { ended_at: [TIME_ENTRY_ORDER_MESSAGE] };
  if (length > TIME_ENTRY_MAX_MS) return { ended_at: [TIME_ENTRY_LENGTH_MESSAGE] };
  return null;
}

export type TimeEntryCreate = { uuid?: string; started_at: string; ended_at?: string | null; note?: string };
export type TimeEntryPatch = { started_at?: string; ended_at?: string | null; note?: string };

/** One person's entry as the timer rule sees it: times in epoch ms, `end` null while running. */
export interface Span {
  uuid: string;
  start: number;
  end: number | null;
}

/** The order the timer rule reads one person's entries in: by start, then uuid (so ties are decided). */
export const spanOrder = (a: Span, b: Span): number =>
  a.start - b.start || (a.uuid < b.uuid ? -1 : a.uuid > b.uuid ? 1 : 0);

/** A change the rule makes to an existing entry: it ends (earlier) at `end`. */
export interface SpanEnd {
  uuid: string;
  end: number;
}

/**
 * X2: what starting a timer (`started`, running) does to the person's other live entries: each that
 * began before it and is still open at its start ends there; and if one began after it (a start that
 * arrives late from an offline device), the new entry ends where the first such one begins.
 */
export function startEffects(
  others: readonly Span[],
  started: Span,
): { ends: SpanEnd[]; end: number | null } {
  const ends: SpanEnd[] = [];
  let end: number | null = started.end;
  for (const other of others) {
    if (other.uuid === started.uuid) continue;
    if (spanOrder(other, started) < 0) {
      if (other.end === null || other.end > started.start)
        ends.push({ uuid: other.uuid, end: started.start });
    } else if (end === null || other.start < end) {
      end = other.start;
    }
  }
  return { ends, end };
}

/**
 * X3: when a stop at `at` ends a running entry: at `at`, kept within [start, start + 24 h], and no
 * later than the next entry's start. A stop of an entry already ended changes nothing (null): a
 * timer ends once, whichever device stops it.
 */
export function stopEnd(others: readonly Span[], entry: Span, at: number): number | null {
  if (entry.end !== null) return null;
  let end = Math.min(Math.max(at, entry.start), entry.start + TIME_ENTRY_MAX_MS);
  for (const other of others) {
    if (other.uuid !== entry.uuid && spanOrder(entry, other) < 0 && other.start < end) end = other.start;
  }
  return end;
}

/** X4: whether a finished span (a manual entry, or an edit) overlaps another of the person's entries. */
export function overlapsAny(others: readonly Span[], span: Span): boolean {
  const end = span.end ?? Number.POSITIVE_INFINITY;
  return others.some(
    (o) => o.uuid !== span.uuid && o.start < end && span.start < (o.end ?? Number.POSITIVE_INFINITY),
  );
}

/**
 * X2, X3: one person's entries as the rule leaves them whatever order their writes arrived in: each
 * ends at the latest where the next begins, so only the last may run and none overlap.
 */
export function normalizeSpans(spans: readonly Span[]): Span[] {
  const sorted = [...spans].sort(spanOrder);
  return sorted.map((span, i) => {
    const next = sorted[i + 1];
    if (!next) return span;
    return { ...span, end: span.end === null ? next.start : Math.min(span.end, next.start) };
  });
}

/** The fields a device's pending edit to an entry may carry. */
export type TimeEntryFields = Pick<TimeEntry, 'started_at' | 'ended_at' | 'note'>;

/**
 * X6: a server copy merged with the device's pending edits, per field: a field the device changed
 * keeps its value until the change is sent; `ended_at` is the earlier end when both ended it (a timer
 * ends once); the rest is the server's.
 */
export function mergeTimeEntry<T extends TimeEntryFields>(server: T, pending: Partial<TimeEntryFields>): T {
  const merged = { ...server };
  if (pending.started_at !== undefined) merged.started_at = pending.started_at;
  if (pending.note !== undefined) merged.note = pending.note;
  if (pending.ended_at !== undefined) {
    merged.ended_at =
      pending.ended_at === null || server.ended_at === null
        ? (pending.ended_at ?? server.ended_at)
        : Date.parse(pending.ended_at) <= Date.parse(server.ended_at)
          ? pending.ended_at
          : server.ended_at;
  }
  return merged;
}

/** One line of the time report and its CSV. */
export interface TimeReportRow {
  date: string;
  /** The entry's start and end as UTC instants (ISO 8601); the end is '' while it runs. */
  start: string;
  end: string;
  person: string;
  campaign: string;
  /** The task the entry's item is or belongs to ('' for a campaign or a todo outside any task). */
  task: string;
  item: string;
  minutes: number;
  note: string;
}

/** The Monday (UTC) that starts the week of an instant, as YYYY-MM-DD: the report's week key. */
export function weekOf(instant: string): string {
  const d = new Date(instant);
  const day = (d.getUTCDay() + 6) % 7;
  return new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate() - day))
    .toISOString()
    .slice(0, 10);
}
