import Dexie from 'dexie';
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  assignedToMeByScan,
  childrenByScan,
  homeTypeByScan,
  insideByScan,
  itemsByStatusByScan,
  myListByScan,
  myListCountsByScan,
  progressByScan,
  screenByScan,
  subtreeProgressByScan,
} from '../../../../testkit/client/fullScanQueries';
import { localItem } from '../../../../testkit/client/items';
import type { Item, ItemStatus, ItemType } from '../../../shared/item';
import type { LifecycleScreen } from '../../../shared/visibility';
import {
  assignedToMe,
  childrenOf,
  childrenOldestFirst,
  homeCount,
  homeItems,
  insideOf,
  itemsByStatus,
  type ListOptions,
  myListCounts,
  myListItems,
  progressFor,
  screenCount,
  screenItems,
  subtreeProgressOf,
} from '../reads/itemQueries';
import { applyPulled } from '../sync';
import { resolveId, swapTempId } from '../sync/tempIds';
import { countRowsFromScratch } from './counters';
import { OutpostDb } from './db';
import { listKeysOf } from './listKeys';
import type { LocalItem, SyncStatus, Viewer } from './types';
import { replacing } from './writeFacts';

let dbs = 0;
function freshDb(name = `lists-${++dbs}`, indexedDB = new IDBFactory()): OutpostDb {
  return new OutpostDb(name, { indexedDB, IDBKeyRange });
}

const TYPES = ['campaign', 'task', 'todo'] as const satisfies readonly ItemType[];
const STATUSES = ['pending', 'in_progress', 'completed'] as const satisfies readonly ItemStatus[];
const SCREENS = ['queue', 'active', 'completed'] as const satisfies readonly LifecycleScreen[];
const VIEWERS: Viewer[] = [
  { userId: 1, isGuest: false },
  { userId: 2, isGuest: false },
  { userId: 0, isGuest: true },
];
// Few distinct times, so equal sort keys (ordered by id) happen often.
const at = (minute: number) => new Date(Date.UTC(2026, 0, 1, 0, minute % 4)).toISOString();
const person = (id: number) => ({ id, name: `U${id}`, phone: '', created_at: at(0), updated_at: '' });

interface Shape {
  type: ItemType;
  status: ItemStatus;
  user: number;
  assignee: number | null;
  created: number;
  updated: number | null;
  completed: number | null;
}

function row(id: number, parent: number | null, sync: SyncStatus, shape: Shape, deleted = 0): LocalItem {
  return localItem(id, `Item ${id}`, {
    uuid: `u-${id}`,
    description: id % 3 === 0 ? 'with notes' : null,
    type: shape.type,
    status: shape.status,
    user_id: shape.user,
    assigned_to: shape.assignee,
    parent_id: parent,
    remind_at: null,
    created_at: at(shape.created),
    updated_at: shape.updated === null ? '' : at(shape.updated),
    completed_at: shape.completed === null ? null : at(shape.completed),
    created_by: person(shape.user),
    user: person(shape.user),
    _syncStatus: sync,
    _deleted: deleted as 0 | 1,
    _localVersion: 1,
  });
}

function server(id: number, parent: number | null, shape: Shape, version: number): Item {
  const { _syncStatus, _deleted, _localVersion, _conflict, _dirty, _base, _remote, ...item } = row(
    id,
    parent,
    'synced',
    shape,
  );
  return { ...item, version };
}

