import { describe, expect, it } from 'vitest';
import { testDevices } from '../../../../testkit/client/devices';
import { createSynced, settled, signIn } from '../../../../testkit/client/harness';
import { freshPhone } from '../../../../testkit/client/server';
import type { Item } from '../../../shared/item';
import { fromServer } from '../store/localItems';

const { device } = testDevices();

async function signedInPair() {
  const phone = freshPhone();
  const a = device();
  const b = device();
  await signIn(a, phone, 'Planner');
  await signIn(b, phone, 'Planner');
  return { a, b };
}

describe('planning fields on the device', () => {
  it('gives an item made here priority 4, no labels and a key after its last sibling’s, for a guest too', async () => {
    const d = device();
    d.client.auth.getState().initGuest();
    const campaign = await d.client.items.create({ title: 'Trip', type: 'campaign' });
    expect(campaign).toMatchObject({ priority: 4, labels: [] });
    const first = await d.client.items.create({ title: 'Tickets', type: 'task', parent_id: campaign.id });
    const second = await d.client.items.create({ title: 'Hotel', type: 'task', parent_id: campaign.id });
    expect(first.sort_key).toMatch(/^[0-9A-Za-z]{1,64}$/);
    expect(second.sort_key! > first.sort_key!).toBe(true);
    const another = await d.client.items.create({ title: 'Home', type: 'campaign' });
    expect(another.sort_key! > campaign.sort_key!).toBe(true);
    // Stored as made.
    expect(await d.client.db.items.get(second.id)).toMatchObject({
      priority: 4,
      labels: [],
      sort_key: second.sort_key,
    });
  });

  it('sends the key it gave to the server, and a pull brings the fields into the stored rows', async () => {
    const { a, b } = await signedInPair();
    const task = await createSynced(a, { title: 'Launch', type: 'task' });
    const todo = await createSynced(a, { title: 'Press', type: 'todo', parent_id: task.id });
    const onServer = (await a.client.api.get<Item>(`/items/${todo.id}`)).data;
    expect(onServer.sort_key).toBe(todo.sort_key);
    await a.client.api.patch(`/items/${todo.id}`, { priority: 1, labels: ['PR', 'urgent'] });
    await b.client.engine.sync();
    expect(await b.client.db.items.get(todo.id)).toMatchObject({
      priority: 1,
      labels: ['PR', 'urgent'],
      sort_key: todo.sort_key,
      _syncStatus: 'synced',
    });
  });

  it('keeps a priority and labels changed on one device and a title changed offline on another', async () => {
    const { a, b } = await signedInPair();
    const item = await createSynced(a, { title: 'Budget', type: 'task' });
    await b.client.engine.sync();
    b.goOffline();
    await a.client.items.update(item.id, { priority: 2, labels: ['Money'] });
    await settled(a);
    await b.client.items.update(item.id, { title: 'Budget 2031' });
    b.goOnline();
    const run = await b.client.engine.sync();
    expect(run.conflicts).toBe(0);
    await a.client.engine.sync();
    for (const d of [a, b]) {
      expect(await d.client.db.items.get(item.id)).toMatchObject({
        title: 'Budget 2031',
        priority: 2,
        labels: ['Money'],
        _syncStatus: 'synced',
      });
    }
    const server = (await a.client.api.get<Item>(`/items/${item.id}`)).data;
    expect(server).toMatchObject({ title: 'Budget 2031', priority: 2, labels: ['Money'] });
  });

  it('calls a conflict only when both devices changed the labels, not when they agree', async () => {
    const { a, b } = await signedInPair();
    const item = await createSynced(a, { title: 'Plan', type: 'task' });
    await b.client.engine.sync();
    b.goOffline();
    await a.client.items.update(item.id, { labels: ['x'] });
    await settled(a);
    await b.client.items.update(item.id, { labels: ['x'] });
    b.goOnline();
    expect((await b.client.engine.sync()).conflicts).toBe(0);
    b.goOffline();
    await a.client.items.update(item.id, { labels: ['from A'] });
    await settled(a);
    await b.client.items.update(item.id, { labels: ['from B'] });
    b.goOnline();
    expect((await b.client.engine.sync()).conflicts).toBe(1);
  });

  it('reads a row from a server without the fields as priority 4, no labels and no place yet', () => {
    const old = { id: 1, title: 'Old', version: 1 } as unknown as Item;
    expect(fromServer(old)).toMatchObject({ priority: 4, labels: [], sort_key: '' });
    expect(fromServer({ ...old, priority: 2, labels: ['a'], sort_key: 'a1' })).toMatchObject({
      priority: 2,
      labels: ['a'],
      sort_key: 'a1',
    });
  });
});
