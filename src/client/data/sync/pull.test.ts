import type { DBCoreGetManyRequest, DBCoreQueryRequest } from 'dexie';
import { afterEach, describe, expect, it } from 'vitest';
import { anotherConnection, closeFakeDbs, freshFakeDb } from '../../../../testkit/client/fakeDb';
import { serverItem } from '../../../../testkit/client/items';
import type { Item, ItemStatus, ItemType } from '../../../shared/item';
import { childrenWhere } from '../store/childRows';
import { type CountsRow, countRowsFromScratch } from '../store/counters';
import type { OutpostDb } from '../store/db';
import { topFlagsFromScratch } from '../store/topFlags';
import { applyPulled, pull, pulledParents } from './pull';

afterEach(() => closeFakeDbs());

const item = (id: number, type: ItemType, parent: number | null, status: ItemStatus = 'pending'): Item =>
  serverItem(id, `Item ${id}`, { uuid: `u-${id}`, type, status, parent_id: parent });

/** Three campaigns with four tasks each, then `todos` todos a page over those tasks. */
function pages(todoPages: number, todos: number): Item[][] {
  const first: Item[] = [];
  for (let c = 0; c < 3; c++) first.push(item(100 + c, 'campaign', null, 'in_progress'));
  for (let t = 0; t < 12; t++) first.push(item(1_000 + t, 'task', 100 + (t % 3)));
  const out = [first];
  for (let p = 0; p < todoPages; p++) {
    const page: Item[] = [];
    for (let i = 0; i < todos; i++) {
      const id = 10_000 + p * todos + i;
      page.push(item(id, 'todo', 1_000 + (i % 12), i % 4 === 0 ? 'completed' : 'pending'));
    }
    out.push(page);
  }
  return out;
}

/** A read of stored rows over a range of ids (the look-up of temporary ids, all below 0, is not one). */
const isRowRange = (req: DBCoreQueryRequest) =>
  req.values && req.query.index.isPrimaryKey && req.query.range.lower !== undefined;

/** Counts, while `on`, the item rows `db` reads by id (a get, or a range of ids). */
function countRowReads(db: OutpostDb): { on: boolean; rows: number } {
  const counter = { on: false, rows: 0 };
  db.use({
    stack: 'dbcore',
    name: 'countRowReads',
    create: (down) => ({
      ...down,
      table: (name) => {
        const table = down.table(name);
        if (name !== 'items') return table;
        return {
          ...table,
          getMany: (req: DBCoreGetManyRequest) => {
            if (counter.on) counter.rows += req.keys.length;
            return table.getMany(req);
          },
          query: (req: DBCoreQueryRequest) => {
            if (counter.on && isRowRange(req)) counter.rows++;
            return table.query(req);
          },
        };
      },
    }),
  });
  return counter;
}

const byKey = (rows: CountsRow[]) =>
  [...rows].sort((a, b) => `${a.parent}|${a.scope}`.localeCompare(`${b.parent}|${b.scope}`));

/** The counters and flags as stored, against what they are from scratch over every stored row. */
async function expectIndexesFromScratch(db: OutpostDb): Promise<void> {
  const rows = await db.items.toArray();
  expect(byKey(await db.counts.toArray())).toEqual(byKey(countRowsFromScratch(rows)));
  const flags = topFlagsFromScratch(rows);
  expect(
    rows
      .filter((r) => r._top !== flags.get(r.id)?._top || r._stop !== flags.get(r.id)?._stop)
      .map((r) => r.id),
  ).toEqual([]);
}