const ID = fc.integer({ min: -4, max: 12 }).filter((n) => n !== 0);
const SYNC = fc.constantFrom<SyncStatus>('local', 'pending', 'synced');
const USER = fc.constantFrom(0, 1, 2);
const SHAPE: fc.Arbitrary<Shape> = fc.record({
  type: fc.constantFrom(...TYPES),
  status: fc.constantFrom(...STATUSES),
  user: USER,
  assignee: fc.option(USER, { nil: null }),
  created: fc.nat(5),
  updated: fc.option(fc.nat(5), { nil: null }),
  completed: fc.option(fc.nat(5), { nil: null }),
});
const OP = fc.oneof(
  fc.record({
    op: fc.constant('put' as const),
    id: ID,
    parent: fc.option(ID, { nil: null }),
    sync: SYNC,
    shape: SHAPE,
    deleted: fc.constantFrom(0, 0, 1),
  }),
  fc.record({ op: fc.constant('move' as const), id: ID, parent: fc.option(ID, { nil: null }) }),
  fc.record({
    op: fc.constant('complete' as const),
    id: ID,
    status: fc.constantFrom(...STATUSES),
    when: fc.nat(5),
  }),
  fc.record({
    op: fc.constant('assign' as const),
    id: ID,
    to: fc.option(USER, { nil: null }),
    when: fc.nat(5),
  }),
  fc.record({ op: fc.constant('mark' as const), id: ID, deleted: fc.constantFrom(0, 1) }),
  fc.record({ op: fc.constant('delete' as const), ids: fc.array(ID, { maxLength: 3 }) }),
  fc.record({
    op: fc.constant('pull' as const),
    page: fc.array(
      fc.tuple(fc.integer({ min: 1, max: 12 }), fc.option(ID, { nil: null }), fc.boolean(), SHAPE, fc.nat(3)),
      { maxLength: 5 },
    ),
  }),
  fc.record({ op: fc.constant('swap' as const), from: ID, to: fc.integer({ min: 13, max: 16 }) }),
  fc.record({
    op: fc.constant('batch' as const),
    rows: fc.array(fc.tuple(ID, fc.option(ID, { nil: null }), SYNC, SHAPE), { maxLength: 4 }),
  }),
);

const ids = (rows: readonly LocalItem[]) => rows.map((r) => r.id);

/** Reads a whole list a few rows at a time, each page continuing after the last row of the one before. */
async function byPages(read: (opts: ListOptions) => Promise<LocalItem[]>, size: number): Promise<number[]> {
  const out: number[] = [];
  let after: LocalItem | undefined;
  for (let guard = 0; guard < 100; guard++) {
    const page = await read({ limit: size, after });
    out.push(...ids(page));
    if (page.length < size) return out;
    after = page[page.length - 1];
  }
  throw new Error('paging did not end');
}

/**
 * True when `id` is its own parent or its parent is one of its children: the only cycles two levels
 * can reach.
 */
function inCycle(rows: readonly LocalItem[], id: number): boolean {
  const parent = rows.find((r) => r.id === id)?.parent_id;
  if (parent === id) return true;
  return (
    parent !== null &&
    parent !== undefined &&
    parent !== id &&
    rows.some((r) => r.id === parent && r.parent_id === id)
  );
}

