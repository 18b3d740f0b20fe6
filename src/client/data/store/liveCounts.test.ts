import { afterEach, describe, expect, it } from 'vitest';
import { closeFakeDbs, freshFakeDb, stopLater } from '../../../../testkit/client/fakeDb';
import { localItem } from '../../../../testkit/client/items';
import { createSyncStatusStore } from '../../stores/syncStatusStore';
import { createLocalSearch } from '../search/search';
import { watchQueueCounts } from './queueCounts';
import type { QueueEntry } from './types';

afterEach(closeFakeDbs);
const freshDb = () => freshFakeDb('counts');

async function until(done: () => boolean): Promise<void> {
  for (let waited = 0; !done(); waited += 10) {
    if (waited > 3000) throw new Error(`timed out: ${String(done)}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

const item = localItem;

function entry(seq: number, itemId = seq): QueueEntry {
  return {
    id: `entry-${seq}`,
    seq,
    kind: 'update',
    method: 'PATCH',
    url: `/api/items/${itemId}`,
    data: { title: 'x' },
    timestamp: 0,
    retries: 0,
    idempotencyKey: `key-${seq}`,
    baseVersion: 1,
    itemId,
    tag: null,
  } as unknown as QueueEntry;
}

describe('the badge counts (watchQueueCounts)', () => {
  it('follows single writes, bulk writes, deletes and a clear of the queue', async () => {
    const db = freshDb();
    await db.syncQueue.bulkAdd([entry(1), entry(2)]);
    const status = createSyncStatusStore(true);
    stopLater(watchQueueCounts(db, status));
    await until(() => status.getState().pendingCount === 2);
    await db.syncQueue.add(entry(3));
    await until(() => status.getState().pendingCount === 3);
    await db.syncQueue.put({ ...entry(3), retries: 1 });
    await db.syncQueue.delete('entry-1');
    await until(() => status.getState().pendingCount === 2);
    await db.syncQueue.bulkAdd(Array.from({ length: 60 }, (_, i) => entry(10 + i)));
    await until(() => status.getState().pendingCount === 62);
    await db.syncQueue.where('itemId').below(30).delete();
    const left = await db.syncQueue.count();
    await until(() => status.getState().pendingCount === left);
    await db.syncQueue.clear();
    await until(() => status.getState().pendingCount === 0);
  });

  it('counts open conflicts from their index', async () => {
    const db = freshDb();
    const status = createSyncStatusStore(true);
    stopLater(watchQueueCounts(db, status));
    await db.items.put(item(1, 'Calm'));
    await db.items.put(item(2, 'Torn', { _conflict: 'update' }));
    await until(() => status.getState().conflictCount === 1);
    await db.items.put(item(2, 'Torn'));
    await until(() => status.getState().conflictCount === 0);
  });

  it('stops watching when stopped', async () => {
    const db = freshDb();
    const status = createSyncStatusStore(true);
    const stop = watchQueueCounts(db, status);
    await db.syncQueue.add(entry(1));
    await until(() => status.getState().pendingCount === 1);
    stop();
    await db.syncQueue.add(entry(2));
    await new Promise((r) => setTimeout(r, 60));
    expect(status.getState().pendingCount).toBe(1);
  });
});

describe('local search keeps its copy up to date without rebuilding it', () => {
  const account = { userId: 1, isGuest: false };
  const titles = async (s: ReturnType<typeof createLocalSearch>, q: string) =>
    (await s.search(account, q, 100)).map((i) => i.title).sort();

  it('sees edits, creates, deletes, bulk writes and a clear made after the first search', async () => {
    const db = freshDb();
    const search = createLocalSearch(db);
    stopLater(search.dispose);
    await db.items.bulkPut([item(1, 'Paint the fence'), item(2, 'Order paint'), item(3, 'Call Bob')]);
    expect(await titles(search, 'paint')).toEqual(['Order paint', 'Paint the fence']);
    await db.items.put(item(2, 'Order tape'));
    await db.items.put(item(4, 'Paint the shed'));
    await db.items.delete(1);
    expect(await titles(search, 'paint')).toEqual(['Paint the shed']);
    expect(await titles(search, 'tape')).toEqual(['Order tape']);
    await db.items.put(item(4, 'Paint the shed', { _deleted: 1 }));
    expect(await titles(search, 'paint')).toEqual([]);
    await db.items.bulkPut(Array.from({ length: 60 }, (_, i) => item(100 + i, `Bulk paint ${i}`)));
    expect((await titles(search, 'bulk paint')).length).toBe(60);
    await db.items.clear();
    expect(await titles(search, 'paint')).toEqual([]);
  });

  it('keeps the guest and the account apart as items move between them', async () => {
    const db = freshDb();
    const search = createLocalSearch(db);
    stopLater(search.dispose);
    await db.items.put(item(1, 'Guest plan', { _syncStatus: 'local' }));
    const guest = { userId: 0, isGuest: true };
    expect((await search.search(guest, 'plan')).map((i) => i.id)).toEqual([1]);
    expect(await search.search(account, 'plan')).toEqual([]);
    await db.items.put(item(1, 'Guest plan', { _syncStatus: 'synced' }));
    expect(await search.search(guest, 'plan')).toEqual([]);
    expect((await search.search(account, 'plan')).map((i) => i.id)).toEqual([1]);
  });

  it('answers searches that race with writes in order', async () => {
    const db = freshDb();
    const search = createLocalSearch(db);
    stopLater(search.dispose);
    await db.items.put(item(1, 'Draft one'));
    const first = search.search(account, 'draft');
    await db.items.put(item(2, 'Draft two'));
    const second = search.search(account, 'draft');
    expect((await first).length).toBeGreaterThanOrEqual(1);
    expect((await second).map((i) => i.title).sort()).toEqual(['Draft one', 'Draft two']);
  });
});

describe('the sync status store', () => {
  it('notifies no one when a patch changes nothing', () => {
    const store = createSyncStatusStore(true);
    let notices = 0;
    store.subscribe(() => notices++);
    store.getState().set({ pendingCount: 0, conflictCount: 0 });
    expect(notices).toBe(0);
    store.getState().set({ pendingCount: 1 });
    store.getState().set({ pendingCount: 1, conflictCount: 0 });
    expect(notices).toBe(1);
  });
});
