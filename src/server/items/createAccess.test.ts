import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, testEngines } from '../../../testkit/server';
import { sharedCampaign } from '../../../testkit/sharing';
import { makeMutual, signedIn, type TestClient } from '../../../testkit/testClient';
import type { Item, Paginated } from '../../shared/item';
import { occurrenceUuid } from '../../shared/recurrence';

type ErrorBody = { message: string; errors?: Record<string, string[]> };

async function allItems(c: TestClient): Promise<Item[]> {
  const page = await c.get<Paginated<Item>>('/api/items?per_page=100');
  return page.body.data;
}

describe.each(testEngines())('what a create may name (%s)', (engine) => {
  let harness: Awaited<ReturnType<typeof createTestApp>>;
  beforeAll(async () => {
    harness = await createTestApp(engine);
  });
  afterAll(() => harness?.close());

  /** Alice's shared campaign with `role` for Bob, and a weekly todo of hers in its task. */
  async function repeatingInCampaign(role: 'viewer' | 'editor') {
    const alice = await signedIn(harness.app, 'Alice');
    const bob = await signedIn(harness.app, 'Bob');
    const shared = await sharedCampaign(alice, role, bob);
    const chore = await alice.create({
      uuid: randomUUID(),
      title: 'Water the ferns',
      description: 'Alice writes this',
      type: 'todo',
      parent_id: shared.task.id,
      due_date: '2031-03-03',
      recurrence: 'FREQ=WEEKLY',
    });
    const next = {
      title: 'Water the ferns',
      type: 'todo' as const,
      parent_id: shared.task.id,
      due_date: '2031-03-10',
      recurrence: 'FREQ=WEEKLY',
      series_uuid: chore.uuid,
      uuid: occurrenceUuid(chore.uuid!, '2031-03-10'),
    };
    return { alice, bob, ...shared, chore, next };
  }

  it('P4: a viewer naming an item they see as series_uuid creates nothing in its owner’s account', async () => {
    const { alice, bob, task } = await repeatingInCampaign('viewer');
    const res = await bob.post<Item & ErrorBody>('/api/items', {
      title: 'Planted campaign',
      type: 'campaign',
      series_uuid: task.uuid,
    });
    expect(res.status, res.text).toBe(422);
    expect(res.body.errors?.series_uuid).toBeDefined();
    expect((await allItems(alice)).map((i) => i.title)).not.toContain('Planted campaign');
    // A todo under their own list, named into the series, is refused the same way.
    const own = await bob.create({ title: 'Bob’s list', type: 'task' });
    const todo = await bob.post<ErrorBody>('/api/items', {
      title: 'Planted todo',
      type: 'todo',
      parent_id: own.id,
      series_uuid: task.uuid,
    });
    expect(todo.status).toBe(422);
    expect((await allItems(alice)).map((i) => i.title)).not.toContain('Planted todo');
  });

  it('P4: a viewer cannot pre-create the owner’s next occurrence: her completion still brings it, and her device’s replay gets hers', async () => {
    const { alice, bob, chore, next } = await repeatingInCampaign('viewer');
    const planted = await bob.post<ErrorBody>('/api/items', {
      ...next,
      title: 'Not Alice’s words',
      recurrence: null,
    });
    expect(planted.status, planted.text).toBe(403);
    await alice.update(chore.id, { status: 'completed' });
    const made = (await allItems(alice)).find((i) => i.uuid === next.uuid)!;
    expect(made).toMatchObject({
      title: 'Water the ferns',
      recurrence: 'FREQ=WEEKLY',
      user_id: alice.user!.id,
    });
    const replay = await alice.post<Item>('/api/items', next);
    expect(replay.status).toBe(200);
    expect(replay.body).toMatchObject({ id: made.id, title: 'Water the ferns' });
  });

  it('P4: someone who does not see the series makes only their own item with its uuid, and the owner’s series goes on', async () => {
    const { alice, chore, next } = await repeatingInCampaign('editor');
    const carol = await signedIn(harness.app, 'Carol');
    const { parent_id: _, ...rest } = next;
    const hers = await carol.create({ ...rest, title: 'Carol’s guess', recurrence: null });
    expect(hers.user_id).toBe(carol.user!.id);
    await alice.update(chore.id, { status: 'completed' });
    const made = (await allItems(alice)).find((i) => i.uuid === next.uuid)!;
    expect(made).toMatchObject({
      title: 'Water the ferns',
      recurrence: 'FREQ=WEEKLY',
      user_id: alice.user!.id,
    });
  });

  it('P4: an editor’s create of the exact next occurrence is the owner’s, as the server derives it, and the completion then adds none', async () => {
    const { alice, bob, chore, next } = await repeatingInCampaign('editor');
    const made = await bob.post<Item>('/api/items', {
      ...next,
      title: 'Edited on the way',
      recurrence: null,
    });
    expect(made.status, made.text).toBe(201);
    expect(made.body).toMatchObject({
      uuid: next.uuid,
      user_id: alice.user!.id,
      title: 'Water the ferns',
      description: 'Alice writes this',
      recurrence: 'FREQ=WEEKLY',
      due_date: '2031-03-10',
      my_role: 'editor',
    });
    // Not the next one (a week too far), or another parent's: refused, nothing made.
    const far = await bob.post<ErrorBody>('/api/items', {
      ...next,
      due_date: '2031-03-24',
      uuid: occurrenceUuid(chore.uuid!, '2031-03-24'),
    });
    expect(far.status).toBe(422);
    expect(far.body.errors?.series_uuid).toBeDefined();
    await bob.update(chore.id, { status: 'completed' });
    expect((await allItems(alice)).filter((i) => i.series_uuid === chore.uuid)).toHaveLength(1);
    // The editor's device replays its queued create after completing: the same row.
    const replay = await bob.post<Item>('/api/items', next);
    expect(replay.status).toBe(200);
    expect(replay.body.id).toBe(made.body.id);
  });

  it('P4: an assignee pre-creating the owner’s next occurrence in their own words gets the one the series derives, and the series goes on', async () => {
    const alice = await signedIn(harness.app, 'Alice');
    const bob = await signedIn(harness.app, 'Bob');
    await makeMutual(alice, bob);
    const chore = await alice.create({
      uuid: randomUUID(),
      title: 'Take the bins out',
      type: 'todo',
      assigned_to: bob.user!.id,
      due_date: '2031-04-01',
      recurrence: 'FREQ=DAILY',
    });
    const uuid = occurrenceUuid(chore.uuid!, '2031-04-02');
    const planted = await bob.post<Item>('/api/items', {
      title: 'Bob’s words',
      type: 'todo',
      due_date: '2031-04-02',
      series_uuid: chore.uuid,
      uuid,
    });
    expect(planted.body).toMatchObject({ title: 'Take the bins out', recurrence: 'FREQ=DAILY' });
    await alice.update(chore.id, { status: 'completed' });
    const next = (await allItems(alice)).find((i) => i.uuid === uuid)!;
    expect(next).toMatchObject({ title: 'Take the bins out', recurrence: 'FREQ=DAILY' });
    // Completing it brings the one after: the series did not end.
    await alice.update(next.id, { status: 'completed' });
    expect((await allItems(alice)).map((i) => i.due_date)).toContain('2031-04-03');
  });

  it('P5: a removed member re-sending a create gets the unknown parent’s 422 and none of what was written after', async () => {
    const alice = await signedIn(harness.app, 'Alice');
    const bob = await signedIn(harness.app, 'Bob');
    const { campaign, task } = await sharedCampaign(alice, 'editor', bob);
    const create = { title: 'Bob’s note', type: 'todo' as const, parent_id: task.id, uuid: randomUUID() };
    const first = await bob.create(create);
    const keyed = { ...create, uuid: randomUUID(), title: 'Bob’s keyed note' };
    const key = { 'Idempotency-Key': randomUUID() };
    const keyedFirst = await bob.create(keyed, key);
    const left = await alice.delete(`/api/campaigns/${campaign.id}/members/${bob.user!.id}`);
    expect(left.status).toBe(204);
    await alice.update(first.id, { title: 'Written after Bob left', description: 'Secret plans' });
    await alice.update(keyedFirst.id, { title: 'Also after Bob left' });

    const again = await bob.post<ErrorBody>('/api/items', create);
    expect(again.status).toBe(422);
    expect(again.body.errors?.parent_id).toEqual(['The selected parent does not exist.']);
    expect(again.text).not.toMatch(/after Bob left|Secret/);
    const batch = await bob.post<ErrorBody>('/api/items/batch', { items: [create] });
    expect(batch.status).toBe(422);
    expect(Object.keys(batch.body.errors ?? {})).toEqual(['items.0.parent_id']);
    expect(batch.text).not.toMatch(/after Bob left|Secret/);

    // Deleted since: still nothing.
    expect((await alice.delete(`/api/items/${first.id}`)).status).toBe(204);
    const deleted = await bob.post('/api/items', create);
    expect(deleted.status).toBe(422);
    expect(deleted.text).not.toMatch(/after Bob left|Secret/);

    // The Idempotency-Key replay answers what was recorded when Bob wrote it: his own words.
    const replay = await bob.post<Item>('/api/items', keyed, key);
    expect(replay.status).toBe(201);
    expect(replay.body.title).toBe('Bob’s keyed note');
    expect(replay.text).not.toMatch(/after Bob left/);
  });

  it('P5: a repeated create of the caller’s own item, deleted or not, still answers it', async () => {
    const c = await signedIn(harness.app, 'Dora');
    const create = { title: 'Mine', type: 'todo' as const, uuid: randomUUID() };
    const made = await c.create(create);
    const again = await c.post<Item>('/api/items', create);
    expect([again.status, again.body.id]).toEqual([200, made.id]);
    const batch = await c.post<{ items: Item[] }>('/api/items/batch', { items: [create] });
    expect([batch.status, batch.body.items.map((i) => i.id)]).toEqual([200, [made.id]]);
    expect((await c.delete(`/api/items/${made.id}`)).status).toBe(204);
    const gone = await c.post<Item>('/api/items', create);
    expect(gone.status).toBe(200);
    expect(gone.body.deleted_at).not.toBeNull();
  });
});
