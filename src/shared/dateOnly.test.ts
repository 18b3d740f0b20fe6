import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { addDays, dayStart, daysBetween } from './dateOnly';

// The test's own count of days, by the Gregorian rules alone (no Date in it), so a wrong step in
// dateOnly.ts cannot agree with itself: 0001-01-01 is day 0.
const isLeap = (y: number) => (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
const monthLength = (y: number, m: number) =>
  m === 2 ? (isLeap(y) ? 29 : 28) : [4, 6, 9, 11].includes(m) ? 30 : 31;
const FIRST = '0001-01-01';
const LAST = '9999-12-31';

function ordinal(day: string): number {
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  const before = y - 1;
  let n = before * 365 + Math.floor(before / 4) - Math.floor(before / 100) + Math.floor(before / 400);
  for (let month = 1; month < m; month += 1) n += monthLength(y, month);
  return n + d - 1;
}

const key = (y: number, m: number, d: number) =>
  `${String(y).padStart(4, '0')}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`;

/** A real day key in years `from`–`to`. */
const anyDay = (from: number, to: number) =>
  fc
    .tuple(
      fc.integer({ min: from, max: to }),
      fc.integer({ min: 1, max: 12 }),
      fc.integer({ min: 1, max: 31 }),
    )
    .map(([y, m, d]) => key(y, m, Math.min(d, monthLength(y, m))));

/** Days where the step has gone wrong before, or could: month and year ends, leap days, DST changes. */
const EDGES = [
  // Month and year ends.
  '2026-01-31',
  '2026-04-30',
  '2026-06-30',
  '2026-02-28',
  '2025-12-31',
  '2026-01-01',
  '1999-12-31',
  '2000-01-01',
  // Leap days, and the century years that have none (1900, 2100) or have one (2000).
  '2024-02-29',
  '2028-02-29',
  '2000-02-29',
  '1900-02-28',
  '1900-03-01',
  '2100-02-28',
  '2100-03-01',
  // Daylight-saving changes: New York, Berlin, Sydney, Lord Howe (half an hour), and Samoa's
  // 2011-12-30, a day its clocks skipped.
  '2026-03-08',
  '2026-11-01',
  '2026-03-29',
  '2026-10-25',
  '2026-04-05',
  '2026-10-04',
  '2011-12-29',
  '2011-12-30',
  '2011-12-31',
  // Four-digit years at both ends: Date.UTC would read 0050 as 1950.
  FIRST,
  '0004-02-29',
  '0050-06-15',
  '0099-12-31',
  '0100-01-01',
  '0999-12-31',
  '9999-12-30',
  LAST,
];

const dayArb = fc.oneof(fc.constantFrom(...EDGES), anyDay(1900, 2100), anyDay(1, 9999));

/** A day and a step from it that stays within years 0001–9999: mostly short, sometimes centuries. */
const dayAndStep = dayArb.chain((d) => {
  const low = ordinal(FIRST) - ordinal(d);
  const high = ordinal(LAST) - ordinal(d);
  const clamp = (n: number) => Math.max(low, Math.min(high, n));
  return fc.tuple(
    fc.constant(d),
    fc.oneof(
      fc.integer({ min: -800, max: 800 }).map(clamp),
      fc.integer({ min: low, max: high }),
      fc.constantFrom(-366, -365, -1, 0, 1, 365, 366).map(clamp),
    ),
  );
});

describe('date-only steps (dateOnly.ts)', () => {
  it('a step there and back returns the day, and the days between are the step', () => {
    fc.assert(
      fc.property(dayAndStep, ([d, n]) => {
        expect(addDays(addDays(d, n), -n)).toBe(d);
        expect(daysBetween(d, addDays(d, n))).toBe(n);
      }),
      { numRuns: 2_000 },
    );
  });

  it('lands on the day the calendar’s rules give, written YYYY-MM-DD with a four-digit year', () => {
    fc.assert(
      fc.property(dayAndStep, ([d, n]) => {
        const to = addDays(d, n);
        expect(to).toMatch(/^\d{4}-\d{2}-\d{2}$/);
        expect(Number(to.slice(8, 10))).toBeLessThanOrEqual(
          monthLength(Number(to.slice(0, 4)), Number(to.slice(5, 7))),
        );
        expect(ordinal(to)).toBe(ordinal(d) + n);
      }),
      { numRuns: 2_000 },
    );
    fc.assert(
      fc.property(dayArb, dayArb, (a, b) => {
        expect(daysBetween(a, b)).toBe(ordinal(b) - ordinal(a));
      }),
    );
  });

  it('steps across month, year and leap-day ends', () => {
    expect(addDays('2026-12-31', 1)).toBe('2027-01-01');
    expect(addDays('2024-02-28', 1)).toBe('2024-02-29');
    expect(addDays('2100-02-28', 1)).toBe('2100-03-01');
    expect(addDays('2024-03-01', -1)).toBe('2024-02-29');
    expect(addDays('0099-12-31', 1)).toBe('0100-01-01');
    expect(daysBetween('2024-02-01', '2024-03-01')).toBe(29);
    expect(daysBetween('2026-03-01', '2026-02-01')).toBe(-28);
  });

  it('reads only the date of a key with a time part', () => {
    expect(addDays('2026-03-08T23:30:00Z', 1)).toBe('2026-03-09');
    expect(daysBetween('2026-03-07', '2026-03-08T01:00')).toBe(1);
    expect(dayStart('2026-03-08T23:30:00Z')).toBe(Date.UTC(2026, 2, 8));
  });

  describe('whatever the device’s time zone', () => {
    const was = process.env.TZ;
    afterEach(() => {
      if (was === undefined) delete process.env.TZ;
      else process.env.TZ = was;
    });

    it('counts a day a zone’s clocks skip or stretch as one day', () => {
      for (const zone of ['America/New_York', 'Europe/Berlin', 'Australia/Lord_Howe', 'Pacific/Apia']) {
        process.env.TZ = zone;
        // Proves the zone took: a step read in the device's local time would go wrong here.
        expect(new Date(Date.UTC(2026, 0, 15)).getTimezoneOffset(), zone).not.toBe(0);
        for (const d of EDGES) {
          // A week on, or back from the last days of year 9999.
          const week = d >= '9999-12' ? -7 : 7;
          if (d !== LAST) expect(ordinal(addDays(d, 1)), `${zone} ${d}`).toBe(ordinal(d) + 1);
          if (d !== FIRST) expect(ordinal(addDays(d, -1)), `${zone} ${d}`).toBe(ordinal(d) - 1);
          expect(daysBetween(d, addDays(d, week)), `${zone} ${d}`).toBe(week);
        }
      }
    });
  });
});
