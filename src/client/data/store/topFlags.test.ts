import Dexie from 'dexie';
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { localItem } from '../../../../testkit/client/items';
import type { Item, ItemStatus } from '../../../shared/item';
import { sortForList } from '../../../shared/sort';
import { homeCount, homeItems, screenItems } from '../reads/itemQueries';
import { HOME_INDEX, LIST_INDEX, OutpostDb, TOP_ORDER_INDEX } from '../store/db';
import type { LocalItem, SyncStatus, Viewer } from '../store/types';
import { applyPulled } from '../sync';
import { swapTempId } from '../sync/tempIds';
import { topFlagsFromScratch } from './topFlags';
import { replacing } from './writeFacts';

let dbs = 0;
function freshDb(): OutpostDb {
  return new OutpostDb(`top-${++dbs}`, { indexedDB: new IDBFactory(), IDBKeyRange });
}

const user = { id: 1, name: 'U', phone: '', created_at: '2026-01-01T00:00:00.000Z', updated_at: '' };

function row(
  id: number,
  parent: number | null,
  status: SyncStatus,
  created: number,
  deleted = 0,
  itemStatus: ItemStatus = 'pending',
): LocalItem {
  return localItem(id, `Item ${id}`, {
    status: itemStatus,
    uuid: `u-${id}`,
    parent_id: parent,
    remind_at: null,
    // Few distinct times, so equal created_at (ordered by id) happens often.
    created_at: new Date(Date.UTC(2026, 0, 1, 0, created % 5)).toISOString(),
    updated_at: '',
    completed_at: null,
    created_by: user,
    user,
    _syncStatus: status,
    _deleted: deleted as 0 | 1,
    _localVersion: 1,
  });
}

function server(id: number, parent: number | null, version = 1): Item {
  const { _syncStatus, _deleted, _localVersion, _conflict, _dirty, _base, _remote, ...item } = row(
    id,
    parent,
    'synced',
    id,
  );
  return { ...item, version };
}

/** Home All before the index: every in-scope item whose parent is not an in-scope item, newest first. */
function homeByFullScan(items: LocalItem[], viewer: Viewer): LocalItem[] {
  const all = items.filter(
    (i) => i._deleted !== 1 && (viewer.isGuest ? i._syncStatus === 'local' : i._syncStatus !== 'local'),
  );
  const ids = new Set(all.map((i) => i.id));
  return sortForList(
    all.filter((i) => i.parent_id === null || i.parent_id === 0 || !ids.has(i.parent_id)),
    'home',
  );
}

async function expectFlagsExact(db: OutpostDb): Promise<void> {
  const items = await db.items.toArray();
  const expected = topFlagsFromScratch(items);
  for (const item of items)
    expect({ id: item.id, _top: item._top, _stop: item._stop }).toEqual({
      id: item.id,
      ...expected.get(item.id),
    });
  for (const viewer of [
    { userId: 1, isGuest: false },
    { userId: 0, isGuest: true },
  ]) {
    const want = homeByFullScan(items, viewer).map((i) => i.id);
    expect((await homeItems(db, viewer, 'all')).map((i) => i.id)).toEqual(want);
    expect((await homeItems(db, viewer, 'all', { limit: 3 })).map((i) => i.id)).toEqual(want.slice(0, 3));
    expect(await homeCount(db, viewer, 'all')).toBe(want.length);
  }
  // Queue, Active and Completed › All (I14): each item of the status whose parent is not on that
  // list, by a full scan. A parent on the device but deleted or in the other scope hides it, as on Home.
  const account = { userId: 1, isGuest: false };
  const byId = new Map(items.map((i) => [i.id, i]));
  for (const [screen, status] of [
    ['queue', 'pending'],
    ['active', 'in_progress'],
    ['completed', 'completed'],
  ] as const) {
    const want = sortForList(
      items.filter((i) => {
        if (i.status !== status || i._deleted === 1 || i._syncStatus === 'local') return false;
        if (i.parent_id === null || i.parent_id === 0) return true;
        const parent = byId.get(i.parent_id);
        return (
          !parent || (parent._deleted !== 1 && parent._syncStatus !== 'local' && parent.status !== status)
        );
      }),
      screen,
    );
    expect((await screenItems(db, account, screen, 'all')).map((i) => i.id)).toEqual(want.map((i) => i.id));
  }
}

