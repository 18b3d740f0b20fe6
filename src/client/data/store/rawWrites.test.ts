import { afterEach, describe, expect, it, vi } from 'vitest';
import { closeFakeDbs, freshFakeDb, stopLater } from '../../../../testkit/client/fakeDb';
import { localItem } from '../../../../testkit/client/items';
import { plainDexie } from '../../../../testkit/plainDexie';
import { createSyncStatusStore } from '../../stores/syncStatusStore';
import { applyLocalChange } from '../changes/applyLocalChange';
import type { OutpostDb } from './db';
import { watchQueueCounts } from './queueCounts';
import type { LocalItem } from './types';
import { replacing } from './writeFacts';

afterEach(() => closeFakeDbs());

const write = (db: OutpostDb, rows: LocalItem[], queued = false) =>
  db.transaction('rw', [db.items, db.syncQueue, db.undo], async () =>
    applyLocalChange(db, {
      rows,
      ...(queued
        ? {
            queue: {
              entries: [
                {
                  kind: 'update' as const,
                  data: { title: rows[0]!.title },
                  itemId: rows[0]!.id,
                  baseVersion: 1,
                },
              ],
              after: 0,
            },
          }
        : {}),
      undo: { owner: 0, at: '2026-11-26T00:00:00.000Z', label: 'Rename', steps: [], group: null },
    }),
  );

async function seeded() {
  const db = freshFakeDb('raw');
  await write(db, [localItem(1, 'Task', { type: 'task' }), localItem(2, 'Todo', { parent_id: 1 })]);
  return { db, stored: (await db.items.get(2))! };
}

/** What a database holds that a write touches: the item rows, counters, log ids and undo labels. */
async function contents(db: OutpostDb) {
  return {
    items: await db.items.toArray(),
    counts: await db.counts.toArray(),
    logged: (await db.searchLog.toArray()).map((row) => row.ids ?? row.range),
    undo: (await db.undo.toArray()).map((row) => row.label),
    queued: (await db.syncQueue.toArray()).map((row) => [row.seq, row.itemId, row.data]),
  };
}

describe('raw writes of an edit in place (rawWrites.ts)', () => {
  it('I10: an edit in place goes raw and stores exactly what the long way through the store stores', async () => {
    const raw = await seeded();
    const long = await seeded();
    const rawMutate = vi.spyOn(raw.db.items.core, 'mutate');
    const longMutate = vi.spyOn(long.db.items.core, 'mutate');
    // Named, the stored row makes the put an edit in place; unnamed, the store reads it and goes the long way.
    await write(raw.db, [replacing({ ...raw.stored, title: 'Renamed' }, raw.stored)], true);
    await write(long.db, [{ ...long.stored, title: 'Renamed' }], true);
    // Plain-Dexie mode (testkit/plainDexie.ts) takes Dexie's route for both.
    if (!plainDexie) expect(rawMutate).not.toHaveBeenCalled();
    expect(longMutate).toHaveBeenCalled();
    const [a, b] = [await contents(raw.db), await contents(long.db)];
    expect(a).toEqual(b);
    expect(a.items.find((row) => row.id === 2)).toMatchObject({ title: 'Renamed', _top: false });
    expect(a.logged.at(-1)).toEqual([2]);
  });

  it('I10: the queue row written raw beside it wakes the pending count', async () => {
    const { db, stored } = await seeded();
    const status = createSyncStatusStore(true);
    stopLater(watchQueueCounts(db, status));
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect(status.getState().pendingCount).toBe(0);
    await write(db, [replacing({ ...stored, title: 'Renamed' }, stored)], true);
    for (let waited = 0; status.getState().pendingCount !== 1 && waited < 3000; waited += 10)
      await new Promise((resolve) => setTimeout(resolve, 10));
    expect(status.getState().pendingCount).toBe(1);
  });

  it('I10: a raw request that fails fails its write and stores nothing of it, the transaction not left half done', async () => {
    const { db, stored } = await seeded();
    await write(db, [replacing({ ...stored, title: 'Queued' }, stored)], true);
    const before = await contents(db);
    const again = (await db.items.get(2))!;
    // The queue's seq is unique: a second entry after seq 0 collides with the first.
    await expect(write(db, [replacing({ ...again, title: 'Collides' }, again)], true)).rejects.toThrow();
    expect(await contents(db)).toEqual(before);
  });
});