/** Every list, page and count read by index equals what the full scan of the stored rows gives. */
async function expectListsExact(db: OutpostDb): Promise<void> {
  const rows = await db.items.toArray();
  for (const r of rows) {
    const { _scope, _sk, _uk, _asg } = r;
    expect({ id: r.id, _scope, _sk, _uk, _asg }).toEqual({ id: r.id, ...listKeysOf(r) });
  }
  const search = 'item 1';
  for (const viewer of VIEWERS) {
    const check = async (
      want: (search?: string) => LocalItem[],
      read: (opts: ListOptions) => Promise<LocalItem[]>,
    ) => {
      const all = ids(want());
      expect(ids(await read({}))).toEqual(all);
      expect(ids(await read({ limit: 3 }))).toEqual(all.slice(0, 3));
      expect(await byPages(read, 2)).toEqual(all);
      expect(ids(await read({ search }))).toEqual(ids(want(search)));
    };
    for (const type of TYPES) {
      await check(
        (s) => homeTypeByScan(rows, viewer, type, s),
        (o) => homeItems(db, viewer, type, o),
      );
      expect(await homeCount(db, viewer, type)).toBe(homeTypeByScan(rows, viewer, type).length);
    }
    for (const screen of SCREENS) {
      for (const tab of ['all', ...TYPES] as const) {
        await check(
          (s) => screenByScan(rows, viewer, screen, tab, s),
          (o) => screenItems(db, viewer, screen, tab, o),
        );
        expect(await screenCount(db, viewer, screen, tab)).toBe(
          screenByScan(rows, viewer, screen, tab).length,
        );
      }
    }
    for (const status of STATUSES) {
      await check(
        (s) => myListByScan(rows, viewer, status, s),
        (o) => myListItems(db, viewer, status, o),
      );
      await check(
        (s) => itemsByStatusByScan(rows, viewer, status, s),
        (o) => itemsByStatus(db, viewer, status, o),
      );
    }
    expect(await myListCounts(db, viewer)).toEqual(myListCountsByScan(rows, viewer));
    const searched = await myListCounts(db, viewer, search);
    for (const status of STATUSES)
      expect(searched[status]).toBe(myListByScan(rows, viewer, status, search).length);
    await check(
      (s) => assignedToMeByScan(rows, viewer, s),
      (o) => assignedToMe(db, viewer, o),
    );
    for (const named of new Set(rows.map((r) => r.parent_id).filter((p): p is number => p !== null))) {
      // A page opened on a temporary id follows its swap to the server id (W4), as the old reads did.
      const parent = await resolveId(db, named);
      const want = childrenByScan(rows, viewer, parent);
      expect(ids(await childrenOf(db, viewer, named))).toEqual(ids(want));
      expect(ids(await childrenOf(db, viewer, named, 'todo'))).toEqual(
        ids(childrenByScan(rows, viewer, parent, 'todo')),
      );
      // Oldest first (a detail page's order), paged forward.
      const oldest = ids([...want].reverse());
      expect(ids(await childrenOldestFirst(db, viewer, named))).toEqual(oldest);
      expect(await byPages((o) => childrenOldestFirst(db, viewer, named, o), 2)).toEqual(oldest);
      expect(await progressFor(db, viewer, named)).toMatchObject(progressByScan(rows, viewer, parent));
      // The counters (counters.ts): the whole subtree's progress and what is open inside it. Not
      // compared through a cycle back to the parent, which the hierarchy rule (src/shared/hierarchy.ts)
      // makes impossible and subtreeProgress stops at.
      if (inCycle(rows, parent)) continue;
      const inside = await insideOf(db, viewer, named);
      expect(inside.progress).toEqual(subtreeProgressByScan(rows, viewer, parent));
      expect({ inside: inside.inside, open: inside.open }).toEqual(insideByScan(rows, viewer, parent));
    }
    // Rows on screen are asked for together, by the ids they have (no temporary id is followed).
    const onScreen = [...new Set(rows.flatMap((r) => [r.id, r.parent_id ?? r.id]))];
    const together = await subtreeProgressOf(db, viewer, onScreen);
    for (const id of onScreen.filter((i) => !inCycle(rows, i)))
      expect(together.get(id)).toEqual(subtreeProgressByScan(rows, viewer, id));
  }
  // No counter is left over or missing: the store is what a computation from scratch gives.
  const sortKey = (r: { parent: number | string; scope: string }) => `${r.parent}|${r.scope}`;
  const stored = (await db.counts.toArray()).sort((a, b) => sortKey(a).localeCompare(sortKey(b)));
  const fresh = countRowsFromScratch(rows).sort((a, b) => sortKey(a).localeCompare(sortKey(b)));
  expect(stored).toEqual(fresh);
}

