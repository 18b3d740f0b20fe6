import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, testEngines } from '../../../testkit/server';
import { share } from '../../../testkit/sharing';
import { pullAll, signedIn, type TestClient, writeDirectly } from '../../../testkit/testClient';
import { FAMILY_FULL_MESSAGE, FAMILY_MAX_ITEMS, type Item } from '../../shared/item';
import { keyBetween } from '../../shared/sortKey';
import {
  deriveUuid,
  TEMPLATE_MAX_NODES,
  type Template,
  type TemplateNode,
  tooManyNodesMessage,
} from '../../shared/templates';
import { sql } from '../db/client';

type ErrorBody = { message: string; errors?: Record<string, string[]> };
type Made = { items: Item[] };

describe.each(testEngines())('templates (%s)', (engine) => {
  let harness: Awaited<ReturnType<typeof createTestApp>>;
  beforeAll(async () => {
    harness = await createTestApp(engine);
  });
  afterAll(() => harness?.close());

  /** A campaign with two tasks, todos in an order set by hand, and what a template must leave out. */
  async function launchCampaign(owner: TestClient) {
    const campaign = await owner.create({ title: 'Launch', type: 'campaign', due_date: '2030-03-10' });
    const prep = await owner.create({
      title: 'Prepare',
      type: 'task',
      parent_id: campaign.id,
      description: 'Everything before the day',
      priority: 1,
      labels: ['ops', 'Week 1'],
      estimate_minutes: 90,
      start_date: '2030-03-01',
      due_date: '2030-03-05',
      assigned_to: owner.user!.id,
    });
    const ship = await owner.create({
      title: 'Ship',
      type: 'task',
      parent_id: campaign.id,
      due_date: '2030-03-12',
    });
    const b1 = await owner.create({
      title: 'Check the list',
      type: 'todo',
      parent_id: ship.id,
      due_date: '2030-03-08',
      recurrence: 'FREQ=WEEKLY',
    });
    const b2 = await owner.create({ title: 'Pack', type: 'todo', parent_id: ship.id, priority: 2 });
    const b3 = await owner.create({ title: 'Label boxes', type: 'todo', parent_id: ship.id });
    // By hand: 'Label boxes' first.
    await owner.update(b3.id, { sort_key: keyBetween(null, b1.sort_key!) });
    await owner.update(b2.id, { status: 'completed' });
    const comment = await owner.post(`/api/items/${prep.id}/comments`, { body: 'Not in the template' });
    expect(comment.status, comment.text).toBe(201);
    return { campaign, prep, ship };
  }

  const save = (c: TestClient, body: Record<string, unknown>) =>
    c.post<Template & ErrorBody>('/api/templates', body);
  const instantiate = (
    c: TestClient,
    id: number,
    body: Record<string, unknown>,
    headers?: Record<string, string>,
  ) => c.post<Made & ErrorBody>(`/api/templates/${id}/instantiate`, body, headers);
  const titles = (nodes: TemplateNode[]): unknown =>
    nodes.map((n) => (n.children.length > 0 ? [n.title, titles(n.children)] : n.title));
  const countItems = async (c: TestClient) =>
    (await c.get<{ total: number }>('/api/items?per_page=1')).body.total;

  it('snapshots a campaign: plan fields, order and dates as days from the earliest, never comments, assignees or status', async () => {
    const alice = await signedIn(harness.app, 'Alice');
    const { campaign } = await launchCampaign(alice);
    const saved = await save(alice, { name: 'Launch plan', from_item_id: campaign.id });
    expect(saved.status, saved.text).toBe(201);
    const t = saved.body;
    expect(t).toMatchObject({ name: 'Launch plan', kind: 'campaign', campaign_id: campaign.id });
    expect(t.created_by).toEqual({ id: alice.user!.id, name: 'Alice' });
    expect(titles(t.tree.nodes)).toEqual([
      ['Launch', ['Prepare', ['Ship', ['Label boxes', 'Check the list', 'Pack']]]],
    ]);
    const [root] = t.tree.nodes;
    const [prep, ship] = root!.children;
    // The anchor is the earliest date: Prepare's start, 2030-03-01.
    expect(root).toMatchObject({ due_offset: 9, start_offset: null });
    expect(prep).toEqual({
      type: 'task',
      title: 'Prepare',
      description: 'Everything before the day',
      priority: 1,
      labels: ['ops', 'Week 1'],
      estimate_minutes: 90,
      recurrence: null,
      start_offset: 0,
      due_offset: 4,
      end_offset: null,
      children: [],
    });
    expect(ship!.children[1]).toMatchObject({ recurrence: 'FREQ=WEEKLY', due_offset: 7 });
    expect(ship!.children[2]).toMatchObject({ priority: 2 });
    expect(JSON.stringify(t)).not.toMatch(/assigned|status|comment/);
  });

  it('instantiates the same tree in order, every date shifted to the anchor, uuids derived from the request’s, all pending and unassigned', async () => {
    const alice = await signedIn(harness.app, 'Alice');
    const { campaign } = await launchCampaign(alice);
    const t = (await save(alice, { name: 'Launch plan', from_item_id: campaign.id })).body;
    const uuid = randomUUID();
    const made = await instantiate(alice, t.id, { anchor_date: '2031-01-10', uuid });
    expect(made.status, made.text).toBe(201);
    const items = made.body.items;
    expect(items.map((i) => i.title)).toEqual([
      'Launch',
      'Prepare',
      'Ship',
      'Label boxes',
      'Check the list',
      'Pack',
    ]);
    expect(items.map((i) => i.uuid)).toEqual(
      ['0', '0/0', '0/1', '0/1/0', '0/1/1', '0/1/2'].map((path) => deriveUuid(uuid, path)),
    );
    const byTitle = new Map(items.map((i) => [i.title, i]));
    expect(byTitle.get('Launch')!.due_date).toBe('2031-01-19');
    expect(byTitle.get('Prepare')).toMatchObject({
      start_date: '2031-01-10',
      due_date: '2031-01-14',
      priority: 1,
      labels: ['ops', 'Week 1'],
      estimate_minutes: 90,
      assigned_to: null,
      description: 'Everything before the day',
    });
    expect(byTitle.get('Check the list')).toMatchObject({
      due_date: '2031-01-17',
      recurrence: 'FREQ=WEEKLY',
    });
    expect(items.every((i) => i.status === 'pending' && i.assigned_to === null)).toBe(true);
    const comments = await alice.get<{ data: unknown[] }>(
      `/api/items/${byTitle.get('Prepare')!.id}/comments`,
    );
    expect(comments.body.data).toEqual([]);
    // Snapshotting what was made gives the template's tree back: same order, same offsets.
    const again = await save(alice, { name: 'Round trip', from_item_id: byTitle.get('Launch')!.id });
    expect(again.body.tree).toEqual(t.tree);
  });

  it('the same Idempotency-Key twice makes one tree; the same uuid again without a key creates nothing either', async () => {
    const alice = await signedIn(harness.app, 'Alice');
    const { campaign } = await launchCampaign(alice);
    const t = (await save(alice, { name: 'Launch plan', from_item_id: campaign.id })).body;
    const before = await countItems(alice);
    const body = { anchor_date: '2031-05-01', uuid: randomUUID() };
    const first = await instantiate(alice, t.id, body, { 'Idempotency-Key': 'tpl-1' });
    const second = await instantiate(alice, t.id, body, { 'Idempotency-Key': 'tpl-1' });
    expect(first.status, first.text).toBe(201);
    expect(second.status).toBe(201);
    expect(second.body.items.map((i) => i.id)).toEqual(first.body.items.map((i) => i.id));
    expect(await countItems(alice)).toBe(before + 6);
    const third = await instantiate(alice, t.id, body);
    expect(third.status, third.text).toBe(200);
    expect(third.body.items.map((i) => i.id)).toEqual(first.body.items.map((i) => i.id));
    expect(await countItems(alice)).toBe(before + 6);
  });

  it('one transaction: a tree that does not fit its family (the 5,000 cap) leaves nothing of it behind', async () => {
    const alice = await signedIn(harness.app, 'Alice');
    const { ship } = await launchCampaign(alice);
    const checklist = (await save(alice, { name: 'Packing', from_item_id: ship.id, kind: 'checklist' })).body;
    const full = await alice.create({ title: 'Nearly full', type: 'campaign' });
    const task = await alice.create({ title: 'Last task', type: 'task', parent_id: full.id });
    // One place left under the campaign: the checklist's first todo fits, its second does not.
    await writeDirectly(harness.app, [alice.user!.id], (tx) =>
      tx.execute(
        sql`INSERT INTO items (uuid, title, type, status, user_id, parent_id)
            SELECT gen_random_uuid(), 'Filler ' || n, 'task', 'pending', ${alice.user!.id}, ${full.id}
            FROM generate_series(1, ${FAMILY_MAX_ITEMS - 2}) AS n`,
      ),
    );
    const before = await countItems(alice);
    const made = await instantiate(alice, checklist.id, {
      parent_id: task.id,
      anchor_date: '2031-01-01',
      uuid: randomUUID(),
    });
    expect(made.status, made.text).toBe(422);
    expect(made.body.message).toBe(FAMILY_FULL_MESSAGE);
    expect(await countItems(alice)).toBe(before);
    const todos = await alice.get<{ total: number }>(`/api/items?parent_id=${task.id}&per_page=1`);
    expect(todos.body.total).toBe(0);
  });

  it('what an instantiation makes is the items’ own creates: in the campaign’s activity and in its members’ next pull', async () => {
    const alice = await signedIn(harness.app, 'Alice');
    const bob = await signedIn(harness.app, 'Bob');
    const { campaign, ship } = await launchCampaign(alice);
    await share(alice, campaign, 'editor', bob);
    const t = (await save(alice, { name: 'Shipping', from_item_id: ship.id })).body;
    const { cursor } = await pullAll(bob, harness.database);
    const made = await instantiate(alice, t.id, {
      parent_id: campaign.id,
      anchor_date: '2031-01-01',
      uuid: randomUUID(),
    });
    expect(made.status, made.text).toBe(201);
    const pulled = await pullAll(bob, harness.database, cursor);
    const uuids = new Set(pulled.items.map((i) => i.uuid));
    expect(made.body.items.every((i) => uuids.has(i.uuid))).toBe(true);
    const activity = await alice.get<{ data: { action: string; item: { id: number } }[] }>(
      `/api/campaigns/${campaign.id}/activity?page=1`,
    );
    const created = new Set(activity.body.data.filter((a) => a.action === 'created').map((a) => a.item.id));
    expect(made.body.items.every((i) => created.has(i.id))).toBe(true);
  });

  it('a token reads templates with `read` and creates from them only with `write`', async () => {
    const alice = await signedIn(harness.app, 'Alice');
    const { ship } = await launchCampaign(alice);
    const t = (await save(alice, { name: 'Shipping', from_item_id: ship.id })).body;
    const mint = async (scopes: string[]) => {
      const made = await alice.post<{ token: string }>('/api/tokens', {
        name: `Script ${scopes.join('+')}`,
        scopes,
      });
      expect(made.status, made.text).toBe(201);
      return made.body.token;
    };
    const call = (token: string, method: 'GET' | 'POST', url: string, body?: unknown) =>
      harness.app.inject({
        method,
        url,
        headers: {
          authorization: `Bearer ${token}`,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
      });
    const reader = await mint(['read']);
    const writer = await mint(['write']);
    expect((await call(reader, 'GET', '/api/templates')).statusCode).toBe(200);
    const body = { anchor_date: '2031-01-01', uuid: randomUUID() };
    expect((await call(reader, 'POST', `/api/templates/${t.id}/instantiate`, body)).statusCode).toBe(403);
    const made = await call(writer, 'POST', `/api/templates/${t.id}/instantiate`, body);
    expect(made.statusCode, made.body).toBe(201);
  });

  it('a checklist holds a task’s todos and is added to an existing task after its last todo; without a task it is refused', async () => {
    const alice = await signedIn(harness.app, 'Alice');
    const { ship } = await launchCampaign(alice);
    const saved = await save(alice, { name: 'Packing', from_item_id: ship.id, kind: 'checklist' });
    expect(saved.status, saved.text).toBe(201);
    expect(saved.body.kind).toBe('checklist');
    expect(titles(saved.body.tree.nodes)).toEqual(['Label boxes', 'Check the list', 'Pack']);
    const target = await alice.create({ title: 'Move house', type: 'task' });
    const existing = await alice.create({ title: 'Book the van', type: 'todo', parent_id: target.id });
    const made = await instantiate(alice, saved.body.id, {
      parent_id: target.id,
      anchor_date: '2032-02-01',
      uuid: randomUUID(),
    });
    expect(made.status, made.text).toBe(201);
    expect(made.body.items.every((i) => i.parent_id === target.id)).toBe(true);
    const keys = made.body.items.map((i) => i.sort_key!);
    expect([...keys].sort()).toEqual(keys);
    expect(keys[0]! > existing.sort_key!).toBe(true);
    expect(made.body.items.find((i) => i.title === 'Check the list')!.due_date).toBe('2032-02-01');
    const bare = await instantiate(alice, saved.body.id, { anchor_date: '2032-02-01', uuid: randomUUID() });
    expect(bare.status).toBe(422);
    expect(bare.body.errors?.parent_id).toBeDefined();
    // A todo makes no template.
    const todo = await alice.create({ title: 'Lone', type: 'todo', parent_id: target.id });
    expect((await save(alice, { name: 'No', from_item_id: todo.id })).status).toBe(422);
  });

  it('roles: members list a campaign’s template; owner and editors change it; viewers use it only where they may create; others get 404', async () => {
    const alice = await signedIn(harness.app, 'Alice');
    const bob = await signedIn(harness.app, 'Bob');
    const carol = await signedIn(harness.app, 'Carol');
    const dave = await signedIn(harness.app, 'Dave');
    const { campaign, ship } = await launchCampaign(alice);
    await share(alice, campaign, 'editor', bob);
    await share(alice, campaign, 'viewer', carol);
    const t = (await save(alice, { name: 'Shipping', from_item_id: ship.id })).body;
    expect(t).toMatchObject({ kind: 'task', campaign_id: campaign.id });
    const listed = async (c: TestClient) =>
      (await c.get<{ templates: Template[] }>('/api/templates')).body.templates.map((x) => x.id);
    expect(await listed(bob)).toContain(t.id);
    expect(await listed(carol)).toContain(t.id);
    expect(await listed(dave)).not.toContain(t.id);

    // Someone who cannot see it: 404 for every route.
    expect((await dave.patch(`/api/templates/${t.id}`, { name: 'Mine' })).status).toBe(404);
    expect((await dave.delete(`/api/templates/${t.id}`)).status).toBe(404);
    expect((await instantiate(dave, t.id, { anchor_date: '2031-01-01', uuid: randomUUID() })).status).toBe(
      404,
    );
    // Nor may they snapshot what they cannot open.
    expect((await save(dave, { name: 'Stolen', from_item_id: ship.id })).status).toBe(422);

    // The viewer uses it but changes nothing, and creates only where they may.
    expect((await carol.patch(`/api/templates/${t.id}`, { name: 'Carol’s' })).status).toBe(403);
    expect((await carol.delete(`/api/templates/${t.id}`)).status).toBe(403);
    const intoCampaign = await instantiate(carol, t.id, {
      parent_id: campaign.id,
      anchor_date: '2031-01-01',
      uuid: randomUUID(),
    });
    expect(intoCampaign.status, intoCampaign.text).toBe(403);
    const ownPlace = await instantiate(carol, t.id, { anchor_date: '2031-01-01', uuid: randomUUID() });
    expect(ownPlace.status, ownPlace.text).toBe(201);
    expect(ownPlace.body.items.every((i) => i.user_id === carol.user!.id)).toBe(true);
    // A viewer's own template from the campaign stays theirs; sharing it there is refused.
    const carols = await save(carol, { name: 'Carol’s copy', from_item_id: ship.id });
    expect(carols.status, carols.text).toBe(201);
    expect(carols.body.campaign_id).toBeNull();
    expect(
      (await save(carol, { name: 'Shared', from_item_id: ship.id, campaign_id: campaign.id })).status,
    ).toBe(403);
    expect(await listed(bob)).not.toContain(carols.body.id);

    // The editor changes it and creates in the campaign.
    const renamed = await bob.patch<Template>(`/api/templates/${t.id}`, { name: 'Shipping day' });
    expect(renamed.status, renamed.text).toBe(200);
    expect(renamed.body.name).toBe('Shipping day');
    const intoByEditor = await instantiate(bob, t.id, {
      parent_id: campaign.id,
      anchor_date: '2031-01-01',
      uuid: randomUUID(),
    });
    expect(intoByEditor.status, intoByEditor.text).toBe(201);
    expect(intoByEditor.body.items[0]!.parent_id).toBe(campaign.id);

    // Deleted: gone from every list, and 404 after.
    expect((await alice.delete(`/api/templates/${t.id}`)).status).toBe(204);
    expect(await listed(bob)).not.toContain(t.id);
    expect((await instantiate(alice, t.id, { anchor_date: '2031-01-01', uuid: randomUUID() })).status).toBe(
      404,
    );
  });

  it(`holds at most ${TEMPLATE_MAX_NODES} items, refused with a 422 that says so; names of 1–100 characters`, async () => {
    const alice = await signedIn(harness.app, 'Alice');
    const task = await alice.create({ title: 'Big', type: 'task' });
    await writeDirectly(harness.app, [alice.user!.id], (tx) =>
      tx.execute(
        sql`INSERT INTO items (uuid, title, type, status, user_id, parent_id, sort_key)
            SELECT gen_random_uuid(), 'Step ' || n, 'todo', 'pending', ${alice.user!.id}, ${task.id}, 'a' || lpad(n::text, 4, '0')
            FROM generate_series(1, ${TEMPLATE_MAX_NODES}) AS n`,
      ),
    );
    const tooBig = await save(alice, { name: 'Big', from_item_id: task.id });
    expect(tooBig.status, tooBig.text).toBe(422);
    expect(tooBig.body.message).toBe(tooManyNodesMessage(TEMPLATE_MAX_NODES + 1));
    // Its todos alone are exactly the most a template holds.
    const checklist = await save(alice, { name: 'All steps', from_item_id: task.id, kind: 'checklist' });
    expect(checklist.status, checklist.text).toBe(201);
    expect(checklist.body.tree.nodes).toHaveLength(TEMPLATE_MAX_NODES);
    // Nodes may leave out what is none (the body's 10,000-key bound would refuse 1,001 whole nodes).
    const more = {
      nodes: [...checklist.body.tree.nodes, { title: 'One more' }].map((n) => ({
        type: 'todo',
        title: n.title,
      })),
    };
    const patched = await alice.patch<ErrorBody>(`/api/templates/${checklist.body.id}`, { tree: more });
    expect(patched.status, patched.text).toBe(422);
    expect(patched.body.message).toContain('at most 1,000');

    expect((await save(alice, { name: '', from_item_id: task.id, kind: 'checklist' })).status).toBe(422);
    expect(
      (await save(alice, { name: 'x'.repeat(101), from_item_id: task.id, kind: 'checklist' })).status,
    ).toBe(422);
    const wrongKind = await alice.patch<ErrorBody>(`/api/templates/${checklist.body.id}`, {
      tree: { nodes: [{ type: 'task', title: 'Not a todo' }] },
    });
    expect(wrongKind.status).toBe(422);
  });
});
