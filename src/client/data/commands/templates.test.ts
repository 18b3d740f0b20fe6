import { describe, expect, it } from 'vitest';
import { testDevices } from '../../../../testkit/client/devices';
import { createSynced, settled, signIn } from '../../../../testkit/client/harness';
import { freshPhone } from '../../../../testkit/client/server';
import type { Item, Paginated } from '../../../shared/item';
import { deriveUuid } from '../../../shared/templates';

const { device } = testDevices();

async function campaignWithTasks(d: ReturnType<typeof device>) {
  const campaign = await createSynced(d, { title: 'Onboarding', type: 'campaign', due_date: '2026-03-10' });
  const laptop = await createSynced(d, {
    title: 'Laptop',
    type: 'task',
    parent_id: campaign.id,
    start_date: '2026-03-02',
    due_date: '2026-03-05',
  });
  await createSynced(d, { title: 'Order it', type: 'todo', parent_id: laptop.id, due_date: '2026-03-04' });
  await createSynced(d, { title: 'Set it up', type: 'todo', parent_id: laptop.id });
  await createSynced(d, { title: 'Accounts', type: 'task', parent_id: campaign.id, due_date: '2026-03-09' });
  return { campaign, laptop };
}

async function serverItems(d: ReturnType<typeof device>): Promise<Item[]> {
  return (await d.client.api.get<Paginated<Item>>('/items?per_page=100')).data.data;
}

describe('templates on the device', () => {
  it('creates a saved campaign offline in one write with derived uuids, and the server gets exactly those items once', async () => {
    const d = device();
    await signIn(d, freshPhone(), 'Tess');
    const { campaign } = await campaignWithTasks(d);
    const template = await d.client.send('templates.save', { name: 'Onboarding', itemId: campaign.id });
    expect(template.kind).toBe('campaign');
    expect((await d.client.send('templates.list')).templates.map((t) => t.name)).toEqual(['Onboarding']);

    d.goOffline();
    const list = await d.client.send('templates.list');
    expect(list).toMatchObject({ fresh: false, templates: [{ id: template.id }] });
    const queuedBefore = await d.client.db.syncQueue.count();
    const undoBefore = await d.client.db.undo.count();
    const made = await d.client.send('templates.instantiate', {
      template: list.templates[0]!,
      anchorDate: '2026-04-06',
    });
    expect(made).toMatchObject({ count: 5, label: 'Created 5 items from “Onboarding”' });
    // One undo record, five queued creates, parents first.
    expect((await d.client.db.undo.count()) - undoBefore).toBe(1);
    const queued = (await d.client.db.syncQueue.orderBy('seq').toArray()).slice(queuedBefore);
    expect(queued.map((e) => e.kind)).toEqual(['create', 'create', 'create', 'create', 'create']);
    const top = await d.client.db.items.get(made.topId!);
    expect(top).toMatchObject({ uuid: deriveUuid(made.requestUuid, '0'), due_date: '2026-04-14' });
    const laptop = await d.client.db.items.where('uuid').equals(deriveUuid(made.requestUuid, '0/0')).first();
    expect(laptop).toMatchObject({ parent_id: made.topId, start_date: '2026-04-06', due_date: '2026-04-09' });

    d.goOnline();
    await d.client.engine.sync();
    await settled(d);
    const items = await serverItems(d);
    expect(items).toHaveLength(10);
    const laptops = items.filter((i) => i.due_date === '2026-04-09');
    expect(laptops.map((i) => i.uuid)).toEqual([deriveUuid(made.requestUuid, '0/0')]);
    // The server's own instantiate with the same request uuid makes nothing twice.
    await d.client.api
      .post(`/templates/${template.id}/instantiate`, { anchor_date: '2026-04-06', uuid: made.requestUuid })
      .catch(() => undefined);
    expect(await serverItems(d)).toHaveLength(10);
  });

  it('takes the whole created tree back with one undo', async () => {
    const d = device();
    await signIn(d, freshPhone(), 'Ula');
    const { campaign } = await campaignWithTasks(d);
    const template = await d.client.send('templates.save', { name: 'Again', itemId: campaign.id });
    const made = await d.client.send('templates.instantiate', { template, anchorDate: '2026-05-04' });
    await settled(d);
    expect(await serverItems(d)).toHaveLength(10);
    expect(await d.client.send('undo.takeBack')).toBe('Created 5 items from “Again”');
    const top = await d.client.db.items.where('uuid').equals(deriveUuid(made.requestUuid, '0')).first();
    expect(top?._deleted ?? 1).toBe(1);
    await settled(d);
    expect(await serverItems(d)).toHaveLength(5);
  });

  it('adds a checklist’s todos to an existing task', async () => {
    const d = device();
    await signIn(d, freshPhone(), 'Vic');
    const { laptop } = await campaignWithTasks(d);
    const checklist = await d.client.send('templates.save', {
      name: 'Laptop steps',
      itemId: laptop.id,
      kind: 'checklist',
    });
    const other = await createSynced(d, { title: 'Phone', type: 'task' });
    const made = await d.client.send('templates.instantiate', {
      template: checklist,
      anchorDate: '2026-06-01',
      parentId: other.id,
    });
    expect(made.count).toBe(2);
    await settled(d);
    // In the template's order (their keys), the dates from the new anchor.
    const todos = (await serverItems(d))
      .filter((i) => i.parent_id === other.id)
      .sort((a, b) => ((a.sort_key ?? '') < (b.sort_key ?? '') ? -1 : 1));
    expect(todos.map((i) => [i.title, i.due_date])).toEqual([
      ['Order it', '2026-06-01'],
      ['Set it up', null],
    ]);
  });
});
