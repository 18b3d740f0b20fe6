import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { localItem } from '../../../../testkit/client/items';
import { OutpostDb } from '../store/db';
import type { LocalComment, LocalItem, Viewer } from '../store/types';
import { savedViews } from './savedViewList';
import { viewItems } from './viewQueries';

let dbs = 0;
const freshDb = () => new OutpostDb(`views-${++dbs}`, { indexedDB: new IDBFactory(), IDBKeyRange });

const TODAY = '2026-11-25';
const ME: Viewer = { userId: 1, isGuest: false };
const ids = (rows: readonly { id: number }[]) => rows.map((r) => r.id);
const item = (id: number, title: string, extra: Partial<LocalItem> = {}) => localItem(id, title, extra);

describe('saved views on the device', () => {
  it('lists the items of the viewer’s scope a query matches, in the view’s order, leaving out deleted ones', async () => {
    const db = freshDb();
    await db.items.bulkPut([
      item(1, 'Launch', { type: 'campaign' }),
      item(2, 'Book the hall', { type: 'task', parent_id: 1, priority: 1, due_date: '2026-11-30' }),
      item(3, 'Print flyers', {
        type: 'task',
        parent_id: 1,
        priority: 2,
        due_date: '2026-11-26',
        labels: ['print'],
      }),
      item(4, 'Water plants', { type: 'task', priority: 1, due_date: '2026-11-20' }),
      item(5, 'Gone', { type: 'task', parent_id: 1, priority: 1, _deleted: 1 }),
    ]);
    const launch = await viewItems(db, ME, '#Launch & type: task', TODAY, 'due');
    expect(launch.ok && ids(launch.items)).toEqual([3, 2]);
    const urgent = await viewItems(db, ME, 'p1', TODAY, 'title');
    expect(urgent.ok && ids(urgent.items)).toEqual([2, 4]);
    const soon = await viewItems(db, ME, 'due before: in 3 days & !overdue', TODAY, 'priority');
    expect(soon.ok && ids(soon.items)).toEqual([3]);
    expect(await viewItems(db, ME, '+print', TODAY, 'due')).toMatchObject({ ok: true, total: 1 });
  });

  it('a malformed query answers its error with the column, as the server does', async () => {
    const db = freshDb();
    const result = await viewItems(db, ME, 'p1 & due before:', TODAY, 'due');
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error.message).toMatch(/^Expected a date .* at 17$/);
  });

  it('search: and has: comments read the device’s comments', async () => {
    const db = freshDb();
    await db.items.bulkPut([item(1, 'Ferry'), item(2, 'Bus')]);
    await db.comments.put({
      id: 10,
      uuid: 'c-10',
      item_id: 1,
      item_uuid: 'u-1',
      body: 'Ask about the quince boat',
      _syncStatus: 'synced',
      _deleted: 0,
      _base: null,
    } as unknown as LocalComment);
    const found = await viewItems(db, ME, 'search: quince', TODAY, 'due');
    expect(found.ok && ids(found.items)).toEqual([1]);
    const commented = await viewItems(db, ME, 'has: comments', TODAY, 'due');
    expect(commented.ok && ids(commented.items)).toEqual([1]);
  });

  it('an edit is read again from the search log alone, with the same answer as a whole read (generated writes)', async () => {
    // The same query with a term that is always true and keeps it from being kept: a whole read each time.
    const whole = (query: string) => `(${query}) & !tracked > 99999`;
    const queries = [
      'p1 & !status: completed',
      '#Launch & type: todo',
      '+print | overdue',
      'status: completed',
    ];
    const write = fc.record({
      id: fc.integer({ min: 1, max: 12 }),
      op: fc.constantFrom('put', 'delete', 'deleteMark'),
      type: fc.constantFrom('campaign' as const, 'task' as const, 'todo' as const),
      title: fc.constantFrom('Launch', 'Other', 'Posters'),
      priority: fc.integer({ min: 1, max: 4 }),
      status: fc.constantFrom('pending' as const, 'in_progress' as const, 'completed' as const),
      parent: fc.constantFrom(null, 1, 2, 3),
      labels: fc.subarray(['print', 'errand']),
      due: fc.constantFrom(null, '2026-11-20', TODAY, '2026-12-01'),
    });
    await fc.assert(
      fc.asyncProperty(fc.array(write, { minLength: 1, maxLength: 12 }), async (writes) => {
        const db = freshDb();
        await db.items.bulkPut([
          item(1, 'Launch', { type: 'campaign' }),
          item(2, 'Posters', { type: 'task', parent_id: 1 }),
          item(3, 'Other', { type: 'task', priority: 1 }),
        ]);
        for (const q of queries) await viewItems(db, ME, q, TODAY, 'title');
        for (const w of writes) {
          if (w.op === 'delete') await db.items.delete(w.id);
          else
            await db.items.put(
              item(w.id, w.title, {
                type: w.type,
                priority: w.priority,
                status: w.status,
                parent_id: w.parent === w.id ? null : w.parent,
                labels: w.labels,
                due_date: w.due,
                _deleted: w.op === 'deleteMark' ? 1 : 0,
              }),
            );
          for (const q of queries) {
            const kept = await viewItems(db, ME, q, TODAY, 'title');
            const fresh = await viewItems(db, ME, whole(q), TODAY, 'title');
            expect(kept.ok && ids(kept.items).sort()).toEqual(fresh.ok && ids(fresh.items).sort());
          }
        }
        db.close();
      }),
      { numRuns: 40 },
    );
  });

  it('keeps the views list last fetched, by name', async () => {
    const db = freshDb();
    const view = (id: number, name: string) => ({
      id,
      uuid: `v-${id}`,
      name,
      query: 'p1',
      grammar: 1,
      sort: 'due' as const,
      campaign_id: null,
      created_by: { id: 1, name: 'Me' },
      updated_at: '2026-11-25T00:00:00.000Z',
    });
    await db.views.bulkPut([view(1, 'Zebra'), view(2, 'alpha')]);
    expect((await savedViews(db, ME)).map((v) => v.name)).toEqual(['alpha', 'Zebra']);
  });
});
