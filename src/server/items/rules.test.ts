import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, testEngines } from '../../../testkit/server';
import { makeMutual, pullAll, signedIn, type TestClient } from '../../../testkit/testClient';
import type { ActivityEntry, Item, Paginated } from '../../shared/item';

describe.each(testEngines())('who sees what (%s)', (engine) => {
  let harness: Awaited<ReturnType<typeof createTestApp>>;
  let owner: TestClient;
  let stranger: TestClient;
  let campaign: Item;
  let task: Item;
  let todo: Item;
  let loose: Item;
  beforeAll(async () => {
    harness = await createTestApp(engine);
    owner = await signedIn(harness.app, 'Owner');
    stranger = await signedIn(harness.app, 'Stranger');
    campaign = await owner.create({ title: 'Private campaign', type: 'campaign', description: 'secret' });
    task = await owner.create({ title: 'Private task', type: 'task', parent_id: campaign.id });
    todo = await owner.create({ title: 'Private todo', type: 'todo', parent_id: task.id });
    loose = await owner.create({ title: 'Private loose todo', type: 'todo' });
  });
  afterAll(() => harness?.close());

  it("answers 404 from every item route for another user's items, and changes nothing", async () => {
    const before = await Promise.all([campaign, task, todo, loose].map((i) => owner.item(i.id)));
    for (const item of [campaign, task, todo, loose]) {
      const attempts = [
        await stranger.get(`/api/items/${item.id}`),
        await stranger.patch(`/api/items/${item.id}`, { title: 'hijacked' }),
        await stranger.patch(`/api/items/${item.id}`, { status: 'completed' }),
        await stranger.post(`/api/items/${item.id}/assign`, { user_id: stranger.user?.id }),
        await stranger.delete(`/api/items/${item.id}`),
        await stranger.get(`/api/campaigns/${item.id}/activity`),
      ];
      for (const response of attempts) {
        expect(response.status, `${item.title}: ${response.text}`).toBe(404);
        expect(response.body).toMatchObject({ message: expect.any(String) });
      }
    }
    const after = await Promise.all([campaign, task, todo, loose].map((i) => owner.item(i.id)));
    expect(after).toEqual(before);
  });

  it("leaves another user's items out of list, search and sync", async () => {
    const list = await stranger.get<Paginated<Item>>('/api/items?per_page=100');
    expect(list.body.total).toBe(0);
    expect((await stranger.get<Item[]>('/api/items/search?q=private')).body).toEqual([]);
    expect((await pullAll(stranger, harness.database)).items).toEqual([]);
    // The owner does find them, so the searches above were real.
    expect((await owner.get<Item[]>('/api/items/search?q=private')).body).toHaveLength(4);
  });

  it("refuses another user's item as a parent with 422, as if it did not exist", async () => {
    const response = await stranger.post<{ errors: Record<string, string[]> }>('/api/items', {
      title: 'sneak in',
      type: 'task',
      parent_id: campaign.id,
    });
    expect(response.status).toBe(422);
    expect(response.body.errors.parent_id).toBeDefined();
  });

  it('shares a campaign with its tasks and todos when it is assigned, also through sync', async () => {
    const guest = await signedIn(harness.app, 'Guest');
    await makeMutual(owner, guest);
    const { cursor } = await pullAll(guest, harness.database);
    await owner.post(`/api/items/${campaign.id}/assign`, { user_id: guest.user?.id });
    for (const item of [campaign, task, todo])
      expect((await guest.get(`/api/items/${item.id}`)).status).toBe(200);
    expect((await guest.get(`/api/items/${loose.id}`)).status).toBe(404);
    const list = await guest.get<Paginated<Item>>('/api/items');
    expect(list.body.data.map((i) => i.id).sort()).toEqual([campaign.id, task.id, todo.id].sort());
    expect((await guest.get<Item[]>('/api/items/search?q=private')).body).toHaveLength(3);
    const pulled = await pullAll(guest, harness.database, cursor);
    expect(pulled.items.map((i) => i.id).sort()).toEqual([campaign.id, task.id, todo.id].sort());
    expect((await guest.get(`/api/campaigns/${campaign.id}/activity`)).status).toBe(200);

    // Whoever sees an item may edit it and change its status, but not delete what they did not create.
    expect((await guest.update(todo.id, { title: 'Edited by guest' })).title).toBe('Edited by guest');
    expect((await guest.delete(`/api/items/${todo.id}`)).status).toBe(403);
    expect((await guest.delete(`/api/items/${campaign.id}`)).status).toBe(403);

    await owner.post(`/api/items/${campaign.id}/assign`, { user_id: 0 });
    for (const item of [campaign, task, todo])
      expect((await guest.get(`/api/items/${item.id}`)).status).toBe(404);
  });

  it('shares a task and its todos, but not its campaign, when the task is assigned', async () => {
    const helper = await signedIn(harness.app, 'Helper');
    await makeMutual(owner, helper);
    await owner.post(`/api/items/${task.id}/assign`, { user_id: helper.user?.id });
    expect((await helper.get(`/api/items/${task.id}`)).status).toBe(200);
    expect((await helper.get(`/api/items/${todo.id}`)).status).toBe(200);
    expect((await helper.get(`/api/items/${campaign.id}`)).status).toBe(404);
    expect((await helper.get(`/api/campaigns/${campaign.id}/activity`)).status).toBe(404);
    const pulled = await pullAll(helper, harness.database);
    expect(pulled.items.map((i) => i.id).sort()).toEqual([task.id, todo.id].sort());
    await owner.post(`/api/items/${task.id}/assign`, { user_id: 0 });
  });

  it('gives no parent summary of a campaign the caller cannot see, only of one they can', async () => {
    const helper = await signedIn(harness.app, 'Helper');
    await makeMutual(owner, helper);
    await owner.post(`/api/items/${task.id}/assign`, { user_id: helper.user?.id });
    const asHelper = await helper.item(task.id);
    expect(asHelper.parent_id).toBe(campaign.id);
    expect(asHelper.parent).toBeNull();
    const answers = JSON.stringify([
      asHelper,
      (await helper.get('/api/items?per_page=100')).body,
      (await helper.get('/api/items/search?q=private')).body,
      (await pullAll(helper, harness.database)).items,
    ]);
    expect(answers).not.toContain(campaign.title);
    // The todo's parent is the task, which the helper sees: its summary is there.
    expect((await helper.item(todo.id)).parent).toMatchObject({ id: task.id, title: task.title });
    expect((await owner.item(task.id)).parent).toMatchObject({ id: campaign.id, title: campaign.title });
    await owner.post(`/api/items/${task.id}/assign`, { user_id: 0 });
  });
});

