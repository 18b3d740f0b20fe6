import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDevice, createSynced, type Device, settled, signIn } from '../../../../testkit/client/harness';
import { type ClientTestServer, freshPhone, startClientTestServer } from '../../../../testkit/client/server';

// Edits in place, one after another and from two tabs of one browser (itemsRepository `write`): each
// starts from the row as stored, so whatever another tab changed since is kept, and the queue keeps
// every request in the order it was made.

let server: ClientTestServer;
const devices: Device[] = [];

beforeAll(async () => {
  server = await startClientTestServer();
});
afterAll(async () => {
  await settled(...devices);
  for (const d of devices) d.client.close();
  await server.close();
});

async function signedIn(): Promise<Device> {
  const d = createDevice(server.url);
  devices.push(d);
  await signIn(d, freshPhone());
  return d;
}

/** A second tab of the same browser: same IndexedDB, its own client (and repository). */
function secondTab(d: Device): Device {
  const tab = createDevice(server.url, d.name, { idb: d.idb, jar: d.jar });
  devices.push(tab);
  tab.goOffline();
  return tab;
}

async function queueOf(d: Device, itemId: number) {
  const rows = await d.client.db.syncQueue.orderBy('seq').toArray();
  return rows.filter((r) => r.itemId === itemId).map((r) => ({ kind: r.kind, data: r.data, seq: r.seq }));
}

describe('edits in place, one after another', () => {
  it('stores and queues every edit of the same row in order', async () => {
    const d = await signedIn();
    d.goOffline();
    const item = await d.client.items.create({ title: 'Draft', type: 'todo' });
    await d.client.items.update(item.id, { title: 'First' });
    await d.client.items.update(item.id, { title: 'Second' });
    await d.client.items.update(item.id, { description: 'Notes' });
    const row = await d.client.db.items.get(item.id);
    expect(row).toMatchObject({ title: 'Second', description: 'Notes', _syncStatus: 'pending' });
    expect(row?._dirty).toEqual(expect.arrayContaining(['title', 'description']));
    const queued = await queueOf(d, item.id);
    expect(queued.map((q) => [q.kind, q.data])).toEqual([
      ['create', expect.objectContaining({ title: 'Draft' })],
      ['update', { title: 'First' }],
      ['update', { title: 'Second' }],
      ['update', { description: 'Notes' }],
    ]);
    const seqs = queued.map((q) => q.seq);
    expect(seqs).toEqual([...seqs].sort((a, b) => a - b));
    expect(new Set(seqs).size).toBe(seqs.length);
  });

  it("keeps another tab's change to the row made between two edits", async () => {
    const d = await signedIn();
    const item = await createSynced(d, { title: 'Shared row', type: 'todo' });
    d.goOffline();
    const tab = secondTab(d);
    await d.client.items.update(item.id, { title: 'Mine 1' });
    await tab.client.items.update(item.id, { description: 'From the other tab' });
    await d.client.items.update(item.id, { title: 'Mine 2' });
    const row = await d.client.db.items.get(item.id);
    expect(row).toMatchObject({ title: 'Mine 2', description: 'From the other tab' });
    // Three edits after the create, each counted once.
    expect(row?._localVersion).toBe(item._localVersion + 3);
    expect((await queueOf(d, item.id)).map((q) => q.data)).toEqual([
      { title: 'Mine 1' },
      { description: 'From the other tab' },
      { title: 'Mine 2' },
    ]);
  });

  it('queues an edit after what another tab queued meanwhile, on any item', async () => {
    const d = await signedIn();
    const mine = await createSynced(d, { title: 'Mine', type: 'todo' });
    const theirs = await createSynced(d, { title: 'Theirs', type: 'todo' });
    d.goOffline();
    const tab = secondTab(d);
    await d.client.items.update(mine.id, { title: 'Mine, edited' });
    await tab.client.items.update(theirs.id, { title: 'Theirs, edited' });
    await d.client.items.update(mine.id, { title: 'Mine, edited again' });
    const all = await d.client.db.syncQueue.orderBy('seq').toArray();
    expect(all.map((q) => q.data?.title)).toEqual(['Mine, edited', 'Theirs, edited', 'Mine, edited again']);
    expect(new Set(all.map((q) => q.seq)).size).toBe(all.length);
  });

  it('stores a row deleted by another tab as deleted, not edited', async () => {
    const d = await signedIn();
    const item = await createSynced(d, { title: 'Going', type: 'todo' });
    d.goOffline();
    const tab = secondTab(d);
    await d.client.items.update(item.id, { title: 'Going, edited' });
    await tab.client.items.remove(item.id);
    await expect(d.client.items.update(item.id, { title: 'Too late' })).rejects.toThrow();
    const row = await d.client.db.items.get(item.id);
    expect(row?.title).not.toBe('Too late');
  });

  it("a guest's edits of the same row, one after another, are all stored", async () => {
    const d = createDevice(server.url);
    devices.push(d);
    const item = await d.client.items.create({ title: 'Guest row', type: 'todo' });
    for (const title of ['One', 'Two', 'Three']) await d.client.items.update(item.id, { title });
    const tab = secondTab(d);
    await tab.client.items.update(item.id, { description: 'Tab' });
    await d.client.items.update(item.id, { title: 'Four' });
    expect(await d.client.db.items.get(item.id)).toMatchObject({ title: 'Four', description: 'Tab' });
    expect(await d.client.db.syncQueue.count()).toBe(0);
  });
});
