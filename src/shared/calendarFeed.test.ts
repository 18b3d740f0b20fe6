import fc from 'fast-check';
import ICAL from 'ical.js';
import { describe, expect, it } from 'vitest';
import { occurrencesIn, spanOf } from './calendar';
import {
  calendarFeed,
  escapeText,
  eventDays,
  FEED_DESCRIPTION_MAX,
  type FeedItem,
  feedEvent,
  foldLine,
  ruleCarriers,
  ruleFromStart,
  stampLine,
  unfold,
} from './calendarFeed';
import { formatRecurrence, parseRecurrence } from './recurrenceRule';

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

/** The events of a feed as ical.js (Mozilla's RFC 5545 library) expands them: [first day, last day]. */
function expanded(feed: string, through: string): [string, string][] {
  const calendar = new ICAL.Component(ICAL.parse(feed));
  const out: [string, string][] = [];
  for (const vevent of calendar.getAllSubcomponents('vevent')) {
    const event = new ICAL.Event(vevent);
    const iterator = event.iterator();
    for (let next = iterator.next(); next; next = iterator.next()) {
      const first = next.toString().slice(0, 10);
      if (first > through) break;
      const end = next.clone();
      end.addDuration(event.duration);
      out.push([first, shiftDays(end.toString().slice(0, 10), -1)]);
    }
  }
  return out;
}

