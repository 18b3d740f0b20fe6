import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, testEngines } from '../../../testkit/server';
import { makeMutual, pullAll, signedIn, type TestClient, writeDirectly } from '../../../testkit/testClient';
import type { Item, Paginated } from '../../shared/item';
import { sql } from '../db/client';

type ErrorBody = { message: string; errors?: Record<string, string[]> };

describe.each(testEngines())('items API (%s)', (engine) => {
  let harness: Awaited<ReturnType<typeof createTestApp>>;
  beforeAll(async () => {
    harness = await createTestApp(engine);
  });
  afterAll(() => harness?.close());

  const user = (name = 'Alex') => signedIn(harness.app, name);

  describe('list', () => {
    let c: TestClient;
    let created: Item[];
    beforeAll(async () => {
      c = await user();
      created = [];
      for (let n = 1; n <= 25; n += 1) created.push(await c.create({ title: `Item ${n}`, type: 'todo' }));
    });

    it('answers the paginated shape with 20 per page by default, newest first', async () => {
      const page = await c.get<Paginated<Item>>('/api/items');
      expect(page.status).toBe(200);
      expect(page.body).toMatchObject({ current_page: 1, last_page: 2, per_page: 20, total: 25 });
      expect(page.body.data).toHaveLength(20);
      expect(page.body.data.map((i) => i.id)).toEqual(
        created
          .slice(5)
          .reverse()
          .map((i) => i.id),
      );
      const second = await c.get<Paginated<Item>>('/api/items?page=2');
      expect(second.body.current_page).toBe(2);
      expect(second.body.data.map((i) => i.id)).toEqual(
        created
          .slice(0, 5)
          .reverse()
          .map((i) => i.id),
      );
    });

    it('honours per_page and caps it at 100', async () => {
      const small = await c.get<Paginated<Item>>('/api/items?per_page=5&page=3');
      expect(small.body).toMatchObject({ current_page: 3, last_page: 5, per_page: 5, total: 25 });
      expect(small.body.data.map((i) => i.title)).toEqual([
        'Item 15',
        'Item 14',
        'Item 13',
        'Item 12',
        'Item 11',
      ]);
      const huge = await c.get<Paginated<Item>>('/api/items?per_page=100000');
      expect(huge.status).toBe(200);
      expect(huge.body.per_page).toBe(100);
      expect(huge.body.data).toHaveLength(25);
    });

    it('answers an empty page past the end, still with the totals', async () => {
      const past = await c.get<Paginated<Item>>('/api/items?page=9');
      expect(past.status).toBe(200);
      expect(past.body).toMatchObject({ data: [], current_page: 9, last_page: 2, total: 25 });
    });

    it('breaks ties on created_at by id, newest id first', async () => {
      const d = await user();
      const a = await d.create({ title: 'tie a', type: 'todo' });
      const b = await d.create({ title: 'tie b', type: 'todo' });
      const x = await d.create({ title: 'tie c', type: 'todo' });
      await writeDirectly(harness.app, [d.user?.id ?? 0], (tx) =>
        tx.execute(
          sql`UPDATE items SET created_at = '2020-01-01T00:00:00Z', version = version + 1,
                change_xid = pg_current_xact_id()::text::bigint
              WHERE id IN (${a.id}, ${b.id}, ${x.id})`,
        ),
      );
      const page = await d.get<Paginated<Item>>('/api/items');
      expect(page.body.data.map((i) => i.id)).toEqual([x.id, b.id, a.id]);
    });

    it('filters by type, status and parent, with parent_id=0 meaning top level', async () => {
      const d = await user();
      const campaign = await d.create({ title: 'Camp', type: 'campaign' });
      const task = await d.create({ title: 'Task', type: 'task', parent_id: campaign.id });
      const todo = await d.create({ title: 'Todo', type: 'todo', parent_id: task.id, status: 'in_progress' });
      const loose = await d.create({ title: 'Loose', type: 'todo' });
      const ids = async (query: string) =>
        (await d.get<Paginated<Item>>(`/api/items?${query}`)).body.data.map((i) => i.id);
      expect(await ids('type=campaign')).toEqual([campaign.id]);
      expect(await ids('type=todo')).toEqual([loose.id, todo.id]);
      expect(await ids('status=in_progress')).toEqual(expect.arrayContaining([todo.id]));
      expect(await ids('status=in_progress&type=todo')).toEqual([todo.id]);
      expect(await ids(`parent_id=${task.id}`)).toEqual([todo.id]);
      expect(await ids(`parent_id=${campaign.id}`)).toEqual([task.id]);
      expect(await ids('parent_id=0')).toEqual([loose.id, campaign.id]);
      expect(await ids('parent_id=0&type=todo')).toEqual([loose.id]);
    });

    it('lists only items the caller may see', async () => {
      const stranger = await user('Stranger');
      const page = await stranger.get<Paginated<Item>>('/api/items');
      expect(page.body).toMatchObject({ data: [], total: 0, last_page: 1 });
    });
  });

  describe('get', () => {
    it('answers the item with every field of the contract and an ETag of its version', async () => {
      const c = await user('Alex');
      const campaign = await c.create({ title: 'Launch', type: 'campaign', end_date: '2030-01-31' });
      const task = await c.create({
        title: 'Posters',
        type: 'task',
        parent_id: campaign.id,
        description: 'Print them',
        due_date: '2030-01-15',
        assigned_to: 2,
      });
      const response = await c.get<Item>(`/api/items/${task.id}`);
      expect(response.status).toBe(200);
      expect(response.headers.etag).toBe(`"${response.body.version}"`);
      const item = response.body;
      expect(item).toMatchObject({
        id: task.id,
        title: 'Posters',
        description: 'Print them',
        type: 'task',
        status: 'pending',
        user_id: c.user?.id,
        assigned_to: 2,
        parent_id: campaign.id,
        due_date: '2030-01-15',
        end_date: null,
        completed_at: null,
        version: 1,
        children_count: 0,
        completed_count: 0,
        created_by: { id: c.user?.id, name: 'Alex', phone: c.user?.phone },
        user: { id: c.user?.id, name: 'Alex' },
        assignedUser: { id: 2, name: 'Sam Rivera' },
        parent: { id: campaign.id, title: 'Launch', type: 'campaign' },
      });
      for (const key of ['uuid', 'created_at', 'updated_at']) expect(item).toHaveProperty(key);
      expect(Object.keys(item.created_by).sort()).toEqual([
        'created_at',
        'id',
        'name',
        'phone',
        'updated_at',
      ]);
      expect((await c.item(campaign.id)).end_date).toBe('2030-01-31');
    });

    it('answers 404 with a message for an item that does not exist', async () => {
      const c = await user();
      const response = await c.get<ErrorBody>('/api/items/987654');
      expect(response.status).toBe(404);
      expect(response.body.message).toEqual(expect.any(String));
    });

    it('answers 404 for an item the caller may not see, and for a deleted one', async () => {
      const owner = await user();
      const other = await user();
      const item = await owner.create({ title: 'Secret', type: 'todo' });
      expect((await other.get(`/api/items/${item.id}`)).status).toBe(404);
      expect((await owner.delete(`/api/items/${item.id}`)).status).toBe(204);
      expect((await owner.get(`/api/items/${item.id}`)).status).toBe(404);
    });
  });

  describe('create', () => {
    it('answers 201 with the item, owned by the caller', async () => {
      const c = await user();
      const response = await c.post<Item>('/api/items', { title: '  Buy tape  ', type: 'todo' });
      expect(response.status).toBe(201);
      expect(response.headers.etag).toBe('"1"');
      expect(response.body).toMatchObject({
        title: 'Buy tape',
        type: 'todo',
        status: 'pending',
        user_id: c.user?.id,
        parent_id: null,
        assigned_to: null,
        version: 1,
      });
    });

    it('ignores user_id: the owner is always the caller', async () => {
      const c = await user();
      const item = await c.create({ title: 'Mine', type: 'todo', user_id: 3 });
      expect(item.user_id).toBe(c.user?.id);
      expect(item.created_by.id).toBe(c.user?.id);
    });

    it('sets completed_at when created completed, and treats parent_id 0 as top level', async () => {
      const c = await user();
      const item = await c.create({ title: 'Done', type: 'todo', status: 'completed', parent_id: 0 });
      expect(item.status).toBe('completed');
      expect(item.completed_at).toEqual(expect.any(String));
      expect(item.parent_id).toBeNull();
    });

    it('answers a repeat of a known uuid with the existing item instead of a second one', async () => {
      const c = await user();
      const uuid = '5f0c6d1e-8a4b-4c3d-9e2f-1a2b3c4d5e6f';
      const first = await c.create({ title: 'Once', type: 'todo', uuid });
      const again = await c.post<Item>('/api/items', { title: 'Once', type: 'todo', uuid });
      expect(again.status).toBeLessThan(300);
      expect(again.body.id).toBe(first.id);
      expect(again.body.uuid).toBe(uuid);
      const list = await c.get<Paginated<Item>>('/api/items');
      expect(list.body.total).toBe(1);
    });

    describe('refuses bad input with 422 naming the field', () => {
      let c: TestClient;
      let foreignCampaign: Item;
      let campaign: Item;
      let task: Item;
      let todo: Item;
      beforeAll(async () => {
        c = await user();
        const other = await user();
        foreignCampaign = await other.create({ title: 'Not yours', type: 'campaign' });
        campaign = await c.create({ title: 'C', type: 'campaign' });
        task = await c.create({ title: 'T', type: 'task', parent_id: campaign.id });
        todo = await c.create({ title: 'D', type: 'todo', parent_id: task.id });
      });

      const cases: [string, () => Record<string, unknown>, string][] = [
        ['an empty title', () => ({ title: '', type: 'todo' }), 'title'],
        ['a blank title', () => ({ title: '   ', type: 'todo' }), 'title'],
        ['a missing title', () => ({ type: 'todo' }), 'title'],
        ['a title over 255 characters', () => ({ title: 'x'.repeat(256), type: 'todo' }), 'title'],
        ['an unknown type', () => ({ title: 'a', type: 'project' }), 'type'],
        ['a missing type', () => ({ title: 'a' }), 'type'],
        ['an unknown status', () => ({ title: 'a', type: 'todo', status: 'done' }), 'status'],
        ['a field that is not allowed', () => ({ title: 'a', type: 'todo', color: 'red' }), 'color'],
        [
          'a parent that does not exist',
          () => ({ title: 'a', type: 'todo', parent_id: 999999 }),
          'parent_id',
        ],
        [
          'a parent the caller cannot see',
          () => ({ title: 'a', type: 'task', parent_id: foreignCampaign.id }),
          'parent_id',
        ],
        [
          'a campaign with a parent',
          () => ({ title: 'a', type: 'campaign', parent_id: campaign.id }),
          'parent_id',
        ],
        ['a task under a task', () => ({ title: 'a', type: 'task', parent_id: task.id }), 'parent_id'],
        ['a todo under a todo', () => ({ title: 'a', type: 'todo', parent_id: todo.id }), 'parent_id'],
        [
          'an assignee who does not exist',
          () => ({ title: 'a', type: 'todo', assigned_to: 999999 }),
          'assigned_to',
        ],
        ['a malformed uuid', () => ({ title: 'a', type: 'todo', uuid: 'nope' }), 'uuid'],
        ['a malformed due date', () => ({ title: 'a', type: 'todo', due_date: 'tomorrow' }), 'due_date'],
      ];
      it.each(cases)('for %s', async (_name, body, field) => {
        const before = (await c.get<Paginated<Item>>('/api/items')).body.total;
        const response = await c.post<ErrorBody>('/api/items', body());
        expect(response.status, response.text).toBe(422);
        expect(response.body.message).toEqual(expect.any(String));
        expect(response.body.errors?.[field]?.[0]).toEqual(expect.any(String));
        expect((await c.get<Paginated<Item>>('/api/items')).body.total).toBe(before);
      });

      it('accepts a title of exactly 255 characters', async () => {
        const item = await c.create({ title: 'y'.repeat(255), type: 'todo' });
        expect(item.title).toHaveLength(255);
      });

      it('accepts a todo directly under a campaign and a task at the top level', async () => {
        await c.create({ title: 'todo in campaign', type: 'todo', parent_id: campaign.id });
        await c.create({ title: 'free task', type: 'task' });
      });
    });
  });

  describe('patch', () => {
    it('changes only the fields sent and bumps the version', async () => {
      const c = await user();
      const item = await c.create({ title: 'Old', type: 'task', description: 'keep me' });
      const response = await c.patch<Item>(`/api/items/${item.id}`, { title: 'New', due_date: '2031-02-03' });
      expect(response.status).toBe(200);
      expect(response.headers.etag).toBe('"2"');
      expect(response.body).toMatchObject({
        title: 'New',
        description: 'keep me',
        due_date: '2031-02-03',
        version: 2,
      });
      expect(await c.item(item.id)).toMatchObject({ title: 'New', version: 2 });
    });

    it('moves an item to another parent and refuses moves that break the hierarchy', async () => {
      const c = await user();
      const c1 = await c.create({ title: 'C1', type: 'campaign' });
      const c2 = await c.create({ title: 'C2', type: 'campaign' });
      const task = await c.create({ title: 'T', type: 'task', parent_id: c1.id });
      const todo = await c.create({ title: 'D', type: 'todo', parent_id: task.id });
      expect((await c.update(task.id, { parent_id: c2.id })).parent_id).toBe(c2.id);
      expect((await c.patch(`/api/items/${task.id}`, { parent_id: todo.id })).status).toBe(422);
      expect((await c.patch(`/api/items/${task.id}`, { parent_id: task.id })).status).toBe(422);
      expect((await c.patch(`/api/items/${c1.id}`, { parent_id: c2.id })).status).toBe(422);
      expect((await c.update(task.id, { parent_id: 0 })).parent_id).toBeNull();
    });

    it('P3: answers 412 with the server copy when If-Match names an older version', async () => {
      const c = await user();
      const item = await c.create({ title: 'v1', type: 'todo' });
      await c.update(item.id, { title: 'v2' });
      const stale = await c.patch<ErrorBody & { item: Item }>(
        `/api/items/${item.id}`,
        { title: 'mine' },
        { 'if-match': '"1"' },
      );
      expect(stale.status).toBe(412);
      expect(stale.body.message).toEqual(expect.any(String));
      expect(stale.body.item).toMatchObject({ id: item.id, title: 'v2', version: 2 });
      expect((await c.item(item.id)).title).toBe('v2');
      const fresh = await c.patch<Item>(`/api/items/${item.id}`, { title: 'v3' }, { 'if-match': '"2"' });
      expect(fresh.status).toBe(200);
      expect(fresh.body.version).toBe(3);
    });

    it('answers 404 for a missing item and 422 for an empty or unknown change', async () => {
      const c = await user();
      expect((await c.patch<ErrorBody>('/api/items/987654', { title: 'x' })).status).toBe(404);
      const item = await c.create({ title: 'x', type: 'todo' });
      expect((await c.patch(`/api/items/${item.id}`, {})).status).toBe(422);
      expect((await c.patch(`/api/items/${item.id}`, { type: 'campaign' })).status).toBe(422);
      expect((await c.patch(`/api/items/${item.id}`, { title: '' })).status).toBe(422);
      expect((await c.patch(`/api/items/${item.id}`, { title: 'z'.repeat(256) })).status).toBe(422);
      expect((await c.patch(`/api/items/${item.id}`, { status: 'archived' })).status).toBe(422);
      expect((await c.item(item.id)).version).toBe(1);
    });
  });

  describe('delete', () => {
    it('answers 204, takes the descendants too, and leaves tombstones for sync', async () => {
      const c = await user();
      const campaign = await c.create({ title: 'C', type: 'campaign' });
      const task = await c.create({ title: 'T', type: 'task', parent_id: campaign.id });
      const todo = await c.create({ title: 'D', type: 'todo', parent_id: task.id });
      const direct = await c.create({ title: 'D2', type: 'todo', parent_id: campaign.id });
      const keep = await c.create({ title: 'Keep', type: 'todo' });
      const bootstrap = await pullAll(c, harness.database);
      const response = await c.delete(`/api/items/${campaign.id}`);
      expect(response.status).toBe(204);
      expect(response.text).toBe('');
      for (const id of [campaign.id, task.id, todo.id, direct.id]) {
        expect((await c.get(`/api/items/${id}`)).status).toBe(404);
      }
      expect((await c.get<Paginated<Item>>('/api/items')).body.data.map((i) => i.id)).toEqual([keep.id]);
      const changes = await pullAll(c, harness.database, bootstrap.cursor);
      const tombstones = changes.items.filter((i) => i.deleted_at !== null).map((i) => i.id);
      expect(tombstones.sort()).toEqual([campaign.id, task.id, todo.id, direct.id].sort());
      expect(changes.items.map((i) => i.id)).not.toContain(keep.id);
      expect((await c.delete(`/api/items/${campaign.id}`)).status).toBe(404);
    });

    it('answers 403 to a user who sees the item through an assignment but created neither it nor its top', async () => {
      const owner = await user('Owner');
      const helper = await user('Helper');
      await makeMutual(owner, helper);
      const todo = await owner.create({ title: 'Yours to do', type: 'todo', assigned_to: helper.user?.id });
      const campaign = await owner.create({ title: 'C', type: 'campaign' });
      const task = await owner.create({
        title: 'T',
        type: 'task',
        parent_id: campaign.id,
        assigned_to: helper.user?.id,
      });
      for (const id of [todo.id, task.id]) {
        const response = await helper.delete<ErrorBody>(`/api/items/${id}`);
        expect(response.status).toBe(403);
        expect(response.body.message).toEqual(expect.any(String));
        expect((await helper.item(id)).deleted_at).toBeNull();
      }
      // The helper's own todo under the shared task is theirs to delete; the campaign's creator may too.
      const mine = await helper.create({ title: 'helper todo', type: 'todo', parent_id: task.id });
      const theirs = await helper.create({ title: 'helper todo 2', type: 'todo', parent_id: task.id });
      expect((await helper.delete(`/api/items/${mine.id}`)).status).toBe(204);
      expect((await owner.delete(`/api/items/${theirs.id}`)).status).toBe(204);
    });

    it('refuses to let a user who may not delete an item move it out of its family (then delete it)', async () => {
      const owner = await user('Owner');
      const helper = await user('Helper');
      await makeMutual(owner, helper);
      const campaign = await owner.create({ title: 'Owner campaign', type: 'campaign' });
      const task = await owner.create({
        title: 'Shared task',
        type: 'task',
        parent_id: campaign.id,
        assigned_to: helper.user?.id,
      });
      const todo = await owner.create({ title: 'Owner todo', type: 'todo', parent_id: task.id });
      const loose = await owner.create({ title: 'Loose task', type: 'task', assigned_to: helper.user?.id });
      const helperCampaign = await helper.create({ title: 'Helper campaign', type: 'campaign' });
      const other = await owner.create({ title: 'Other owner campaign', type: 'campaign' });

      for (const [id, parent_id] of [
        [task.id, helperCampaign.id],
        [task.id, null],
        [loose.id, helperCampaign.id],
        [todo.id, null],
      ] as const) {
        const moved = await helper.patch<ErrorBody>(`/api/items/${id}`, { parent_id });
        expect(moved.status, `${id} → ${parent_id}`).toBe(403);
        expect(moved.body.message).toMatch(/move it/);
      }
      // Nothing moved, and so the delete the move would have opened stays closed.
      expect((await helper.item(task.id)).parent_id).toBe(campaign.id);
      expect((await helper.item(todo.id)).parent_id).toBe(task.id);
      expect((await helper.item(loose.id)).parent_id).toBeNull();
      expect((await helper.delete(`/api/items/${task.id}`)).status).toBe(403);
      expect((await owner.item(todo.id)).deleted_at).toBeNull();
      // Within its own family the helper may still move it; its owner may move it anywhere they see.
      const sibling = await owner.create({
        title: 'Second shared task',
        type: 'task',
        parent_id: campaign.id,
        assigned_to: helper.user?.id,
      });
      const within = await helper.patch(`/api/items/${todo.id}`, { parent_id: sibling.id });
      expect(within.status, within.text).toBe(200);
      expect((await owner.patch(`/api/items/${task.id}`, { parent_id: other.id })).status).toBe(200);
    });

    it('P3: honours If-Match: a stale version gets 412 with the item and nothing is deleted', async () => {
      const c = await user();
      const item = await c.create({ title: 'v1', type: 'todo' });
      await c.update(item.id, { title: 'v2' });
      const stale = await c.delete<ErrorBody & { item: Item }>(`/api/items/${item.id}`, {
        'if-match': '"1"',
      });
      expect(stale.status).toBe(412);
      expect(stale.body.item).toMatchObject({ id: item.id, version: 2 });
      expect((await c.get(`/api/items/${item.id}`)).status).toBe(200);
      expect((await c.delete(`/api/items/${item.id}`, { 'if-match': '"2"' })).status).toBe(204);
    });
  });

  describe('assign', () => {
    it('assigns to a user, and user_id 0 unassigns', async () => {
      const c = await user();
      const item = await c.create({ title: 'Assign me', type: 'todo' });
      const assigned = await c.post<Item>(`/api/items/${item.id}/assign`, { user_id: 3 });
      expect(assigned.status).toBe(200);
      expect(assigned.headers.etag).toBe(`"${assigned.body.version}"`);
      expect(assigned.body).toMatchObject({ assigned_to: 3, assignedUser: { id: 3, name: 'Jordan Lee' } });
      const cleared = await c.post<Item>(`/api/items/${item.id}/assign`, { user_id: 0 });
      expect(cleared.status).toBe(200);
      expect(cleared.body).toMatchObject({ assigned_to: null, assignedUser: null });
    });

    it('answers 422 for an unknown user or a malformed body, and 404 for a missing item', async () => {
      const c = await user();
      const item = await c.create({ title: 'x', type: 'todo' });
      const unknown = await c.post<ErrorBody>(`/api/items/${item.id}/assign`, { user_id: 999999 });
      expect(unknown.status).toBe(422);
      expect(unknown.body.errors?.assigned_to).toBeDefined();
      expect((await c.post(`/api/items/${item.id}/assign`, {})).status).toBe(422);
      expect((await c.post(`/api/items/${item.id}/assign`, { user_id: '2' })).status).toBe(422);
      expect((await c.post(`/api/items/${item.id}/assign`, { user_id: -1 })).status).toBe(422);
      expect((await c.post('/api/items/987654/assign', { user_id: 2 })).status).toBe(404);
      expect((await c.item(item.id)).assigned_to).toBeNull();
    });

    it('assigns only to the caller, a mutual contact or a sample user, so nobody can list users by id', async () => {
      const alex = await user('Alex');
      const victim = await user('Victim');
      const friend = await user('Friend');
      await makeMutual(alex, friend);
      // The victim has Alex's phone, Alex does not have theirs: not mutual.
      expect((await victim.post('/api/contacts/sync', { contacts: [alex.user!.phone] })).status).toBe(200);
      const item = await alex.create({ title: 'Probe', type: 'todo' });

      const refusals = [];
      for (const id of [victim.user!.id, 999_999]) {
        refusals.push(await alex.post<ErrorBody>(`/api/items/${item.id}/assign`, { user_id: id }));
        refusals.push(
          await alex.post<ErrorBody>('/api/items', { title: 'p', type: 'todo', assigned_to: id }),
        );
        refusals.push(await alex.patch<ErrorBody>(`/api/items/${item.id}`, { assigned_to: id }));
      }
      for (const refused of refusals) {
        expect(refused.status).toBe(422);
        expect(refused.body.errors?.assigned_to).toEqual([
          'You can assign an item only to yourself, one of your mutual contacts or a sample user.',
        ]);
      }
      // An existing user and an unknown id get the very same answer: nothing to tell them apart.
      expect(new Set(refusals.map((r) => r.text)).size).toBe(1);
      expect(JSON.stringify(refusals)).not.toContain(victim.user!.phone);
      // The victim was handed nothing.
      expect((await victim.get<Paginated<Item>>('/api/items')).body.total).toBe(0);

      for (const id of [alex.user!.id, friend.user!.id, 1, 4]) {
        const assigned = await alex.post<Item>(`/api/items/${item.id}/assign`, { user_id: id });
        expect(assigned.status, `user ${id}`).toBe(200);
        expect(assigned.body.assigned_to).toBe(id);
      }
    });

    it("shows an assignee's or creator's phone only to whoever already has it", async () => {
      const owner = await user('Owner');
      const helper = await user('Helper');
      const onlooker = await user('Onlooker');
      await makeMutual(owner, helper);
      await makeMutual(owner, onlooker);
      const campaign = await owner.create({
        title: 'Team',
        type: 'campaign',
        assigned_to: onlooker.user!.id,
      });
      const task = await owner.create({
        title: 'Helper task',
        type: 'task',
        parent_id: campaign.id,
        assigned_to: helper.user!.id,
      });
      // The owner has both phones; the helper has the owner's, and their own.
      expect((await owner.item(task.id)).assignedUser?.phone).toBe(helper.user!.phone);
      const asHelper = await helper.item(task.id);
      expect(asHelper.assignedUser?.phone).toBe(helper.user!.phone);
      expect(asHelper.created_by.phone).toBe(owner.user!.phone);
      // The onlooker sees the task through the campaign but does not have the helper's phone.
      const asOnlooker = await onlooker.item(task.id);
      expect(asOnlooker.assignedUser).toMatchObject({ id: helper.user!.id, name: 'Helper', phone: '' });
      const everywhere = JSON.stringify([
        (await onlooker.get('/api/items?per_page=100')).body,
        (await onlooker.get('/api/items/search?q=helper')).body,
        (await pullAll(onlooker, harness.database)).items,
        (await onlooker.patch(`/api/items/${task.id}`, { title: 'Helper task 2' })).body,
      ]);
      expect(everywhere).toContain('Helper task');
      expect(everywhere).not.toContain(helper.user!.phone);
    });
  });

  describe('search', () => {
    let c: TestClient;
    beforeAll(async () => {
      c = await user();
    });
    const search = async (q: string) => {
      const response = await c.get<Item[]>(`/api/items/search?q=${encodeURIComponent(q)}`);
      expect(response.status).toBe(200);
      expect(Array.isArray(response.body)).toBe(true);
      return response.body;
    };

    it('puts title matches first, then description matches, each most recently updated first', async () => {
      const d1 = await c.create({ title: 'Alpha', type: 'task', description: 'about zebra crossings' });
      const t1 = await c.create({ title: 'Zebra one', type: 'todo' });
      const d2 = await c.create({ title: 'Beta', type: 'task', description: 'ZEBRA in capitals' });
      const t2 = await c.create({ title: 'zebra two', type: 'todo' });
      await c.create({ title: 'Unrelated', type: 'todo' });
      // Touch the older ones so "most recently updated" differs from creation order.
      await c.update(t1.id, { description: 'touched' });
      await c.update(d1.id, { title: 'Alpha!' });
      expect((await search('zebra')).map((i) => i.id)).toEqual([t1.id, t2.id, d1.id, d2.id]);
      expect((await search('  ZeBrA ')).map((i) => i.id)).toEqual([t1.id, t2.id, d1.id, d2.id]);
    });

    it('answers [] for fewer than 2 characters after trimming, or no q', async () => {
      await c.create({ title: 'a b c', type: 'todo' });
      expect(await search('a')).toEqual([]);
      expect(await search('  a  ')).toEqual([]);
      expect(await search('')).toEqual([]);
      const none = await c.get<Item[]>('/api/items/search');
      expect(none.status).toBe(200);
      expect(none.body).toEqual([]);
    });

    it('answers at most 20 items', async () => {
      for (let n = 0; n < 23; n += 1) await c.create({ title: `many-match ${n}`, type: 'todo' });
      expect(await search('many-match')).toHaveLength(20);
    });

    it('treats % and _ literally', async () => {
      const percent = await c.create({ title: '100% done', type: 'todo' });
      const underscore = await c.create({ title: 'snake_case name', type: 'todo' });
      await c.create({ title: '100 percent done', type: 'todo' });
      await c.create({ title: 'snakeXcase name', type: 'todo' });
      expect((await search('0%')).map((i) => i.id)).toEqual([percent.id]);
      expect((await search('e_c')).map((i) => i.id)).toEqual([underscore.id]);
      expect((await search('%%')).map((i) => i.id)).toEqual([]);
    });

    it('finds only items the caller may see, never deleted ones', async () => {
      const other = await user();
      await other.create({ title: 'hidden needle', type: 'todo' });
      const gone = await c.create({ title: 'deleted needle', type: 'todo' });
      await c.delete(`/api/items/${gone.id}`);
      const mine = await c.create({ title: 'my needle', type: 'todo' });
      expect((await search('needle')).map((i) => i.id)).toEqual([mine.id]);
    });
  });
});
