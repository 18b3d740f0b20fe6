import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { addDays, daysBetween } from './agenda';
import {
  addMonths,
  applyDates,
  dayAtX,
  daysForDx,
  monthGrid,
  moveBy,
  occurrencesIn,
  resizeEnd,
  resizeStart,
  spanOf,
  timelineAxis,
  timelineRange,
  timelineTicks,
  weekDays,
  weekLanes,
  weekStartOf,
  xOfDay,
} from './calendar';
import { spanProblem } from './span';

const day = fc.integer({ min: 0, max: 20_000 }).map((n) => addDays('2000-01-01', n));
const dated = fc
  .tuple(day, fc.option(fc.integer({ min: 0, max: 60 }), { nil: null }))
  .map(([due, len]) => ({ due_date: due, start_date: len === null ? null : addDays(due, -len) }));

describe('grids', () => {
  it('starts weeks on Monday unless told otherwise', () => {
    expect(weekStartOf('2026-11-28')).toBe('2026-11-23'); // a Saturday
    expect(weekStartOf('2026-11-23')).toBe('2026-11-23');
    expect(weekStartOf('2026-11-28', 7)).toBe('2026-11-22');
    expect(weekDays('2026-11-28')).toEqual([
      '2026-11-23',
      '2026-11-24',
      '2026-11-25',
      '2026-11-26',
      '2026-11-27',
      '2026-11-28',
      '2026-11-29',
    ]);
  });

  it('month grid: whole weeks covering the month, across a daylight-saving change', () => {
    const grid = monthGrid('2026-03-15');
    expect(grid[0]![0]).toBe('2026-02-23');
    expect(grid.at(-1)!.at(-1)).toBe('2026-04-05');
    expect(grid).toHaveLength(6);
    expect(monthGrid('2021-02-10')).toHaveLength(4); // Feb 2021 begins on a Monday and has 28 days
    expect(addMonths('2026-12-31', 1)).toBe('2027-01-01');
    expect(addMonths('2026-01-15', -1)).toBe('2025-12-01');
  });

  it('property: a month grid holds every day of its month once, in order, in weeks of seven', () => {
    fc.assert(
      fc.property(day, fc.integer({ min: 1, max: 7 }), (d, ws) => {
        const grid = monthGrid(d, ws as 1);
        const flat = grid.flat();
        expect(grid.every((w) => w.length === 7)).toBe(true);
        expect(grid.length).toBeGreaterThanOrEqual(4);
        expect(grid.length).toBeLessThanOrEqual(6);
        for (let i = 1; i < flat.length; i += 1) expect(daysBetween(flat[i - 1]!, flat[i]!)).toBe(1);
        expect(flat.filter((x) => x.slice(0, 7) === d.slice(0, 7)).length).toBe(
          daysBetween(`${d.slice(0, 7)}-01`, addMonths(d, 1)),
        );
      }),
    );
  });
});

describe('placing items', () => {
  it('an item sits on its due day, or across its span', () => {
    expect(spanOf({ due_date: '2026-11-30' })).toEqual({ start: '2026-11-30', end: '2026-11-30' });
    expect(spanOf({ due_date: '2026-11-30', start_date: '2026-11-27' })).toEqual({
      start: '2026-11-27',
      end: '2026-11-30',
    });
    expect(spanOf({ due_date: null, start_date: '2026-11-27' })).toBeNull();
  });

  it('a repeating item shows on its next occurrences inside the range, span kept', () => {
    const weekly = { id: 1, due_date: '2026-11-02', start_date: '2026-11-01', recurrence: 'FREQ=WEEKLY' };
    const got = occurrencesIn([weekly], '2026-11-01', '2026-11-30').map((o) => [o.start, o.end, o.index]);
    expect(got).toEqual([
      ['2026-11-01', '2026-11-02', 0],
      ['2026-11-08', '2026-11-09', 1],
      ['2026-11-15', '2026-11-16', 2],
      ['2026-11-22', '2026-11-23', 3],
      ['2026-11-29', '2026-11-30', 4],
    ]);
    const counted = { id: 2, due_date: '2026-11-02', recurrence: 'FREQ=DAILY;COUNT=3' };
    expect(occurrencesIn([counted], '2026-11-01', '2026-11-30').map((o) => o.end)).toEqual([
      '2026-11-02',
      '2026-11-03',
      '2026-11-04',
    ]);
    // An item due before the range still brings the occurrences that fall in it.
    expect(
      occurrencesIn(
        [{ id: 3, due_date: '2026-10-01', recurrence: 'FREQ=MONTHLY' }],
        '2026-11-01',
        '2026-11-30',
      ),
    ).toEqual([
      { item: expect.objectContaining({ id: 3 }), start: '2026-11-01', end: '2026-11-01', index: 1 },
    ]);
  });

  it('property: week lanes never overlap and every appearance in the row is laid', () => {
    const items = fc.array(
      fc.tuple(fc.integer({ min: -10, max: 16 }), fc.integer({ min: 0, max: 12 })).map(([s, len]) => ({
        start: addDays('2026-11-23', s),
        end: addDays('2026-11-23', s + len),
      })),
      { maxLength: 25 },
    );
    fc.assert(
      fc.property(items, (spans) => {
        const occ = spans.map((s, i) => ({ item: { id: i, due_date: s.end }, ...s, index: 0 }));
        const days = weekDays('2026-11-23');
        const segs = weekLanes(occ, days);
        expect(segs.length).toBe(occ.filter((o) => o.start <= days[6]! && o.end >= days[0]!).length);
        for (const a of segs)
          for (const b of segs)
            if (a !== b && a.lane === b.lane)
              expect(a.endCol < b.startCol || b.endCol < a.startCol).toBe(true);
        for (const s of segs) {
          expect(s.continuesBefore).toBe(s.start < days[0]!);
          expect(s.continuesAfter).toBe(s.end > days[6]!);
        }
      }),
    );
  });
});

