import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import fc from 'fast-check';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { closeFakeDbs, freshFakeDb, stopLater } from '../../../../testkit/client/fakeDb';
import { localItem } from '../../../../testkit/client/items';
import { fuzzyKeys } from '../../../shared/fuzzy';
import { rankSearch, searchKeyOf } from '../../../shared/search';
import { applyPulledComments, createComment, deleteComment, editComment } from '../comments/localComments';
import type { ApiClient } from '../net/apiClient';
import { OutpostDb, SEARCH_COPY_HEAD, type SearchCopyHead } from '../store/db';
import type { Viewer } from '../store/types';
import { createLocalSearch, createSearch, SAVED_COPY_MARGIN_MS } from './search';

afterEach(() => {
  vi.restoreAllMocks();
  closeFakeDbs();
});
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
              const exact = rankSearch(rows, s.query, s.limit);
              // Nothing holds the query as typed: the typo-tolerant fallback over the same rows.
              const expected = (
                exact.length > 0 ? exact : fuzzyKeys(rows.map(searchKeyOf), s.query, s.limit)
              ).map((i) => i.id);
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

  it('finds a title a typo away when nothing holds the query as typed, on the device and after an empty server answer', async () => {
    const { local, held, search } = await signedInOnline();
    expect((await local.search(account, 'fense', 10)).map((i) => i.id)).toEqual([1]);
    expect((await local.search(account, 'paint the fnece', 10)).map((i) => i.id)).toEqual([1]);
    expect(await local.search(account, 'shed', 10)).toEqual([]);
    const done = search('fense', 10);
    await expect.poll(() => held()).toBeTruthy();
    held().answer([]);
    expect((await done).map((i) => i.id)).toEqual([1]);
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

describe('I5, I6, I7: the saved search copy', () => {
  const queries = ['paint', 'pa', 'fence', 'garden', 'the', 'new', 'crème', 'ape'];

  /** Every query's rows for both viewers. */
  async function answers(search: ReturnType<typeof createLocalSearch>) {
    const all: unknown[] = [];
    for (const viewer of [account, guest]) {
      for (const q of queries) all.push(await search.search(viewer, q, 50));
    }
    return all;
  }

  /** What a page reading every row answers: a search over a copy of the rows in another database. */
  async function fullReadAnswers(db: OutpostDb) {
    const other = freshFakeDb('search-full');
    await other.items.bulkPut(await db.items.toArray());
    const search = createLocalSearch(other);
    try {
      const found = await answers(search);
      expect(search.readFrom()).toBe('full');
      return found;
    } finally {
      search.dispose();
    }
  }

  /** The ids rankSearch finds over the stored rows, for every query and viewer. */
  async function expectedIds(db: OutpostDb) {
    const rows = await db.items.toArray();
    const all: number[][] = [];
    for (const viewer of [account, guest]) {
      const mine = rows.filter((i) => i._deleted === 0 && (i._syncStatus === 'local') === viewer.isGuest);
      for (const q of queries) all.push(rankSearch(mine, q, 50).map((i) => i.id));
    }
    return all;
  }

  /** Counts the reads of every row (readAll pages by `orderBy(':id')`) made on `db`. */
  function countFullReads(db: OutpostDb) {
    const reads = { n: 0 };
    const orderBy = db.items.orderBy.bind(db.items);
    db.items.orderBy = ((index: string) => {
      reads.n++;
      return orderBy(index);
    }) as typeof db.items.orderBy;
    return reads;
  }

  /** Date.now() that a test moves on (the log's and the saved parts' times), from the real clock. */
  function movableClock() {
    const now = Date.now.bind(Date);
    let offset = 0;
    vi.spyOn(Date, 'now').mockImplementation(() => now() + offset);
    return (ms: number) => {
      offset += ms;
    };
  }

  const seeded = () => [
    item(1, 'Garden', { type: 'campaign', _syncStatus: 'synced' }),
    item(2, 'Paint the fence', { type: 'task', parent_id: 1, _syncStatus: 'synced' }, 3),
    item(3, 'Paint the shed', { parent_id: 2, _syncStatus: 'synced' }, 4),
    item(4, 'Order paint', { _syncStatus: 'pending' }, 5),
    item(5, 'Guest paint', { _syncStatus: 'local' }, 6),
    item(6, 'Crème brûlée', { _syncStatus: 'local' }, 7),
    ...Array.from({ length: 20 }, (_, i) => item(10 + i, `Tape ${i} the fence`, {}, i % 60)),
  ];

  it('I5: a new page answers from the saved copy and sees every change made since', async () => {
    const db = freshDb();
    const later = movableClock();
    await db.items.bulkPut(seeded());
    const first = createLocalSearch(db, { savePart: 7 });
    stopLater(first.dispose);
    expect((await first.search(account, 'paint')).length).toBeGreaterThan(0);
    await first.indexed();
    // The rows written before the save are pruned from the log: only the saved copy holds them.
    later(2 * SAVED_COPY_MARGIN_MS);
    expect(await first.saveNow()).toBe(true);
    const head = (await db.searchCopy.get(SEARCH_COPY_HEAD)) as SearchCopyHead;
    expect(head.parts).toBe(4);
    later(1000);
    await db.items.update(2, { title: 'Paint the gate' });
    await db.items.put(item(40, 'Paint new', { parent_id: 1, _syncStatus: 'synced' }, 9));
    await db.items.delete(3);
    await db.items.update(4, { _deleted: 1 });
    await db.items.update(1, { title: 'Garden 2026' });
    first.dispose();

    const reads = countFullReads(db);
    const page = createLocalSearch(db, { savePart: 7 });
    stopLater(page.dispose);
    const found = await answers(page);
    expect(page.readFrom()).toBe('saved');
    expect(reads.n).toBe(0);
    expect(found.map((rows) => (rows as { id: number }[]).map((r) => r.id))).toEqual(await expectedIds(db));
    expect(found).toEqual(await fullReadAnswers(db));
    // And once indexed (a search before scans the copy).
    await page.indexed();
    expect(await answers(page)).toEqual(found);
  });

  const words = ['paint', 'Paint the fence', 'fence', 'pa', 'Order paint', 'crème', 'Garden', 'tape', 'new'];
  const title = fc.array(fc.constantFrom(...words), { minLength: 1, maxLength: 3 }).map((w) => w.join(' '));
  const write = fc.oneof(
    {
      weight: 4,
      arbitrary: fc.record({
        kind: fc.constant('put' as const),
        rows: fc.array(
          fc.record({
            id: fc.integer({ min: 1, max: 25 }),
            title,
            second: fc.integer({ min: 0, max: 5 }),
            local: fc.boolean(),
            parent: fc.option(fc.integer({ min: 1, max: 25 }), { nil: null }),
          }),
          { minLength: 1, maxLength: 3 },
        ),
      }),
    },
    {
      weight: 2,
      arbitrary: fc.record({
        kind: fc.constant('update' as const),
        id: fc.integer({ min: 1, max: 25 }),
        title: fc.option(title, { nil: undefined }),
        deleted: fc.option(fc.boolean(), { nil: undefined }),
        completed: fc.boolean(),
      }),
    },
    {
      weight: 2,
      arbitrary: fc.record({ kind: fc.constant('delete' as const), id: fc.integer({ min: 1, max: 25 }) }),
    },
    // 50 rows in one write: the open page reads its copy again, the log still names each id.
    {
      weight: 1,
      arbitrary: fc.record({
        kind: fc.constant('bulk' as const),
        from: fc.integer({ min: 1, max: 30 }),
        title,
      }),
    },
  );
  type Write = typeof write extends fc.Arbitrary<infer W> ? W : never;

  async function apply(db: OutpostDb, w: Write): Promise<void> {
    if (w.kind === 'put') {
      await db.items.bulkPut(
        w.rows.map((r) =>
          item(r.id, r.title, { _syncStatus: r.local ? 'local' : 'synced', parent_id: r.parent }, r.second),
        ),
      );
    } else if (w.kind === 'update') {
      await db.items.update(w.id, {
        ...(w.title === undefined ? {} : { title: w.title }),
        ...(w.deleted === undefined ? {} : { _deleted: w.deleted ? 1 : 0 }),
        ...(w.completed ? { status: 'completed' as const } : {}),
      });
    } else if (w.kind === 'delete') {
      await db.items.delete(w.id);
    } else {
      await db.items.bulkPut(Array.from({ length: 50 }, (_, i) => item(w.from + i, `${w.title} ${i}`)));
    }
  }

  it('I5: a page loading the saved copy and the log answers every query exactly as a full read, whatever was written before, during and after the save', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(write, { minLength: 1, maxLength: 12 }),
        fc.array(write, { maxLength: 4 }),
        fc.array(write, { maxLength: 10 }),
        fc.boolean(),
        async (before, during, after, searchBetween) => {
          const db = freshDb();
          const later = movableClock();
          const first = createLocalSearch(db, { savePart: 4 });
          const pages = [first];
          try {
            await first.search(account, 'paint');
            for (const w of before) await apply(db, w);
            if (searchBetween) await first.search(guest, 'fence');
            // Before the save by more than the margin: only the saved copy holds these writes.
            later(2 * SAVED_COPY_MARGIN_MS);
            const saving = first.saveNow();
            for (const w of during) await apply(db, w);
            await saving;
            later(1000);
            for (const w of after) await apply(db, w);
            first.dispose();
            const page = createLocalSearch(db, { savePart: 4 });
            pages.push(page);
            const found = await answers(page);
            // A save that a write during it left waiting for a read in full saves nothing, and the
            // page reads every row; otherwise it reads the saved copy.
            const saved = await db.searchCopy.get(SEARCH_COPY_HEAD);
            if (saved) expect(page.readFrom()).toBe('saved');
            expect(found.map((rows) => (rows as { id: number }[]).map((r) => r.id))).toEqual(
              await expectedIds(db),
            );
            expect(found).toEqual(await fullReadAnswers(db));
          } finally {
            for (const p of pages) p.dispose();
            vi.restoreAllMocks();
          }
        },
      ),
      { numRuns: 30 },
    );
  });

  it('I7: a range change since the save makes the next page read every row', async () => {
    for (const change of [
      (db: OutpostDb) => db.items.where('id').below(3).delete(),
      (db: OutpostDb) => db.items.clear(),
    ]) {
      const db = freshDb();
      await db.items.bulkPut(seeded());
      const first = createLocalSearch(db);
      await first.search(account, 'paint');
      expect(await first.saveNow()).toBe(true);
      first.dispose();
      await change(db);
      const reads = countFullReads(db);
      const page = createLocalSearch(db);
      stopLater(page.dispose);
      const found = await answers(page);
      expect(page.readFrom()).toBe('full');
      expect(reads.n).toBe(1);
      expect(found.map((rows) => (rows as { id: number }[]).map((r) => r.id))).toEqual(await expectedIds(db));
    }
  });

  it("I7: a page whose copy another tab's save replaced while it read reads the new copy, not every row", async () => {
    const db = freshDb();
    await db.items.bulkPut(seeded());
    const first = createLocalSearch(db, { savePart: 4 });
    stopLater(first.dispose);
    await first.search(account, 'paint');
    expect(await first.saveNow()).toBe(true);
    await db.items.update(10, { title: 'Tape saved by the other tab' });
    // The other tab saves again just as the new page has read the head and asks for its first part.
    const get = db.searchCopy.get.bind(db.searchCopy);
    let replaced = false;
    vi.spyOn(db.searchCopy, 'get').mockImplementation((async (key: string) => {
      if (!replaced && key !== SEARCH_COPY_HEAD) {
        replaced = true;
        expect(await first.saveNow()).toBe(true);
      }
      return get(key);
    }) as typeof db.searchCopy.get);
    const reads = countFullReads(db);
    const page = createLocalSearch(db, { savePart: 4 });
    stopLater(page.dispose);
    const found = await answers(page);
    expect(replaced).toBe(true);
    expect(page.readFrom()).toBe('saved');
    expect(reads.n).toBe(0);
    expect(found).toEqual(await fullReadAnswers(db));
    vi.restoreAllMocks();
  });

  it('I7: a closed page replaces no saved copy', async () => {
    const db = freshDb();
    await db.items.bulkPut(seeded());
    const first = createLocalSearch(db, { savePart: 4 });
    await first.search(account, 'paint');
    expect(await first.saveNow()).toBe(true);
    const head = (await db.searchCopy.get(SEARCH_COPY_HEAD)) as SearchCopyHead;
    const saving = first.saveNow();
    first.dispose();
    expect(await saving).toBe(false);
    expect(((await db.searchCopy.get(SEARCH_COPY_HEAD)) as SearchCopyHead).gen).toBe(head.gen);
  });

  it('I6: a save prunes the log to the rows a page loading it reads', async () => {
    const db = freshDb();
    const later = movableClock();
    await db.items.bulkPut(seeded());
    for (let i = 0; i < 5; i++) await db.items.update(10 + i, { title: `Tape ${i} again` });
    expect(await db.searchLog.count()).toBe(6);
    const first = createLocalSearch(db);
    stopLater(first.dispose);
    await first.search(account, 'paint');
    later(SAVED_COPY_MARGIN_MS + 1000);
    await db.items.update(10, { title: 'Tape within the margin' });
    later(SAVED_COPY_MARGIN_MS / 2);
    expect(await first.saveNow()).toBe(true);
    const head = (await db.searchCopy.get(SEARCH_COPY_HEAD)) as SearchCopyHead;
    // Older than the margin before the save: gone. Within it: kept, a page reads that item again.
    const kept = await db.searchLog.toArray();
    expect(kept.map((r) => r.ids)).toEqual([[10]]);
    expect(kept.every((r) => r.at > head.savedAt - SAVED_COPY_MARGIN_MS)).toBe(true);
    // A second save leaves one generation of parts and one head.
    later(SAVED_COPY_MARGIN_MS * 2);
    expect(await first.saveNow()).toBe(true);
    expect(await db.searchLog.count()).toBe(0);
    const keys = await db.searchCopy.toCollection().primaryKeys();
    const now = (await db.searchCopy.get(SEARCH_COPY_HEAD)) as SearchCopyHead;
    expect(keys.sort()).toEqual([`${now.gen}:0`, SEARCH_COPY_HEAD].sort());
  });

  it('I7: rows written around Dexie drop the saved copy at open, and the next page reads every row', async () => {
    const indexedDB = new IDBFactory();
    const db = new OutpostDb('search-around', { indexedDB, IDBKeyRange });
    await db.items.bulkPut(seeded());
    const first = createLocalSearch(db);
    await first.search(account, 'paint');
    expect(await first.saveNow()).toBe(true);
    first.dispose();
    // A bench's seed: straight into the object store, no middleware, no log row.
    await new Promise<void>((resolve, reject) => {
      const tx = db.backendDB().transaction('items', 'readwrite');
      tx.objectStore('items').put(item(90, 'Paint around Dexie', {}, 9));
      tx.oncomplete = () => resolve();
      tx.onerror = () => reject(tx.error);
    });
    db.close();
    const again = new OutpostDb('search-around', { indexedDB, IDBKeyRange });
    try {
      await again.open();
      expect(await again.searchCopy.count()).toBe(0);
      const page = createLocalSearch(again);
      stopLater(page.dispose);
      expect((await page.search(account, 'around')).map((r) => r.id)).toEqual([90]);
      expect(page.readFrom()).toBe('full');
    } finally {
      again.close();
    }
  });
});

