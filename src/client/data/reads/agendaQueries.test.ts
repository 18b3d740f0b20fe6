import Dexie from 'dexie';
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { localItem } from '../../../../testkit/client/items';
import { addDays, todayList, UPCOMING_DAYS, upcomingBuckets } from '../../../shared/agenda';
import { AGENDA_INDEX, OutpostDb } from '../store/db';
import type { LocalItem, Viewer } from '../store/types';
import { todayCounts, todayItems, todayPage, upcomingItems, upcomingPage } from './agendaQueries';

let dbs = 0;
const freshDb = (indexedDB = new IDBFactory(), name = `agenda-${++dbs}`) =>
  new OutpostDb(name, { indexedDB, IDBKeyRange });

const TODAY = '2026-11-25';
const ME: Viewer = { userId: 1, isGuest: false };
const GUEST: Viewer = { userId: 0, isGuest: true };

/** A synced item of user 1 due `offset` days from TODAY (undated for null). */
function due(id: number, offset: number | null, extra: Partial<LocalItem> = {}): LocalItem {
  return localItem(id, `Item ${id}`, { due_date: offset === null ? null : addDays(TODAY, offset), ...extra });
}

const ids = (rows: readonly { id: number }[]) => rows.map((r) => r.id);

describe('Today and Upcoming on the device', () => {
  it("lists the viewer's open items overdue or due today, overdue first, then by priority and due date", async () => {
    const db = freshDb();
    await db.items.bulkPut([
      due(1, 0),
      due(2, 0, { priority: 1 }),
      due(3, -1),
      due(4, -5),
      due(5, -1, { priority: 2 }),
      due(6, 0, { status: 'in_progress' }),
      // Assigned to the viewer by someone else: theirs too.
      due(7, -2, { user_id: 9, assigned_to: 1 }),
      // Left out: tomorrow, undated, completed, marked deleted, someone else's, the guest's.
      due(20, 1),
      due(21, null),
      due(22, -3, { status: 'completed', completed_at: '2026-11-20T00:00:00.000Z' }),
      due(23, 0, { _deleted: 1 }),
      due(24, -1, { user_id: 9 }),
      due(25, 0, { _syncStatus: 'local', user_id: 0 }),
    ]);
    expect(ids(await todayItems(db, ME, TODAY))).toEqual([5, 4, 7, 3, 2, 1, 6]);
    expect(await todayCounts(db, ME, TODAY)).toEqual({ overdue: 4, today: 3 });
    // The guest sees only the guest's data.
    expect(ids(await todayItems(db, GUEST, TODAY))).toEqual([25]);
  });

  it('reads the agenda index: completing, deleting or re-dating an item moves it in or out', async () => {
    const db = freshDb();
    await db.items.bulkPut([due(1, -1), due(2, 0), due(3, 4)]);
    expect(
      await db.items
        .where(AGENDA_INDEX.mine)
        .between(['a', 1, 4, Dexie.minKey, Dexie.minKey], ['a', 1, 4, TODAY, Dexie.maxKey], true, true)
        .primaryKeys(),
    ).toEqual([1, 2]);
    await db.items.update(1, { status: 'completed', completed_at: '2026-11-25T08:00:00.000Z' });
    await db.items.update(2, { _deleted: 1 });
    await db.items.update(3, { due_date: TODAY });
    expect(ids(await todayItems(db, ME, TODAY))).toEqual([3]);
    const stored = await db.items.bulkGet([1, 2, 3]);
    expect(stored.map((r) => r?._due)).toEqual([undefined, undefined, TODAY]);
    expect(stored.map((r) => r?._pri)).toEqual([undefined, undefined, 4]);
    // Reopened, it is back.
    await db.items.update(1, { status: 'pending', completed_at: null });
    expect(ids(await todayItems(db, ME, TODAY))).toEqual([1, 3]);
  });

  it('buckets the next 14 days with overdue on top, every open item once', async () => {
    const db = freshDb();
    await db.items.bulkPut([
      due(1, -3),
      due(2, 0),
      due(3, 1, { priority: 3 }),
      due(4, 1, { priority: 1 }),
      due(5, 13),
      due(6, 14),
      due(7, 1, { status: 'completed', completed_at: '2026-11-24T00:00:00.000Z' }),
    ]);
    const buckets = await upcomingItems(db, ME, TODAY, UPCOMING_DAYS);
    expect(buckets.map((b) => b.key)).toEqual([
      'overdue',
      ...Array.from({ length: UPCOMING_DAYS }, (_, i) => addDays(TODAY, i)),
    ]);
    expect(buckets.map((b) => ids(b.items)).filter((b) => b.length > 0)).toEqual([[1], [2], [4, 3], [5]]);
  });

  it("I8: reads a page of each group and counts the rest, exactly the shared rules' rows and counts", async () => {
    const day = fc.integer({ min: -20, max: 15 });
    const row = fc.record({
      offset: day,
      priority: fc.constantFrom(1, 2, 3, 4, undefined),
      // Few keys and uuids, so ties (equal keys, equal uuids, none at all) are common.
      key: fc.constantFrom(undefined, 'a0', 'a0', 'a0V', 'a1', 'Zz'),
      uuid: fc.constantFrom(null, 'u1', 'u2', 'u3'),
      owner: fc.constantFrom('mine', 'assigned', 'other'),
      status: fc.constantFrom('pending', 'in_progress', 'completed'),
    });
    await fc.assert(
      fc.asyncProperty(
        fc.array(row, { maxLength: 30 }),
        fc.integer({ min: 0, max: 12 }),
        async (rows, limit) => {
          const db = freshDb();
          const stored = rows.map((r, i) =>
            due(i + 1, r.offset, {
              ...(r.priority === undefined ? {} : { priority: r.priority }),
              // Equal keys and uuids: the id breaks the tie, as in the whole list's order.
              ...(r.key === undefined ? {} : { sort_key: r.key }),
              uuid: r.uuid,
              status: r.status as LocalItem['status'],
              ...(r.owner === 'assigned' ? { user_id: 9, assigned_to: 1 } : {}),
              ...(r.owner === 'other' ? { user_id: 9, assigned_to: 8 } : {}),
            }),
          );
          await db.items.bulkPut(stored);
          // The oracle: the shared rules over every open row of the viewer's, in memory.
          const viewers = stored.filter(
            (i) => i.status !== 'completed' && (i.user_id === 1 || i.assigned_to === 1),
          );
          const whole = todayList(viewers, TODAY);
          const page = await todayPage(db, ME, TODAY, { overdue: limit, today: limit });
          const overdue = whole.filter((i) => (i.due_date ?? '') < TODAY);
          const dueToday = whole.filter((i) => i.due_date === TODAY);
          expect(ids(page.overdue.items)).toEqual(ids(overdue.slice(0, limit)));
          expect(ids(page.today.items)).toEqual(ids(dueToday.slice(0, limit)));
          expect([page.overdue.count, page.today.count]).toEqual([overdue.length, dueToday.length]);
          expect(await todayCounts(db, ME, TODAY)).toEqual({
            overdue: overdue.length,
            today: dueToday.length,
          });
          const all = upcomingBuckets(viewers, TODAY, UPCOMING_DAYS);
          const paged = await upcomingPage(db, ME, TODAY, UPCOMING_DAYS, limit);
          expect(paged.map((g) => [g.key, g.count, ids(g.items)])).toEqual(
            all.map((g) => [g.key, g.items.length, ids(g.items.slice(0, limit))]),
          );
          db.close();
        },
      ),
      { numRuns: 15 },
    );
  });

  it('O6: lists a day by priority, then manual order (sort_key, uuid), not by creation time', async () => {
    const db = freshDb();
    await db.items.bulkPut([
      due(1, 0, { sort_key: 'a2', created_at: '2026-11-01T00:00:00.000Z' }),
      due(2, 0, { sort_key: 'a1', created_at: '2026-11-02T00:00:00.000Z' }),
      due(3, 0, { priority: 1, sort_key: 'a9' }),
      // The same key as item 2: the uuid breaks the tie (none reads as '', first).
      due(4, 0, { sort_key: 'a1', uuid: '0000' }),
      // Stored before sort_key: first among its priority, still indexed.
      due(5, 0),
      due(6, 2, { sort_key: 'a0' }),
      due(7, 2, { sort_key: '' }),
    ]);
    expect(ids(await todayItems(db, ME, TODAY))).toEqual([3, 5, 2, 4, 1]);
    await db.items.update(1, { sort_key: 'a0' });
    expect(ids(await todayItems(db, ME, TODAY))).toEqual([3, 5, 1, 2, 4]);
    const day = (await upcomingItems(db, ME, TODAY, UPCOMING_DAYS)).find((g) => g.day === addDays(TODAY, 2));
    expect(ids(day?.items ?? [])).toEqual([7, 6]);
  });

  it('gives the rows of version 11 their manual-order key when the database opens', async () => {
    const indexedDB = new IDBFactory();
    const old = new Dexie('agenda-v11', { indexedDB, IDBKeyRange });
    old.version(11).stores({ items: 'id, [_scope+user_id+_pri+_due+created_at]' });
    await old.table('items').bulkPut([
      { ...due(1, 0, { sort_key: 'a5' }), _scope: 'a', _due: TODAY, _pri: 4 },
      { ...due(2, 0, { sort_key: 'a1' }), _scope: 'a', _due: TODAY, _pri: 4 },
    ]);
    old.close();
    const db = freshDb(indexedDB, 'agenda-v11');
    expect(ids(await todayItems(db, ME, TODAY))).toEqual([2, 1]);
    expect((await db.items.get(2))?._ord).toBe('a1 ');
  });

  it('gives the rows stored before the index their due day when the database opens', async () => {
    const indexedDB = new IDBFactory();
    const old = new Dexie('agenda-upgrade', { indexedDB, IDBKeyRange });
    old.version(8).stores({ items: 'id' });
    await old.table('items').bulkPut([due(1, -2), due(2, 0)]);
    old.close();
    const db = freshDb(indexedDB, 'agenda-upgrade');
    expect(ids(await todayItems(db, ME, TODAY))).toEqual([1, 2]);
    expect((await db.items.get(1))?._due).toBe(addDays(TODAY, -2));
    expect((await db.items.get(1))?._pri).toBe(4);
  });
});
