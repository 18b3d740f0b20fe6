import { describe, expect, it } from 'vitest';
import { askedDates, changeForKey, planEnd, planStart, spanWords } from './dateKeys';

const todo = { due_date: '2026-11-30', start_date: null };
const span = { due_date: '2026-12-02', start_date: '2026-11-30' };

describe('what a key does to a focused item', () => {
  it('arrows move a day (or a week up and down), Shift moves the end, words say where it went', () => {
    expect(changeForKey(todo, 'ArrowRight', false)).toEqual({
      patch: { due_date: '2026-12-01' },
      words: 'Moved to Tue 1 Dec',
    });
    expect(changeForKey(span, 'ArrowUp', false)).toEqual({
      patch: { due_date: '2026-11-25', start_date: '2026-11-23' },
      words: 'Moved to Mon 23 Nov to Wed 25 Nov',
    });
    expect(changeForKey(span, 'ArrowDown', false, false)).toBeNull();
    expect(changeForKey(todo, 'ArrowRight', true)).toEqual({
      patch: { due_date: '2026-12-01', start_date: '2026-11-30' },
      words: 'Now Mon 30 Nov to Tue 1 Dec',
    });
    // A one-day item's end cannot go before its start: the key is taken, nothing changes.
    expect(changeForKey(todo, 'ArrowLeft', true)).toBe('ignore');
    expect(changeForKey(todo, 'a', false)).toBeNull();
  });

  it('handles keep start ≤ due', () => {
    expect(planEnd(span, '2026-11-01')).toEqual({
      patch: { due_date: '2026-11-30' },
      words: 'Now Mon 30 Nov',
    });
    expect(planStart(span, '2026-12-02')).toEqual({ patch: { start_date: null }, words: 'Now Wed 2 Dec' });
    expect(spanWords({ due_date: null })).toBe('no date');
  });
});

describe('what keys asked for while their writes are out', () => {
  const item = { id: 7, due_date: '2026-12-02', start_date: '2026-11-30' };

  it('builds the next key on the dates last asked for, until no write is out and the row shows them', () => {
    const asked = askedDates();
    asked.ask(asked.from(item), { due_date: '2026-12-03', start_date: '2026-12-01' });
    asked.ask(asked.from(item), { due_date: '2026-12-04', start_date: '2026-12-02' });
    expect(asked.from(item)).toEqual({ id: 7, due_date: '2026-12-04', start_date: '2026-12-02' });
    asked.done(7, true);
    // One write still out: the row showing the first is no reason to forget the second.
    asked.settle(7, { due_date: '2026-12-03', start_date: '2026-12-01' });
    expect(asked.from(item).due_date).toBe('2026-12-04');
    asked.done(7, true);
    asked.settle(7, { due_date: '2026-12-03', start_date: '2026-12-01' });
    expect(asked.ids()).toEqual([7]);
    asked.settle(7, { due_date: '2026-12-04T00:00:00.000Z', start_date: '2026-12-02' });
    expect(asked.ids()).toEqual([]);
    expect(asked.from(item)).toBe(item);
  });

  it('forgets what was asked when a write is refused, so the next key starts from the stored dates', () => {
    const asked = askedDates();
    asked.ask(asked.from(item), { due_date: '2026-12-03' });
    asked.done(7, false);
    expect(asked.from(item)).toBe(item);
  });
});