const ID = fc.integer({ min: -4, max: 12 }).filter((n) => n !== 0);
const STATUS = fc.constantFrom<SyncStatus>('local', 'pending', 'synced');
const ITEM_STATUS = fc.constantFrom<ItemStatus>('pending', 'in_progress', 'completed');
const OP = fc.oneof(
  fc.record({
    op: fc.constant('put' as const),
    id: ID,
    parent: fc.option(ID, { nil: null }),
    status: STATUS,
    created: fc.nat(9),
    deleted: fc.constantFrom(0, 0, 1),
    itemStatus: ITEM_STATUS,
  }),
  fc.record({ op: fc.constant('status' as const), id: ID, itemStatus: ITEM_STATUS, raw: fc.boolean() }),
  fc.record({ op: fc.constant('move' as const), id: ID, parent: fc.option(ID, { nil: null }) }),
  fc.record({
    op: fc.constant('edit' as const),
    id: ID,
    parent: fc.option(fc.option(ID, { nil: null }), { nil: undefined }),
  }),
  fc.record({ op: fc.constant('mark' as const), id: ID, deleted: fc.constantFrom(0, 1) }),
  fc.record({ op: fc.constant('delete' as const), ids: fc.array(ID, { maxLength: 3 }) }),
  fc.record({ op: fc.constant('deleteBelowZero' as const) }),
  fc.record({
    op: fc.constant('pull' as const),
    page: fc.array(
      fc.tuple(fc.integer({ min: 1, max: 12 }), fc.option(ID, { nil: null }), fc.boolean(), fc.nat(3)),
      { maxLength: 5 },
    ),
  }),
  fc.record({ op: fc.constant('swap' as const), from: ID, to: fc.integer({ min: 13, max: 16 }) }),
  fc.record({
    op: fc.constant('batch' as const),
    rows: fc.array(fc.tuple(ID, fc.option(ID, { nil: null }), STATUS), { maxLength: 4 }),
  }),
);

