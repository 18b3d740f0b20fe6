import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  type AgendaItem,
  addDays,
  compareToday,
  dayHeading,
  dayKey,
  daysBetween,
  daysOverdue,
  nextWeek,
  overdueText,
  todayCounts,
  todayList,
  UPCOMING_DAYS,
  upcomingBuckets,
  upcomingDays,
} from './agenda';

const item = (id: number, due_date: string | null, priority?: number, sort_key?: string) =>
  ({
    id,
    due_date,
    ...(priority === undefined ? {} : { priority }),
    ...(sort_key === undefined ? {} : { sort_key }),
  }) satisfies AgendaItem;

/** A day from 2024 to 2030, as a key. */
const dayArb = fc
  .integer({ min: Date.UTC(2024, 0, 1), max: Date.UTC(2030, 11, 31) })
  .map((ms) => new Date(ms).toISOString().slice(0, 10));

const itemsArb = (today: string) =>
  fc
    .array(
      fc.record({
        offset: fc.option(fc.integer({ min: -40, max: 40 }), { nil: null }),
        priority: fc.option(fc.integer({ min: 1, max: 4 }), { nil: undefined }),
        key: fc.option(fc.constantFrom('a0', 'a1', 'a1V', 'a2'), { nil: undefined }),
      }),
      { maxLength: 60 },
    )
    .map((rows) =>
      rows.map((r, i) => item(i + 1, r.offset === null ? null : addDays(today, r.offset), r.priority, r.key)),
    );

describe('day keys', () => {
  it('steps across month, year and leap-day ends', () => {
    expect(addDays('2026-11-30', 1)).toBe('2026-12-01');
    expect(addDays('2026-12-31', 1)).toBe('2027-01-01');
    expect(addDays('2028-02-28', 1)).toBe('2028-02-29');
    expect(addDays('2026-03-01', -1)).toBe('2026-02-28');
    expect(daysBetween('2026-11-22', '2026-11-25')).toBe(3);
  });

  it('reads the calendar day of an instant in a zone, one day per day across both DST changes', () => {
    for (const [zone, start] of [
      ['America/New_York', Date.UTC(2026, 2, 6, 17)],
      ['America/New_York', Date.UTC(2026, 9, 30, 16)],
      ['Europe/Berlin', Date.UTC(2026, 2, 27, 11)],
      ['Europe/Berlin', Date.UTC(2026, 9, 23, 10)],
    ] as const) {
      // Noon-ish local time, 24 hours apart: a 23- or 25-hour day in between must not skip or repeat.
      const keys = Array.from({ length: 5 }, (_, i) => dayKey(new Date(start + i * 86_400_000), zone));
      for (let i = 1; i < keys.length; i++) expect(daysBetween(keys[i - 1]!, keys[i]!), zone).toBe(1);
    }
    expect(dayKey(new Date(Date.UTC(2026, 10, 25, 3)), 'America/New_York')).toBe('2026-11-24');
  });

  it("gives 'Next week' as the coming Monday, a week on from a Monday", () => {
    expect(nextWeek('2026-11-25')).toBe('2026-11-30'); // Wednesday
    expect(nextWeek('2026-11-29')).toBe('2026-11-30'); // Sunday
    expect(nextWeek('2026-11-30')).toBe('2026-12-07'); // Monday
    fc.assert(
      fc.property(dayArb, (today) => {
        const next = nextWeek(today);
        const gap = daysBetween(today, next);
        return gap >= 1 && gap <= 7 && new Date(`${next}T00:00:00Z`).getUTCDay() === 1;
      }),
    );
  });
});

