import { afterEach, describe, expect, it } from 'vitest';
import { closeFakeDbs, freshFakeDb } from '../../../../testkit/client/fakeDb';
import { localItem } from '../../../../testkit/client/items';
import { applyLocalChange } from '../changes/applyLocalChange';
import { type CountsRow, countRowsFromScratch } from './counters';
import type { OutpostDb } from './db';
import { listKeysOf } from './listKeys';
import { SEARCH_LOG_STORE, type SearchLogRow } from './searchLog';
import { ITEM_SIDE_EFFECTS } from './sideEffects';
import { topFlagsFromScratch } from './topFlags';

afterEach(() => closeFakeDbs());

const write = (db: OutpostDb, change: Parameters<typeof applyLocalChange>[1]) =>
  db.transaction('rw', [db.items, db.syncQueue, db.undo], () => applyLocalChange(db, change));

const counters = async (db: OutpostDb) =>
  new Map((await db.table<CountsRow>('counts').toArray()).map((r) => [`${r.parent}|${r.scope}`, r]));

describe("the items store's side effects (sideEffects.ts)", () => {
  it('runs listKeys, topFlags, counters and searchLog, in that order', () => {
    expect(ITEM_SIDE_EFFECTS).toEqual(['listKeys', 'topFlags', 'counters', 'searchLog']);
  });

  it('I2, I3: a write through the funnel stores the list keys, the top-level flags, the counters and a log row', async () => {
    const db = freshFakeDb('effects');
    const task = localItem(1, 'Task', { type: 'task' });
    const todo = localItem(2, 'Todo', { parent_id: 1 });
    await write(db, { rows: [task, todo] });
    const rows = await db.items.toArray();
    // listKeys
    for (const row of rows) expect(row).toMatchObject(listKeysOf(row));
    // topFlags
    expect(new Map(rows.map((r) => [r.id, { _top: r._top, _stop: r._stop }]))).toEqual(
      topFlagsFromScratch(rows),
    );
    expect(rows.find((r) => r.id === 1)?._top).toBe(1);
    expect(rows.find((r) => r.id === 2)?._top).toBe(false);
    // counters
    expect(await counters(db)).toEqual(
      new Map(countRowsFromScratch(rows).map((r) => [`${r.parent}|${r.scope}`, r])),
    );
    // searchLog
    const log = await db.table<SearchLogRow>(SEARCH_LOG_STORE).toArray();
    expect(log.flatMap((r) => r.ids ?? [])).toEqual([1, 2]);
  });

  it('I3: a removal and a move keep every side effect equal to its definition from scratch', async () => {
    const db = freshFakeDb('effects');
    await write(db, {
      rows: [
        localItem(1, 'A', { type: 'task' }),
        localItem(2, 'B', { type: 'task' }),
        localItem(3, 'x', { parent_id: 1 }),
        localItem(4, 'y', { parent_id: 1, status: 'completed' }),
      ],
    });
    const stored = await db.items.get(4);
    await write(db, { rows: [{ ...stored!, parent_id: 2 }], removed: [3] });
    const rows = await db.items.toArray();
    expect(new Map(rows.map((r) => [r.id, { _top: r._top, _stop: r._stop }]))).toEqual(
      topFlagsFromScratch(rows),
    );
    expect(await counters(db)).toEqual(
      new Map(countRowsFromScratch(rows).map((r) => [`${r.parent}|${r.scope}`, r])),
    );
    const log = await db.table<SearchLogRow>(SEARCH_LOG_STORE).toArray();
    expect(log.flatMap((r) => r.ids ?? []).sort()).toEqual([1, 2, 3, 3, 4, 4].sort());
  });
});
