import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, testEngines } from '../../../testkit/server';
import { makeMutual, pullAll, signedIn, writeDirectly } from '../../../testkit/testClient';
import type { ExportDocument } from '../../shared/importExport';
import type { ActivityEntry, Item, Paginated } from '../../shared/item';
import type { TrashEntry } from '../../shared/trash';
import { sql } from '../db/client';
import { sweepExpired } from '../maintenance/sweep';

describe.each(testEngines())('trash, restore and export (%s)', (engine) => {
  let harness: Awaited<ReturnType<typeof createTestApp>>;
  beforeAll(async () => {
    harness = await createTestApp(engine);
  });
  afterAll(() => harness?.close());

  const family = async () => {
    const owner = await signedIn(harness.app, 'Owner');
    const campaign = await owner.create({ title: 'Move house', type: 'campaign' });
    const task = await owner.create({ title: 'Pack', type: 'task', parent_id: campaign.id });
    const done = await owner.create({
      title: 'Books',
      type: 'todo',
      parent_id: task.id,
      status: 'completed',
    });
    const open = await owner.create({ title: 'Plates', type: 'todo', parent_id: task.id });
    return { owner, campaign, task, done, open };
  };

  it('gives an item created without a uuid one from the server', async () => {
    const c = await signedIn(harness.app);
    const item = await c.create({ title: 'no uuid', type: 'todo' });
    expect(item.uuid).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('restores the same item with the descendants its delete took along, and logs it', async () => {
    const { owner, campaign, task, done, open } = await family();
    // A todo deleted on its own earlier stays in the trash as its own entry.
    expect((await owner.delete(`/api/items/${open.id}`)).status).toBe(204);
    expect((await owner.delete(`/api/items/${task.id}`)).status).toBe(204);

    const trash = await owner.get<Paginated<TrashEntry>>('/api/trash');
    expect(trash.status).toBe(200);
    expect(trash.body.data.map((e) => e.id)).toEqual([task.id, open.id]);
    expect(trash.body.data[0]).toMatchObject({
      title: 'Pack',
      deleted_at: expect.any(String),
      deleted_by: { id: owner.user?.id, name: 'Owner' },
    });

    const restored = await owner.post<Item>(`/api/items/${task.id}/restore`);
    expect(restored.status, restored.text).toBe(200);
    expect(restored.body).toMatchObject({ id: task.id, uuid: task.uuid, deleted_at: null, title: 'Pack' });
    expect((await owner.item(done.id)).uuid).toBe(done.uuid);
    expect((await owner.get(`/api/items/${open.id}`)).status).toBe(404);
    // Restoring a live item changes nothing.
    const again = await owner.post<Item>(`/api/items/${task.id}/restore`);
    expect(again.status).toBe(200);
    expect(again.body.version).toBe(restored.body.version);

    const feed = await owner.get<Paginated<ActivityEntry>>(`/api/campaigns/${campaign.id}/activity`);
    expect(feed.body.data[0]).toMatchObject({ action: 'restored', item: { id: task.id } });
    expect((await owner.get<Paginated<TrashEntry>>('/api/trash')).body.data.map((e) => e.id)).toEqual([
      open.id,
    ]);
  });

  it('rolls the parent up again when a restored child changes it', async () => {
    const { owner, task, open } = await family();
    await owner.delete(`/api/items/${open.id}`);
    // Its only open child gone, the task rolled up to completed; the child back, it is in progress.
    expect((await owner.item(task.id)).status).toBe('completed');
    await owner.post(`/api/items/${open.id}/restore`);
    expect((await owner.item(task.id)).status).toBe('in_progress');
  });

  it('L6: sends the restored items to every viewer again after their tombstones', async () => {
    const { owner, campaign, task, done } = await family();
    const helper = await signedIn(harness.app, 'Helper');
    await makeMutual(owner, helper);
    await owner.post(`/api/items/${campaign.id}/assign`, { user_id: helper.user?.id });
    const before = await pullAll(helper, harness.database);
    expect(before.items.map((i) => i.id)).toContain(done.id);
    await owner.delete(`/api/items/${task.id}`);
    const gone = await pullAll(helper, harness.database, before.cursor);
    expect(gone.items.find((i) => i.id === done.id)).toEqual({
      id: done.id,
      uuid: done.uuid,
      deleted_at: expect.any(String),
    });
    await owner.post(`/api/items/${task.id}/restore`);
    for (const viewer of [owner, helper]) {
      const back = await pullAll(viewer, harness.database, gone.cursor);
      expect(back.items.find((i) => i.id === done.id)).toMatchObject({ uuid: done.uuid, deleted_at: null });
      expect(back.items.find((i) => i.id === task.id)).toMatchObject({ uuid: task.uuid, deleted_at: null });
    }
  });

  it('answers 404 to someone who cannot see the item and to a viewer who may not delete it, alike', async () => {
    const { owner, campaign, task } = await family();
    const stranger = await signedIn(harness.app, 'Stranger');
    await owner.delete(`/api/items/${task.id}`);
    const hidden = await stranger.post<{ message: string }>(`/api/items/${task.id}/restore`);
    expect(hidden.status).toBe(404);
    expect(hidden.body.message).toBe('Item not found.');
    expect((await stranger.post(`/api/items/999999999/restore`)).status).toBe(404);
    expect((await stranger.get<Paginated<TrashEntry>>('/api/trash')).body.data).toEqual([]);

    const helper = await signedIn(harness.app, 'Helper');
    await makeMutual(owner, helper);
    await owner.post(`/api/items/${campaign.id}/assign`, { user_id: helper.user?.id });
    const refused = await helper.post<{ message: string }>(`/api/items/${task.id}/restore`);
    expect(refused.status).toBe(404);
    expect(refused.body).toEqual(hidden.body);
  });

  it('asks for the parent first when it is in the trash too', async () => {
    const { owner, campaign, task } = await family();
    await owner.delete(`/api/items/${task.id}`);
    await owner.delete(`/api/items/${campaign.id}`);
    const refused = await owner.post<{ message: string }>(`/api/items/${task.id}/restore`);
    expect(refused.status).toBe(422);
    expect(refused.body.message).toMatch(/Move house.*restore that first/);
    expect((await owner.post(`/api/items/${campaign.id}/restore`)).status).toBe(200);
    expect((await owner.post(`/api/items/${task.id}/restore`)).status).toBe(200);
  });

  it('keeps deleted items 30 days, then the sweeper purges them and they cannot come back', async () => {
    const { owner, task } = await family();
    await owner.delete(`/api/items/${task.id}`);
    await writeDirectly(harness.app, [], (tx) =>
      tx.execute(
        sql`UPDATE items SET deleted_at = deleted_at - interval '31 days' WHERE deleted_at IS NOT NULL AND user_id = ${owner.user?.id ?? 0}`,
      ),
    );
    expect((await owner.get<Paginated<TrashEntry>>('/api/trash')).body.data).toEqual([]);
    const result = await sweepExpired(harness.database.db, new Date());
    expect(result?.purgedItems).toBeGreaterThanOrEqual(3);
    const late = await owner.post<{ message: string }>(`/api/items/${task.id}/restore`);
    expect(late.status).toBe(404);
    expect(late.body.message).toMatch(/no longer in the trash/);
  });

  it('exports every live item the caller sees, with parent uuids, as a download', async () => {
    const { owner, campaign, task, done, open } = await family();
    await owner.delete(`/api/items/${open.id}`);
    const other = await signedIn(harness.app, 'Other');
    await other.create({ title: 'not mine', type: 'todo' });
    const res = await owner.get<ExportDocument>('/api/export');
    expect(res.status).toBe(200);
    expect(res.headers['content-disposition']).toMatch(
      /^attachment; filename="outpost-\d{4}-\d{2}-\d{2}\.json"$/,
    );
    expect(res.body).toMatchObject({ format: 'outpost', version: 1, user: { id: owner.user?.id } });
    expect(res.body.items.map((i) => i.uuid)).toEqual([campaign.uuid, task.uuid, done.uuid]);
    expect(res.body.items[2]).toMatchObject({ parent_uuid: task.uuid, status: 'completed', title: 'Books' });
  });
});
