/**
 * The calendar feed (ARCHITECTURE §4 'Calendar feed'): a person's items with a due date as an
 * RFC 5545 calendar that Google, Apple and Outlook subscribe to. One all-day VEVENT per item (UID the
 * item's uuid, SUMMARY its title, DESCRIPTION, RRULE when it repeats, STATUS), text escaped and lines
 * folded at 75 octets as the RFC says. Pure: the server streams what this returns.
 */

export interface FeedItem {
  id: number;
  uuid: string | null;
  title: string;
  description: string | null;
  status: 'pending' | 'in_progress' | 'completed';
  due_date: string;
  recurrence: string | null;
  updated_at: string;
}

/** The feed's name in the subscriber's calendar list. */
export const FEED_NAME = 'Outpost';

/** TEXT values escape backslash, semicolon, comma and newlines (RFC 5545 §3.3.11). */
export function escapeText(value: string): string {
  return value
    .replace(/\\/g, '\\\\')
    .replace(/;/g, '\\;')
    .replace(/,/g, '\\,')
    .replace(/\r\n|\r|\n/g, '\\n');
}

const encoder = new TextEncoder();

/**
 * A content line folded so no line is longer than 75 octets (RFC 5545 §3.1): continuation lines
 * start with one space, and a fold never splits a UTF-8 character.
 */
export function foldLine(line: string): string {
  if (encoder.encode(line).length <= 75) return line;
  const out: string[] = [];
  let current = '';
  let octets = 0;
  for (const char of line) {
    const size = encoder.encode(char).length;
    const limit = out.length === 0 ? 75 : 74;
    if (octets + size > limit) {
      out.push(current);
      current = '';
      octets = 0;
    }
    current += char;
    octets += size;
  }
  out.push(current);
  return out.join('\r\n ');
}

const compactDate = (date: string) => date.replaceAll('-', '');
const compactInstant = (iso: string) => `${iso.slice(0, 19).replace(/[-:]/g, '')}Z`;

function nextDay(date: string): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
}

/** VEVENT's STATUS: an open item is CONFIRMED; a completed one too, its summary marked done. */
const summaryOf = (item: FeedItem) => (item.status === 'completed' ? `✓ ${item.title}` : item.title);

/** The whole calendar for `items`, stamped `now`, each line ending in CRLF. */
export function calendarFeed(items: readonly FeedItem[], now: Date): string {
  const lines = [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    'PRODID:-//Outpost//Calendar feed//EN',
    'CALSCALE:GREGORIAN',
    'METHOD:PUBLISH',
    `X-WR-CALNAME:${escapeText(FEED_NAME)}`,
  ];
  const stamp = compactInstant(now.toISOString());
  for (const item of items) {
    lines.push(
      'BEGIN:VEVENT',
      `UID:${item.uuid ?? `outpost-item-${item.id}`}`,
      `DTSTAMP:${stamp}`,
      `LAST-MODIFIED:${compactInstant(item.updated_at)}`,
      `DTSTART;VALUE=DATE:${compactDate(item.due_date)}`,
      `DTEND;VALUE=DATE:${compactDate(nextDay(item.due_date))}`,
      `SUMMARY:${escapeText(summaryOf(item))}`,
    );
    if (item.description) lines.push(`DESCRIPTION:${escapeText(item.description)}`);
    if (item.recurrence) lines.push(`RRULE:${item.recurrence}`);
    lines.push('STATUS:CONFIRMED', 'TRANSP:TRANSPARENT', 'END:VEVENT');
  }
  lines.push('END:VCALENDAR');
  return `${lines.map(foldLine).join('\r\n')}\r\n`;
}
