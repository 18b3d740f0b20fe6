import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  calendarFeed,
  escapeText,
  FEED_DESCRIPTION_MAX,
  type FeedItem,
  feedEvent,
  foldLine,
  ruleCarriers,
  stampLine,
  unfold,
} from './calendarFeed';

const encoder = new TextEncoder();
const decoder = new TextDecoder('utf-8', { fatal: true });

const item = (over: Partial<FeedItem>): FeedItem => ({
  id: 1,
  uuid: 'u-1',
  title: 'Item',
  description: null,
  status: 'pending',
  due_date: '2031-01-06',
  recurrence: null,
  updated_at: '2030-01-01T00:00:00.000Z',
  ...over,
});

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

  it('gives each dated item an all-day event ending the next day, a completed one its done mark and no repeat', () => {
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
    expect(lines.some((line) => line.startsWith('RRULE:'))).toBe(false);
    expect(lines).toContain('SUMMARY:✓ Year end');
    expect(lines).toContain('UID:u-1');
    expect(lines).toContain('DTSTAMP:20300601T120000Z');
  });

  it('F1: folding keeps every line within 75 octets, splits no UTF-8 character, and unfolds to the original', () => {
    const text = fc.oneof(
      fc.string({ unit: 'binary', maxLength: 400 }),
      fc.string({ unit: 'grapheme', maxLength: 200 }),
      fc.string({ unit: fc.constantFrom('a', 'é', '€', '😀', ' ', '\\'), maxLength: 300 }),
    );
    fc.assert(
      fc.property(fc.constantFrom('SUMMARY:', 'DESCRIPTION:', 'X:'), text, (name, raw) => {
        // A content line carries escaped, well-formed text: what escapeText writes.
        const line = `${name}${escapeText(raw)}`;
        const folded = foldLine(line);
        const parts = folded.split('\r\n');
        for (const [i, part] of parts.entries()) {
          const bytes = encoder.encode(part);
          expect(bytes.length).toBeLessThanOrEqual(75);
          // Every physical line is whole UTF-8 on its own: no character was cut in two.
          expect(() => decoder.decode(bytes)).not.toThrow();
          if (i > 0) expect(part.startsWith(' ')).toBe(true);
          if (i > 0) expect(part.length).toBeGreaterThan(1);
        }
        expect(unfold(folded)).toBe(line);
      }),
      { numRuns: 500 },
    );
  });

  it('F2: an event carries at most the first 500 UTF-16 units of a description, marked as cut, never half a character', () => {
    const descriptionLine = (description: string) =>
      feedEvent(item({ description }), stampLine(new Date(0)), false)
        .split('\r\n')
        .find((l) => l.startsWith('DESCRIPTION:'));
    expect(descriptionLine(`${'é'.repeat(FEED_DESCRIPTION_MAX)}tail`)).toBe(
      `DESCRIPTION:${'é'.repeat(FEED_DESCRIPTION_MAX)}…`,
    );
    expect(descriptionLine(`a${'😀'.repeat(FEED_DESCRIPTION_MAX)}`)).toBe(
      `DESCRIPTION:a${'😀'.repeat(FEED_DESCRIPTION_MAX / 2 - 1)}…`,
    );
    expect(descriptionLine('x'.repeat(FEED_DESCRIPTION_MAX))).toBe(
      `DESCRIPTION:${'x'.repeat(FEED_DESCRIPTION_MAX)}`,
    );
  });

  it('F3: per series only the latest open occurrence carries the rule', () => {
    const weekly = 'FREQ=WEEKLY;BYDAY=MO';
    const items = [
      item({ id: 1, uuid: 's', recurrence: weekly, status: 'completed', due_date: '2031-01-06' }),
      item({
        id: 2,
        uuid: 'o2',
        series_uuid: 's',
        recurrence: weekly,
        status: 'completed',
        due_date: '2031-01-13',
      }),
      item({
        id: 3,
        uuid: 'o3',
        series_uuid: 's',
        recurrence: weekly,
        status: 'pending',
        due_date: '2031-01-20',
      }),
      item({
        id: 4,
        uuid: 'o4',
        series_uuid: 's',
        recurrence: weekly,
        status: 'pending',
        due_date: '2031-01-27',
      }),
      item({ id: 5, uuid: 'alone', recurrence: 'FREQ=DAILY', status: 'in_progress', due_date: '2031-01-01' }),
      item({ id: 6, uuid: 'done', recurrence: 'FREQ=DAILY', status: 'completed', due_date: '2031-01-01' }),
    ];
    expect([...ruleCarriers(items)].sort()).toEqual([4, 5]);
    const feed = calendarFeed(items, new Date(0));
    expect(feed.match(/^RRULE:/gm)).toHaveLength(2);
  });

  it('F3: a series carries its rule without the reminder time a skipped-hour occurrence keeps (N11)', () => {
    const event = feedEvent(
      item({ recurrence: 'FREQ=DAILY;BYHOUR=2;BYMINUTE=30' }),
      stampLine(new Date(0)),
      true,
    );
    expect(event).toContain('RRULE:FREQ=DAILY\r\n');
    expect(event).not.toContain('BYHOUR');
  });

  it('F6: strips control characters from text and leaves out an event whose dates cannot be written', () => {
    expect(escapeText('a\u0007b\u0000c\u001bd\u007fe\u0085f\tg\nh')).toBe('abcdef\tg\\nh');
    expect(foldLine(`SUMMARY:${escapeText('lone \ud800 surrogate')}`)).toBe('SUMMARY:lone \ufffd surrogate');
    const stamp = stampLine(new Date(0));
    expect(feedEvent(item({ due_date: '9999-12-31' }), stamp, false)).toBe('');
    expect(feedEvent(item({ due_date: '0000-12-31' }), stamp, false)).toBe('');
    expect(feedEvent(item({ due_date: 'soon' }), stamp, false)).toBe('');
    expect(feedEvent(item({ due_date: '9999-12-30' }), stamp, false)).toContain('DTEND;VALUE=DATE:99991231');
    expect(feedEvent(item({ due_date: '0001-01-01' }), stamp, false)).toContain('DTEND;VALUE=DATE:00010102');
    expect(feedEvent(item({ recurrence: 'FREQ=DAILY\r\nX-EVIL:1' }), stamp, true)).toContain(
      'RRULE:FREQ=DAILYX-EVIL:1\r\n',
    );
  });

  it('F7: an end date after the due date makes a span ending that day; an earlier one is ignored, a far one clamped', () => {
    const stamp = stampLine(new Date(0));
    const lines = (over: Partial<FeedItem>) => feedEvent(item(over), stamp, false).split('\r\n');
    expect(lines({ due_date: '2031-02-27', end_date: '2031-03-01' })).toContain('DTEND;VALUE=DATE:20310302');
    expect(lines({ due_date: '2031-02-27', end_date: '2031-02-01' })).toContain('DTEND;VALUE=DATE:20310228');
    expect(lines({ due_date: '2031-02-27', end_date: '9999-12-31' })).toContain('DTEND;VALUE=DATE:99991231');
  });
});
