/**
 * The calendar feed (ARCHITECTURE §4 'Calendar feed', SYNC.md F1–F13): a person's dated items as an
 * RFC 5545 calendar that Google, Apple and Outlook subscribe to. One all-day VEVENT per item, on the
 * days the app's Calendar draws it (UID the item's uuid, SUMMARY its title, DESCRIPTION, RRULE when
 * it is a series' open occurrence, STATUS), text escaped and stripped of control characters, lines
 * folded at 75 octets as the RFC says. Pure: the server builds its cached feed from these pieces, a
 * slice at a time.
 */

import { spanOf } from './calendar';
import { addDays, daysBetween } from './dateOnly';
import { formatRecurrence, parseRecurrence, type RecurrenceRule, WEEKDAY_CODES } from './recurrenceRule';

export interface FeedItem {
  id: number;
  uuid: string | null;
  title: string;
  description: string | null;
  status: 'pending' | 'in_progress' | 'completed';
  /** Null for an item with only a start date (F11: an event on that day). */
  due_date: string | null;
  start_date?: string | null;
  end_date?: string | null;
  recurrence: string | null;
  series_uuid?: string | null;
  updated_at: string;
}

/** The feed's name in the subscriber's calendar list. */
export const FEED_NAME = 'Outpost';

/**
 * How much of an item's description one event carries (F2), in UTF-16 units (a character outside
 * the BMP counts two): the rest stays in Outpost. It bounds what 5,000 events cost to build and send.
 */
export const FEED_DESCRIPTION_MAX = 500;

/** The earliest and latest due dates an event can have: DTEND, the next day, must still be a DATE. */
export const FEED_FIRST_DATE = '0001-01-01';
export const FEED_LAST_DATE = '9999-12-30';

// CTL (RFC 5545 §3.1: %x00-08 / %x0A-1F / %x7F) less CR and LF, which escapeText writes as \n, and
// the C1 controls, which no calendar shows. A lone surrogate needs nothing here: the UTF-8 encoding
// the feed is written in turns it into U+FFFD.
// biome-ignore lint/suspicious/noControlCharactersInRegex: these are the characters it removes
const CONTROLS = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]/g;

/** Text with control characters removed (F6). */
export function stripControls(value: string): string {
  return value.replace(CONTROLS, '');
}