describe("Home's top-level flag and the status lists' (topFlags.ts)", () => {
  it('I1, I14: both flags equal their definitions from scratch after any writes, and Home All and the status lists’ All read exactly what a full scan keeps', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(OP, { maxLength: 25 }), async (ops) => {
        const db = freshDb();
        try {
          for (const step of ops) {
            if (step.op === 'pull') {
              const page = step.page.map(([id, parent, gone, version]) =>
                gone
                  ? ({ id, uuid: `u-${id}`, deleted_at: '2026-02-01T00:00:00.000Z' } as never)
                  : server(id, parent, version + 1),
              );
              await applyPulled(db, page, 'c');
            }
            await db.transaction('rw', [db.items, db.syncQueue, db.meta, db.comments], async () => {
              switch (step.op) {
                case 'put':
                  await db.items.put(
                    row(step.id, step.parent, step.status, step.created, step.deleted, step.itemStatus),
                  );
                  break;
                case 'status': {
                  // A new status as the repository writes it (replacing), or as a raw modify.
                  if (step.raw) {
                    await db.items.update(step.id, { status: step.itemStatus });
                    break;
                  }
                  const stored = await db.items.get(step.id);
                  if (stored)
                    await db.items.bulkPut([replacing({ ...stored, status: step.itemStatus }, stored)]);
                  break;
                }
                case 'move':
                  await db.items.update(step.id, { parent_id: step.parent });
                  break;
                case 'edit': {
                  // As the repository writes: the stored row read first, then its replacement.
                  const stored = await db.items.get(step.id);
                  if (!stored) break;
                  const next = { ...stored, title: `${stored.title}!` };
                  if (step.parent !== undefined) next.parent_id = step.parent;
                  await db.items.bulkPut([replacing(next, stored)]);
                  break;
                }
                case 'mark':
                  await db.items
                    .where('id')
                    .equals(step.id)
                    .modify((i) => {
                      i._deleted = step.deleted as 0 | 1;
                    });
                  break;
                case 'delete':
                  await db.items.bulkDelete(step.ids);
                  break;
                case 'deleteBelowZero':
                  await db.items.where('id').below(0).delete();
                  break;
                case 'swap':
                  if (!(await db.items.get(step.to))) await swapTempId(db, step.from, step.to);
                  break;
                case 'pull':
                  break;
                case 'batch':
                  await db.items.bulkPut(
                    step.rows.map(([id, parent, status], n) => row(id, parent, status, n)),
                  );
                  break;
              }
            });
            // Home's in-memory copy (homeList.ts) is built early and then patched by every step.
            if (step.op !== 'put') {
              await homeItems(db, { userId: 1, isGuest: false }, 'all');
              await homeItems(db, { userId: 0, isGuest: true }, 'all');
            }
          }
          await expectFlagsExact(db);
        } finally {
          db.close();
          await db.delete();
        }
      }),
      { numRuns: 150 },
    );
    // 150 databases written and scanned: ~11 s alone, past the default 30 s beside a browser suite.
  }, 90_000);

  it('a pulled parent arriving after its child clears the child; its tombstone sets it again', async () => {
    const db = freshDb();
    await applyPulled(db, [server(2, 1)], 'c1');
    expect((await db.items.get(2))?._top).toBe(1);
    await applyPulled(db, [server(1, null)], 'c2');
    expect((await db.items.get(2))?._top).toBe(false);
    expect((await db.items.get(1))?._top).toBe(1);
    await applyPulled(db, [{ id: 1, uuid: 'u-1', deleted_at: '2026-02-01T00:00:00.000Z' } as never], 'c3');
    expect(await db.items.get(1)).toBeUndefined();
    expect((await db.items.get(2))?._top).toBe(1);
    await expectFlagsExact(db);
    db.close();
  });

  it('I14: a finished task in a running campaign is on Completed › All, and leaves it when the campaign finishes too', async () => {
    const db = freshDb();
    const account = { userId: 1, isGuest: false };
    const put = (id: number, parent: number | null, status: ItemStatus) =>
      db.items.put(row(id, parent, 'synced', id, 0, status));
    await put(1, null, 'in_progress');
    await put(2, 1, 'in_progress');
    await put(3, 2, 'in_progress');
    const all = async (screen: 'active' | 'completed') =>
      (await screenItems(db, account, screen, 'all')).map((i) => i.id);
    expect(await all('active')).toEqual([1]);
    // The task finishes as the repository writes it: its todo's branch is its own now.
    const task = (await db.items.get(2))!;
    await db.items.bulkPut([replacing({ ...task, status: 'completed' }, task)]);
    expect(await all('completed')).toEqual([2]);
    expect(await all('active')).toEqual([3, 1]);
    // The campaign finishes too (a raw modify): the task is inside a finished branch again.
    await db.items.update(1, { status: 'completed' });
    expect(await all('completed')).toEqual([1]);
    expect((await db.items.get(2))?._stop).toBe(false);
    expect((await db.items.get(3))?._stop).toBe(1);
    await expectFlagsExact(db);
    db.close();
  });

  it('I1: a row not at the top is in none of the flag indexes, and one stored with 0 before reads as not flagged and stays as stored', async () => {
    const db = freshDb();
    const account = { userId: 1, isGuest: false };
    await applyPulled(db, [server(1, null), server(2, 1), server(3, 2)], 'c1');
    const entries = () =>
      Promise.all([HOME_INDEX, TOP_ORDER_INDEX, LIST_INDEX.mineTop].map((i) => db.items.orderBy(i).count()));
    expect(await entries()).toEqual([1, 1, 1]);
    await expectFlagsExact(db);
    // As a device stored it before flags were booleans.
    const child = (await db.items.get(3))!;
    await db.items.put({ ...child, _top: 0, _stop: 0 });
    expect(await db.items.get(3)).toMatchObject({ _top: 0, _stop: 0 });
    expect(await entries()).toEqual([2, 2, 2]);
    expect((await homeItems(db, account, 'all')).map((i) => i.id)).toEqual([1]);
    expect((await screenItems(db, account, 'queue', 'all')).map((i) => i.id)).toEqual([1]);
    // Its parent's new status moves its `_stop` to 1, and back to false.
    const parent = (await db.items.get(2))!;
    await db.items.bulkPut([replacing({ ...parent, status: 'completed' }, parent)]);
    expect((await db.items.get(3))?._stop).toBe(1);
    expect((await screenItems(db, account, 'queue', 'all')).map((i) => i.id)).toEqual([3, 1]);
    const done = (await db.items.get(2))!;
    await db.items.bulkPut([replacing({ ...done, status: 'pending' }, done)]);
    expect((await db.items.get(3))?._stop).toBe(false);
    expect((await screenItems(db, account, 'queue', 'all')).map((i) => i.id)).toEqual([1]);
    db.close();
  });

  it('a page naming one item twice applies the later change: live then tombstone deletes it, and the reverse keeps it', async () => {
    const db = freshDb();
    await applyPulled(db, [server(6, null), server(1, 6)], 'c1');
    const tombstone = { id: 6, uuid: 'u-6', deleted_at: '2026-02-01T00:00:00.000Z' } as never;
    await applyPulled(db, [server(6, null, 2), tombstone], 'c2');
    expect(await db.items.get(6)).toBeUndefined();
    expect((await db.items.get(1))?._top).toBe(1);
    await expectFlagsExact(db);
    await applyPulled(db, [server(6, null, 3)], 'c3');
    await applyPulled(db, [tombstone, server(6, null, 4)], 'c4');
    expect((await db.items.get(6))?.version).toBe(4);
    expect((await db.items.get(1))?._top).toBe(false);
    await expectFlagsExact(db);
    db.close();
  });

  it('I4: version 3 computes the flag for rows stored by version 2, and rows written around Dexie are repaired at open', async () => {
    const indexedDB = new IDBFactory();
    const old = new Dexie('top-upgrade', { indexedDB, IDBKeyRange });
    old.version(2).stores({
      items: 'id, type, user_id, assigned_to, parent_id, status, _syncStatus, uuid, updated_at, _conflict',
      users: 'id',
      contacts: '++id, user_id, contact_phone',
      syncQueue: 'id, &seq, itemId, tag',
      meta: 'key',
    });
    await old
      .table('items')
      .bulkPut([row(1, null, 'local', 1), row(2, 1, 'local', 2), row(3, 9, 'local', 3)]);
    old.close();
    const db = new OutpostDb('top-upgrade', { indexedDB, IDBKeyRange });
    expect((await db.items.toArray()).map((i) => [i.id, i._top])).toEqual([
      [1, 1],
      [2, false],
      [3, 1],
    ]);
    db.close();
    // A raw IndexedDB write (as bench/home10k.ts seeds) carries no flag.
    const raw = await new Promise<IDBDatabase>((resolve) => {
      const open = indexedDB.open('top-upgrade');
      open.onsuccess = () => resolve(open.result);
    });
    await new Promise<void>((resolve) => {
      const tx = raw.transaction('items', 'readwrite');
      tx.objectStore('items').put(row(4, null, 'local', 4));
      tx.oncomplete = () => resolve();
    });
    raw.close();
    const again = new OutpostDb('top-upgrade', { indexedDB, IDBKeyRange });
    expect((await again.items.get(4))?._top).toBe(1);
    await expectFlagsExact(again);
    again.close();
  });
});