describe.each(testEngines())('status roll-up (%s)', (engine) => {
  let harness: Awaited<ReturnType<typeof createTestApp>>;
  let c: TestClient;
  beforeAll(async () => {
    harness = await createTestApp(engine);
    c = await signedIn(harness.app, 'Roller');
  });
  afterAll(() => harness?.close());

  async function family() {
    const campaign = await c.create({ title: 'C', type: 'campaign' });
    const task = await c.create({ title: 'T', type: 'task', parent_id: campaign.id });
    const d1 = await c.create({ title: 'D1', type: 'todo', parent_id: task.id });
    const d2 = await c.create({ title: 'D2', type: 'todo', parent_id: task.id });
    return { campaign, task, d1, d2 };
  }

  it('completes the parents with completed_at when all children are completed', async () => {
    const f = await family();
    await c.update(f.d1.id, { status: 'completed' });
    expect(await c.item(f.task.id)).toMatchObject({
      status: 'in_progress',
      completed_at: null,
      children_count: 2,
      completed_count: 1,
    });
    expect((await c.item(f.campaign.id)).status).toBe('in_progress');
    await c.update(f.d2.id, { status: 'completed' });
    const task = await c.item(f.task.id);
    expect(task).toMatchObject({ status: 'completed', children_count: 2, completed_count: 2 });
    expect(task.completed_at).toEqual(expect.any(String));
    const campaign = await c.item(f.campaign.id);
    expect(campaign).toMatchObject({ status: 'completed', children_count: 1, completed_count: 1 });
    expect(campaign.completed_at).toEqual(expect.any(String));
  });

  it('reopening a child puts the parents back in progress and clears completed_at', async () => {
    const f = await family();
    await c.update(f.d1.id, { status: 'completed' });
    await c.update(f.d2.id, { status: 'completed' });
    await c.update(f.d1.id, { status: 'pending' });
    expect(await c.item(f.d1.id)).toMatchObject({ status: 'pending', completed_at: null });
    expect(await c.item(f.task.id)).toMatchObject({
      status: 'in_progress',
      completed_at: null,
      completed_count: 1,
    });
    expect(await c.item(f.campaign.id)).toMatchObject({
      status: 'in_progress',
      completed_at: null,
      completed_count: 0,
    });
  });

  it('starting a child starts its pending parents', async () => {
    const f = await family();
    await c.update(f.d1.id, { status: 'in_progress' });
    expect((await c.item(f.task.id)).status).toBe('in_progress');
    expect((await c.item(f.campaign.id)).status).toBe('in_progress');
  });

  it('completing a parent completes all its descendants; reopening it reopens none', async () => {
    const f = await family();
    const completed = await c.update(f.campaign.id, { status: 'completed' });
    expect(completed.completed_at).toEqual(expect.any(String));
    for (const item of [f.task, f.d1, f.d2]) {
      const now = await c.item(item.id);
      expect(now.status).toBe('completed');
      expect(now.completed_at).toEqual(expect.any(String));
    }
    const reopened = await c.update(f.campaign.id, { status: 'pending' });
    expect(reopened).toMatchObject({ status: 'pending', completed_at: null });
    for (const item of [f.task, f.d1, f.d2]) expect((await c.item(item.id)).status).toBe('completed');
  });

  it('adding a pending child under a completed parent puts the parent in progress', async () => {
    const f = await family();
    await c.update(f.task.id, { status: 'completed' });
    expect((await c.item(f.campaign.id)).status).toBe('completed');
    await c.create({ title: 'D3', type: 'todo', parent_id: f.task.id });
    expect(await c.item(f.task.id)).toMatchObject({
      status: 'in_progress',
      completed_at: null,
      children_count: 3,
      completed_count: 2,
    });
    expect(await c.item(f.campaign.id)).toMatchObject({ status: 'in_progress', completed_at: null });
  });

  it('moving a pending child under a completed parent puts that parent in progress', async () => {
    const f = await family();
    const other = await c.create({ title: 'Other task', type: 'task', parent_id: f.campaign.id });
    await c.update(f.task.id, { status: 'completed' });
    const stray = await c.create({ title: 'Stray', type: 'todo', parent_id: other.id });
    await c.update(other.id, { status: 'pending' });
    await c.update(stray.id, { parent_id: f.task.id });
    expect(await c.item(f.task.id)).toMatchObject({ status: 'in_progress', children_count: 3 });
    expect((await c.item(other.id)).children_count).toBe(0);
  });

  it('deleting the last unfinished child completes the parent', async () => {
    const f = await family();
    await c.update(f.d1.id, { status: 'completed' });
    await c.delete(`/api/items/${f.d2.id}`);
    expect(await c.item(f.task.id)).toMatchObject({
      status: 'completed',
      children_count: 1,
      completed_count: 1,
    });
    expect((await c.item(f.campaign.id)).status).toBe('completed');
  });

  it('writes the roll-up into the campaign feed after the change that caused it', async () => {
    const f = await family();
    await c.update(f.d1.id, { status: 'completed' });
    await c.update(f.d2.id, { status: 'completed' });
    const feed = await c.get<Paginated<ActivityEntry>>(`/api/campaigns/${f.campaign.id}/activity`);
    const latest = feed.body.data.slice(0, 3).map((e) => `${e.action} ${e.item.title}`);
    expect(latest).toEqual(['completed C', 'completed T', 'completed D2']);
  });
});