/** TEXT values escape backslash, semicolon, comma and newlines (RFC 5545 §3.3.11), controls dropped. */
export function escapeText(value: string): string {
  return stripControls(value)
    .replace(/[\\;,]/g, '\\$&')
    .replace(/\r\n|\r|\n/g, '\\n');
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/**
 * Content lines (UTF-8, each ending in CRLF) folded so no line is longer than 75 octets (RFC 5545
 * §3.1): continuation lines start with one space, and a fold never splits a UTF-8 character. Works
 * on the bytes, looking only at the octets where a fold falls (F1): a feed of megabytes folds in
 * milliseconds.
 */
export function foldUtf8(text: Uint8Array): Uint8Array {
  // A fold adds 3 octets and comes at most every 71 (a 4-octet character moved to the next line).
  const out = new Uint8Array(text.length + Math.ceil((3 * text.length) / 71) + 3);
  let at = 0;
  let start = 0;
  while (start < text.length) {
    let end = text.indexOf(13, start);
    if (end === -1) end = text.length;
    let limit = 75;
    while (end - start > limit) {
      let cut = start + limit;
      // Back off continuation octets (10xxxxxx): the fold goes before the character they belong to.
      while (cut > start && ((text[cut] as number) & 0xc0) === 0x80) cut--;
      out.set(text.subarray(start, cut), at);
      at += cut - start;
      out[at++] = 13;
      out[at++] = 10;
      out[at++] = 32;
      start = cut;
      // The continuation's leading space is one of its 75 octets.
      limit = 74;
    }
    const next = Math.min(text.length, end + 2);
    out.set(text.subarray(start, next), at);
    at += next - start;
    start = next;
  }
  return out.subarray(0, at);
}

/** Content lines (each ending in CRLF) as the UTF-8 octets of the folded feed. */
export function foldedBytes(lines: string): Uint8Array {
  return foldUtf8(encoder.encode(lines));
}

/** One content line folded (F1), as foldUtf8 folds it. */
export function foldLine(line: string): string {
  return decoder.decode(foldedBytes(`${line}\r\n`)).slice(0, -2);
}

/** Folded lines joined back (RFC 5545 §3.1 unfolding): CRLF followed by one space or tab goes. */
export function unfold(text: string): string {
  return text.replace(/\r\n[ \t]/g, '');
}

const compactDate = (date: string) => date.replaceAll('-', '');
const compactInstant = (iso: string) => `${iso.slice(0, 19).replace(/[-:]/g, '')}Z`;

/** A YYYY-MM-DD a DATE value can carry, with room for the day after it (F5). */
function writableDate(date: string | null | undefined): date is string {
  return (
    typeof date === 'string' &&
    /^\d{4}-\d{2}-\d{2}$/.test(date) &&
    date >= FEED_FIRST_DATE &&
    date <= FEED_LAST_DATE
  );
}

// addDays (./dateOnly.ts) writes years 1–9999 as four digits, as a DATE value needs.
const nextDay = (date: string) => addDays(date, 1);

/**
 * The days an item's event covers (F11), as the app's Calendar draws it (calendar.ts spanOf): from
 * its start date to its due date (a start after the due date, against D10, is not drawn), on its due
 * date alone, or on its start date alone when it has no due date; an `end_date` after the due date
 * carries the end further (F7). Null when the item has no day a DATE can carry (F6).
 */
export function eventDays(item: FeedItem): { first: string; last: string } | null {
  const start = writableDate(item.start_date) ? item.start_date : null;
  if (item.due_date === null) return start ? { first: start, last: start } : null;
  if (!writableDate(item.due_date)) return null;
  const span = spanOf({ start_date: start, due_date: item.due_date })!;
  let last = span.end;
  if (typeof item.end_date === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(item.end_date) && item.end_date > last)
    last = item.end_date > FEED_LAST_DATE ? FEED_LAST_DATE : item.end_date;
  return { first: span.start, last };
}

/**
 * A series' rule for an event that starts `days` days before its due date (F12). RFC 5545 repeats
 * DTSTART while Outpost's rule steps the due date (the app's Calendar draws each next span ending on
 * it), so the rule moves back with the start: UNTIL, and the weekdays and week start of a daily or
 * weekly rule (or a monthly one on every such weekday). A monthly or yearly rule on the due date's
 * day of the month moves when the span stays within a month on a day every month has. A rule whose
 * days cannot move (a day of the month, an nth weekday) gives null: the event is then one day, on
 * the due date, carrying the rule as it is.
 */
export function ruleFromStart(
  rule: RecurrenceRule,
  days: number,
  start: string,
  due: string,
): RecurrenceRule | null {
  if (days === 0) return rule;
  const until = rule.until === null ? null : addDays(rule.until, -days);
  if (rule.byMonthDay.length > 0) return null;
  if (rule.byDay.length === 0) {
    if (rule.freq === 'DAILY' || rule.freq === 'WEEKLY') return { ...rule, until };
    const sameMonth = start.slice(0, 7) === due.slice(0, 7) && Number(due.slice(8, 10)) <= 28;
    return sameMonth ? { ...rule, until } : null;
  }
  if (rule.byDay.some((d) => d.n !== null)) return null;
  if (rule.freq !== 'DAILY' && rule.freq !== 'WEEKLY' && rule.interval !== 1) return null;
  const back = (code: (typeof WEEKDAY_CODES)[number]) =>
    WEEKDAY_CODES[(((WEEKDAY_CODES.indexOf(code) - days) % 7) + 7) % 7]!;
  return {
    ...rule,
    until,
    byDay: rule.byDay.map((d) => ({ ...d, day: back(d.day) })),
    wkst: rule.wkst === null && rule.interval === 1 ? null : back(rule.wkst ?? 'MO'),
  };
}

/** VEVENT's STATUS: an open item is CONFIRMED; a completed one too, its summary marked done. */
const summaryOf = (item: FeedItem) => (item.status === 'completed' ? `✓ ${item.title}` : item.title);

function descriptionOf(description: string): string {
  if (description.length <= FEED_DESCRIPTION_MAX) return description;
  // Cut in UTF-16 units, never between the two halves of a character.
  const head = description.slice(0, FEED_DESCRIPTION_MAX).replace(/[\uD800-\uDBFF]$/, '');
  return `${head}…`;
}

/**
 * The ids of the items whose VEVENT carries their RRULE (F3): per series, only its latest open
 * occurrence. A completed occurrence keeps its `recurrence` in the database; written with it, every
 * later date would show it again beside the open one.
 */
export function ruleCarriers(items: readonly FeedItem[]): Set<number> {
  const latest = new Map<string, FeedItem>();
  for (const item of items) {
    if (!item.recurrence || item.status === 'completed' || item.due_date === null) continue;
    const series = item.series_uuid ?? item.uuid ?? `id:${item.id}`;
    const held = latest.get(series);
    if (!held || item.due_date > held.due_date! || (item.due_date === held.due_date && item.id > held.id))
      latest.set(series, item);
  }
  return new Set([...latest.values()].map((item) => item.id));
}

/** The calendar's opening lines, each ending in CRLF. */
export function feedHeader(): string {
  return `${[
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    'PRODID:-//Outpost//Calendar feed//EN',
    'CALSCALE:GREGORIAN',
    'METHOD:PUBLISH',
    `X-WR-CALNAME:${escapeText(FEED_NAME)}`,
  ].join('\r\n')}\r\n`;
}

/** The calendar's closing line. */
export const FEED_FOOTER = 'END:VCALENDAR\r\n';

/** The DTSTAMP line of a feed built at `now`. */
export const stampLine = (now: Date) => `DTSTAMP:${compactInstant(now.toISOString())}`;

/**
 * One item's VEVENT, unfolded (foldedBytes folds it), each line ending in CRLF; empty when it has no
 * day a DATE can carry (F6: such an item is left out). It covers the days of eventDays (F7, F11):
 * DTSTART its first, DTEND the day after its last.
 */
export function feedEvent(item: FeedItem, stamp: string, carriesRule: boolean): string {
  const days = eventDays(item);
  if (days === null) return '';
  let { first, last } = days;
  let rule = carriesRule && item.recurrence && item.due_date ? feedRule(item.recurrence) : null;
  if (rule && typeof rule !== 'string' && item.due_date) {
    const moved = ruleFromStart(rule, daysBetween(first, item.due_date), first, item.due_date);
    if (moved === null) {
      first = item.due_date;
      last = item.due_date;
    } else rule = moved;
  }
  const lines = [
    'BEGIN:VEVENT',
    `UID:${stripControls(item.uuid ?? `outpost-item-${item.id}`)}`,
    stamp,
    `LAST-MODIFIED:${compactInstant(item.updated_at)}`,
    `DTSTART;VALUE=DATE:${compactDate(first)}`,
    `DTEND;VALUE=DATE:${compactDate(nextDay(last))}`,
    `SUMMARY:${escapeText(summaryOf(item))}`,
  ];
  if (item.description) lines.push(`DESCRIPTION:${escapeText(descriptionOf(item.description))}`);
  const written = rule === null ? '' : typeof rule === 'string' ? rule : formatRecurrence(rule);
  if (written) lines.push(`RRULE:${written}`);
  lines.push('STATUS:CONFIRMED', 'TRANSP:TRANSPARENT', 'END:VEVENT');
  return `${lines.join('\r\n')}\r\n`;
}

/**
 * The RRULE an all-day event may carry: without the series' reminder time (BYHOUR, BYMINUTE, kept
 * by an occurrence whose reminder fell in a skipped hour, N11), which RFC 5545 forbids beside a DATE
 * start. A rule has no spaces; one Outpost cannot read is written as text of printable ASCII only,
 * which would otherwise break the line.
 */
function feedRule(stored: string): RecurrenceRule | string {
  const parsed = parseRecurrence(stored);
  if (parsed.ok) return { ...parsed.rule, at: null };
  return stored.replace(/[^\x21-\x7E]/g, '');
}

/** The whole calendar for `items`, stamped `now`, folded, each line ending in CRLF. */
export function calendarFeed(items: readonly FeedItem[], now: Date): string {
  const carriers = ruleCarriers(items);
  const stamp = stampLine(now);
  let out = feedHeader();
  for (const item of items) out += feedEvent(item, stamp, carriers.has(item.id));
  return decoder.decode(foldedBytes(out + FEED_FOOTER));
}
