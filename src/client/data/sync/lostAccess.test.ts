import { describe, expect, it } from 'vitest';
import { createDevice, createSynced, type Device, signIn } from '../../../../testkit/client/harness';
import { freshPhone } from '../../../../testkit/client/server';
import { serverPerFile } from '../../../../testkit/client/serverPerFile';
import { getMeta, META_KEYS } from '../store/db';
import { type RejectedChange, rejectedChanges, rejectedFile } from '../store/keptChanges';
import { announceRejected, lostAccessToast } from './lostAccess';
import { applyPulled } from './pull';

const files = serverPerFile();
const devices = files.devices;

async function member(): Promise<Device> {
  const d = createDevice(files.server.url);
  devices.push(d);
  await signIn(d, freshPhone(), 'Member');
  return d;
}

/** A synced todo the device holds as a member of someone's campaign (as the server would mark it). */
async function sharedTodo(d: Device, role: 'editor' | 'viewer', title: string) {
  const item = await createSynced(d, { title, type: 'todo' });
  // Pulled up to date first, so a later pull brings nothing back of it (the server would send a tombstone).
  await d.client.engine.sync();
  await d.client.db.items.update(item.id, { my_role: role } as never);
  return item;
}

const NOT_APPLIED = '1 change could not be applied: you no longer have access';

describe('Q12: changes refused because the campaign was lost', () => {
  it('Q12: a 404 for a member’s queued edit keeps it for export, purges the item, and tells once, no conflict', async () => {
    const d = await member();
    const item = await sharedTodo(d, 'editor', 'Paint the fence');
    d.goOffline();
    await d.client.items.update(item.id, { title: 'Paint the fence blue' });
    d.goOnline();
    // Gone from the server's view (as a removal would make it): the PATCH and the campaign's probe 404.
    await d.client.api.delete(`/items/${item.id}`);
    const result = await d.client.engine.sync();

    expect(result.outcome).toBe('synced');
    expect(await d.client.engine.listConflicts()).toEqual([]);
    expect(await d.client.db.syncQueue.count()).toBe(0);
    expect(await d.client.db.items.get(item.id)).toBeUndefined();
    const kept = await rejectedChanges(d.client.db);
    expect(kept).toHaveLength(1);
    expect(kept[0]).toMatchObject({
      kind: 'update',
      data: { title: 'Paint the fence blue' },
      item: { id: item.id, title: 'Paint the fence blue' },
      announced: true,
    });
    const toasts = d.client.toasts.getState().queue;
    expect(toasts.filter((t) => t.title === NOT_APPLIED)).toHaveLength(1);
    expect(toasts.find((t) => t.title === NOT_APPLIED)?.action?.label).toBe('Export them');
    expect(toasts.some((t) => t.title === 'Change not synced')).toBe(false);
  });

  it('Q12: a pulled tombstone for a member’s item with unsent changes purges it and keeps them, never a conflict', async () => {
    const d = await member();
    const item = await sharedTodo(d, 'editor', 'Order paint');
    d.goOffline();
    await d.client.items.update(item.id, { title: 'Order more paint' });
    const cursor = (await getMeta<string>(d.client.db, META_KEYS.cursor)) ?? '';
    const conflicts = await applyPulled(
      d.client.db,
      [{ id: item.id, uuid: item.uuid, deleted_at: new Date().toISOString() }],
      cursor,
    );

    expect(conflicts).toBe(0);
    expect(await d.client.db.items.get(item.id)).toBeUndefined();
    expect(await d.client.db.syncQueue.count()).toBe(0);
    expect((await rejectedChanges(d.client.db)).map((c) => c.item?.title)).toEqual(['Order more paint']);
    const shown: string[] = [];
    const download = () => undefined;
    expect(await announceRejected(d.client.db, (t) => shown.push(t.title), download)).toBe(1);
    expect(shown).toEqual([NOT_APPLIED]);
    // Told once: a second run has nothing new to say.
    expect(await announceRejected(d.client.db, (t) => shown.push(t.title), download)).toBe(0);
  });

  it('Q12: a 403 for a viewer’s queued edit keeps it and puts the server’s copy back', async () => {
    const d = await member();
    const item = await sharedTodo(d, 'viewer', 'Read only');
    d.goOffline();
    await d.client.items.update(item.id, { title: 'Changed anyway' });
    d.goOnline();
    d.control.failNext = {
      match: (m) => m === 'PATCH',
      status: 403,
      body: { message: 'You can view and comment on this campaign, but not change it.' },
    };
    await d.client.engine.sync();

    expect(await d.client.db.syncQueue.count()).toBe(0);
    expect(await d.client.db.items.get(item.id)).toMatchObject({ title: 'Read only', _syncStatus: 'synced' });
    expect((await rejectedChanges(d.client.db)).map((c) => c.data)).toEqual([{ title: 'Changed anyway' }]);
  });

  it('Q12: an item the device holds as its own still meets a 404 as a delete conflict (C2)', async () => {
    const d = await member();
    const item = await createSynced(d, { title: 'Mine alone', type: 'todo' });
    d.goOffline();
    await d.client.items.update(item.id, { title: 'Mine, edited' });
    d.goOnline();
    d.control.failNext = { match: (m) => m === 'PATCH', status: 404, body: { message: 'Not found.' } };
    await d.client.engine.sync();
    expect((await d.client.engine.listConflicts()).map((c) => c.type)).toEqual(['delete']);
    expect(await rejectedChanges(d.client.db)).toEqual([]);
  });

  it('Q12: the export is JSON of every kept change without the told marker, and the toast counts them', () => {
    const change: RejectedChange = {
      id: 'e1',
      kind: 'update',
      method: 'PATCH',
      url: '/api/items/5',
      data: { title: 'x' },
      queued_at: '2026-11-25T10:00:00.000Z',
      rejected_at: '2026-11-25T11:00:00.000Z',
      item: { id: 5, uuid: 'u', type: 'todo', title: 'x', parent_id: 1 },
      announced: true,
    };
    const file = rejectedFile([change], new Date('2026-11-25T12:00:00Z'));
    expect(file.name).toBe('outpost-not-applied-2026-11-25.json');
    const parsed = JSON.parse(file.text) as { format: string; changes: Record<string, unknown>[] };
    expect(parsed.format).toBe('outpost-not-applied');
    expect(parsed.changes).toEqual([{ ...change, announced: undefined }].map(({ announced: _a, ...c }) => c));
    expect(lostAccessToast([{}, {}, {}], () => {}).title).toBe(
      '3 changes could not be applied: you no longer have access',
    );
  });
});
