import { describe, expect, it } from 'vitest';
import { createDevice, createSynced, type Device, settled, signIn } from '../../../../testkit/client/harness';
import { freshPhone } from '../../../../testkit/client/server';
import { serverPerFile } from '../../../../testkit/client/serverPerFile';
import type { Item } from '../../../shared/item';

// Issue 13, item 4: what is edited after creation (a due date, a reminder, the parent) reaches the
// server and every other device; a move the server refuses is undone with the server's words.

const files = serverPerFile();
const devices = files.devices;

async function signedInDevice(phone = freshPhone(), name = 'Tester'): Promise<Device> {
  const d = createDevice(files.server.url);
  devices.push(d);
  await signIn(d, phone, name);
  return d;
}

async function serverItem(d: Device, id: number): Promise<Item> {
  return (await d.client.api.get<Item>(`/items/${id}`)).data;
}

describe('editing after creation', () => {
  it('syncs an edited due date, reminder and parent made offline, and another device pulls them', async () => {
    const phone = freshPhone();
    const d = await signedInDevice(phone);
    const home = await createSynced(d, { title: 'Home', type: 'campaign' });
    const paint = await createSynced(d, { title: 'Paint', type: 'task', parent_id: home.id });
    const gate = await createSynced(d, { title: 'Gate', type: 'task', parent_id: home.id });
    const todo = await createSynced(d, { title: 'Brushes', type: 'todo', parent_id: paint.id });
    expect(todo.id).toBeGreaterThan(0);

    d.goOffline();
    await d.client.items.update(todo.id, {
      due_date: '2031-06-01',
      remind_at: '2031-05-31T17:30:00+02:00',
      parent_id: gate.id,
    });
    const local = await d.client.db.items.get(todo.id);
    expect(local).toMatchObject({
      due_date: '2031-06-01',
      remind_at: '2031-05-31T15:30:00.000Z',
      parent_id: gate.id,
      _syncStatus: 'pending',
    });
    expect(local?._dirty).toEqual(expect.arrayContaining(['due_date', 'remind_at', 'parent_id']));

    d.goOnline();
    await d.client.engine.sync();
    expect(await serverItem(d, todo.id)).toMatchObject({
      due_date: '2031-06-01',
      remind_at: '2031-05-31T15:30:00.000Z',
      parent_id: gate.id,
    });
    expect(await d.client.db.items.get(todo.id)).toMatchObject({ _syncStatus: 'synced', _dirty: [] });

    const other = await signedInDevice(phone);
    await other.client.engine.sync();
    expect(await other.client.db.items.get(todo.id)).toMatchObject({
      due_date: '2031-06-01',
      remind_at: '2031-05-31T15:30:00.000Z',
      parent_id: gate.id,
    });

    // A later edit on the second device (clearing the reminder) reaches the first one.
    await other.client.items.update(todo.id, { remind_at: null });
    await settled(other);
    await d.client.engine.sync();
    expect((await d.client.db.items.get(todo.id))?.remind_at).toBeNull();
  });

  it("puts a refused move back and says the server's reason (only the creator may move it out)", async () => {
    const owner = await signedInDevice(freshPhone(), 'Owner');
    const helperPhone = freshPhone();
    const helper = await signedInDevice(helperPhone, 'Helper');
    const helperId = helper.client.auth.getState().user.id;
    // Make them mutual contacts so the owner may assign the helper.
    await owner.client.api.post('/contacts/sync', { contacts: [helperPhone] });
    await helper.client.api.post('/contacts/sync', {
      contacts: [owner.client.auth.getState().user.phone],
    });
    const campaign = await createSynced(owner, { title: 'Shared', type: 'campaign' });
    const task = await createSynced(owner, {
      title: 'Owned task',
      type: 'task',
      parent_id: campaign.id,
    });
    await owner.client.items.assign(campaign.id, helperId);
    await settled(owner);
    const elsewhere = await createSynced(helper, { title: 'Mine', type: 'campaign' });
    await helper.client.engine.sync();
    expect((await helper.client.db.items.get(task.id))?.parent_id).toBe(campaign.id);

    helper.client.toasts.getState().clear();
    const stored = await helper.client.items.update(task.id, { parent_id: elsewhere.id });
    // Stored at once (W1), sent in the background and refused: the item is back under its campaign,
    // and a toast says why.
    expect(stored.parent_id).toBe(elsewhere.id);
    await settled(helper);
    expect((await helper.client.db.items.get(task.id))?.parent_id).toBe(campaign.id);
    const toast = helper.client.toasts.getState().queue.find((t) => t.title === 'Change not synced');
    expect(toast?.description).toMatch(/Only the creator of this item or of its campaign can move it/);
    expect(await helper.client.db.syncQueue.count()).toBe(0);
  });
});
