import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, testEngines } from '../../../testkit/server';
import { sharedCampaign } from '../../../testkit/sharing';
import { makeMutual, signedIn } from '../../../testkit/testClient';
import { INVITE_INVALID_MESSAGE } from '../../shared/membership';

interface Created {
  id: number;
  token: string;
}

describe.each(testEngines())('who may come back through a link on %s', (engine) => {
  let harness: Awaited<ReturnType<typeof createTestApp>>;
  beforeAll(async () => {
    harness = await createTestApp(engine);
  });
  afterAll(() => harness.close());

  it('M11: a removed member cannot rejoin through an open link until the owner adds them again', async () => {
    const owner = await signedIn(harness.app, 'Olive');
    const { campaign, task } = await sharedCampaign(owner, 'editor');
    const link = await owner.post<Created>(`/api/campaigns/${campaign.id}/invites`, {
      role: 'editor',
      max_uses: 10,
    });
    expect(link.status, link.text).toBe(201);
    const mia = await signedIn(harness.app, 'Mia');
    expect((await mia.post(`/api/invites/${link.body.token}/accept`)).status).toBe(200);
    const removed = await owner.delete(`/api/campaigns/${campaign.id}/members/${mia.user!.id}`);
    expect(removed.status, removed.text).toBe(204);

    // The same one answer as a link that no longer opens: nothing says the link works for others.
    const unknown = await mia.get(`/api/invites/${'A'.repeat(22)}`);
    for (const answer of [
      await mia.get(`/api/invites/${link.body.token}`),
      await mia.post(`/api/invites/${link.body.token}/accept`),
    ]) {
      expect(answer.status).toBe(404);
      expect(answer.body).toEqual({ message: INVITE_INVALID_MESSAGE });
      expect(answer.body).toEqual(unknown.body);
    }
    expect((await mia.get(`/api/items/${task.id}`)).status).toBe(404);
    // The link still opens for someone else, and took no use for the refused accept.
    const gus = await signedIn(harness.app, 'Gus');
    expect((await gus.post(`/api/invites/${link.body.token}/accept`)).status).toBe(200);
    const listed = await owner.get<{ data: { uses: number }[] }>(`/api/campaigns/${campaign.id}/invites`);
    const [invite] = listed.body.data;
    expect(invite?.uses).toBe(2);

    // The owner adds her again: the bar is lifted; and once she leaves by herself, the link takes her back.
    await makeMutual(owner, mia);
    const added = await owner.post(`/api/campaigns/${campaign.id}/members`, {
      user_id: mia.user!.id,
      role: 'viewer',
    });
    expect(added.status, added.text).toBe(201);
    expect((await mia.delete(`/api/campaigns/${campaign.id}/members/${mia.user!.id}`)).status).toBe(204);
    const back = await mia.post(`/api/invites/${link.body.token}/accept`);
    expect(back.status, back.text).toBe(200);
    expect(back.body).toEqual({ campaign_id: campaign.id, role: 'editor' });
  });

  it('M11: a link the owner makes after the removal admits her; the links that existed at it stay closed', async () => {
    const owner = await signedIn(harness.app, 'Olive');
    const mia = await signedIn(harness.app, 'Mia');
    const { campaign, task } = await sharedCampaign(owner, 'editor', mia);
    // A link she never opened, made before the removal: it existed at the removal, so it stays closed.
    const before = await owner.post<Created>(`/api/campaigns/${campaign.id}/invites`, { role: 'viewer' });
    expect(before.status, before.text).toBe(201);
    expect((await owner.delete(`/api/campaigns/${campaign.id}/members/${mia.user!.id}`)).status).toBe(204);
    const inboxBefore = await owner.get<{ total: number }>('/api/notifications');

    const after = await owner.post<Created>(`/api/campaigns/${campaign.id}/invites`, { role: 'viewer' });
    expect(after.status, after.text).toBe(201);
    const unknown = await mia.get(`/api/invites/${'A'.repeat(22)}`);
    for (const answer of [
      await mia.get(`/api/invites/${before.body.token}`),
      await mia.post(`/api/invites/${before.body.token}/accept`),
    ]) {
      expect(answer.status).toBe(404);
      expect(answer.body).toEqual(unknown.body);
    }
    // The barred try tells the owner nothing either: the one 404 is the whole answer (no new notification).
    expect((await owner.get<{ total: number }>('/api/notifications')).body.total).toBe(
      inboxBefore.body.total,
    );

    const shown = await mia.get(`/api/invites/${after.body.token}`);
    expect(shown.status, shown.text).toBe(200);
    const joined = await mia.post(`/api/invites/${after.body.token}/accept`);
    expect(joined.status, joined.text).toBe(200);
    expect(joined.body).toEqual({ campaign_id: campaign.id, role: 'viewer' });
    expect((await mia.get(`/api/items/${task.id}`)).status).toBe(200);

    // Removed again: the link that admitted her existed at this removal, so it is closed to her now.
    expect((await owner.delete(`/api/campaigns/${campaign.id}/members/${mia.user!.id}`)).status).toBe(204);
    const again = await mia.post(`/api/invites/${after.body.token}/accept`);
    expect(again.status).toBe(404);
    expect(again.body).toEqual({ message: INVITE_INVALID_MESSAGE });
  });

  it('M11: restoring a deleted campaign does not revive its links', async () => {
    const owner = await signedIn(harness.app, 'Olive');
    const { campaign, task } = await sharedCampaign(owner, 'editor');
    const link = await owner.post<Created>(`/api/campaigns/${campaign.id}/invites`, {
      role: 'viewer',
      max_uses: 5,
    });
    expect(link.status, link.text).toBe(201);
    expect((await owner.delete(`/api/items/${campaign.id}`)).status).toBe(204);
    expect((await owner.post(`/api/items/${campaign.id}/restore`)).status).toBe(200);

    const gus = await signedIn(harness.app, 'Gus');
    for (const answer of [
      await gus.get(`/api/invites/${link.body.token}`),
      await gus.post(`/api/invites/${link.body.token}/accept`),
    ]) {
      expect(answer.status).toBe(404);
      expect(answer.body).toEqual({ message: INVITE_INVALID_MESSAGE });
    }
    expect((await gus.get(`/api/items/${task.id}`)).status).toBe(404);
    const listed = await owner.get<{ data: unknown[] }>(`/api/campaigns/${campaign.id}/invites`);
    expect(listed.body.data).toEqual([]);
    // A new link works as ever.
    const fresh = await owner.post<Created>(`/api/campaigns/${campaign.id}/invites`, { role: 'viewer' });
    expect((await gus.post(`/api/invites/${fresh.body.token}/accept`)).status).toBe(200);
  });
});
