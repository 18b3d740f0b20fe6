import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatDuration } from './duration';
import { readQuickAdd } from './quickAdd';

// Wednesday 25 November 2026, 10:00 in New York (15:00 UTC).
const now = new Date('2026-11-25T15:00:00Z');
const read = (text: string, dismissed?: string[]) =>
  readQuickAdd(text, {
    now,
    timeZone: 'America/New_York',
    ...(dismissed ? { dismissed: new Set(dismissed) } : {}),
  });

describe('quick add: spans and estimates', () => {
  it.each([
    [
      'Paint the fence from mon to fri',
      'Paint the fence',
      '2026-11-30',
      '2026-12-04',
      'Mon 30 Nov → Fri 4 Dec',
    ],
    ['Trip dec 3 to dec 9', 'Trip', '2026-12-03', '2026-12-09', 'Thu 3 Dec → Wed 9 Dec'],
    [
      'Build the shed from tomorrow to friday',
      'Build the shed',
      '2026-11-26',
      '2026-11-27',
      'Thu 26 Nov → Fri 27 Nov',
    ],
  ])('D10: reads %j as a span, start before due', (text, title, start, due, label) => {
    const reading = read(text);
    expect(reading).toMatchObject({ title, start_date: start, due_date: due });
    expect(reading.parts.map((p) => [p.kind, p.label])).toEqual([['date', label]]);
  });

  it.each([
    ['Write the report est 2h', 'Write the report', 120, 'Estimate 2 h'],
    ['Write the report ~2h', 'Write the report', 120, 'Estimate 2 h'],
    ['Call the bank ~30m tomorrow', 'Call the bank', 30, 'Estimate 30 m'],
    ['Tidy up est 1h 30m p2', 'Tidy up', 90, 'Estimate 1 h 30 m'],
    ['Read ~1:15', 'Read', 75, 'Estimate 1 h 15 m'],
  ])('reads the estimate in %j', (text, title, minutes, label) => {
    const reading = read(text);
    expect(reading).toMatchObject({ title, estimate_minutes: minutes });
    expect(reading.parts.find((p) => p.kind === 'estimate')?.label).toBe(label);
  });

  it('leaves words that are no estimate or span in the title', () => {
    expect(read('Buy ~ milk')).toMatchObject({ title: 'Buy ~ milk', estimate_minutes: null });
    expect(read('Rest a bit 2h')).toMatchObject({ estimate_minutes: null });
    expect(read('Buy milk tomorrow')).toMatchObject({ start_date: null, due_date: '2026-11-26' });
  });

  it('a removed estimate or span chip keeps its words in the title and sets nothing', () => {
    for (const text of ['Write the report ~2h', 'Paint the fence from mon to fri']) {
      const first = read(text);
      const again = read(
        text,
        first.parts.map((p) => p.key),
      );
      expect(again).toMatchObject({ title: text, start_date: null, due_date: null, estimate_minutes: null });
    }
  });

  it('D10: any span read has its start on or before its due, and any estimate reads back in the title (property)', () => {
    const weekday = fc.constantFrom(
      'mon',
      'tue',
      'wed',
      'thu',
      'fri',
      'sat',
      'sun',
      'tomorrow',
      'dec 3',
      'jan 9',
    );
    fc.assert(
      fc.property(weekday, weekday, fc.integer({ min: 1, max: 600 }), (a, b, minutes) => {
        const estimate = `~${formatDuration(minutes).replace(/ /g, '')}`;
        const reading = read(`Job from ${a} to ${b} ${estimate}`);
        if (reading.start_date !== null) expect(reading.start_date < (reading.due_date as string)).toBe(true);
        expect(reading.estimate_minutes).toBe(minutes);
        expect(reading.title.startsWith('Job')).toBe(true);
      }),
      { numRuns: 60 },
    );
  });
});