const shiftDays = (day: string, n: number) =>
  new Date(Date.parse(`${day}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);

describe('the days an event covers are the ones the Calendar draws', () => {
  const stamp = stampLine(new Date(0));
  const dates = (over: Partial<FeedItem>) =>
    feedEvent(item(over), stamp, false)
      .split('\r\n')
      .filter((line) => line.startsWith('DTSTART') || line.startsWith('DTEND'));

  it('F11: a start and a due date make one event from the start to the due date', () => {
    expect(dates({ start_date: '2031-12-02', due_date: '2031-12-07' })).toEqual([
      'DTSTART;VALUE=DATE:20311202',
      'DTEND;VALUE=DATE:20311208',
    ]);
    expect(eventDays(item({ start_date: '2031-12-02', due_date: '2031-12-07' }))).toEqual(
      spanOf({ start_date: '2031-12-02', due_date: '2031-12-07' }) && {
        first: '2031-12-02',
        last: '2031-12-07',
      },
    );
  });

  it('F11: an item with only a start date is an event on that day; with neither, none', () => {
    expect(dates({ start_date: '2031-12-02', due_date: null })).toEqual([
      'DTSTART;VALUE=DATE:20311202',
      'DTEND;VALUE=DATE:20311203',
    ]);
    expect(feedEvent(item({ start_date: null, due_date: null }), stamp, false)).toBe('');
    expect(feedEvent(item({ start_date: '9999-12-31', due_date: null }), stamp, false)).toBe('');
  });

  it('F11: a start after the due date (against D10) is not drawn: one day, the due date; an end date still carries on', () => {
    expect(dates({ start_date: '2031-12-09', due_date: '2031-12-07' })).toEqual([
      'DTSTART;VALUE=DATE:20311207',
      'DTEND;VALUE=DATE:20311208',
    ]);
    expect(dates({ start_date: '2031-12-02', due_date: '2031-12-07', end_date: '2031-12-10' })).toEqual([
      'DTSTART;VALUE=DATE:20311202',
      'DTEND;VALUE=DATE:20311211',
    ]);
  });

  it('F11: the whole feed lists a start-only item beside dated ones, and a series only with its due date', () => {
    const feed = calendarFeed(
      [
        item({ id: 1, uuid: 'a', start_date: '2031-12-02', due_date: '2031-12-07' }),
        item({ id: 2, uuid: 'b', start_date: '2031-12-03', due_date: null }),
      ],
      new Date('2031-01-01T00:00:00Z'),
    );
    expect(expanded(feed, '2032-01-01')).toEqual([
      ['2031-12-02', '2031-12-07'],
      ['2031-12-03', '2031-12-03'],
    ]);
    expect(
      ruleCarriers([item({ id: 3, due_date: null, start_date: '2031-12-03', recurrence: 'FREQ=DAILY' })]),
    ).toEqual(new Set());
  });

  it.each([
    ['2031-01-04', '2031-01-06', 'FREQ=WEEKLY;BYDAY=MO'],
    ['2031-01-05', '2031-01-07', 'FREQ=WEEKLY;INTERVAL=2;BYDAY=TU,TH;WKST=SU'],
    ['2031-01-06', '2031-01-07', 'FREQ=WEEKLY;INTERVAL=3;BYDAY=TU,FR'],
    ['2031-01-06', '2031-01-07', 'FREQ=DAILY;INTERVAL=3'],
    ['2031-01-05', '2031-01-06', 'FREQ=WEEKLY;BYDAY=MO,WE,FR;UNTIL=20310301'],
    ['2031-01-03', '2031-01-06', 'FREQ=WEEKLY;BYDAY=MO;COUNT=5'],
    ['2031-01-02', '2031-01-09', 'FREQ=WEEKLY'],
    ['2031-01-12', '2031-01-15', 'FREQ=MONTHLY'],
    ['2031-01-12', '2031-01-15', 'FREQ=MONTHLY;INTERVAL=2;UNTIL=20311231'],
    ['2031-03-08', '2031-03-10', 'FREQ=YEARLY'],
    ['2031-01-05', '2031-01-07', 'FREQ=MONTHLY;BYDAY=TU'],
    ['2031-01-07', '2031-01-07', 'FREQ=MONTHLY;BYMONTHDAY=7'],
  ])('F12: a span from %s to %s repeating %s falls on the days the Calendar draws', (start, due, rule) => {
    const repeating = item({ start_date: start, due_date: due, recurrence: rule });
    const through = '2032-06-30';
    const feed = calendarFeed([repeating], new Date('2031-01-01T00:00:00Z'));
    const drawn = occurrencesIn([repeating], start, through)
      .map((o): [string, string] => [o.start, o.end])
      .slice(0, 40);
    expect(drawn.length).toBeGreaterThan(1);
    expect(expanded(feed, drawn[drawn.length - 1]![0])).toEqual(drawn);
  });

  it.each([
    ['2030-12-30', '2031-01-01', 'FREQ=MONTHLY;BYMONTHDAY=1'],
    ['2031-01-29', '2031-01-31', 'FREQ=MONTHLY;BYDAY=-1FR'],
    ['2031-01-30', '2031-02-02', 'FREQ=MONTHLY'],
  ])(
    'F12: a span from %s to %s on a rule whose days cannot move (%s) repeats one day, on each due date',
    (start, due, rule) => {
      const repeating = item({ start_date: start, due_date: due, recurrence: rule });
      const feed = calendarFeed([repeating], new Date('2031-01-01T00:00:00Z'));
      const dues = occurrencesIn([repeating], start, '2031-12-31').map((o): [string, string] => [
        o.end,
        o.end,
      ]);
      expect(expanded(feed, dues[dues.length - 1]![0])).toEqual(dues);
    },
  );

  it('F12: ruleFromStart moves UNTIL and the weekdays and week start back by the span', () => {
    const rule = (text: string) => {
      const parsed = parseRecurrence(text);
      if (!parsed.ok) throw new Error(parsed.message);
      return parsed.rule;
    };
    const moved = ruleFromStart(
      rule('FREQ=WEEKLY;INTERVAL=2;BYDAY=TU,TH;UNTIL=20310301'),
      2,
      '2031-01-05',
      '2031-01-07',
    );
    expect(moved && formatRecurrence(moved)).toBe(
      'FREQ=WEEKLY;INTERVAL=2;BYDAY=SU,TU;UNTIL=20310227;WKST=SA',
    );
    expect(ruleFromStart(rule('FREQ=MONTHLY;BYMONTHDAY=1'), 2, '2030-12-30', '2031-01-01')).toBeNull();
  });
});
