import Dexie, { liveQuery } from 'dexie';
import fc from 'fast-check';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { closeFakeDbs, freshFakeDb } from '../../../../testkit/client/fakeDb';
import { localItem } from '../../../../testkit/client/items';
import { plainDexie } from '../../../../testkit/plainDexie';
import { applyLocalChange } from '../changes/applyLocalChange';
import { childrenOf, childrenOldestFirst } from '../reads/itemQueries';
import { lastSeq } from '../sync/queue';
import { LIST_INDEX, type OutpostDb } from './db';
import { rawGet, rawIndexRange, rawLastKey } from './rawReads';
import type { LocalItem, QueueEntry } from './types';
import { replacing } from './writeFacts';

afterEach(closeFakeDbs);

const entry = (seq: number): QueueEntry =>
  ({ id: `q${seq}`, seq, kind: 'update', itemId: 1, data: null, tag: null }) as unknown as QueueEntry;

describe('raw reads inside a transaction (rawReads.ts)', () => {
  // A faster route's own workings: off in plain-Dexie mode (testkit/plainDexie.ts), where Dexie reads it.
  it.skipIf(plainDexie)(
    'answer what Dexie answers inside a transaction holding the store, and null outside one',
    async () => {
      const db = freshFakeDb('raw');
      await db.items.put(localItem(7, 'Seven'));
      expect(rawGet('items', 7)).toBeNull();
      expect(rawLastKey('syncQueue', 'seq')).toBeNull();
      const [row, missing, emptyQueue] = await db.transaction('rw', db.items, db.syncQueue, () =>
        Promise.all([rawGet('items', 7), rawGet('items', 8), rawLastKey('syncQueue', 'seq')]),
      );
      expect(row).toEqual(await db.items.get(7));
      expect(missing).toBeUndefined();
      expect(emptyQueue).toBeUndefined();
      // A transaction without the store reads nothing raw: the caller falls back to Dexie.
      expect(await db.transaction('r', db.items, () => rawLastKey('syncQueue', 'seq'))).toBeNull();
    },
  );

  it("gives the queue's last seq inside a write's transaction as outside it, whatever the queue holds", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.uniqueArray(fc.integer({ min: 1, max: 10_000 }), { maxLength: 40 }),
        async (seqs) => {
          const db = freshFakeDb('raw-seq');
          await db.syncQueue.bulkAdd(seqs.map(entry));
          const outside = await lastSeq(db);
          // Read in the write's transaction, then a write after it: the read sees the queue before it.
          const inside = await db.transaction('rw', db.syncQueue, async () => {
            const last = await lastSeq(db);
            await db.syncQueue.add(entry(last + 1));
            return last;
          });
          expect(outside).toBe(seqs.length === 0 ? 0 : Math.max(...seqs));
          expect(inside).toBe(outside);
          db.close();
        },
      ),
      { numRuns: 30 },
    );
  });
});

const write = (db: OutpostDb, rows: LocalItem[]) =>
  db.transaction('rw', [db.items, db.syncQueue, db.undo], () => applyLocalChange(db, { rows }));

/** Until live queries woken by the last commit have run again (Dexie signals them on a timer). */
const settle = () => new Promise((resolve) => setTimeout(resolve, 60));

describe('whole index ranges read raw (rawReads.ts rawIndexRange)', () => {
  const viewer = { userId: 1, isGuest: false };

  // A faster route's own workings: off in plain-Dexie mode (testkit/plainDexie.ts), where Dexie reads it.
  it.skipIf(plainDexie)(
    "I11: a detail page's children, read raw, are what Dexie reads, and touch none of its read calls",
    async () => {
      const db = freshFakeDb('raw-range');
      await write(db, [
        localItem(1, 'Task', { type: 'task' }),
        ...[2, 3, 4, 5].map((id) => localItem(id, `Todo ${id}`, { parent_id: 1 }, 7)),
        localItem(6, 'Elsewhere', { type: 'task' }),
      ]);
      const viaDexie = await db.items
        .where(LIST_INDEX.children)
        .between([1, 'a', Dexie.minKey], [1, 'a', Dexie.maxKey], true, true)
        .toArray();
      const query = vi.spyOn(db.items.core, 'query');
      expect(await childrenOf(db, viewer, 1)).toEqual([...viaDexie].reverse());
      expect(await childrenOldestFirst(db, viewer, 1)).toEqual(viaDexie);
      expect(query).not.toHaveBeenCalled();
      // A page of them (a limit), or a transaction without the store, goes through Dexie.
      expect(await childrenOldestFirst(db, viewer, 1, { limit: 2 })).toEqual(viaDexie.slice(0, 2));
      expect(query).toHaveBeenCalled();
      const elsewhere = await db.transaction('r', db.users, () =>
        rawIndexRange(db, 'items', LIST_INDEX.children, [1, 'a', Dexie.minKey], [1, 'a', Dexie.maxKey]),
      );
      expect(elsewhere).toBeNull();
    },
  );

  it('I11: its live query wakes for an edit of a row it shows and a row joining it, and not for a row elsewhere', async () => {
    const db = freshFakeDb('raw-range');
    await write(db, [
      localItem(1, 'Task', { type: 'task' }),
      localItem(2, 'Shown', { parent_id: 1 }),
      localItem(3, 'Other task', { type: 'task' }),
      localItem(4, 'Elsewhere', { parent_id: 3 }),
    ]);
    const runs: string[][] = [];
    const sub = liveQuery(() => childrenOf(db, viewer, 1)).subscribe((rows) =>
      runs.push(rows.map((r) => r.title)),
    );
    await settle();
    expect(runs).toEqual([['Shown']]);
    const [shown, elsewhere] = (await db.items.bulkGet([2, 4])) as LocalItem[];
    await write(db, [replacing({ ...elsewhere!, title: 'Renamed elsewhere' }, elsewhere!)]);
    await settle();
    expect(runs).toEqual([['Shown']]);
    await write(db, [replacing({ ...shown!, title: 'Renamed' }, shown!)]);
    await settle();
    expect(runs.at(-1)).toEqual(['Renamed']);
    const moved = (await db.items.get(4))!;
    await write(db, [{ ...moved, parent_id: 1 }]);
    await settle();
    expect(runs.at(-1)?.sort()).toEqual(['Renamed', 'Renamed elsewhere']);
    sub.unsubscribe();
  });
});
