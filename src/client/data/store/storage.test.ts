import { IDBIndex, IDBObjectStore } from 'fake-indexeddb';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { closeFakeDbs, freshFakeDb } from '../../../../testkit/client/fakeDb';
import { localItem } from '../../../../testkit/client/items';
import { createStorageKeeper, waitingFiles } from './storage';

afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
  closeFakeDbs();
});

/** A browser's storage manager that has not yet granted persistence. */
function stubStorage() {
  const persist = vi.fn(async () => true);
  vi.stubGlobal('navigator', { storage: { persisted: async () => false, persist } });
  return persist;
}

describe('the storage keeper', () => {
  it('asks to keep storage at start when an item is stored, from one key and without counting the store', async () => {
    const db = freshFakeDb('storage');
    await db.items.bulkPut([localItem(1, 'One'), localItem(2, 'Two'), localItem(3, 'Three')]);
    const persist = stubStorage();
    // IndexedDB counts by walking every row: at 100,000 items that is on the way to the first screen.
    const counts = [vi.spyOn(IDBObjectStore.prototype, 'count'), vi.spyOn(IDBIndex.prototype, 'count')];
    const stop = createStorageKeeper().service.start({ db });
    await vi.waitFor(() => expect(persist).toHaveBeenCalledTimes(1));
    expect(counts.map((c) => c.mock.calls.length)).toEqual([0, 0]);
    stop();
  });

  it('asks nothing at start on a device that stores no item', async () => {
    const db = freshFakeDb('storage');
    await db.open();
    const persist = stubStorage();
    createStorageKeeper().service.start({ db });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(persist).not.toHaveBeenCalled();
  });

  it('A14: counts the files whose bytes wait on the device, and asks to keep storage for them at start', async () => {
    const db = freshFakeDb('storage');
    await db.open();
    expect(await waitingFiles(db)).toEqual({ count: 0, bytes: 0 });
    const file = (uuid: string, size: number) => ({
      uuid,
      item_id: 1,
      item_uuid: null,
      owner: 0,
      blob: new Blob([new Uint8Array(size)]),
      name: `${uuid}.bin`,
      type: 'application/octet-stream',
      size,
      createdAt: '2026-11-25T10:00:00.000Z',
    });
    await db.fileBlobs.bulkPut([file('a', 1500), file('b', 2500)]);
    expect(await waitingFiles(db)).toEqual({ count: 2, bytes: 4000 });
    const persist = stubStorage();
    const stop = createStorageKeeper().service.start({ db });
    await vi.waitFor(() => expect(persist).toHaveBeenCalledTimes(1));
    stop();
  });
});