async function apply(db: OutpostDb, step: OpValue) {
  if (step.op === 'pull') {
    const page = step.page.map(([id, parent, gone, shape, version]) =>
      gone
        ? ({ id, uuid: `u-${id}`, deleted_at: '2026-02-01T00:00:00.000Z' } as never)
        : server(id, parent, shape, version + 1),
    );
    await applyPulled(db, page, 'c');
    return;
  }
  await db.transaction('rw', [db.items, db.syncQueue, db.meta, db.comments], async () => {
    switch (step.op) {
      case 'put':
        await db.items.put(row(step.id, step.parent, step.sync, step.shape, step.deleted));
        break;
      case 'move':
        await db.items.update(step.id, { parent_id: step.parent });
        break;
      case 'complete': {
        // As the repository writes: the stored row read first, then its replacement.
        const stored = await db.items.get(step.id);
        if (!stored) break;
        const next = {
          ...stored,
          status: step.status,
          updated_at: at(step.when),
          completed_at: step.status === 'completed' ? at(step.when) : null,
        };
        await db.items.bulkPut([replacing(next, stored)]);
        break;
      }
      case 'assign':
        await db.items.update(step.id, { assigned_to: step.to, updated_at: at(step.when) });
        break;
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
      case 'swap':
        if (!(await db.items.get(step.to))) await swapTempId(db, step.from, step.to);
        break;
      case 'batch':
        await db.items.bulkPut(step.rows.map(([id, parent, sync, shape]) => row(id, parent, sync, shape)));
        break;
    }
  });
}

type OpValue = typeof OP extends fc.Arbitrary<infer T> ? T : never;

describe('list screens read by index (listKeys.ts, itemQueries.ts)', () => {
  it('I2, I3: give exactly the rows, order, pages, counts and subtree progress the full scans gave, after any moves, deletes, restores, temp-id swaps, completions, assigns and pulls', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(OP, { maxLength: 20 }), async (ops) => {
        const db = freshDb();
        try {
          for (const step of ops) await apply(db, step);
          await expectListsExact(db);
        } finally {
          db.close();
          await db.delete();
        }
      }),
      { numRuns: 40 },
    );
  });

  it('I4: versions 6 and 7 compute the list keys and counters of rows stored by version 5, and rows written around Dexie are repaired at open', async () => {
    const indexedDB = new IDBFactory();
    const shape: Shape = {
      type: 'todo',
      status: 'in_progress',
      user: 1,
      assignee: 2,
      created: 1,
      updated: 2,
      completed: null,
    };
    const old = new Dexie('lists-upgrade', { indexedDB, IDBKeyRange });
    old.version(5).stores({
      items:
        'id, type, user_id, assigned_to, parent_id, status, _syncStatus, uuid, updated_at, _conflict, [_syncStatus+_top+created_at], remind_at',
      users: 'id',
      contacts: '++id, user_id, contact_phone',
      syncQueue: 'id, &seq, itemId, tag',
      meta: 'key',
      trash: 'uuid, owner, deletedAt',
      undo: '++seq, owner',
    });
    await old.table('items').bulkPut([
      { ...row(1, null, 'synced', shape), _top: 1 },
      { ...row(2, 1, 'synced', { ...shape, status: 'completed', completed: 3 }), _top: 0 },
    ]);
    old.close();
    const db = freshDb('lists-upgrade', indexedDB);
    expect((await db.items.get(1))?._sk).toBe(at(2));
    expect(ids(await screenItems(db, { userId: 2, isGuest: false }, 'active', 'todo'))).toEqual([1]);
    await expectListsExact(db);
    db.close();
    const raw = await new Promise<IDBDatabase>((resolve) => {
      const open = indexedDB.open('lists-upgrade');
      open.onsuccess = () => resolve(open.result);
    });
    await new Promise<void>((resolve) => {
      const tx = raw.transaction('items', 'readwrite');
      // Under item 1: its counters (counters.ts) are computed again at open as well.
      tx.objectStore('items').put({ ...row(3, 1, 'synced', shape), _top: 0 });
      tx.oncomplete = () => resolve();
    });
    raw.close();
    const again = freshDb('lists-upgrade', indexedDB);
    expect(ids(await myListItems(again, { userId: 1, isGuest: false }, 'in_progress'))).toEqual([3, 1]);
    await expectListsExact(again);
    again.close();
  });
});
