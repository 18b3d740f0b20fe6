import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, testEngines } from '../../../testkit/server';
import { sharedCampaign } from '../../../testkit/sharing';
import { signedIn, type TestClient } from '../../../testkit/testClient';
import { mentionToken } from '../../shared/comments';
import type { ActivityEntry, Paginated } from '../../shared/item';

type Feed = Paginated<ActivityEntry>;

describe.each(testEngines())('a comment in the campaign’s activity (%s)', (engine) => {
  let harness: Awaited<ReturnType<typeof createTestApp>>;
  beforeAll(async () => {
    harness = await createTestApp(engine);
  });
  afterAll(() => harness.close());

  const comments = async (reader: TestClient, campaignId: number) => {
    const feed = await reader.get<Feed>(`/api/campaigns/${campaignId}/activity`);
    expect(feed.status, feed.text).toBe(200);
    return feed.body.data.filter((e) => e.action === 'commented');
  };

  it('shows a comment’s first words, mentions by name, never its id', async () => {
    const alex = await signedIn(harness.app, 'Alex');
    const mia = await signedIn(harness.app, 'Mia');
    const { campaign, task } = await sharedCampaign(alex, 'editor', mia);
    const said = await alex.post(`/api/items/${task.id}/comments`, {
      body: `Please  bring ${mentionToken(mia.user!.id)} the long ladder\nand the blue paint for the fence, which needs two coats before Saturday`,
      mentions: [mia.user!.id],
    });
    expect(said.status, said.text).toBe(201);
    const [entry] = await comments(mia, campaign.id);
    expect(entry?.comment).toBe(
      'Please bring @Mia the long ladder and the blue paint for the fence, which needs…',
    );
    expect(entry?.description).toBe(`Alex commented on task "${task.title}"`);
  });

  it('says one neutral thing for a deleted comment and for one whose item the reader no longer sees', async () => {
    const alex = await signedIn(harness.app, 'Alex');
    const mia = await signedIn(harness.app, 'Mia');
    const { campaign, task } = await sharedCampaign(alex, 'editor', mia);
    const moved = await alex.create({ title: 'Private plan', type: 'task', parent_id: campaign.id });
    const gone = await alex.post<{ id: number }>(`/api/items/${task.id}/comments`, {
      body: 'Delete me soon',
    });
    await alex.post(`/api/items/${moved.id}/comments`, { body: 'Secret words about the plan' });
    await alex.post(`/api/items/${task.id}/comments`, { body: 'Still here' });
    expect((await alex.delete(`/api/comments/${gone.body.id}`)).status).toBe(204);
    // Taken out of the campaign by its creator: Mia sees it no more, nor its comment.
    await alex.update(moved.id, { parent_id: null });

    const forMia = await comments(mia, campaign.id);
    expect(forMia.map((e) => e.comment)).toEqual(['Still here', null, null]);
    expect(JSON.stringify(forMia)).not.toContain('Secret');
    // Alex still sees the moved task: its comment is his to read.
    expect((await comments(alex, campaign.id)).map((e) => e.comment)).toEqual([
      'Still here',
      'Secret words about the plan',
      null,
    ]);
  });
});
