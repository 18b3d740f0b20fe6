import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, testEngines } from '../../../testkit/server';
import { signedIn, type TestClient } from '../../../testkit/testClient';
import type { ActivityEntry, Item, Paginated } from '../../shared/item';

let keyCounter = 0;
const newKey = () => {
  keyCounter += 1;
  return `key-${Date.now()}-${keyCounter}`;
};

describe.each(testEngines())('Idempotency-Key (%s)', (engine) => {
  let harness: Awaited<ReturnType<typeof createTestApp>>;
  let c: TestClient;
  let campaign: Item;
  beforeAll(async () => {
    harness = await createTestApp(engine);
    c = await signedIn(harness.app, 'Retrier');
    campaign = await c.create({ title: 'Retries', type: 'campaign' });
  });
  afterAll(() => harness?.close());

  const feed = async (id = campaign.id) =>
    (await c.get<Paginated<ActivityEntry>>(`/api/campaigns/${id}/activity`)).body.data;
  const children = async () =>
    (await c.get<Paginated<Item>>(`/api/items?parent_id=${campaign.id}&per_page=100`)).body.data;

  it('P1: creates once for a repeated POST and answers the repeat with the same status and body', async () => {
    const key = newKey();
    const body = { title: 'Only once', type: 'todo', parent_id: campaign.id };
    const first = await c.post<Item>('/api/items', body, { 'idempotency-key': key });
    const second = await c.post<Item>('/api/items', body, { 'idempotency-key': key });
    expect(first.status).toBe(201);
    expect(second.status).toBe(201);
    expect(second.body).toEqual(first.body);
    expect(second.headers.etag).toBe(first.headers.etag);
    expect((await children()).filter((i) => i.title === 'Only once')).toHaveLength(1);
    const created = (await feed()).filter((e) => e.action === 'created' && e.item.title === 'Only once');
    expect(created).toHaveLength(1);
  });

  it('treats the same body with keys in another order as the same request', async () => {
    const key = newKey();
    await c.post(
      '/api/items',
      { title: 'Order', type: 'todo', parent_id: campaign.id },
      { 'idempotency-key': key },
    );
    const again = await c.post(
      '/api/items',
      { parent_id: campaign.id, type: 'todo', title: 'Order' },
      { 'idempotency-key': key },
    );
    expect(again.status).toBe(201);
    expect((await children()).filter((i) => i.title === 'Order')).toHaveLength(1);
  });

  it('P1: refuses the same key with another body, or on another route, with 422', async () => {
    const key = newKey();
    await c.post('/api/items', { title: 'First use', type: 'todo' }, { 'idempotency-key': key });
    const other = await c.post<{ message: string }>(
      '/api/items',
      { title: 'Second use', type: 'todo' },
      { 'idempotency-key': key },
    );
    expect(other.status).toBe(422);
    expect(other.body.message).toEqual(expect.any(String));
    const elsewhere = await c.patch(`/api/items/${campaign.id}`, { title: 'x' }, { 'idempotency-key': key });
    expect(elsewhere.status).toBe(422);
    expect((await c.item(campaign.id)).title).toBe('Retries');
    const list = (await c.get<Paginated<Item>>('/api/items?per_page=100')).body.data;
    expect(list.filter((i) => i.title === 'Second use')).toHaveLength(0);
  });

  it('refuses a key longer than 255 characters with 422 and accepts one of exactly 255', async () => {
    const long = await c.post<{ message: string; errors: Record<string, string[]> }>(
      '/api/items',
      { title: 'Long key', type: 'todo' },
      { 'idempotency-key': 'k'.repeat(256) },
    );
    expect(long.status).toBe(422);
    expect(long.body.errors['Idempotency-Key']).toBeDefined();
    const list = (await c.get<Paginated<Item>>('/api/items?per_page=100')).body.data;
    expect(list.filter((i) => i.title === 'Long key')).toHaveLength(0);
    const fits = await c.post(
      '/api/items',
      { title: 'Fits', type: 'todo' },
      { 'idempotency-key': 'k'.repeat(255) },
    );
    expect(fits.status).toBe(201);
  });

  it('P1: replays a PATCH with its recorded answer and without a second effect', async () => {
    const item = await c.create({ title: 'A', type: 'todo', parent_id: campaign.id });
    const key = newKey();
    const first = await c.patch<Item>(`/api/items/${item.id}`, { title: 'B' }, { 'idempotency-key': key });
    expect(first.body).toMatchObject({ title: 'B', version: 2 });
    await c.update(item.id, { title: 'C' });
    const replay = await c.patch<Item>(`/api/items/${item.id}`, { title: 'B' }, { 'idempotency-key': key });
    expect(replay.status).toBe(200);
    expect(replay.body).toEqual(first.body);
    expect(await c.item(item.id)).toMatchObject({ title: 'C', version: 3 });
    const updates = (await feed()).filter((e) => e.item.id === item.id && e.action === 'updated');
    expect(updates).toHaveLength(2);
  });

  it('P1: replays a DELETE with 204 instead of a 404 for the second try', async () => {
    const item = await c.create({ title: 'Delete me once', type: 'todo', parent_id: campaign.id });
    const key = newKey();
    const first = await c.delete(`/api/items/${item.id}`, { 'idempotency-key': key });
    const second = await c.delete(`/api/items/${item.id}`, { 'idempotency-key': key });
    expect(first.status).toBe(204);
    expect(second.status).toBe(204);
    expect(second.text).toBe('');
    const deletes = (await feed()).filter((e) => e.item.id === item.id && e.action === 'deleted');
    expect(deletes).toHaveLength(1);
    expect((await c.delete(`/api/items/${item.id}`)).status).toBe(404);
  });

  it('replays an assignment and a contacts sync', async () => {
    const item = await c.create({ title: 'Assign once', type: 'todo', parent_id: campaign.id });
    const key = newKey();
    const first = await c.post<Item>(
      `/api/items/${item.id}/assign`,
      { user_id: 2 },
      { 'idempotency-key': key },
    );
    const second = await c.post<Item>(
      `/api/items/${item.id}/assign`,
      { user_id: 2 },
      { 'idempotency-key': key },
    );
    expect(second.body).toEqual(first.body);
    expect((await feed()).filter((e) => e.item.id === item.id && e.action === 'assigned')).toHaveLength(1);
    const contactsKey = newKey();
    const body = { contacts: ['5551230001', '5551230002'] };
    const a = await c.post('/api/contacts/sync', body, { 'idempotency-key': contactsKey });
    const b = await c.post('/api/contacts/sync', body, { 'idempotency-key': contactsKey });
    expect(b.status).toBe(a.status);
    expect(b.body).toEqual(a.body);
  });

  it('keeps keys per user: the same key from two users makes two items', async () => {
    const other = await signedIn(harness.app, 'Other');
    const key = newKey();
    const mine = await c.post<Item>(
      '/api/items',
      { title: 'Shared key', type: 'todo' },
      { 'idempotency-key': key },
    );
    const theirs = await other.post<Item>(
      '/api/items',
      { title: 'Shared key', type: 'todo' },
      { 'idempotency-key': key },
    );
    expect(mine.status).toBe(201);
    expect(theirs.status).toBe(201);
    expect(theirs.body.id).not.toBe(mine.body.id);
    expect(theirs.body.user_id).toBe(other.user?.id);
  });

  it('P1: has one effect when concurrent requests carry the same key', async () => {
    const key = newKey();
    const body = { title: 'Raced', type: 'todo', parent_id: campaign.id };
    const answers = await Promise.all(
      Array.from({ length: 6 }, () => c.post<Item>('/api/items', body, { 'idempotency-key': key })),
    );
    for (const answer of answers) {
      expect(answer.status).toBe(201);
      expect(answer.body).toEqual(answers[0]?.body);
    }
    expect((await children()).filter((i) => i.title === 'Raced')).toHaveLength(1);
    expect((await feed()).filter((e) => e.action === 'created' && e.item.title === 'Raced')).toHaveLength(1);
  });

  it('P1: has one effect when concurrent PATCHes carry the same key', async () => {
    const item = await c.create({ title: 'Race patch', type: 'todo', parent_id: campaign.id });
    const key = newKey();
    const answers = await Promise.all(
      Array.from({ length: 4 }, () =>
        c.patch<Item>(`/api/items/${item.id}`, { status: 'completed' }, { 'idempotency-key': key }),
      ),
    );
    for (const answer of answers) expect(answer.body).toEqual(answers[0]?.body);
    expect((await c.item(item.id)).version).toBe(2);
  });
});
