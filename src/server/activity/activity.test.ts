import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, testEngines } from '../../../testkit/server';
import { makeMutual, signedIn, type TestClient } from '../../../testkit/testClient';
import type { ActivityEntry, Item, Paginated } from '../../shared/item';

type Feed = Paginated<ActivityEntry>;

describe.each(testEngines())('campaign activity (%s)', (engine) => {
  let harness: Awaited<ReturnType<typeof createTestApp>>;
  let alex: TestClient;
  let campaign: Item;
  let todo: Item;
  let feed: ActivityEntry[];
  beforeAll(async () => {
    harness = await createTestApp(engine);
    alex = await signedIn(harness.app, 'Alex');
    campaign = await alex.create({ title: 'Move house', type: 'campaign' });
    todo = await alex.create({ title: 'Buy tape', type: 'todo', parent_id: campaign.id });
    await alex.update(todo.id, { description: 'Brown, wide', due_date: '2030-05-01' });
    await alex.update(todo.id, { status: 'completed' });
    await alex.update(todo.id, { status: 'pending' });
    await alex.post(`/api/items/${todo.id}/assign`, { user_id: 2 });
    await alex.post(`/api/items/${todo.id}/assign`, { user_id: 0 });
    const gone = await alex.create({ title: 'Old boxes', type: 'task', parent_id: campaign.id });
    await alex.delete(`/api/items/${gone.id}`);
    const response = await alex.get<Feed>(`/api/campaigns/${campaign.id}/activity`);
    expect(response.status).toBe(200);
    feed = response.body.data;
  });
  afterAll(() => harness?.close());

  const entry = (action: string, title: string) =>
    feed.find((e) => e.action === action && e.item.title === title && e.metadata.rolled_up !== true);

  it('answers entries in the contract shape, newest first', () => {
    for (const e of feed) {
      expect(Object.keys(e).sort()).toEqual(
        ['action', 'created_at', 'description', 'id', 'item', 'metadata', 'user', 'via'].sort(),
      );
      // Made in the app: no token named.
      expect(e.via).toBeNull();
      expect(e.user).toEqual({ id: alex.user?.id, name: 'Alex' });
      expect(Object.keys(e.item).sort()).toEqual(['id', 'title', 'type']);
    }
    const ids = feed.map((e) => e.id);
    expect(ids).toEqual([...ids].sort((a, b) => b - a));
    const times = feed.map((e) => e.created_at);
    expect(times).toEqual([...times].sort().reverse());
  });

  it('records creating an item with a readable description', () => {
    expect(entry('created', 'Move house')?.description).toBe('Alex created campaign "Move house"');
    expect(entry('created', 'Buy tape')).toMatchObject({
      item: { id: todo.id, type: 'todo', title: 'Buy tape' },
      description: 'Alex created todo "Buy tape"',
    });
  });

  it('records an update with the old and new value of each changed field', () => {
    expect(entry('updated', 'Buy tape')).toMatchObject({
      description: 'Alex updated todo "Buy tape"',
      metadata: {
        description: { old: null, new: 'Brown, wide' },
        due_date: { old: null, new: '2030-05-01' },
      },
    });
  });

  it('records completing and reopening', () => {
    expect(entry('completed', 'Buy tape')).toMatchObject({
      description: 'Alex completed todo "Buy tape"',
      metadata: { status: { old: 'pending', new: 'completed' } },
    });
    expect(entry('reopened', 'Buy tape')).toMatchObject({
      description: 'Alex reopened todo "Buy tape"',
      metadata: { status: { old: 'completed', new: 'pending' } },
    });
  });

  it('records assigning and unassigning, naming the assignee', () => {
    const assigned = feed.filter((e) => e.action === 'assigned');
    expect(assigned.map((e) => e.description)).toEqual([
      'Alex unassigned todo "Buy tape"',
      'Alex assigned todo "Buy tape" to Sam Rivera',
    ]);
    expect(assigned[1]?.metadata).toEqual({
      assigned_to: { old: null, new: 2 },
      assignee: { old: null, new: 'Sam Rivera' },
    });
    // The names as they were at write time, so the feed never shows ids.
    expect(assigned[0]?.metadata).toEqual({
      assigned_to: { old: 2, new: null },
      assignee: { old: 'Sam Rivera', new: null },
    });
  });

  it('records a move with the parents titles beside their ids', async () => {
    const home = await alex.create({ title: 'Home', type: 'campaign' });
    const from = await alex.create({ title: 'Kitchen', type: 'task', parent_id: home.id });
    const to = await alex.create({ title: 'Garage', type: 'task', parent_id: home.id });
    const moving = await alex.create({ title: 'Fix shelf', type: 'todo', parent_id: from.id });
    await alex.update(moving.id, { parent_id: to.id });
    const moved = (await alex.get<Feed>(`/api/campaigns/${home.id}/activity`)).body.data.find(
      (e) => e.action === 'updated' && e.item.id === moving.id,
    );
    expect(moved?.metadata).toEqual({
      parent_id: { old: from.id, new: to.id },
      parent: { old: 'Kitchen', new: 'Garage' },
    });
  });

  it('marks the todos a task took with it to Done as its doing, and the campaign it completed as the roll-up (issue 50)', async () => {
    const fair = await alex.create({ title: 'Fair', type: 'campaign' });
    const stalls = await alex.create({ title: 'Stalls', type: 'task', parent_id: fair.id });
    const tables = await alex.create({ title: 'Tables', type: 'todo', parent_id: stalls.id });
    await alex.update(stalls.id, { status: 'completed' });
    const fed = (await alex.get<Feed>(`/api/campaigns/${fair.id}/activity`)).body.data;
    const of = (id: number) => fed.find((e) => e.action === 'completed' && e.item.id === id)?.metadata;
    expect(of(tables.id)).toEqual({
      status: { old: 'pending', new: 'completed' },
      rolled_up: true,
      with_parent: 'task',
    });
    expect(of(fair.id)).toEqual({ status: { old: 'pending', new: 'completed' }, rolled_up: true });
  });

  it('records deleting, and the feed is newest first: the delete comes before the create', () => {
    const deleted = entry('deleted', 'Old boxes');
    expect(deleted?.description).toBe('Alex deleted task "Old boxes"');
    expect(feed[0]?.action).toBe('deleted');
    expect(feed.at(-1)?.description).toBe('Alex created campaign "Move house"');
  });

  it('pages the feed 20 at a time, newest first across pages', async () => {
    const busy = await alex.create({ title: 'Busy', type: 'campaign' });
    for (let n = 1; n <= 24; n += 1) await alex.update(busy.id, { title: `Busy ${n}` });
    const first = await alex.get<Feed>(`/api/campaigns/${busy.id}/activity`);
    expect(first.body).toMatchObject({ current_page: 1, last_page: 2, per_page: 20, total: 25 });
    expect(first.body.data).toHaveLength(20);
    expect(first.body.data[0]?.metadata).toEqual({ title: { old: 'Busy 23', new: 'Busy 24' } });
    const second = await alex.get<Feed>(`/api/campaigns/${busy.id}/activity?page=2`);
    expect(second.body.current_page).toBe(2);
    expect(second.body.data.map((e) => e.action)).toEqual([
      'updated',
      'updated',
      'updated',
      'updated',
      'created',
    ]);
    const all = [...first.body.data, ...second.body.data].map((e) => e.id);
    expect(new Set(all).size).toBe(25);
    expect(all).toEqual([...all].sort((a, b) => b - a));
  });

  it('shows each entry with the title it recorded, not where the item went or what it is called now', async () => {
    const owner = await signedIn(harness.app, 'Owner');
    const reader = await signedIn(harness.app, 'Reader');
    await makeMutual(owner, reader);
    const shared = await owner.create({
      title: 'Shared plans',
      type: 'campaign',
      assigned_to: reader.user!.id,
    });
    const hidden = await owner.create({ title: 'Private plans', type: 'campaign' });
    const task = await owner.create({ title: 'Draft budget', type: 'task', parent_id: shared.id });
    await owner.update(task.id, { parent_id: hidden.id });
    await owner.update(task.id, { title: 'Layoff list' });
    expect((await reader.get(`/api/items/${task.id}`)).status).toBe(404);

    const feed = (await reader.get<Feed>(`/api/campaigns/${shared.id}/activity`)).body.data;
    const aboutTask = feed.filter((e) => e.item.id === task.id);
    // The move and the rename are written to the feed of the campaign it went to.
    expect(aboutTask).toEqual([expect.objectContaining({ action: 'created' })]);
    expect(aboutTask[0]?.item).toEqual({ id: task.id, type: 'task', title: 'Draft budget' });
    expect(JSON.stringify(feed)).not.toMatch(/Layoff list|Private plans/);
  });

  it('answers 404 for a campaign the caller cannot see, for a task or todo, and for a missing id', async () => {
    const stranger = await signedIn(harness.app, 'Stranger');
    const invisible = await stranger.get<{ message: string }>(`/api/campaigns/${campaign.id}/activity`);
    expect(invisible.status).toBe(404);
    expect(invisible.body.message).toEqual(expect.any(String));
    expect((await alex.get(`/api/campaigns/${todo.id}/activity`)).status).toBe(404);
    expect((await alex.get('/api/campaigns/987654/activity')).status).toBe(404);
    expect((await alex.get('/api/campaigns/abc/activity')).status).toBe(404);
    const task = await alex.create({ title: 'A task', type: 'task' });
    expect((await alex.get(`/api/campaigns/${task.id}/activity`)).status).toBe(404);
  });
});
