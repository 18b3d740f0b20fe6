/**
 * The calendar feed (ARCHITECTURE §4 'Calendar feed', SYNC.md F1–F8): a person's items with a due
 * date as an RFC 5545 calendar that Google, Apple and Outlook subscribe to. One all-day VEVENT per
 * item (UID the item's uuid, SUMMARY its title, DESCRIPTION, RRULE when it is a series' open
 * occurrence, STATUS), text escaped and stripped of control characters, lines folded at 75 octets as
 * the RFC says. Pure: the server builds its cached feed from these pieces, a slice at a time.
 */

export interface FeedItem {
  id: number;
  uuid: string | null;
  title: string;
  description: string | null;
  status: 'pending' | 'in_progress' | 'completed';
  due_date: string;
  end_date?: string | null;
  recurrence: string | null;
  series_uuid?: string | null;
  updated_at: string;
}

/** The feed's name in the subscriber's calendar list. */
export const FEED_NAME = 'Outpost';

/** Characters of an item's description one event carries (F2): the rest stays in Outpost. */
export const FEED_DESCRIPTION_MAX = 1_000;

/** The earliest and latest due dates an event can have: DTEND, the next day, must still be a DATE. */
export const FEED_FIRST_DATE = '0001-01-01';
export const FEED_LAST_DATE = '9999-12-30';

// CTL (RFC 5545 §3.1: %x00-08 / %x0A-1F / %x7F) less CR and LF, which escapeText writes as \n, and
// the C1 controls, which no calendar shows.
// biome-ignore lint/suspicious/noControlCharactersInRegex: these are the characters it removes
const CONTROLS = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]/g;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** Text with control characters removed and lone surrogates (unencodable) as U+FFFD. */
export function stripControls(value: string): string {
  return value.replace(CONTROLS, '').replace(LONE_SURROGATE, '\uFFFD');
}

/** TEXT values escape backslash, semicolon, comma and newlines (RFC 5545 §3.3.11), controls dropped. */
export function escapeText(value: string): string {
  return stripControls(value)
    .replace(/\\/g, '\\\\')
    .replace(/;/g, '\\;')
    .replace(/,/g, '\\,')
    .replace(/\r\n|\r|\n/g, '\\n');
}

/**
 * A content line folded so no line is longer than 75 octets (RFC 5545 §3.1): continuation lines
 * start with one space, and a fold never splits a UTF-8 character. One pass over the UTF-16 units,
 * counting each one's UTF-8 size, with no encoding (F1).
 */
export function foldLine(line: string): string {
  // At most 3 octets per UTF-16 unit: 25 units always fit.
  if (line.length <= 25) return line;
  const parts: string[] = [];
  let start = 0;
  let octets = 0;
  let limit = 75;
  for (let i = 0; i < line.length; i++) {
    const code = line.charCodeAt(i);
    let size = 3;
    let units = 1;
    if (code < 0x80) size = 1;
    else if (code < 0x800) size = 2;
    else if (code >= 0xd800 && code <= 0xdbff) {
      const next = line.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        size = 4;
        units = 2;
      }
    }
    if (octets + size > limit) {
      parts.push(line.slice(start, i));
      start = i;
      octets = 0;
      // The continuation's leading space is one of its 75 octets.
      limit = 74;
    }
    octets += size;
    i += units - 1;
  }
  if (parts.length === 0) return line;
  parts.push(line.slice(start));
  return parts.join('\r\n ');
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

/** The day after `date` (YYYY-MM-DD, years 1–9999), without Date's six-digit years. */
function nextDay(date: string): string {
  const day = new Date(0);
  day.setUTCFullYear(Number(date.slice(0, 4)), Number(date.slice(5, 7)) - 1, Number(date.slice(8, 10)) + 1);
  const pad = (n: number, width: number) => String(n).padStart(width, '0');
  return `${pad(day.getUTCFullYear(), 4)}-${pad(day.getUTCMonth() + 1, 2)}-${pad(day.getUTCDate(), 2)}`;
}

/** VEVENT's STATUS: an open item is CONFIRMED; a completed one too, its summary marked done. */
const summaryOf = (item: FeedItem) => (item.status === 'completed' ? `✓ ${item.title}` : item.title);

function descriptionOf(description: string): string {
  const chars = Array.from(description);
  return chars.length <= FEED_DESCRIPTION_MAX
    ? description
    : `${chars.slice(0, FEED_DESCRIPTION_MAX).join('')}…`;
}

/**
 * The ids of the items whose VEVENT carries their RRULE (F3): per series, only its latest open
 * occurrence. A completed occurrence keeps its `recurrence` in the database; written with it, every
 * later date would show it again beside the open one.
 */
export function ruleCarriers(items: readonly FeedItem[]): Set<number> {
  const latest = new Map<string, FeedItem>();
  for (const item of items) {
    if (!item.recurrence || item.status === 'completed') continue;
    const series = item.series_uuid ?? item.uuid ?? `id:${item.id}`;
    const held = latest.get(series);
    if (!held || item.due_date > held.due_date || (item.due_date === held.due_date && item.id > held.id))
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
 * One item's VEVENT, folded, each line ending in CRLF; empty when its due date cannot be written as
 * a DATE (F6: such an item is left out). An `end_date` after the due date makes the event a span
 * ending that day (clamped to the last writable day); an earlier one is ignored.
 */
export function feedEvent(item: FeedItem, stamp: string, carriesRule: boolean): string {
  if (!writableDate(item.due_date)) return '';
  let last = item.due_date;
  if (typeof item.end_date === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(item.end_date) && item.end_date > last)
    last = item.end_date > FEED_LAST_DATE ? FEED_LAST_DATE : item.end_date;
  const lines = [
    'BEGIN:VEVENT',
    `UID:${stripControls(item.uuid ?? `outpost-item-${item.id}`)}`,
    stamp,
    `LAST-MODIFIED:${compactInstant(item.updated_at)}`,
    `DTSTART;VALUE=DATE:${compactDate(item.due_date)}`,
    `DTEND;VALUE=DATE:${compactDate(nextDay(last))}`,
    `SUMMARY:${escapeText(summaryOf(item))}`,
  ];
  if (item.description) lines.push(`DESCRIPTION:${escapeText(descriptionOf(item.description))}`);
  // A rule has no spaces; anything that is not printable ASCII would break the line.
  const rule = carriesRule && item.recurrence ? item.recurrence.replace(/[^\x21-\x7E]/g, '') : '';
  if (rule) lines.push(`RRULE:${rule}`);
  lines.push('STATUS:CONFIRMED', 'TRANSP:TRANSPARENT', 'END:VEVENT');
  let out = '';
  for (const line of lines) out += `${foldLine(line)}\r\n`;
  return out;
}

/** The whole calendar for `items`, stamped `now`, each line ending in CRLF. */
export function calendarFeed(items: readonly FeedItem[], now: Date): string {
  const carriers = ruleCarriers(items);
  const stamp = stampLine(now);
  let out = feedHeader();
  for (const item of items) out += feedEvent(item, stamp, carriers.has(item.id));
  return out + FEED_FOOTER;
}
