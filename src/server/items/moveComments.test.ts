import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, testEngines } from '../../../testkit/server';
import { sharedCampaign } from '../../../testkit/sharing';
import { makeMutual, signedIn } from '../../../testkit/testClient';
import type { Comment } from '../../shared/comments';
import type { Paginated } from '../../shared/item';

type ErrorBody = { message: string; errors?: Record<string, string[]> };

describe.each(testEngines())('a move and the comments in it (%s)', (engine) => {
  let harness: Awaited<ReturnType<typeof createTestApp>>;
  beforeAll(async () => {
    harness = await createTestApp(engine);
  });
  afterAll(() => harness?.close());

  it('K21: an editor cannot move their own task out of a shared campaign while it holds comments its other authors would lose', async () => {
    const alice = await signedIn(harness.app, 'Alice');
    const bob = await signedIn(harness.app, 'Bob');
    const { campaign } = await sharedCampaign(alice, 'editor', bob);
    const task = await bob.create({ title: 'Bob’s task', type: 'task', parent_id: campaign.id });
    const todo = await bob.create({ title: 'Bob’s todo', type: 'todo', parent_id: task.id });
    const said = await alice.post(`/api/items/${todo.id}/comments`, { body: 'Alice’s thought' });
    expect(said.status, said.text).toBe(201);
    const elsewhere = await bob.create({ title: 'Bob’s own', type: 'campaign' });

    for (const parent_id of [null, elsewhere.id]) {
      const moved = await bob.patch<ErrorBody>(`/api/items/${task.id}`, { parent_id });
      expect(moved.status, moved.text).toBe(422);
      expect(moved.body.errors?.parent_id?.[0]).toContain('comments other people wrote');
    }
    // Nothing moved: Alice still reads her comment where she wrote it.
    expect((await alice.item(task.id)).parent_id).toBe(campaign.id);
    const comments = await alice.get<Paginated<Comment>>(`/api/items/${todo.id}/comments`);
    expect(comments.body.data.map((c) => c.body)).toEqual(['Alice’s thought']);
    // Within the campaign it moves freely.
    const other = await alice.create({ title: 'Alice’s task', type: 'task', parent_id: campaign.id });
    expect((await bob.update(todo.id, { parent_id: other.id })).parent_id).toBe(other.id);
  });

  it('K21: a move that leaves every author seeing their comments goes ahead, and a deleted comment holds nothing', async () => {
    const alice = await signedIn(harness.app, 'Alice');
    const bob = await signedIn(harness.app, 'Bob');
    await makeMutual(alice, bob);
    const first = await alice.create({ title: 'First', type: 'campaign' });
    const second = await alice.create({ title: 'Second', type: 'campaign' });
    // Bob sees the task as its assignee, wherever it goes.
    const task = await alice.create({
      title: 'Errand',
      type: 'task',
      parent_id: first.id,
      assigned_to: bob.user!.id,
    });
    expect((await bob.post(`/api/items/${task.id}/comments`, { body: 'On it' })).status).toBe(201);
    expect((await alice.update(task.id, { parent_id: second.id })).parent_id).toBe(second.id);

    const carol = await signedIn(harness.app, 'Carol');
    const { campaign } = await sharedCampaign(alice, 'editor', carol);
    const mine = await alice.create({ title: 'Mine', type: 'task', parent_id: campaign.id });
    const note = await carol.post<Comment>(`/api/items/${mine.id}/comments`, { body: 'Gone soon' });
    expect((await carol.delete(`/api/comments/${note.body.id}`)).status).toBe(204);
    expect((await alice.update(mine.id, { parent_id: first.id })).parent_id).toBe(first.id);
  });
});
