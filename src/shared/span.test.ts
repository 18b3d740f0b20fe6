import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { addDays, daysBetween } from './agenda';
import { parseImport } from './importExport';
import { planUpdate } from './itemUpdate';
import { nextOccurrence } from './recurrence';
import { spanProblem } from './span';

const day = fc
  .date({ min: new Date('2020-01-01T00:00:00Z'), max: new Date('2040-12-31T00:00:00Z'), noInvalidDate: true })
  .map((d) => d.toISOString().slice(0, 10));

describe('an item’s span (D10)', () => {
  it('D10: a start after the due date is the one problem; either date alone is fine', () => {
    expect(spanProblem('2031-05-10', '2031-05-09')).toBe('The start date must be on or before the due date.');
    expect(spanProblem('2031-05-09', '2031-05-09')).toBeNull();
    expect(spanProblem(null, '2031-05-09')).toBeNull();
    expect(spanProblem('2031-05-09', null)).toBeNull();
    fc.assert(
      fc.property(day, day, (a, b) => {
        expect(spanProblem(a, b) === null).toBe(a <= b);
      }),
    );
  });

  it('D10: a PATCH is judged by the dates as they will be, only when it moves one of them', () => {
    const stored = {
      id: 1,
      type: 'task' as const,
      parent_id: null,
      status: 'pending' as const,
      completed_at: null,
      start_date: '2031-05-05',
      due_date: '2031-05-09',
    };
    expect(planUpdate(stored, { due_date: '2031-05-04' }).spanProblem).toMatch(/on or before/);
    expect(planUpdate(stored, { start_date: '2031-05-10' }).spanProblem).toMatch(/on or before/);
    expect(planUpdate(stored, { start_date: '2031-05-10', due_date: '2031-05-12' }).spanProblem).toBeNull();
    expect(planUpdate(stored, { title: 'x' }).spanProblem).toBeNull();
  });

  it('shifts a day and counts days back, over month and leap-year ends', () => {
    expect(addDays('2032-02-28', 1)).toBe('2032-02-29');
    expect(addDays('2031-03-01', -1)).toBe('2031-02-28');
    fc.assert(
      fc.property(day, fc.integer({ min: -800, max: 800 }), (d, n) => {
        expect(daysBetween(d, addDays(d, n))).toBe(n);
      }),
    );
  });

  it('D10: a next occurrence keeps the span, its start moved with its due date', () => {
    const next = nextOccurrence({
      title: 'Water the plants',
      uuid: '0b7e5a3c-1f8d-4c1b-9a3e-2d6f8c4b7a10',
      series_uuid: null,
      type: 'todo',
      due_date: '2031-05-09',
      start_date: '2031-05-07',
      remind_at: null,
      recurrence: 'FREQ=WEEKLY',
      estimate_minutes: 30,
    });
    expect(next).toMatchObject({ due_date: '2031-05-16', start_date: '2031-05-14', estimate_minutes: 30 });
  });

  it('D10: an import leaves out a start after the due date, with a warning, and keeps the item', () => {
    const csv = 'title,type,due_date,start_date,estimate_minutes\nFence,todo,2031-05-09,2031-05-10,90\n';
    const plan = parseImport(csv, { fileName: 'items.csv', userId: 5 });
    expect(plan.items[0]).toMatchObject({
      title: 'Fence',
      due_date: '2031-05-09',
      start_date: null,
      estimate_minutes: 90,
    });
    expect(plan.warnings.map((w) => w.reason)).toEqual([
      expect.stringMatching(/start date 2031-05-10 is after/),
    ]);
  });
});
