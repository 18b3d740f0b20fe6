import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, testEngines } from '../../../testkit/server';
import { sharedCampaign } from '../../../testkit/sharing';
import { signedIn } from '../../../testkit/testClient';
import { INVITE_INVALID_MESSAGE, OWNER_ONLY_MESSAGE } from '../../shared/membership';
import { rows, sql } from '../db/client';
import type { MemberJson } from './members';

interface Created {
  id: number;
  token: string;
  url: string;
  role: string;
  expires_at: string;
  max_uses: number;
  uses: number;
}

describe.each(testEngines())('campaign invites on %s', (engine) => {
  let harness: Awaited<ReturnType<typeof createTestApp>>;
  beforeAll(async () => {
    harness = await createTestApp(engine);
  });
  afterAll(() => harness.close());

  it('M7: a token is 128 random bits, kept only as its SHA-256, and its invite page names campaign, inviter and role', async () => {
    const owner = await signedIn(harness.app, 'Olive');
    const { campaign } = await sharedCampaign(owner, 'editor');
    const made = await owner.post<Created>(
      `/api/campaigns/${campaign.id}/invites`,
      { role: 'editor', expires_in_days: 3, max_uses: 2 },
      { 'Idempotency-Key': 'invite-1' },
    );
    expect(made.status, made.text).toBe(201);
    expect(made.body.token).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(made.body.url.endsWith(`/invite/${made.body.token}`)).toBe(true);
    expect([made.body.role, made.body.max_uses, made.body.uses]).toEqual(['editor', 2, 0]);
    const days = (Date.parse(made.body.expires_at) - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(2.9);
    expect(days).toBeLessThan(3.1);
    // Nothing in the database holds the token in clear, not even an Idempotency-Key record.
    const [held] = await rows<{ n: number }>(
      harness.database.db,
      sql`SELECT ((SELECT count(*) FROM campaign_invites WHERE token_hash = ${made.body.token})
          + (SELECT count(*) FROM idempotency_keys WHERE body::text LIKE ${`%${made.body.token}%`}))::int AS n`,
    );
    expect(held?.n).toBe(0);

    const guest = await signedIn(harness.app, 'Gus');
    const page = await guest.get(`/api/invites/${made.body.token}`);
    expect(page.status).toBe(200);
    expect(page.body).toEqual({
      campaign: { id: campaign.id, title: 'Shared trip' },
      role: 'editor',
      inviter: { id: owner.user!.id, name: 'Olive' },
    });
    // The owner lists it without its token, and only the owner.
    const listed = await owner.get<{ data: Record<string, unknown>[] }>(
      `/api/campaigns/${campaign.id}/invites`,
    );
    expect(listed.body.data.map((i) => i.id)).toEqual([made.body.id]);
    expect(JSON.stringify(listed.body)).not.toContain(made.body.token);
    expect((await guest.get(`/api/campaigns/${campaign.id}/invites`)).status).toBe(404);
    expect((await guest.post(`/api/campaigns/${campaign.id}/invites`, { role: 'viewer' })).status).toBe(404);
  });

  it('M9: accepting joins once; again, or as the owner, changes nothing and takes no use', async () => {
    const owner = await signedIn(harness.app, 'Olive');
    const { campaign, task } = await sharedCampaign(owner, 'editor');
    const made = await owner.post<Created>(`/api/campaigns/${campaign.id}/invites`, {
      role: 'viewer',
      max_uses: 3,
    });
    const guest = await signedIn(harness.app, 'Gus');
    expect((await guest.get(`/api/items/${task.id}`)).status).toBe(404);
    const accepted = await guest.post(`/api/invites/${made.body.token}/accept`);
    expect(accepted.status, accepted.text).toBe(200);
    expect(accepted.body).toEqual({ campaign_id: campaign.id, role: 'viewer' });
    expect((await guest.item(task.id)).my_role).toBe('viewer');
    expect((await guest.post(`/api/invites/${made.body.token}/accept`)).body).toEqual({
      campaign_id: campaign.id,
      role: 'viewer',
    });
    expect((await owner.post(`/api/invites/${made.body.token}/accept`)).body).toEqual({
      campaign_id: campaign.id,
      role: 'owner',
    });
    const listed = await owner.get<{ data: { uses: number }[] }>(`/api/campaigns/${campaign.id}/invites`);
    expect(listed.body.data.map((i) => i.uses)).toEqual([1]);
    const members = await owner.get<{ members: MemberJson[] }>(`/api/campaigns/${campaign.id}/members`);
    expect(members.body.members.map((m) => [m.user.name, m.role])).toEqual([
      ['Olive', 'owner'],
      ['Gus', 'viewer'],
    ]);
    const feed = await owner.get<{ data: { description: string }[] }>(
      `/api/campaigns/${campaign.id}/activity`,
    );
    expect(feed.body.data[0]?.description).toBe(
      'Gus joined campaign "Shared trip" as viewer (invited by Olive)',
    );
  });

  it('M8: unknown, expired, revoked and used-up invites all answer the same 404', async () => {
    const owner = await signedIn(harness.app, 'Olive');
    const { campaign } = await sharedCampaign(owner, 'editor');
    const make = async () =>
      (await owner.post<Created>(`/api/campaigns/${campaign.id}/invites`, { role: 'editor' })).body;
    const expired = await make();
    await harness.database.db.execute(
      sql`UPDATE campaign_invites SET expires_at = now() - interval '1 second' WHERE id = ${expired.id}`,
    );
    const revoked = await make();
    expect((await owner.delete(`/api/invites/${revoked.token}`)).status).toBe(204);
    const usedUp = await make();
    const first = await signedIn(harness.app, 'First');
    expect((await first.post(`/api/invites/${usedUp.token}/accept`)).status).toBe(200);
    const byId = await make();
    expect((await owner.delete(`/api/invites/${byId.id}`)).status).toBe(204);

    const guest = await signedIn(harness.app, 'Gus');
    const tokens = [expired.token, revoked.token, usedUp.token, byId.token, 'A'.repeat(22), 'not a token'];
    const answers = [];
    for (const token of tokens) {
      answers.push(await guest.get(`/api/invites/${encodeURIComponent(token)}`));
      answers.push(await guest.post(`/api/invites/${encodeURIComponent(token)}/accept`));
    }
    for (const answer of answers) {
      expect(answer.status).toBe(404);
      expect(answer.body).toEqual({ message: INVITE_INVALID_MESSAGE });
    }
    expect((await guest.get(`/api/items/${campaign.id}`)).status).toBe(404);
    // Only the owner revokes: a member gets 403, a stranger the same 404.
    const open = await make();
    expect((await first.delete(`/api/invites/${open.token}`)).status).toBe(403);
    expect((await first.delete(`/api/invites/${open.token}`)).body).toEqual({ message: OWNER_ONLY_MESSAGE });
    expect((await guest.delete(`/api/invites/${open.token}`)).status).toBe(404);
  });

  it('M7: guessing tokens is rate-limited', async () => {
    const guesser = await signedIn(harness.app, 'Guesser');
    let last = 0;
    for (let i = 0; i < 31; i++) {
      last = (await guesser.get(`/api/invites/${String(i).padStart(22, 'x')}`)).status;
    }
    expect(last).toBe(429);
  });
});
