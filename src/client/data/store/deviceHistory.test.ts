import { describe, expect, it } from 'vitest';
import { testDevices } from '../../../../testkit/client/devices';
import { type Device, settled, signIn } from '../../../../testkit/client/harness';
import { freshPhone } from '../../../../testkit/client/server';
import { type HistoryEntry, historyChanges, planRevert } from '../../../shared/history';
import type { ItemPatchInput } from '../../../shared/schemas';
import { applyLocalChange } from '../changes/applyLocalChange';
import { itemHistory } from '../reads/itemPageReads';
import { clearDeviceStores } from '../sync/deviceWipe';
import { type DeviceHistoryRow, HISTORY_STORE } from './historyStore';

const { device, guest, signedIn } = testDevices();

const rows = (d: Device) => d.client.db.table<DeviceHistoryRow, number>(HISTORY_STORE).toArray();

/** What a line of the timeline says, without its time. */
const said = async (d: Device, itemId: number) =>
  (await itemHistory(d.client.db, itemId)).map((e) => ({
    who: e.user.name,
    action: e.action,
    changes: historyChanges(e.metadata),
  }));

describe('a guest’s history on the device (SYNC.md K19)', () => {
  it('K19: a guest’s edit writes one entry with from and to, in the transaction of the edit', async () => {
    const d = guest();
    const todo = await d.client.items.create({ title: 'Draft', type: 'todo' });
    const before = (await rows(d)).length;
    await d.client.items.update(todo.id, { title: 'Final' });
    const added = (await rows(d)).slice(before);
    expect(added).toHaveLength(1);
    expect(added[0]).toMatchObject({
      item_id: todo.id,
      item_uuid: todo.uuid,
      user: { id: 0, name: 'You' },
      action: 'updated',
      metadata: { title: { old: 'Draft', new: 'Final' } },
    });
    // Written in the change's own transaction: when that fails, no entry stays.
    const stored = await d.client.db.items.get(todo.id);
    await expect(
      d.client.db.transaction('rw', [d.client.db.items], async () => {
        await applyLocalChange(d.client.db, { rows: [{ ...stored!, title: 'Lost' }] });
        throw new Error('abort');
      }),
    ).rejects.toThrow('abort');
    expect((await rows(d)).length).toBe(before + 1);
    expect((await d.client.db.items.get(todo.id))?.title).toBe('Final');
  });

  it('K19: creation, completion, reopening, a move (parents by title) and a delete, oldest first', async () => {
    const d = guest();
    const { items } = d.client;
    const home = await items.create({ title: 'Home', type: 'campaign' });
    const garden = await items.create({ title: 'Garden', type: 'campaign' });
    const todo = await items.create({ title: 'Rake', type: 'todo', parent_id: home.id });
    await items.toggle(todo.id);
    await items.toggle(todo.id);
    await items.update(todo.id, { parent_id: garden.id });
    await items.update(todo.id, { priority: 1, labels: ['out'] });
    expect(await said(d, todo.id)).toEqual([
      { who: 'You', action: 'created', changes: {} },
      { who: 'You', action: 'completed', changes: { status: { from: 'pending', to: 'completed' } } },
      { who: 'You', action: 'reopened', changes: { status: { from: 'completed', to: 'pending' } } },
      { who: 'You', action: 'updated', changes: { parent: { from: 'Home', to: 'Garden' } } },
      {
        who: 'You',
        action: 'updated',
        changes: { priority: { from: 4, to: 1 }, labels: { from: [], to: ['out'] } },
      },
    ]);
    await items.remove(todo.id);
    expect((await said(d, todo.id)).at(-1)).toEqual({ who: 'You', action: 'deleted', changes: {} });
    // The parent's roll-up is its own history, as on the server: its only todo completed it, then reopened it.
    expect((await said(d, home.id)).map((e) => e.action)).toEqual(['created', 'completed', 'reopened']);
  });

  it('K19: a signed-in user’s edit writes no device entry (the server records it)', async () => {
    const d = await signedIn();
    const todo = await d.client.items.create({ title: 'Draft', type: 'todo' });
    await d.client.items.update(todo.id, { title: 'Final' });
    await d.client.items.toggle(todo.id);
    expect(await rows(d)).toEqual([]);
  });

  it('K19, K3: a restore sets back what still holds the entry’s value, skips a field changed since, and is an entry itself', async () => {
    const d = guest();
    const { items } = d.client;
    const todo = await items.create({ title: 'Draft', type: 'todo' });
    await items.update(todo.id, { title: 'Final', description: 'v1' });
    await items.update(todo.id, { description: 'v2' });
    const [, edit] = await itemHistory(d.client.db, todo.id);
    const current = await d.client.db.items.get(todo.id);
    const { patch, skipped } = planRevert(edit!.metadata, current!);
    expect(patch).toEqual({ title: 'Draft' });
    expect(skipped).toEqual(['description']);
    const undo = await d.client.undo();
    await items.update(todo.id, patch as ItemPatchInput);
    expect(await d.client.db.items.get(todo.id)).toMatchObject({ title: 'Draft', description: 'v2' });
    expect((await said(d, todo.id)).at(-1)).toEqual({
      who: 'You',
      action: 'updated',
      changes: { title: { from: 'Final', to: 'Draft' } },
    });
    // The restore is undone like any change.
    await undo.undo();
    expect((await d.client.db.items.get(todo.id))?.title).toBe('Final');
  });
});

describe('the guest’s log when the guest signs in, and Clear Local Data (SYNC.md K19)', () => {
  it('K19: the upgrade hands the items to the account and clears the log; the server’s history starts with their creates', async () => {
    const d = device();
    d.client.auth.getState().initGuest();
    const todo = await d.client.items.create({ title: 'Draft', type: 'todo' });
    await d.client.items.update(todo.id, { title: 'Final' });
    expect(await rows(d)).toHaveLength(2);
    await signIn(d, freshPhone(), 'Upgraded');
    await d.client.engine.sync({ manual: true });
    await settled(d);
    expect(await rows(d)).toEqual([]);
    const moved = await d.client.db.items.where('uuid').equals(todo.uuid!).first();
    const history = await d.client.api.get<{ data: HistoryEntry[] }>(`/items/${moved!.id}/history`);
    expect(history.data.data.map((e) => [e.user.name, e.action])).toEqual([['Upgraded', 'created']]);
    // Signed in now: edits are the server's to record.
    await d.client.items.update(moved!.id, { title: 'Later' });
    expect(await rows(d)).toEqual([]);
  });

  it('K19: Clear Local Data clears the log', async () => {
    const d = guest();
    const todo = await d.client.items.create({ title: 'Draft', type: 'todo' });
    await d.client.items.update(todo.id, { title: 'Final' });
    await clearDeviceStores(d.client.db);
    expect(await rows(d)).toEqual([]);
  });
});
