import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { closeFakeDbs, freshFakeDb } from '../../../../testkit/client/fakeDb';
import { localItem } from '../../../../testkit/client/items';
import { lastSeq } from '../sync/syncQueue';
import { rawGet, rawLastKey } from './rawReads';
import type { QueueEntry } from './types';

afterEach(closeFakeDbs);

const entry = (seq: number): QueueEntry =>
  ({ id: `q${seq}`, seq, kind: 'update', itemId: 1, data: null, tag: null }) as unknown as QueueEntry;

describe('raw reads inside a transaction (rawReads.ts)', () => {
  it('answer what Dexie answers inside a transaction holding the store, and null outside one', async () => {
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
  });

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
