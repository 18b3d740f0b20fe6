import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { localItem } from '../../../../testkit/client/items';
import { addDays } from '../../../shared/agenda';
import { occurrencesIn } from '../../../shared/calendar';
import { OutpostDb } from '../store/db';
import { SPAN_REACH } from '../store/listKeys';
import type { LocalItem, Viewer } from '../store/types';
import { calendarItems, timelineGroups } from './calendarQueries';

let dbs = 0;
const freshDb = () => new OutpostDb(`calendar-${++dbs}`, { indexedDB: new IDBFactory(), IDBKeyRange });

const BASE = '2026-11-01';
const ME: Viewer = { userId: 1, isGuest: false };
const GUEST: Viewer = { userId: 0, isGuest: true };
const ids = (rows: readonly { id: number }[]) => rows.map((r) => r.id).sort((a, b) => a - b);

describe('calendar reads by range', () => {
  it('reads what is due in the range and what spans or repeats into it, nothing completed or foreign', async () => {
    const db = freshDb();
    await db.items.bulkPut([
      localItem(1, 'due in range', { due_date: '2026-11-10' }),
      localItem(2, 'spans in from later', { due_date: '2026-12-05', start_date: '2026-11-20' }),
      localItem(3, 'repeats from before', { due_date: '2026-10-01', recurrence: 'FREQ=WEEKLY' }),
      localItem(4, 'after', { due_date: '2026-12-10' }),
      localItem(5, 'done', {
        due_date: '2026-11-10',
        status: 'completed',
        completed_at: '2026-11-09T00:00:00Z',
      }),
      localItem(6, 'someone else', { due_date: '2026-11-10', user_id: 9 }),
      localItem(7, 'assigned to me', { due_date: '2026-11-12', user_id: 9, assigned_to: 1 }),
      localItem(8, 'guest', { due_date: '2026-11-12', user_id: 0, _syncStatus: 'local' }),
    ]);
    expect(ids(await calendarItems(db, ME, '2026-11-01', '2026-11-30'))).toEqual([1, 2, 3, 7]);
    expect(ids(await calendarItems(db, GUEST, '2026-11-01', '2026-11-30'))).toEqual([8]);
  });

  it('reads a span by how far it reaches: one ending on the first day is in, one ending the day before is out', async () => {
    const db = freshDb();
    const from = '2026-11-01';
    const rows = SPAN_REACH.flatMap((reach, i) => [
      localItem(10 * i + 1, `reaches in, ${reach}`, {
        start_date: addDays(from, -reach),
        due_date: from,
      }),
      localItem(10 * i + 2, `ends before, ${reach}`, {
        start_date: addDays(from, -reach - 1),
        due_date: addDays(from, -1),
      }),
    ]);
    rows.push(
      localItem(100, 'twenty years', { start_date: '2006-11-01', due_date: '2026-11-30' }),
      localItem(101, 'twenty years, over', { start_date: '2006-10-01', due_date: '2026-10-30' }),
    );
    await db.items.bulkPut(rows);
    const shown = occurrencesIn(await calendarItems(db, ME, from, '2026-11-30'), from, '2026-11-30');
    expect(shown.map((o) => o.item.id).sort((a, b) => a - b)).toEqual([1, 11, 21, 31, 41, 51, 100]);
  });

  it('property: places exactly what a full scan places', async () => {
    const row = fc.record({
      due: fc.option(fc.integer({ min: -60, max: 90 }), { nil: null }),
      // Short spans, and long ones of every reach (listKeys.ts SPAN_REACH) and past the last.
      len: fc.option(fc.oneof(fc.integer({ min: 0, max: 40 }), fc.integer({ min: 1, max: 5_000 })), {
        nil: null,
      }),
      repeat: fc.constantFrom(null, 'FREQ=WEEKLY', 'FREQ=DAILY;COUNT=4'),
      done: fc.boolean(),
    });
    await fc.assert(
      fc.asyncProperty(
        fc.array(row, { maxLength: 30 }),
        fc.integer({ min: 0, max: 60 }),
        async (rows, at) => {
          const db = freshDb();
          const items: LocalItem[] = rows.map((r, i) =>
            localItem(i + 1, `Item ${i + 1}`, {
              due_date: r.due === null ? null : addDays(BASE, r.due),
              start_date: r.due === null || r.len === null ? null : addDays(BASE, r.due - r.len),
              recurrence: r.due === null ? null : r.repeat,
              ...(r.done ? { status: 'completed' as const, completed_at: '2026-11-01T00:00:00Z' } : {}),
            }),
          );
          await db.items.bulkPut(items);
          const from = addDays(BASE, at);
          const through = addDays(from, 41);
          const key = (o: { item: { id: number }; start: string; index: number }) =>
            `${o.item.id}:${o.start}:${o.index}`;
          const expected = occurrencesIn(
            items.filter((i) => i.status !== 'completed'),
            from,
            through,
          ).map(key);
          const got = occurrencesIn(await calendarItems(db, ME, from, through), from, through).map(key);
          expect(got.sort()).toEqual(expected.sort());
          db.close();
        },
      ),
      { numRuns: 25 },
    );
  });

  it('timeline: a campaign and its live tasks, or every campaign and then the tasks in none', async () => {
    const db = freshDb();
    await db.items.bulkPut([
      localItem(1, 'Launch', { type: 'campaign' }),
      localItem(2, 'Design', { type: 'task', parent_id: 1, due_date: '2026-11-10' }),
      localItem(3, 'Gone', { type: 'task', parent_id: 1, _deleted: 1 }),
      localItem(4, 'A todo', { type: 'todo', parent_id: 1 }),
      localItem(5, 'Other', { type: 'campaign' }),
      localItem(6, 'Build', { type: 'task', parent_id: 5 }),
      localItem(7, 'Standalone', { type: 'task', parent_id: null, due_date: '2026-11-12' }),
      localItem(8, 'Standalone gone', { type: 'task', parent_id: null, _deleted: 1 }),
      localItem(9, 'A guest’s', { type: 'task', parent_id: null, user_id: 0, _syncStatus: 'local' }),
    ]);
    const one = await timelineGroups(db, ME, 1);
    expect(one.map((g) => [g.campaign?.id, ids(g.tasks)])).toEqual([[1, [2]]]);
    const all = await timelineGroups(db, ME, null);
    expect(all.map((g) => [g.campaign?.id ?? null, ids(g.tasks)])).toEqual([
      [1, [2]],
      [5, [6]],
      [null, [7]],
    ]);
    expect(await timelineGroups(db, ME, 2)).toEqual([]);
    expect(await timelineGroups(db, GUEST, 1)).toEqual([]);
    const guests = await timelineGroups(db, GUEST, null);
    expect(guests.map((g) => [g.campaign?.id ?? null, ids(g.tasks)])).toEqual([[null, [9]]]);
  });
});
