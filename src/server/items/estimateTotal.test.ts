import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, testEngines } from '../../../testkit/server';
import { pullAll, signedIn } from '../../../testkit/testClient';
import type { Item, Paginated } from '../../shared/item';
import { rollupEstimates } from '../../shared/timeRollup';

describe.each(testEngines())('estimate_total_minutes (%s)', (engine) => {
  let harness: Awaited<ReturnType<typeof createTestApp>>;
  beforeAll(async () => {
    harness = await createTestApp(engine);
  });
  afterAll(() => harness?.close());

  it('X14: a task and a campaign carry their own estimate, else the sum of their children’s, in every answer', async () => {
    const c = await signedIn(harness.app, 'Estimator');
    const campaign = await c.create({ title: 'Fair', type: 'campaign' });
    expect(campaign.estimate_total_minutes).toBeNull();
    const stalls = await c.create({ title: 'Stalls', type: 'task', parent_id: campaign.id });
    const posters = await c.create({
      title: 'Posters',
      type: 'task',
      parent_id: campaign.id,
      estimate_minutes: 120,
    });
    // The create's answer: a new task's total is its own estimate.
    expect(posters.estimate_total_minutes).toBe(120);
    const todo = await c.create({
      title: 'Tables',
      type: 'todo',
      parent_id: stalls.id,
      estimate_minutes: 30,
    });
    await c.create({ title: 'Chairs', type: 'todo', parent_id: stalls.id, estimate_minutes: 45 });
    await c.create({ title: 'Unplanned', type: 'todo', parent_id: stalls.id });
    await c.create({ title: 'Flyers', type: 'todo', parent_id: campaign.id, estimate_minutes: 15 });
    const gone = await c.create({ title: 'Gone', type: 'todo', parent_id: stalls.id, estimate_minutes: 500 });
    expect((await c.delete(`/api/items/${gone.id}`)).status).toBe(204);
    // A todo carries none: its estimate is all there is.
    expect('estimate_total_minutes' in todo).toBe(false);

    // GET of one item; stalls 30 + 45, the campaign 75 + 120 + 15.
    expect((await c.item(stalls.id)).estimate_total_minutes).toBe(75);
    expect((await c.item(campaign.id)).estimate_total_minutes).toBe(210);

    // The list, and what the shared roll-up makes of the same items.
    const list = await c.get<Paginated<Item>>('/api/items?per_page=100');
    expect(list.status, list.text).toBe(200);
    const mine = list.body.data.filter((i) => i.deleted_at === null);
    const expected = rollupEstimates(mine);
    for (const item of mine)
      if (item.type !== 'todo') expect(item.estimate_total_minutes, item.title).toBe(expected.get(item.id));
    expect(expected.get(campaign.id)).toBe(210);

    // A PATCH answer: an own estimate wins over the children's, and removing it falls back to them.
    expect((await c.update(stalls.id, { estimate_minutes: 60 })).estimate_total_minutes).toBe(60);
    expect((await c.item(campaign.id)).estimate_total_minutes).toBe(195);
    expect((await c.update(stalls.id, { estimate_minutes: null })).estimate_total_minutes).toBe(75);
    expect((await c.update(campaign.id, { estimate_minutes: 600 })).estimate_total_minutes).toBe(600);

    // A sync page carries it like every computed field.
    const pulled = await pullAll(c, harness.app.database);
    const synced = pulled.items.filter((i): i is Item => i.deleted_at === null);
    expect(synced.find((i) => i.id === campaign.id)?.estimate_total_minutes).toBe(600);
    expect(synced.find((i) => i.id === stalls.id)?.estimate_total_minutes).toBe(75);
    expect(synced.find((i) => i.id === posters.id)?.estimate_total_minutes).toBe(120);
  });
});
