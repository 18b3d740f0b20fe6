import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { closeFakeDbs, freshFakeDb, stopLater } from '../../../testkit/client/fakeDb';
import { localItem } from '../../../testkit/client/items';
import { rankSearch } from '../../shared/search';
import type { ApiClient } from './apiClient';
import { createLocalSearch, createSearch } from './search';
import type { Viewer } from './types';

afterEach(closeFakeDbs);
const freshDb = () => freshFakeDb('search');

const item = localItem;

const account: Viewer = { userId: 1, isGuest: false };
const guest: Viewer = { userId: 0, isGuest: true };

describe('local search over its index', () => {
  it('after a change to a range of rows, holds exactly the rows stored: none gone stays to crowd the best N', async () => {
    const db = freshDb();
    const search = createLocalSearch(db);
    stopLater(search.dispose);
    await db.items.bulkPut([
      item(1, 'Paint one', {}, 1),
      item(2, 'Paint two', {}, 50),
      item(3, 'Paint three', {}, 51),
    ]);
    expect((await search.search(account, 'paint', 1)).map((i) => i.id)).toEqual([3]);
    // A clear, then many rows in one write: both name a range of keys, not the keys.
    await db.items.clear();
    await db.items.bulkPut([
      item(1, 'Paint one', {}, 1),
      ...Array.from({ length: 60 }, (_, i) => item(100 + i, `Other ${i}`)),
    ]);
    expect((await search.search(account, 'paint', 1)).map((i) => i.id)).toEqual([1]);
    await db.items.bulkDelete(Array.from({ length: 60 }, (_, i) => 100 + i));
    await db.items.bulkPut(Array.from({ length: 55 }, (_, i) => item(200 + i, `Paint ${i}`, {}, 0)));
    expect((await search.search(account, 'other', 50)).map((i) => i.id)).toEqual([]);
    expect(await search.search(account, 'paint', 100)).toHaveLength(56);
  });

  it('after an edit, has the row read into its copy before the next search asks', async () => {
    const db = freshDb();
    const search = createLocalSearch(db);
    stopLater(search.dispose);
    await db.items.bulkPut([item(1, 'Paint one', {}, 1), item(2, 'Fence', {}, 2)]);
    await search.warm();
    await db.items.put(item(2, 'Paint the fence', {}, 3));
    // The patch runs in an idle moment (a timer here); the search then reads nothing.
    await new Promise((resolve) => setTimeout(resolve, 20));
    let reads = 0;
    const bulkGet = db.items.bulkGet.bind(db.items);
    db.items.bulkGet = ((keys: number[]) => {
      reads++;
      return bulkGet(keys);
    }) as typeof db.items.bulkGet;
    expect((await search.search(account, 'paint')).map((i) => i.id)).toEqual([2, 1]);
    expect(reads).toBe(0);
  });

  const words = ['paint', 'Paint the fence', 'fence', 'pa', 'Order paint', 'crème', 'Crème brûlée', 'tape'];
  const title = fc.array(fc.constantFrom(...words), { minLength: 1, maxLength: 3 }).map((w) => w.join(' '));
  const row = fc.record({
    id: fc.integer({ min: 1, max: 30 }),
    title,
    second: fc.integer({ min: 0, max: 5 }),
    local: fc.boolean(),
    deleted: fc.boolean(),
  });
  const step = fc.oneof(
    {
      weight: 4,
      arbitrary: fc.record({
        kind: fc.constant('put' as const),
        rows: fc.array(row, { minLength: 1, maxLength: 3 }),
      }),
    },
    // 50 rows or more in one write name a range of keys, which the search reads again in full.
    {
      weight: 1,
      arbitrary: fc.record({
        kind: fc.constant('bulk' as const),
        from: fc.integer({ min: 1, max: 40 }),
        title,
      }),
    },
    {
      weight: 2,
      arbitrary: fc.record({ kind: fc.constant('delete' as const), id: fc.integer({ min: 1, max: 30 }) }),
    },
    // Until the index has caught up with a copy read in full a search scans the copy; after, it uses the index.
    { weight: 1, arbitrary: fc.constant({ kind: 'indexed' as const }) },
    {
      weight: 3,
      arbitrary: fc.record({
        kind: fc.constant('search' as const),
        query: fc.constantFrom('paint', 'PA', 'fence', 'crème', 'the f', 'ape', 'p', 'x y'),
        limit: fc.integer({ min: 1, max: 8 }),
        guest: fc.boolean(),
      }),
    },
  );

  it('answers as rankSearch over the stored rows of the viewer, after any writes, bulk writes and deletes', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 5, maxLength: 30, size: 'max' }), async (steps) => {
        const db = freshDb();
        const search = createLocalSearch(db);
        try {
          for (const s of steps) {
            if (s.kind === 'put') {
              await db.items.bulkPut(
                s.rows.map((r) =>
                  item(
                    r.id,
                    r.title,
                    { _syncStatus: r.local ? 'local' : 'synced', _deleted: r.deleted ? 1 : 0 },
                    r.second,
                  ),
                ),
              );
            } else if (s.kind === 'bulk') {
              await db.items.bulkPut(
                Array.from({ length: 50 }, (_, i) => item(s.from + i, `${s.title} ${i}`)),
              );
            } else if (s.kind === 'delete') {
              await db.items.delete(s.id);
            } else if (s.kind === 'indexed') {
              await search.indexed();
            } else {
              const viewer = s.guest ? guest : account;
              const rows = (await db.items.toArray()).filter(
                (i) => i._deleted === 0 && (i._syncStatus === 'local') === viewer.isGuest,
              );
              const expected = rankSearch(rows, s.query, s.limit).map((i) => i.id);
              expect((await search.search(viewer, s.query, s.limit)).map((i) => i.id)).toEqual(expected);
            }
          }
        } finally {
          search.dispose();
        }
      }),
      { numRuns: 40 },
    );
  });
});