describe('the warm after the first screen', () => {
  it('reads the items in the background in pages of at most 250 rows (each read is cloned in one main-thread task, and an edit waits for it), a search in full pages', async () => {
    const db = freshDb();
    const limits: number[] = [];
    db.use({
      stack: 'dbcore',
      name: 'readLimits',
      create: (down) => ({
        ...down,
        table: (name) => {
          const table = down.table(name);
          if (name !== 'items') return table;
          return {
            ...table,
            query: (req) => {
              if (req.values && req.limit !== undefined) limits.push(req.limit);
              return table.query(req);
            },
          };
        },
      }),
    });
    await db.items.bulkPut(Array.from({ length: 2_001 }, (_, i) => item(i + 1, `Item ${i + 1}`)));
    const warmed = createLocalSearch(db);
    stopLater(warmed.dispose);
    await warmed.warm();
    expect(limits).toEqual(Array.from({ length: 9 }, () => 250));
    expect(await warmed.search(account, 'item 2001', 1)).toHaveLength(1);
    warmed.dispose();
    limits.length = 0;
    const asked = createLocalSearch(db);
    stopLater(asked.dispose);
    expect(await asked.search(account, 'item 2001', 1)).toHaveLength(1);
    expect(limits).toEqual([5_000]);
  });
});