describe('a pull keeps the parents it stored (L11)', () => {
  it("L11: a pull's later transactions read none of the parents its earlier ones stored", async () => {
    const [first, ...todoPages] = pages(2, 60);
    const db = freshFakeDb('pulled');
    const reads = countRowReads(db);
    const pulled = pulledParents();
    await applyPulled(db, first!, 'c1', {}, true, undefined, pulled);
    reads.on = true;
    await applyPulled(db, todoPages[0]!, 'c2', {}, true, undefined, pulled);
    await applyPulled(db, todoPages[1]!, 'c3', {}, false, undefined, pulled);
    expect(reads.rows).toBe(0);
    await expectIndexesFromScratch(db);

    // The same pages, each pulled on its own (nothing kept), read them.
    const alone = freshFakeDb('unkept');
    const aloneReads = countRowReads(alone);
    await applyPulled(alone, first!, 'c1', {}, true);
    aloneReads.on = true;
    await applyPulled(alone, todoPages[0]!, 'c2', {}, false);
    expect(aloneReads.rows).toBeGreaterThan(0);
  });

  it('L11: a write between two of its transactions, in this tab or another, makes the pull read what it touched again', async () => {
    const db = freshFakeDb('pulled-written');
    const [first, ...todoPages] = pages(3, 48);
    const pulled = pulledParents();
    await applyPulled(db, first!, 'c1', {}, true, undefined, pulled);
    // Another tab (its own connection) deletes a task and moves another under a different campaign.
    const other = anotherConnection(db);
    const deleted = (await other.items.get(1_001))!;
    await other.items.put({ ...deleted, _deleted: 1, _syncStatus: 'pending' });
    const moved = (await other.items.get(1_002))!;
    await other.items.put({ ...moved, parent_id: 100, _syncStatus: 'pending' });
    other.close();
    await applyPulled(db, todoPages[0]!, 'c2', {}, true, undefined, pulled);
    // This tab marks a campaign deleted and completes a task.
    await db.items.update(101, { _deleted: 1, _syncStatus: 'pending' });
    await db.items.update(1_003, { status: 'completed', _syncStatus: 'pending' });
    await applyPulled(db, todoPages[1]!, 'c3', {}, true, undefined, pulled);
    // A task kept from the first page goes: its todos in the last page find no parent.
    await db.items.where('id').equals(1_004).delete();
    await applyPulled(db, todoPages[2]!, 'c4', {}, false, undefined, pulled);
    await expectIndexesFromScratch(db);
    const orphans = await childrenWhere(db.items, 1_001).toArray();
    expect(orphans.length).toBeGreaterThan(0);
    expect(orphans.every((o) => o._top === 1)).toBe(true);
  });
});

describe('a pull that finds nothing new', () => {
  /** The stores of every write transaction `db` opens while `on` (registered before it opens). */
  function watchWrites(db: OutpostDb): { on: boolean; writes: string[][] } {
    const watch = { on: false, writes: [] as string[][] };
    db.use({
      stack: 'dbcore',
      name: 'watchWrites',
      create: (down) => ({
        ...down,
        transaction: (stores, mode, options) => {
          if (watch.on && mode === 'readwrite') watch.writes.push([...stores].sort());
          return down.transaction(stores, mode, options);
        },
      }),
    });
    return watch;
  }
  const emptyPage = (cursor: string) => ({
    get: async () => ({ data: { items: [], comments: [], cursor, has_more: false } }),
  });

  it('L9: opens no write transaction over the items: only meta, the cursor (when it moved) and the time of the sync', async () => {
    const db = freshFakeDb('pull-empty');
    const watch = watchWrites(db);
    await applyPulled(db, [item(1, 'todo', null)], 'c1', {}, false, '');
    watch.on = true;
    await pull({ db, api: emptyPage('c1') as never });
    // A run right after a long first sync: its transactions would hold up the first screen's reads.
    expect(watch.writes).toEqual([['meta']]);
    watch.writes.length = 0;
    await pull({ db, api: emptyPage('c2') as never });
    expect(watch.writes).toEqual([['meta'], ['meta']]);
    expect((await db.meta.get('cursor'))?.value).toBe('c2');
    expect(await db.items.count()).toBe(1);
  });

  it('L10: stores no cursor when the device cursor was reset while the page was on its way', async () => {
    const db = freshFakeDb('pull-empty');
    await applyPulled(db, [item(1, 'todo', null)], 'c1', {}, false, '');
    const api = {
      get: async () => {
        await db.meta.delete('cursor');
        return { data: { items: [], comments: [], cursor: 'c2', has_more: false } };
      },
    };
    await pull({ db, api: api as never });
    expect(await db.meta.get('cursor')).toBeUndefined();
  });
});
