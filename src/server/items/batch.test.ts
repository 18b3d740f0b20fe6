import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, testEngines } from '../../../testkit/server';
import { signedIn, type TestClient } from '../../../testkit/testClient';
import type { Item, Paginated } from '../../shared/item';
import { ITEM_BATCH_MAX, type ItemBatchInput } from '../../shared/schemas';

type ErrorBody = { message: string; errors?: Record<string, string[]> };
type BatchBody = { items: Item[] };
type BatchItem = ItemBatchInput['items'][number];

describe.each(testEngines())('POST /api/items/batch (%s)', (engine) => {
  let harness: Awaited<ReturnType<typeof createTestApp>>;
  beforeAll(async () => {
    harness = await createTestApp(engine);
  });
  afterAll(() => harness?.close());

  const user = (name = 'Batcher') => signedIn(harness.app, name);
  const batch = (c: TestClient, items: BatchItem[], headers?: Record<string, string>) =>
    c.post<BatchBody & ErrorBody>('/api/items/batch', { items }, headers);
  const total = async (c: TestClient) => (await c.get<Paginated<Item>>('/api/items?per_page=1')).body.total;

  /** A campaign, a task under it and a todo under the task, linked by uuid. */
  const family = (): [BatchItem, BatchItem, BatchItem] => {
    const [campaign, task, todo] = [randomUUID(), randomUUID(), randomUUID()];
    return [
      { uuid: campaign, title: 'Launch', type: 'campaign' },
      { uuid: task, title: 'Plan', type: 'task', parent_uuid: campaign },
      { uuid: todo, title: 'Call Sam', type: 'todo', parent_uuid: task, status: 'completed' },
    ];
  };

  it('U2: creates the items in request order, parents by uuid within the batch, in one answer', async () => {
    const c = await user();
    const items = family();
    const response = await batch(c, items);
    expect(response.status, response.text).toBe(201);
    const answered = response.body.items;
    expect(answered.map((i) => i.uuid)).toEqual(items.map((i) => i.uuid));
    const [campaign, task, todo] = answered as [Item, Item, Item];
    expect(task.parent_id).toBe(campaign.id);
    expect(todo.parent_id).toBe(task.id);
    expect(todo).toMatchObject({ title: 'Call Sam', status: 'completed', user_id: c.user!.id });
    // The same roll-up as single creates: a task whose only child is completed is completed.
    const parent = await c.get<Item>(`/api/items/${task.id}`);
    expect(parent.body.status).toBe('completed');
    expect(await total(c)).toBe(3);
  });

  it('U3: a repeated batch creates nothing new and answers the existing items', async () => {
    const c = await user();
    const items = family();
    const first = await batch(c, items);
    expect(first.status).toBe(201);
    const again = await batch(c, items);
    expect(again.status, again.text).toBe(200);
    expect(again.body.items.map((i) => i.id)).toEqual(first.body.items.map((i) => i.id));
    // A batch that overlaps a sent one (an interrupted upload resumed in other slices) adds only the new.
    const more: BatchItem = {
      uuid: randomUUID(),
      title: 'One more',
      type: 'todo',
      parent_uuid: items[1].uuid,
    };
    const overlap = await batch(c, [items[1], more]);
    expect(overlap.status).toBe(201);
    expect(overlap.body.items[0]!.id).toBe(first.body.items[1]!.id);
    expect(overlap.body.items[1]!.parent_id).toBe(first.body.items[1]!.id);
    expect(await total(c)).toBe(4);
  });

  it('U3: the same Idempotency-Key answers the recorded response; with another body it is a 422', async () => {
    const c = await user();
    const items = family();
    const key = randomUUID();
    const first = await batch(c, items, { 'Idempotency-Key': key });
    const again = await batch(c, items, { 'Idempotency-Key': key });
    expect(again.status).toBe(first.status);
    expect(again.body).toEqual(first.body);
    const other = await batch(c, family(), { 'Idempotency-Key': key });
    expect(other.status).toBe(422);
    expect(await total(c)).toBe(3);
  });

  it('U2: one bad item in the middle refuses the whole batch with a 422 naming it, and creates nothing', async () => {
    const c = await user();
    const items: BatchItem[] = [
      ...family(),
      { uuid: randomUUID(), title: '   ', type: 'todo' },
      { uuid: randomUUID(), title: 'After', type: 'todo' },
    ];
    const response = await batch(c, items);
    expect(response.status, response.text).toBe(422);
    expect(response.body.errors?.['items.3.title']).toEqual(['The title is required.']);
    expect(await total(c)).toBe(0);

    // A rule createItem enforces (not the schema): a campaign under a task, after two good items.
    const [campaign, task] = family();
    const broken = await batch(c, [
      campaign,
      task,
      { uuid: randomUUID(), title: 'Nested', type: 'campaign', parent_uuid: task.uuid },
    ]);
    expect(broken.status, broken.text).toBe(422);
    expect(Object.keys(broken.body.errors ?? {})).toEqual(['items.2.parent_id']);
    expect(await total(c)).toBe(0);
  });

  it('U2: a parent by uuid already on the server, by id, and never one the caller cannot see', async () => {
    const c = await user();
    const campaign = await c.create({ title: 'On the server', type: 'campaign', uuid: randomUUID() });
    const response = await batch(c, [
      { uuid: randomUUID(), title: 'By uuid', type: 'task', parent_uuid: campaign.uuid },
      { uuid: randomUUID(), title: 'By id', type: 'todo', parent_id: campaign.id },
    ]);
    expect(response.status, response.text).toBe(201);
    expect(response.body.items.map((i) => i.parent_id)).toEqual([campaign.id, campaign.id]);

    const stranger = await user('Stranger');
    const hidden = await batch(stranger, [
      { uuid: randomUUID(), title: 'Sneaky', type: 'task', parent_uuid: campaign.uuid },
    ]);
    expect(hidden.status).toBe(422);
    expect(hidden.body.errors?.['items.0.parent_uuid']).toBeDefined();
    const byId = await batch(stranger, [
      { uuid: randomUUID(), title: 'Sneaky', type: 'task', parent_id: campaign.id },
    ]);
    expect(byId.status).toBe(422);
    expect(byId.body.errors?.['items.0.parent_id']).toBeDefined();
    expect(await total(stranger)).toBe(0);
  });

  it('U2: refuses a child before its parent, a uuid twice, both parent fields, and no uuid', async () => {
    const c = await user();
    const [campaign, task] = family();
    const cases: [BatchItem[], string][] = [
      [[task, campaign], 'items.0.parent_uuid'],
      [[campaign, { ...campaign, title: 'Twin' }], 'items.1.uuid'],
      [[{ ...task, parent_id: 1 }], 'items.0.parent_uuid'],
      [[{ title: 'No uuid', type: 'todo' } as BatchItem], 'items.0.uuid'],
    ];
    for (const [items, field] of cases) {
      const response = await batch(c, items);
      expect(response.status, response.text).toBe(422);
      expect(response.body.errors?.[field], `${field}: ${response.text}`).toBeDefined();
    }
    expect(await total(c)).toBe(0);
  });

  it(`U1, U2: takes at most ${ITEM_BATCH_MAX} items and refuses an empty list, with a message`, async () => {
    const c = await user();
    const many = Array.from({ length: ITEM_BATCH_MAX }, (_, n) => ({
      uuid: randomUUID(),
      title: `Item ${n}`,
      type: 'todo' as const,
    }));
    const full = await batch(c, many);
    expect(full.status).toBe(201);
    expect(full.body.items).toHaveLength(ITEM_BATCH_MAX);
    const over = await batch(c, [...many, { uuid: randomUUID(), title: 'One too many', type: 'todo' }]);
    expect(over.status).toBe(422);
    expect(over.body.message).toContain(`At most ${ITEM_BATCH_MAX} items`);
    const empty = await batch(c, []);
    expect(empty.status).toBe(422);
    expect(await total(c)).toBe(ITEM_BATCH_MAX);
  });

  it('U2: assignees follow the single-create rule; a guest session is refused', async () => {
    const c = await user();
    const stranger = await user('Nobody');
    const refused = await batch(c, [
      { uuid: randomUUID(), title: 'Mine', type: 'todo', assigned_to: c.user!.id },
      { uuid: randomUUID(), title: 'Theirs', type: 'todo', assigned_to: stranger.user!.id },
    ]);
    expect(refused.status).toBe(422);
    expect(Object.keys(refused.body.errors ?? {})).toEqual(['items.1.assigned_to']);
    const anonymous = await harness.app.inject({
      method: 'POST',
      url: '/api/items/batch',
      payload: { items: family() },
    });
    expect(anonymous.statusCode).toBeGreaterThanOrEqual(400);
    expect(anonymous.statusCode).toBeLessThan(500);
    expect(await total(c)).toBe(0);
  });
});