describe.each(testEngines())('concurrent writes keep the rules (%s)', (engine) => {
  let harness: Awaited<ReturnType<typeof createTestApp>>;
  let c: TestClient;
  beforeAll(async () => {
    harness = await createTestApp(engine);
    c = await signedIn(harness.app, 'Racer');
  });
  afterAll(() => harness?.close());

  it('completes the parents when every child is completed at the same moment', async () => {
    const campaign = await c.create({ title: 'C', type: 'campaign' });
    const task = await c.create({ title: 'T', type: 'task', parent_id: campaign.id });
    const todos = await Promise.all(
      Array.from({ length: 8 }, (_, n) => c.create({ title: `D${n}`, type: 'todo', parent_id: task.id })),
    );
    const answers = await Promise.all(
      todos.map((todo) => c.patch(`/api/items/${todo.id}`, { status: 'completed' })),
    );
    for (const answer of answers) expect(answer.status, answer.text).toBe(200);
    expect(await c.item(task.id)).toMatchObject({
      status: 'completed',
      completed_count: 8,
      children_count: 8,
    });
    expect((await c.item(campaign.id)).status).toBe('completed');
  });

  it('makes one item of concurrent creates with the same uuid', async () => {
    const uuid = '0b8f1a52-7c1e-4d2a-9f3b-6a5e4c3d2b1a';
    const answers = await Promise.all(
      Array.from({ length: 6 }, () => c.post<Item>('/api/items', { title: 'Once', type: 'todo', uuid })),
    );
    for (const answer of answers) expect(answer.status, answer.text).toBeLessThan(300);
    expect(new Set(answers.map((a) => a.body.id)).size).toBe(1);
  });

  it('never edits an item that a racing delete has already removed', async () => {
    for (let round = 0; round < 6; round += 1) {
      const campaign = await c.create({ title: `Doomed ${round}`, type: 'campaign' });
      const todo = await c.create({ title: 'T', type: 'todo', parent_id: campaign.id });
      const [patched, deleted] = await Promise.all([
        c.patch<Item>(`/api/items/${todo.id}`, { title: 'Edited' }),
        c.delete(`/api/items/${campaign.id}`),
      ]);
      expect(deleted.status).toBe(204);
      expect([200, 404]).toContain(patched.status);
      if (patched.status === 200) expect(patched.body.deleted_at, `round ${round}`).toBeNull();
    }
  });

  it('leaves no live item under a deleted parent when a create races the delete', async () => {
    for (let round = 0; round < 6; round += 1) {
      const campaign = await c.create({ title: `Doomed ${round}`, type: 'campaign' });
      const task = await c.create({ title: 'T', type: 'task', parent_id: campaign.id });
      const [created, deleted] = await Promise.all([
        c.post<Item>('/api/items', { title: 'Late child', type: 'todo', parent_id: task.id }),
        c.delete(`/api/items/${campaign.id}`),
      ]);
      expect(deleted.status).toBe(204);
      expect([201, 422]).toContain(created.status);
      if (created.status === 201) {
        // Either the child was made before the delete and went with it, or it must not exist.
        expect((await c.get(`/api/items/${created.body.id}`)).status, `round ${round}`).toBe(404);
      }
    }
  });
});
