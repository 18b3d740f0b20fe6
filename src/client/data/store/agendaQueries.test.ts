import Dexie from 'dexie';
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { describe, expect, it } from 'vitest';
import { localItem } from '../../../../testkit/client/items';
import { addDays, UPCOMING_DAYS } from '../../../shared/agenda';
import { todayCounts, todayItems, upcomingItems } from './agendaQueries';
import { DUE_INDEX, OutpostDb } from './db';
import type { LocalItem, Viewer } from './types';

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

  it('reads the due-day index: completing, deleting or re-dating an item moves it in or out', async () => {
    const db = freshDb();
    await db.items.bulkPut([due(1, -1), due(2, 0), due(3, 4)]);
    expect(
      await db.items.where(DUE_INDEX).between(['a', Dexie.minKey], ['a', TODAY], true, true).primaryKeys(),
    ).toEqual([1, 2]);
    await db.items.update(1, { status: 'completed', completed_at: '2026-11-25T08:00:00.000Z' });
    await db.items.update(2, { _deleted: 1 });
    await db.items.update(3, { due_date: TODAY });
    expect(ids(await todayItems(db, ME, TODAY))).toEqual([3]);
    const stored = await db.items.bulkGet([1, 2, 3]);
    expect(stored.map((r) => r?._due)).toEqual([undefined, undefined, TODAY]);
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

  it('gives the rows stored before the index their due day when the database opens', async () => {
    const indexedDB = new IDBFactory();
    const old = new Dexie('agenda-upgrade', { indexedDB, IDBKeyRange });
    old.version(8).stores({ items: 'id' });
    await old.table('items').bulkPut([due(1, -2), due(2, 0)]);
    old.close();
    const db = freshDb(indexedDB, 'agenda-upgrade');
    expect(ids(await todayItems(db, ME, TODAY))).toEqual([1, 2]);
    expect((await db.items.get(1))?._due).toBe(addDays(TODAY, -2));
  });
});