describe('the rows a local search answers', () => {
  it('show the stored title, type, status and parent in the same scope, kept up to date by each write', async () => {
    const db = freshDb();
    const search = createLocalSearch(db);
    stopLater(search.dispose);
    await db.items.bulkPut([
      item(1, 'Garden', { type: 'campaign', _syncStatus: 'synced' }),
      item(2, 'Paint the Fence', { type: 'task', parent_id: 1, _syncStatus: 'synced' }),
      item(3, 'Paint the shed', { parent_id: 9, _syncStatus: 'synced' }),
      item(4, 'Paint alone', { parent_id: 1, _syncStatus: 'local' }),
    ]);
    const rows = async (viewer: Viewer) => (await search.search(viewer, 'paint')).sort((a, b) => a.id - b.id);
    expect(await rows(account)).toEqual([
      {
        id: 2,
        type: 'task',
        title: 'Paint the Fence',
        status: 'pending',
        parent_id: 1,
        parent: { title: 'Garden', type: 'campaign' },
      },
      { id: 3, type: 'todo', title: 'Paint the shed', status: 'pending', parent_id: 9, parent: null },
    ]);
    // A guest row under an account row names no parent: it is not the guest's.
    expect((await rows(guest)).map((r) => r.parent)).toEqual([null]);
    await db.items.update(1, { title: 'Garden 2026' });
    await db.items.update(2, { status: 'completed', title: 'Paint the gate' });
    await db.items.delete(3);
    expect(await rows(account)).toEqual([
      {
        id: 2,
        type: 'task',
        title: 'Paint the gate',
        status: 'completed',
        parent_id: 1,
        parent: { title: 'Garden 2026', type: 'campaign' },
      },
    ]);
  });
});

describe('the search the dialog runs (createSearch)', () => {
  /** An API whose search answer is held until `answer` or `fail` is called. */
  function heldApi() {
    let settle: { answer: (items: unknown[]) => void; fail: (error: Error) => void } | null = null;
    const api = {
      get: () =>
        new Promise((resolve, reject) => {
          settle = { answer: (items) => resolve({ data: items }), fail: reject };
        }),
    } as unknown as ApiClient;
    return { api, held: () => settle! };
  }

  /** A signed-in, online search over a device holding one account item, 'Paint the fence'. */
  async function signedInOnline() {
    const db = freshDb();
    const local = createLocalSearch(db);
    stopLater(local.dispose);
    await db.items.bulkPut([item(1, 'Paint the fence', { _syncStatus: 'synced' })]);
    const { api, held } = heldApi();
    const search = createSearch({ api, local, viewer: () => account, isOnline: () => true, log: () => {} });
    return { local, held, search };
  }

  it("signed in and online, shows the device's hits before the server answers, then the server's", async () => {
    const { held, search } = await signedInOnline();
    const firstHits: number[][] = [];
    const done = search('paint', 10, (found) => firstHits.push(found.map((i) => i.id)));
    await expect.poll(() => firstHits).toEqual([[1]]);
    held().answer([item(1, 'Paint the fence'), item(7, 'Paint the shed')]);
    expect((await done).map((i) => i.id).sort()).toEqual([1, 7]);
  });

  it("keeps the device's hits when the server fails, and asks nothing of a guest or offline", async () => {
    const { local, held, search } = await signedInOnline();
    const done = search('paint', 10, () => {});
    await expect.poll(() => held()).toBeTruthy();
    held().fail(new Error('down'));
    expect((await done).map((i) => i.id)).toEqual([1]);
    let asked = 0;
    const counting = {
      get: () => {
        asked++;
        return Promise.reject(new Error('no'));
      },
    } as unknown as ApiClient;
    await createSearch({ api: counting, local, viewer: () => guest, isOnline: () => true })('paint');
    await createSearch({ api: counting, local, viewer: () => account, isOnline: () => false })('paint');
    expect(asked).toBe(0);
  });
});