describe('Today', () => {
  const today = '2026-11-25';

  it('puts overdue first (longest overdue first), then by priority, then by due date', () => {
    const items = [
      item(1, '2026-11-25', 4),
      item(2, '2026-11-25', 1),
      item(3, '2026-11-24', 4),
      item(4, '2026-11-20', 4),
      item(5, '2026-11-24', 2),
      item(6, '2026-11-26', 1),
      item(7, null, 1),
      item(8, '2026-11-25'),
    ];
    expect(todayList(items, today).map((i) => i.id)).toEqual([5, 4, 3, 2, 1, 8]);
  });

  it('says how late an item is', () => {
    expect(daysOverdue(item(1, '2026-11-22'), today)).toBe(3);
    expect(daysOverdue(item(1, '2026-11-25'), today)).toBe(0);
    expect(daysOverdue(item(1, '2026-12-25'), today)).toBe(0);
    expect(daysOverdue(item(1, null), today)).toBe(0);
    expect(overdueText(1)).toBe('1 day overdue');
    expect(overdueText(3)).toBe('3 days overdue');
  });

  it('keeps exactly the items due on or before today, in an order that is total', () => {
    fc.assert(
      fc.property(
        dayArb.chain((d) => fc.tuple(fc.constant(d), itemsArb(d))),
        ([day, items]) => {
          const list = todayList(items, day);
          const due = items.filter((i) => i.due_date !== null && i.due_date <= day);
          expect(new Set(list.map((i) => i.id))).toEqual(new Set(due.map((i) => i.id)));
          const compare = compareToday(day);
          for (let i = 1; i < list.length; i++) expect(compare(list[i - 1]!, list[i]!)).toBeLessThan(0);
          // Every overdue item comes before every item due today.
          const firstToday = list.findIndex((i) => i.due_date === day);
          if (firstToday !== -1) expect(list.slice(firstToday).every((i) => i.due_date === day)).toBe(true);
          const counts = todayCounts(items, day);
          expect(counts.overdue + counts.today).toBe(list.length);
        },
      ),
    );
  });
});

describe('Upcoming', () => {
  it("heads the days 'Today', 'Tomorrow', then 'Wed 2 Dec'", () => {
    const days = upcomingDays('2026-11-30');
    expect(days.map((d) => dayHeading(d, '2026-11-30')).slice(0, 4)).toEqual([
      'Today',
      'Tomorrow',
      'Wed 2 Dec',
      'Thu 3 Dec',
    ]);
  });

  it('gives 14 consecutive days from any day, DST weeks included', () => {
    for (const today of ['2026-03-08', '2026-03-29', '2026-10-25', '2026-11-01', '2026-12-25']) {
      const days = upcomingDays(today);
      expect(days).toHaveLength(UPCOMING_DAYS);
      expect(new Set(days.map((d) => dayHeading(d, today))).size).toBe(UPCOMING_DAYS);
      expect(days.map((d) => daysBetween(today, d))).toEqual([...days.keys()]);
    }
    fc.assert(
      fc.property(dayArb, (today) => {
        const buckets = upcomingBuckets([], today);
        return buckets.length === UPCOMING_DAYS && buckets.every((b, i) => b.day === addDays(today, i));
      }),
    );
  });

  it('puts every item due up to the last day in exactly one bucket, overdue on top', () => {
    fc.assert(
      fc.property(
        dayArb.chain((d) => fc.tuple(fc.constant(d), itemsArb(d))),
        ([today, items]) => {
          const buckets = upcomingBuckets(items, today);
          const last = addDays(today, UPCOMING_DAYS - 1);
          const placed = buckets.flatMap((b) => b.items.map((i) => i.id));
          const expected = items.filter((i) => i.due_date !== null && i.due_date <= last).map((i) => i.id);
          expect(placed.sort((a, b) => a - b)).toEqual(expected.sort((a, b) => a - b));
          const hasOverdue = items.some((i) => i.due_date !== null && i.due_date < today);
          expect(buckets[0]?.key === 'overdue').toBe(hasOverdue);
          expect(buckets.length).toBe(UPCOMING_DAYS + (hasOverdue ? 1 : 0));
          for (const b of buckets) {
            if (b.day !== null) expect(b.items.every((i) => i.due_date === b.day)).toBe(true);
            else expect(b.items.every((i) => i.due_date! < today)).toBe(true);
            for (let i = 1; i < b.items.length; i++) {
              const [p, q] = [b.items[i - 1]!, b.items[i]!];
              if (b.day !== null) expect((p.priority ?? 4) <= (q.priority ?? 4)).toBe(true);
              else expect(p.due_date! <= q.due_date!).toBe(true);
            }
          }
        },
      ),
    );
  });
});
