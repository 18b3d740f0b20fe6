import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, testEngines } from '../../../testkit/server';
import { makeMutual, signedIn, type TestClient } from '../../../testkit/testClient';
import { type Comment, mentionToken } from '../../shared/comments';
import type { Item } from '../../shared/item';

type Hit = Item & { matched_comment?: { id: number; excerpt: string } };

describe.each(testEngines())('search by comment (%s)', (engine) => {
  let harness: Awaited<ReturnType<typeof createTestApp>>;
  let alex: TestClient;
  beforeAll(async () => {
    harness = await createTestApp(engine);
    alex = await signedIn(harness.app, 'Alex');
  });
  afterAll(() => harness?.close());

  const search = async (client: TestClient, q: string) => {
    const response = await client.get<Hit[]>(`/api/items/search?q=${encodeURIComponent(q)}`);
    expect(response.status, response.text).toBe(200);
    return response.body;
  };
  const comment = async (client: TestClient, itemId: number, body: string) => {
    const created = await client.post<Comment>(`/api/items/${itemId}/comments`, { body });
    expect(created.status, created.text).toBe(201);
    return created.body;
  };

  it('finds an item by a word only in its comment, naming the comment and the words around it', async () => {
    const task = await alex.create({ title: 'Ferry plans', type: 'task' });
    await alex.create({ title: 'Unrelated', type: 'todo' });
    const said = await comment(
      alex,
      task.id,
      'We talked for a long while about the boats and the weather, and then somebody said the word kumquatish before we all went home for the night.',
    );
    const found = await search(alex, 'KUMQUATISH');
    expect(found.map((i) => i.id)).toEqual([task.id]);
    expect(found[0]!.matched_comment?.id).toBe(said.id);
    const excerpt = found[0]!.matched_comment!.excerpt;
    expect(excerpt).toContain('kumquatish');
    expect(excerpt.startsWith('…')).toBe(true);
    expect(excerpt.length).toBeLessThanOrEqual(82);
  });

  it('shows a mention in the excerpt by name, and the newest matching comment', async () => {
    const blair = await signedIn(harness.app, 'Blair');
    await makeMutual(alex, blair);
    const task = await alex.create({ title: 'Tents', type: 'task', assigned_to: blair.user!.id });
    await comment(alex, task.id, 'old note about marmalades');
    const newer = await comment(alex, task.id, `${mentionToken(blair.user!.id)} bring marmalades`);
    const [hit] = await search(alex, 'marmalades');
    expect(hit?.matched_comment).toEqual({ id: newer.id, excerpt: '@Blair bring marmalades' });
  });

  it('ranks title and description matches above comment matches, and marks only the comment matches', async () => {
    const byComment = await alex.create({ title: 'Boats', type: 'todo' });
    await comment(alex, byComment.id, 'the quincelike smell');
    const byDescription = await alex.create({ title: 'Jam', type: 'todo', description: 'quincelike jam' });
    const byTitle = await alex.create({ title: 'Quincelike trees', type: 'todo' });
    // Commented too: a title match stays a title match, with no matched_comment.
    await comment(alex, byTitle.id, 'quincelike again');
    const found = await search(alex, 'quincelike');
    expect(found.map((i) => i.id)).toEqual([byTitle.id, byDescription.id, byComment.id]);
    expect(found.map((i) => i.matched_comment === undefined)).toEqual([true, true, false]);
  });

  it('no longer finds the item once the comment is deleted', async () => {
    const task = await alex.create({ title: 'Lanterns', type: 'todo' });
    const said = await comment(alex, task.id, 'bring the gazpachoid');
    expect((await search(alex, 'gazpachoid')).map((i) => i.id)).toEqual([task.id]);
    expect((await alex.delete(`/api/comments/${said.id}`)).status).toBe(204);
    expect(await search(alex, 'gazpachoid')).toEqual([]);
  });

  it('never lets someone who cannot see the item find it by its comment', async () => {
    const stranger = await signedIn(harness.app, 'Stranger');
    const casey = await signedIn(harness.app, 'Casey');
    await makeMutual(alex, casey);
    const task = await alex.create({ title: 'Private', type: 'task' });
    await comment(alex, task.id, 'the secret word is zanzibarish');
    expect(await search(stranger, 'zanzibarish')).toEqual([]);
    // A mutual contact who is not given the item does not find it either; once assigned, they do.
    expect(await search(casey, 'zanzibarish')).toEqual([]);
    await alex.update(task.id, { assigned_to: casey.user!.id });
    expect((await search(casey, 'zanzibarish')).map((i) => i.id)).toEqual([task.id]);
  });

  it('finds nothing by a comment on an item in the trash', async () => {
    const campaign = await alex.create({ title: 'Trip', type: 'campaign' });
    const task = await alex.create({ title: 'Tickets', type: 'task', parent_id: campaign.id });
    await comment(alex, task.id, 'window seats for the ossobucco');
    expect((await search(alex, 'ossobucco')).map((i) => i.id)).toEqual([task.id]);
    // The task in the trash with its campaign: its comment finds nothing.
    expect((await alex.delete(`/api/items/${campaign.id}`)).status).toBe(204);
    expect(await search(alex, 'ossobucco')).toEqual([]);
  });
});
