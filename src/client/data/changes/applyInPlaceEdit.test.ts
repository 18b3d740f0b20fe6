import { liveQuery } from 'dexie';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { closeFakeDbs, freshFakeDb } from '../../../../testkit/client/fakeDb';
import { localItem } from '../../../../testkit/client/items';
import { plainDexie } from '../../../../testkit/plainDexie';
import { childrenWhere } from '../store/childRows';
import type { OutpostDb } from '../store/db';
import type { LocalItem, UndoRecord } from '../store/types';
import { replacing } from '../store/writeFacts';
import { applyInPlaceEdit, applyLocalChange, type InPlaceEdit } from './applyLocalChange';
import { isStaleGuess } from './staleGuess';

afterEach(() => closeFakeDbs());

const undo: UndoRecord = {
  owner: 7,
  at: '2026-11-27T00:00:00.000Z',
  label: 'Rename',
  steps: [],
  group: null,
};
const entry = (row: LocalItem) => ({
  kind: 'update' as const,
  data: { title: row.title },
  itemId: row.id,
  baseVersion: 1,
});

async function seeded() {
  const db = freshFakeDb('in-place');
  await db.transaction('rw', [db.items, db.syncQueue, db.undo], () =>
    applyLocalChange(db, {
      rows: [
        localItem(1, 'Task', { type: 'task', user_id: 7 }),
        localItem(2, 'Todo', { parent_id: 1, user_id: 7 }),
      ],
    }),
  );
  return { db, stored: (await db.items.get(2))! };
}

/** An edit of the stored row to `title`, made from `from` and a queue last seen at `after`. */
function renaming(stored: LocalItem, title: string, from = stored, after = 0): InPlaceEdit {
  const row = replacing({ ...stored, title, _localVersion: stored._localVersion + 1 }, stored);
  return {
    row,
    undo,
    queue: { entry: entry(row), after },
    unchanged: (now, last) => !!now && now.title === from.title && last <= after,
  };
}

/** What a database holds that a write touches: the item rows, counters, log ids, undo and queue rows. */
async function contents(db: OutpostDb) {
  return {
    items: await db.items.toArray(),
    counts: await db.counts.toArray(),
    logged: (await db.searchLog.toArray()).map((row) => row.ids ?? row.range),
    undo: (await db.undo.toArray()).map((row) => [row.owner, row.label]),
    queued: (await db.syncQueue.toArray()).map((row) => [row.seq, row.itemId, row.data]),
  };
}

/** The next value of a live query that `done` accepts (rejects after 3 s). */
function nextValue<T>(query: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('the live query did not show the edit')), 3000);
    const sub = liveQuery(query).subscribe({
      next: (value) => {
        if (!done(value)) return;
        clearTimeout(timer);
        sub.unsubscribe();
        resolve(value);
      },
      error: reject,
    });
  });
}

