import { IDBObjectStore } from 'fake-indexeddb';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createDevice, createSynced, type Device, settled, signIn } from '../../../../testkit/client/harness';
import { freshPhone } from '../../../../testkit/client/server';
import { serverPerFile } from '../../../../testkit/client/serverPerFile';
import type { Item } from '../../../shared/item';
import { META_KEYS, setMeta } from '../store/db';

// How often one local edit writes its item row to IndexedDB on its way through sync (issue 63 item 4):
// every put of the row costs its side effects (list keys, flags, counters, a search log row) and wakes
// the live queries over it.

const files = serverPerFile();

async function signedIn(): Promise<Device> {
  const d = createDevice(files.server.url);
  files.devices.push(d);
  await signIn(d, freshPhone(), 'Writer');
  return d;
}

/** Counts the puts (and adds) of the item `id`'s row on any device's `items` store from now on, by any route. */
function countRowWrites(id: number): () => number {
  let writes = 0;
  const put = IDBObjectStore.prototype.put;
  const add = IDBObjectStore.prototype.add;
  const counted = (write: typeof put) =>
    function (this: IDBObjectStore, value: unknown, key?: IDBValidKey) {
      if (this.name === 'items' && (value as { id?: unknown } | null)?.id === id) writes++;
      return write.call(this, value, key);
    };
  vi.spyOn(IDBObjectStore.prototype, 'put').mockImplementation(counted(put));
  vi.spyOn(IDBObjectStore.prototype, 'add').mockImplementation(counted(add));
  return () => writes;
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('the writes of one local edit through sync', () => {
  it('L12: a title edit writes its row twice (the edit, the push’s answer), and not again when the pull brings the same version back', async () => {
    const d = await signedIn();
    const item = await createSynced(d, { title: 'Counted', type: 'todo' });
    await d.client.engine.sync();
    const writes = countRowWrites(item.id);
    await d.client.items.update(item.id, { title: 'Counted, edited' });
    expect(writes()).toBe(1);
    await settled(d);
    // The push's answer: the row becomes the server's new version, synced.
    expect(writes()).toBe(2);
    const answered = await d.client.db.items.get(item.id);
    expect(answered).toMatchObject({ title: 'Counted, edited', _syncStatus: 'synced' });
    await d.client.engine.sync();
    expect(writes()).toBe(2);
    const server = (await d.client.api.get<Item>(`/items/${item.id}`)).data;
    expect(await d.client.db.items.get(item.id)).toEqual(answered);
    expect(answered).toMatchObject({ version: server.version, title: server.title });
  });

  it('L12, N14: a pulled row of the version the device holds is written when its content is new (its creator renamed)', async () => {
    const d = await signedIn();
    const item = await createSynced(d, { title: 'Carries a name', type: 'todo' });
    await d.client.engine.sync();
    const before = await d.client.db.items.get(item.id);
    // The rename gives the item a new change_xid, not a new version (N14).
    await d.client.api.patch('/me', { name: 'Writer, renamed' });
    const writes = countRowWrites(item.id);
    await d.client.engine.sync();
    expect(writes()).toBe(1);
    const after = await d.client.db.items.get(item.id);
    expect(after?.version).toBe(before?.version);
    expect(after?.user.name).toBe('Writer, renamed');
    expect(after?.created_by.name).toBe('Writer, renamed');
  });

  it('L12: a pulled row of the version the device holds replaces a roll-up the device predicted', async () => {
    const d = await signedIn();
    const task = await createSynced(d, { title: 'Parent', type: 'task' });
    const todo = await createSynced(d, { title: 'Child', type: 'todo', parent_id: task.id });
    await d.client.engine.sync();
    const stored = (await d.client.db.items.get(task.id))!;
    // A prediction the server never made (SYNC.md: a roll-up kept as `_predicted` until a pull confirms it).
    await d.client.db.items.put({
      ...stored,
      status: 'completed',
      completed_at: stored.updated_at,
      _predicted: { status: 'completed', completed_at: stored.updated_at },
    });
    // The pull from the start brings the task again at the version the device holds.
    await setMeta(d.client.db, META_KEYS.cursor, '');
    await d.client.engine.sync();
    expect(await d.client.db.items.get(task.id)).toMatchObject({
      status: 'pending',
      version: stored.version,
      _predicted: null,
    });
    expect((await d.client.db.items.get(todo.id))?.status).toBe('pending');
  });
});
