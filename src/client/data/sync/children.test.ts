import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { describe, expect, it } from 'vitest';
import { ITEM_CHILDREN } from '../../../shared/itemChildren';
import { OutpostDb } from '../store/db';
import { mergeChildWrites, removeChildrenOf, retargetChildren } from './children';
import { TABLES } from './context';
import { wipeOtherAccount } from './deviceWipe';
import { swapTempId } from './tempIds';

// K30: sync/ keeps every declared child kind with its item through the declarations alone. Each test
// fills every kind's store from ITEM_CHILDREN, so a kind declared later is covered without a line here.

let dbs = 0;
const freshDb = () => new OutpostDb(`children-${++dbs}`, { indexedDB: new IDBFactory(), IDBKeyRange });

/** A row of a child kind's store: its key from the store's schema, its item, its sync state. */
function childRow(db: OutpostDb, store: string, key: number, itemId: number, syncStatus: string) {
  const keyPath = db.table(store).schema.primKey.keyPath;
  return {
    id: key,
    uuid: `00000000-0000-4000-8000-${String(key).padStart(12, '0')}`,
    ...(keyPath === 'id' || keyPath === 'uuid' ? {} : { [String(keyPath)]: key }),
    item_id: itemId,
    item_uuid: null,
    user_id: 1,
    started_at: '2026-11-25T10:00:00.000Z',
    created_at: '2026-11-25T10:00:00.000Z',
    running: 0,
    _syncStatus: syncStatus,
    _deleted: 0,
  };
}

async function fill(db: OutpostDb, rows: { key: number; itemId: number; syncStatus?: string }[]) {
  await db.transaction('rw', [...TABLES], async () => {
    for (const { store } of ITEM_CHILDREN)
      await db
        .table(store)
        .bulkPut(rows.map((r) => childRow(db, store, r.key, r.itemId, r.syncStatus ?? 'synced')));
  });
}

const itemsOf = async (db: OutpostDb, store: string) =>
  (await db.table(store).toArray()).map((r: { item_id: number }) => r.item_id).sort((a, b) => a - b);

describe('the children of an item on the device (K30)', () => {
  it('K30: a sync step’s transaction holds every declared kind’s store', () => {
    for (const { store } of ITEM_CHILDREN) expect(TABLES).toContain(store);
  });

  it('K30: a temporary id’s swap moves every kind’s rows to the new id, and only that item’s', async () => {
    const db = freshDb();
    await fill(db, [
      { key: 1, itemId: -5 },
      { key: 2, itemId: -5 },
      { key: 3, itemId: 8 },
    ]);
    await db.transaction('rw', [...TABLES], () => swapTempId(db, -5, 41));
    for (const { store } of ITEM_CHILDREN) expect(await itemsOf(db, store)).toEqual([8, 41, 41]);
    // Moving again changes nothing.
    await db.transaction('rw', [...TABLES], () => retargetChildren(db, new Map([[-5, 41]])));
    for (const { store } of ITEM_CHILDREN) expect(await itemsOf(db, store)).toEqual([8, 41, 41]);
  });

  it('K30: items that leave the device take every kind’s rows with them, twice the same as once', async () => {
    const db = freshDb();
    await fill(db, [
      { key: 1, itemId: 3 },
      { key: 2, itemId: 4 },
      { key: 3, itemId: 5 },
    ]);
    await db.transaction('rw', [...TABLES], () => removeChildrenOf(db, [3, 5]));
    for (const { store } of ITEM_CHILDREN) expect(await itemsOf(db, store)).toEqual([4]);
    await db.transaction('rw', [...TABLES], () => removeChildrenOf(db, [3, 5]));
    for (const { store } of ITEM_CHILDREN) expect(await itemsOf(db, store)).toEqual([4]);
  });

  it('K30: a sign-in as another account keeps only the guest’s own rows of every kind', async () => {
    const db = freshDb();
    await fill(db, [
      { key: 1, itemId: -1, syncStatus: 'local' },
      { key: 2, itemId: 9, syncStatus: 'synced' },
      { key: 3, itemId: 10, syncStatus: 'pending' },
    ]);
    await db.transaction('rw', db.tables, () => wipeOtherAccount(db, 77));
    for (const { store } of ITEM_CHILDREN) expect(await itemsOf(db, store)).toEqual([-1]);
  });

  it('merges several features’ writes store by store, in order', () => {
    expect(
      mergeChildWrites([
        { comments: { put: [{ id: 1 } as never], removed: [4] } },
        undefined,
        { comments: { put: [{ id: 2 } as never] }, timeEntries: { removed: ['u'] } },
      ]),
    ).toEqual({
      comments: { put: [{ id: 1 }, { id: 2 }], removed: [4] },
      timeEntries: { put: [], removed: ['u'] },
    });
  });
});
