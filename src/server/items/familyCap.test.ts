import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, testEngines } from '../../../testkit/server';
import { signedIn, type TestClient, writeDirectly } from '../../../testkit/testClient';
import { FAMILY_FULL_MESSAGE, FAMILY_MAX_ITEMS, type Item } from '../../shared/item';
import { sql } from '../db/client';

type ErrorBody = { message: string; errors?: Record<string, string[]> };

// Issue 29 F0: a family (a top-level item and everything under it) is what one cascade writes in one
// transaction, so its size is capped; these tests fill one to the brim and try every way past it.
describe.each(testEngines())('a family holds at most FAMILY_MAX_ITEMS items (%s)', (engine) => {
  let harness: Awaited<ReturnType<typeof createTestApp>>;
  let owner: TestClient;
  let full: Item;
  let task: Item;

  /** `count` tasks under `parentId`, written in one statement (the API would take 25 batches). */
  const fill = (parentId: number, count: number) =>
    writeDirectly(harness.app, [owner.user!.id], (tx) =>
      tx.execute(
        sql`INSERT INTO items (uuid, title, type, status, user_id, parent_id)
            SELECT gen_random_uuid(), 'Filler ' || n, 'task', 'pending', ${owner.user!.id}, ${parentId}
            FROM generate_series(1, ${count}) AS n`,
      ),
    );

  beforeAll(async () => {
    harness = await createTestApp(engine);
    owner = await signedIn(harness.app, 'Family Owner');
    full = await owner.create({ title: 'Brimful', type: 'campaign' });
    task = await owner.create({ title: 'Last one in', type: 'task', parent_id: full.id });
    await fill(full.id, FAMILY_MAX_ITEMS - 2);
    // One todo under the task: the family now holds exactly the cap.
    await owner.create({ title: 'The last todo', type: 'todo', parent_id: task.id });
  });
  afterAll(() => harness?.close());

  it('refuses one more item under the campaign or under its task with 422 naming parent_id (F0)', async () => {
    for (const input of [
      { title: 'One too many', type: 'task', parent_id: full.id },
      { title: 'One too many', type: 'todo', parent_id: task.id },
    ]) {
      const response = await owner.post<ErrorBody>('/api/items', input);
      expect(response.status, response.text).toBe(422);
      expect(response.body.errors?.parent_id).toEqual([FAMILY_FULL_MESSAGE]);
    }
  });

  it('refuses a batch that would pass the cap, and creates nothing of it (F0)', async () => {
    const before = (await owner.get<{ total: number }>('/api/items?per_page=1')).body.total;
    const response = await owner.post<ErrorBody>('/api/items/batch', {
      items: [
        { uuid: randomUUID(), title: 'Fresh campaign', type: 'campaign' },
        { uuid: randomUUID(), title: 'Overflow', type: 'task', parent_id: full.id },
      ],
    });
    expect(response.status, response.text).toBe(422);
    expect(JSON.stringify(response.body.errors)).toContain(FAMILY_FULL_MESSAGE);
    expect((await owner.get<{ total: number }>('/api/items?per_page=1')).body.total).toBe(before);
  });

  it('refuses moving a task with its todos into a full campaign, and lets it move elsewhere (F0)', async () => {
    const other = await owner.create({ title: 'Roomy', type: 'campaign' });
    const mover = await owner.create({ title: 'Mover', type: 'task', parent_id: other.id });
    await owner.create({ title: 'Rider', type: 'todo', parent_id: mover.id });
    const refused = await owner.patch<ErrorBody>(`/api/items/${mover.id}`, { parent_id: full.id });
    expect(refused.status, refused.text).toBe(422);
    expect(refused.body.errors?.parent_id).toEqual([FAMILY_FULL_MESSAGE]);
    expect((await owner.item(mover.id)).parent_id).toBe(other.id);
    // To the top level it needs no room anywhere.
    expect((await owner.patch(`/api/items/${mover.id}`, { parent_id: null })).status).toBe(200);
  });

  it('takes items again once the family has room, and completes the whole family in one write (F0)', async () => {
    const filler = (await owner.get<{ data: Item[] }>(`/api/items?parent_id=${full.id}&per_page=1`)).body
      .data[0]!;
    expect((await owner.delete(`/api/items/${filler.id}`)).status).toBe(204);
    await owner.create({ title: 'Room again', type: 'task', parent_id: full.id });
    const done = await owner.update(full.id, { status: 'completed' });
    expect(done.status).toBe('completed');
    const open = await owner.get<{ total: number }>(
      `/api/items?parent_id=${full.id}&status=pending&per_page=1`,
    );
    expect(open.body.total).toBe(0);
  });
});
