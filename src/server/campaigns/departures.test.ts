import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, testEngines } from '../../../testkit/server';
import { sharedCampaign } from '../../../testkit/sharing';
import { signedIn } from '../../../testkit/testClient';

describe.each(testEngines())('what a departed member is told of the campaign on %s', (engine) => {
  let harness: Awaited<ReturnType<typeof createTestApp>>;
  beforeAll(async () => {
    harness = await createTestApp(engine);
  });
  afterAll(() => harness.close());

  it('Q22: a removed member’s GET of the campaign is a 404 that says the owner removed them, and nothing more', async () => {
    const owner = await signedIn(harness.app, 'Alice');
    const bob = await signedIn(harness.app, 'Bob');
    const { campaign, task } = await sharedCampaign(owner, 'editor', bob);
    expect((await bob.get(`/api/items/${campaign.id}`)).status).toBe(200);
    expect((await owner.delete(`/api/campaigns/${campaign.id}/members/${bob.user!.id}`)).status).toBe(204);

    const answer = await bob.get<Record<string, unknown>>(`/api/items/${campaign.id}`);
    expect(answer.status).toBe(404);
    expect(answer.body).toEqual({
      message: 'Item not found.',
      departure: { campaign_id: campaign.id, removed: true, by: 'Alice', departed_at: expect.any(String) },
    });
    // An item inside it, or a stranger asking for the campaign, get the plain 404 of an unknown id.
    const stranger = await signedIn(harness.app, 'Eve');
    for (const plain of [
      await bob.get(`/api/items/${task.id}`),
      await stranger.get(`/api/items/${campaign.id}`),
    ]) {
      expect(plain.status).toBe(404);
      expect(plain.body).toEqual({ message: 'Item not found.' });
    }
  });

  it('Q22: a member who left is told they left, by nobody', async () => {
    const owner = await signedIn(harness.app, 'Alice');
    const bob = await signedIn(harness.app, 'Bob');
    const { campaign } = await sharedCampaign(owner, 'viewer', bob);
    expect((await bob.delete(`/api/campaigns/${campaign.id}/members/${bob.user!.id}`)).status).toBe(204);
    const answer = await bob.get<{ departure: unknown }>(`/api/items/${campaign.id}`);
    expect(answer.status).toBe(404);
    expect(answer.body.departure).toMatchObject({ removed: false, by: null });
  });
});