describe('moving and resizing (D10)', () => {
  it('moves both dates, keeping the span', () => {
    expect(moveBy({ due_date: '2026-11-30', start_date: '2026-11-28' }, 1)).toEqual({
      due_date: '2026-12-01',
      start_date: '2026-11-29',
    });
    expect(moveBy({ due_date: '2026-11-30', start_date: null }, -2)).toEqual({ due_date: '2026-11-28' });
    expect(moveBy({ due_date: null }, 1)).toBeNull();
  });

  it('resizes an end or a start, never start after due', () => {
    expect(resizeEnd({ due_date: '2026-11-30' }, '2026-12-02')).toEqual({
      due_date: '2026-12-02',
      start_date: '2026-11-30',
    });
    expect(resizeEnd({ due_date: '2026-11-30', start_date: '2026-11-28' }, '2026-11-01')).toEqual({
      due_date: '2026-11-28',
    });
    expect(resizeStart({ due_date: '2026-11-30', start_date: '2026-11-28' }, '2026-12-05')).toEqual({
      start_date: null,
    });
    expect(resizeStart({ due_date: '2026-11-30' }, '2026-11-25')).toEqual({ start_date: '2026-11-25' });
  });

  it('property: every move, end and start change keeps start ≤ due, and a move keeps the length', () => {
    fc.assert(
      fc.property(dated, fc.integer({ min: -400, max: 400 }), day, (item, n, target) => {
        const len = daysBetween(item.start_date ?? item.due_date, item.due_date);
        const moved = applyDates(item, moveBy(item, n) ?? {});
        expect(daysBetween(moved.start_date ?? moved.due_date, moved.due_date)).toBe(len);
        expect(daysBetween(item.due_date, moved.due_date)).toBe(n);
        for (const patch of [resizeEnd(item, target), resizeStart(item, target)]) {
          const next = applyDates(item, patch ?? {});
          expect(spanProblem(next.start_date, next.due_date)).toBeNull();
        }
      }),
    );
  });
});

describe('timeline scale', () => {
  it('property: date → x → date round-trips on every scale', () => {
    fc.assert(
      fc.property(
        day,
        day,
        fc.constantFrom('day', 'week', 'month') as fc.Arbitrary<'day'>,
        (origin, d, scale) => {
          const axis = timelineAxis(origin, scale);
          expect(dayAtX(axis, xOfDay(axis, d))).toBe(d);
          expect(dayAtX(axis, xOfDay(axis, d) + axis.dayWidth - 0.5)).toBe(d);
          expect(daysForDx(axis, xOfDay(axis, d) - xOfDay(axis, origin))).toBe(daysBetween(origin, d));
        },
      ),
    );
  });

  it('range covers the spans and today; ticks by unit', () => {
    const r = timelineRange([{ start: '2026-11-10', end: '2026-12-20' }], '2026-11-28', 'month');
    expect(r).toEqual({ from: '2026-10-01', through: '2027-01-31' });
    const ticks = timelineTicks(r.from, r.through, 'month');
    expect(ticks.map((t) => t.label)).toEqual(['Oct', 'Nov', 'Dec', 'Jan 2027']);
    expect(timelineTicks('2026-11-23', '2026-12-14', 'week').map((t) => t.label)).toEqual([
      '23',
      '30',
      'Dec 7',
      '14',
    ]);
    expect(timelineTicks('2026-11-29', '2026-11-30', 'day')).toEqual([
      { day: '2026-11-29', label: '29', major: false },
      { day: '2026-11-30', label: '30', major: true },
    ]);
  });
});
