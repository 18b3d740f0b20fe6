import { describe, expect, it } from 'vitest';
import { calendarFeed, escapeText, foldLine } from './calendarFeed';

describe('calendar feed text (RFC 5545)', () => {
  it('escapes backslashes, semicolons, commas and newlines in text values', () => {
    expect(escapeText('a\\b; c, d\ne\r\nf')).toBe('a\\\\b\\; c\\, d\\ne\\nf');
  });

  it('folds lines at 75 octets without splitting a character, continuation lines starting with a space', () => {
    const line = `SUMMARY:${'é'.repeat(100)}`;
    const folded = foldLine(line);
    const parts = folded.split('\r\n');
    expect(parts.length).toBeGreaterThan(1);
    for (const part of parts) expect(new TextEncoder().encode(part).length).toBeLessThanOrEqual(75);
    expect(parts.slice(1).every((p) => p.startsWith(' '))).toBe(true);
    expect(parts.map((p, i) => (i === 0 ? p : p.slice(1))).join('')).toBe(line);
    expect(foldLine('SHORT:x')).toBe('SHORT:x');
  });

  it('gives each dated item an all-day event ending the next day, with its repeat and a done mark', () => {
    const feed = calendarFeed(
      [
        {
          id: 1,
          uuid: 'u-1',
          title: 'Year end',
          description: null,
          status: 'completed',
          due_date: '2030-12-31',
          recurrence: 'FREQ=YEARLY',
          updated_at: '2030-01-01T00:00:00.000Z',
        },
      ],
      new Date('2030-06-01T12:00:00Z'),
    );
    expect(feed.endsWith('\r\n')).toBe(true);
    const lines = feed.trim().split('\r\n');
    expect(lines).toContain('DTSTART;VALUE=DATE:20301231');
    expect(lines).toContain('DTEND;VALUE=DATE:20310101');
    expect(lines).toContain('RRULE:FREQ=YEARLY');
    expect(lines).toContain('SUMMARY:✓ Year end');
    expect(lines).toContain('UID:u-1');
    expect(lines).toContain('DTSTAMP:20300601T120000Z');
  });
});
