import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { closeFakeDbs, freshFakeDb } from '../../../../testkit/client/fakeDb';
import { localItem } from '../../../../testkit/client/items';
import type { OutpostDb } from '../store/db';
import type { UndoRecord } from '../store/types';
import { applyLocalChange, UNDO_KEEP } from './applyLocalChange';

afterEach(() => closeFakeDbs());

const STORES = ['items', 'syncQueue', 'undo'] as const;
const inTransaction = <T>(db: OutpostDb, work: () => Promise<T>) =>
  db.transaction(
    'rw',
    [...STORES].map((s) => db.table(s)),
    work,
  );

const record = (owner: number, label: string): UndoRecord => ({
  owner,
  at: '2026-01-01T00:00:00.000Z',
  label,
  steps: [],
  group: null,
});

describe('the local-write funnel (applyLocalChange)', () => {
  it('W8: stores the rows, the queued requests in order after the last seq, and the undo record together', async () => {
    const db = freshFakeDb('funnel');
    const queued = await inTransaction(db, () =>
      applyLocalChange(db, {
        rows: [localItem(1, 'One'), localItem(2, 'Two')],
        queue: {
          entries: [
            { kind: 'update', data: { title: 'One' }, itemId: 1, baseVersion: 1 },
            { kind: 'delete', data: null, itemId: 2, baseVersion: 1 },
          ],
          after: 41,
        },
        undo: record(0, 'Todo updated'),
      }),
    );
    expect(queued.map((e) => [e.seq, e.kind, e.itemId])).toEqual([
      [42, 'update', 1],
      [43, 'delete', 2],
    ]);
    expect(new Set(queued.map((e) => e.idempotencyKey)).size).toBe(2);
    expect((await db.items.toArray()).map((i) => i.title)).toEqual(['One', 'Two']);
    expect(await db.syncQueue.orderBy('seq').toArray()).toEqual(queued);
    expect((await db.undo.toArray()).map((r) => r.label)).toEqual(['Todo updated']);
  });

  it('W8: keeps nothing of a change whose transaction fails', async () => {
    const db = freshFakeDb('funnel');
    await expect(
      inTransaction(db, async () => {
        await applyLocalChange(db, {
          rows: [localItem(1, 'One')],
          queue: { entries: [{ kind: 'update', data: {}, itemId: 1, baseVersion: 1 }], after: 0 },
          undo: record(0, 'Todo updated'),
        });
        throw new Error('a later step of the same write failed');
      }),
    ).rejects.toThrow('a later step');
    expect(await db.items.count()).toBe(0);
    expect(await db.syncQueue.count()).toBe(0);
    expect(await db.undo.count()).toBe(0);
  });

  it('W8: refuses to write outside a read-write transaction', async () => {
    const db = freshFakeDb('funnel');
    await expect(applyLocalChange(db, { rows: [localItem(1, 'One')] })).rejects.toThrow(
      'inside a read-write transaction',
    );
    expect(await db.items.count()).toBe(0);
  });

  it('removes rows before it puts their replacements (a row stored again under a new id)', async () => {
    const db = freshFakeDb('funnel');
    await inTransaction(db, () => applyLocalChange(db, { rows: [localItem(5, 'Old')] }));
    await inTransaction(db, () => applyLocalChange(db, { removed: [5], rows: [localItem(-1, 'New')] }));
    expect((await db.items.toArray()).map((i) => [i.id, i.title])).toEqual([[-1, 'New']]);
  });

  it('keeps at most UNDO_KEEP records per owner, newest kept, whatever the number of changes', async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 1, max: 260 }), async (changes) => {
        const db = freshFakeDb('funnel-undo');
        for (let n = 1; n <= changes; n++)
          await inTransaction(db, () => applyLocalChange(db, { undo: record(7, `change ${n}`) }));
        const kept = await db.undo.where('owner').equals(7).toArray();
        // Trimmed every 20 records: never more than UNDO_KEEP plus the 19 since the last trim.
        expect(kept.length).toBeLessThanOrEqual(UNDO_KEEP + 19);
        expect(kept.at(-1)?.label).toBe(`change ${changes}`);
        if (changes <= UNDO_KEEP) expect(kept).toHaveLength(changes);
        db.close();
      }),
      { numRuns: 6 },
    );
  });
});