// The route itself: never taken in plain-Dexie mode (testkit/plainDexie.ts).
describe.skipIf(plainDexie)('an edit in place in a transaction of its own (applyInPlaceEdit)', () => {
  it('I12: stores exactly what the same edit stores through the funnel in a Dexie transaction, touching no Dexie table call', async () => {
    const raw = await seeded();
    const long = await seeded();
    const mutate = vi.spyOn(raw.db.items.core, 'mutate');
    const transaction = vi.spyOn(raw.db, 'transaction');
    const edit = renaming(raw.stored, 'Renamed');
    const queued = await applyInPlaceEdit(raw.db, edit);
    const same = renaming(long.stored, 'Renamed');
    await long.db.transaction('rw', [long.db.items, long.db.syncQueue, long.db.undo], () =>
      applyLocalChange(long.db, {
        rows: [same.row],
        undo,
        queue: { entries: [same.queue!.entry], after: 0 },
      }),
    );
    expect(mutate).not.toHaveBeenCalled();
    expect(transaction).not.toHaveBeenCalled();
    expect(queued?.map((q) => [q.seq, q.data])).toEqual([[1, { title: 'Renamed' }]]);
    const [a, b] = [await contents(raw.db), await contents(long.db)];
    expect(a).toEqual(b);
    expect(a.items.find((row) => row.id === 2)).toMatchObject({ title: 'Renamed', _top: false });
    expect(a.logged.at(-1)).toEqual([2]);
  });

  it('I12: a stored row that is not the one it was made from aborts it whole: nothing stored, and the caller is told', async () => {
    const { db, stored } = await seeded();
    await db.items.update(2, { title: 'Changed elsewhere' });
    const before = await contents(db);
    const failed = await applyInPlaceEdit(db, renaming(stored, 'Renamed'))!.catch((error: unknown) => error);
    expect(isStaleGuess(failed)).toBe(true);
    expect(await contents(db)).toEqual(before);
  });

  it('I12: a queue that has grown past the seq it was made after aborts it whole, nothing stored', async () => {
    const { db, stored } = await seeded();
    await applyInPlaceEdit(db, renaming(stored, 'First'));
    const now = (await db.items.get(2))!;
    const before = await contents(db);
    // Made as if the queue were still empty: the row is right, the queue is not.
    const failed = await applyInPlaceEdit(db, renaming(now, 'Second', now, 0))!.catch((e: unknown) => e);
    expect(isStaleGuess(failed)).toBe(true);
    expect(await contents(db)).toEqual(before);
  });

  it('I12: a request that fails aborts it whole, nothing stored', async () => {
    const { db, stored } = await seeded();
    const first = renaming(stored, 'Queued');
    await applyInPlaceEdit(db, first);
    const before = await contents(db);
    const now = (await db.items.get(2))!;
    // A check that passes, over a queue row whose seq (after 0) collides with the stored one.
    const colliding = { ...renaming(now, 'Collides'), unchanged: () => true };
    const failed = await applyInPlaceEdit(db, colliding)!.catch((e: unknown) => e);
    expect(failed).toBeInstanceOf(Error);
    expect(isStaleGuess(failed)).toBe(false);
    expect(await contents(db)).toEqual(before);
  });

  it("I12: its commit wakes Dexie's live queries, a read served from Dexie's query cache too", async () => {
    const { db, stored } = await seeded();
    // Dexie caches these reads for its live queries; the commit must drop what it changed.
    const children = () => childrenWhere(db.items, 1).toArray();
    const one = () => db.items.get(2);
    await nextValue(children, (rows) => rows[0]?.title === 'Todo');
    await nextValue(one, (row) => row?.title === 'Todo');
    const listShows = nextValue(children, (rows) => rows[0]?.title === 'Renamed');
    const rowShows = nextValue(one, (row) => row?.title === 'Renamed');
    await new Promise((resolve) => setTimeout(resolve, 20));
    await applyInPlaceEdit(db, renaming(stored, 'Renamed'));
    await expect(listShows).resolves.toHaveLength(1);
    await expect(rowShows).resolves.toMatchObject({ title: 'Renamed' });
  });

  it('I12: its transaction holds only the stores it writes, none the middleware adds for the long way', async () => {
    const { db, stored } = await seeded();
    const opened = vi.spyOn(db.core, 'transaction');
    await applyInPlaceEdit(db, renaming(stored, 'Renamed'));
    const idb = opened.mock.results[0]?.value as IDBTransaction;
    expect([...idb.objectStoreNames].sort()).toEqual(['items', 'searchLog', 'syncQueue', 'undo']);
    // The long way's transaction on items still gets the side effects' stores.
    const long = db.core.transaction(['items'], 'readwrite') as IDBTransaction;
    expect([...long.objectStoreNames]).toEqual(
      expect.arrayContaining(['counts', 'history', 'items', 'meta']),
    );
    long.abort();
  });

  it('I12: once its check passes it asks to commit, not waiting for its answers to be handled; a failed check commits nothing', async () => {
    const { db, stored } = await seeded();
    const opened = vi.spyOn(db.core, 'transaction');
    const proto = Object.getPrototypeOf(db.backendDB().transaction('items')) as IDBTransaction;
    const commit = vi.spyOn(proto, 'commit');
    const commitsOf = (idb: unknown) => commit.mock.contexts.filter((t) => t === idb).length;
    await applyInPlaceEdit(db, renaming(stored, 'Renamed'));
    const passed = opened.mock.results.at(-1)?.value as IDBTransaction;
    expect(commitsOf(passed)).toBe(1);
    expect((await db.items.get(2))?.title).toBe('Renamed');
    // A stale guess: the check aborts it instead.
    const failed = await applyInPlaceEdit(db, renaming(stored, 'Again'))!.catch((e: unknown) => e);
    expect(isStaleGuess(failed)).toBe(true);
    const stale = opened.mock.results.at(-1)?.value as IDBTransaction;
    expect(stale).not.toBe(passed);
    expect(commitsOf(stale)).toBe(0);
    commit.mockRestore();
    opened.mockRestore();
  });

  it("I12: is not made so inside another transaction, for a guest's row, or for a row that moves a counter", async () => {
    const { db, stored } = await seeded();
    const inside = await db.transaction('rw', [db.items, db.syncQueue, db.undo], () =>
      applyInPlaceEdit(db, renaming(stored, 'Inside')),
    );
    expect(inside).toBeNull();
    const guest = replacing(
      { ...stored, _syncStatus: 'local' as const, title: 'Guest' },
      {
        ...stored,
        _syncStatus: 'local' as const,
      },
    );
    expect(applyInPlaceEdit(db, { ...renaming(stored, 'Guest'), row: guest, queue: null })).toBeNull();
    const done = replacing({ ...stored, status: 'completed' as const }, stored);
    expect(applyInPlaceEdit(db, { ...renaming(stored, 'Done'), row: done })).toBeNull();
    expect((await db.items.get(2))?.title).toBe('Todo');
  });
});