describe('local search by comment', () => {
  const who = { ...account, user: { id: 1, name: 'U' } };
  const pulled = (id: number, itemId: number, body: string) => ({
    id,
    uuid: `00000000-0000-4000-8000-${String(id).padStart(12, '0')}`,
    item_id: itemId,
    item_uuid: null,
    user: { id: 2, name: 'Blair' },
    body,
    mentions: [],
    created_at: '2026-01-02T00:00:00.000Z',
    updated_at: '2026-01-02T00:00:00.000Z',
    edited: false,
  });

  it('finds an item by a word in a comment added, edited, deleted or pulled, with the words around it', async () => {
    const db = freshDb();
    const search = createLocalSearch(db);
    stopLater(search.dispose);
    await db.items.bulkPut([item(1, 'Ferry plans'), item(2, 'Tents'), item(3, 'Kumquat jam')]);
    expect(await search.search(account, 'kumquat')).toHaveLength(1);
    // Added on the device: found, below the title match, with the comment named.
    const { comment } = await createComment(db, who, {
      itemId: 1,
      body: 'bring a kumquat or two',
      mentions: [],
    });
    const found = await search.search(account, 'kumquat');
    expect(found.map((r) => r.id)).toEqual([3, 1]);
    expect(found[0]!.matched_comment).toBeUndefined();
    expect(found[1]!.matched_comment).toEqual({ id: comment.id, excerpt: 'bring a kumquat or two' });
    // Edited: the old word no longer finds it, the new one does.
    await editComment(db, comment.id, 'bring a lychee or two', []);
    expect((await search.search(account, 'kumquat')).map((r) => r.id)).toEqual([3]);
    expect((await search.search(account, 'lychee')).map((r) => r.id)).toEqual([1]);
    // Deleted: nothing.
    await deleteComment(db, comment.id);
    expect(await search.search(account, 'lychee')).toEqual([]);
    // Pulled from the server, and its tombstone.
    await db.transaction('rw', db.comments, () =>
      applyPulledComments(db, [pulled(70, 2, 'pegs for the tents')]),
    );
    expect((await search.search(account, 'pegs')).map((r) => [r.id, r.matched_comment?.id])).toEqual([
      [2, 70],
    ]);
    await db.transaction('rw', db.comments, () =>
      applyPulledComments(db, [
        { id: 70, uuid: pulled(70, 2, '').uuid, item_id: 2, deleted_at: '2026-01-03' },
      ]),
    );
    expect(await search.search(account, 'pegs')).toEqual([]);
  });

  it('finds nothing by a comment whose item is gone from the device or deleted there', async () => {
    const db = freshDb();
    const search = createLocalSearch(db);
    stopLater(search.dispose);
    await db.items.bulkPut([item(1, 'One'), item(2, 'Two')]);
    await db.transaction('rw', db.comments, () =>
      applyPulledComments(db, [pulled(71, 1, 'the word quince'), pulled(72, 2, 'quince again')]),
    );
    expect((await search.search(account, 'quince')).map((r) => r.id).sort()).toEqual([1, 2]);
    await db.items.update(1, { _deleted: 1 });
    await db.items.delete(2);
    expect(await search.search(account, 'quince')).toEqual([]);
  });

  it('reads the comments again in full after a change to a range of them', async () => {
    const db = freshDb();
    const search = createLocalSearch(db);
    stopLater(search.dispose);
    await db.items.bulkPut([item(1, 'One')]);
    expect(await search.search(account, 'medlar')).toEqual([]);
    await db.comments.bulkPut(
      Array.from({ length: 60 }, (_, n) => ({
        ...pulled(100 + n, 1, n === 59 ? 'a medlar' : `other ${n}`),
        _syncStatus: 'synced' as const,
        _deleted: 0 as const,
        _base: null,
        item_uuid: '',
      })),
    );
    expect((await search.search(account, 'medlar')).map((r) => r.matched_comment?.id)).toEqual([159]);
  });
});
