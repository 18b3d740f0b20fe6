import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp } from '../../../testkit/server';
import { sharedCampaign } from '../../../testkit/sharing';
import { pullAll, signedIn, TestClient } from '../../../testkit/testClient';
import { isTombstone } from '../../shared/item';
import { rows, sql } from '../db/client';
import type { MemberJson } from './members';

const ROUNDS = 4;

// Real parallel requests need real connections: PGlite serves one at a time, so these run on PostgreSQL.
describe.skipIf(!process.env.TEST_DATABASE_URL)('sharing under parallel requests (pg)', () => {
  let harness: Awaited<ReturnType<typeof createTestApp>>;
  beforeAll(async () => {
    harness = await createTestApp('pg');
  });
  afterAll(() => harness?.close());

  const invite = async (owner: TestClient, campaignId: number, maxUses = 1) =>
    (
      await owner.post<{ id: number; token: string }>(`/api/campaigns/${campaignId}/invites`, {
        role: 'editor',
        max_uses: maxUses,
      })
    ).body;

  const usesOf = async (id: number) =>
    (
      await rows<{ uses: number; max_uses: number }>(
        harness.database.db,
        sql`SELECT uses, max_uses FROM campaign_invites WHERE id = ${id}`,
      )
    )[0]!;

  it('M9: an accept racing a revoke either joins before the revoke or is the invalid 404, never both', async () => {
    const owner = await signedIn(harness.app, 'Olive');
    const { campaign } = await sharedCampaign(owner, 'editor');
    for (let round = 0; round < ROUNDS; round++) {
      const guest = await signedIn(harness.app, `Guest ${round}`);
      const made = await invite(owner, campaign.id, 5);
      const [accepted, revoked] = await Promise.all([
        guest.post(`/api/invites/${made.token}/accept`),
        owner.delete(`/api/invites/${made.token}`),
      ]);
      expect(revoked.status).toBe(204);
      expect([200, 404]).toContain(accepted.status);
      const member = (await guest.get(`/api/campaigns/${campaign.id}/members`)).status === 200;
      expect(member).toBe(accepted.status === 200);
      expect((await usesOf(made.id)).uses).toBe(accepted.status === 200 ? 1 : 0);
      // Whatever the order, the invite opens no more.
      const late = await signedIn(harness.app, `Late ${round}`);
      expect((await late.post(`/api/invites/${made.token}/accept`)).status).toBe(404);
    }
  });

  it('M9: the last use of an invite taken by two people at once lets exactly one in', async () => {
    const owner = await signedIn(harness.app, 'Olive');
    const { campaign } = await sharedCampaign(owner, 'editor');
    for (let round = 0; round < ROUNDS; round++) {
      const made = await invite(owner, campaign.id, 1);
      const a = await signedIn(harness.app, `A ${round}`);
      const b = await signedIn(harness.app, `B ${round}`);
      // The same person twice at once uses it once, too.
      const answers = await Promise.all([
        a.post(`/api/invites/${made.token}/accept`),
        b.post(`/api/invites/${made.token}/accept`),
      ]);
      expect(answers.map((r) => r.status).sort()).toEqual([200, 404]);
      expect(await usesOf(made.id)).toEqual({ uses: 1, max_uses: 1 });
    }
    const made = await invite(owner, campaign.id, 2);
    const same = await signedIn(harness.app, 'Twice');
    const again = new TestClient(harness.app);
    await again.login(same.user!.phone, 'Twice');
    const twice = await Promise.all([
      same.post(`/api/invites/${made.token}/accept`),
      again.post(`/api/invites/${made.token}/accept`),
    ]);
    expect(twice.map((r) => r.status)).toEqual([200, 200]);
    expect((await usesOf(made.id)).uses).toBe(1);
  });

  it('M5: two role changes at once both finish, one after the other, and the last one written holds', async () => {
    const owner = await signedIn(harness.app, 'Olive');
    const member = await signedIn(harness.app, 'Mia');
    const { campaign } = await sharedCampaign(owner, 'viewer', member);
    const tablet = new TestClient(harness.app);
    await tablet.login(owner.user!.phone, 'Olive');
    const url = `/api/campaigns/${campaign.id}/members/${member.user!.id}`;
    for (let round = 0; round < ROUNDS; round++) {
      const [first, second] = await Promise.all([
        owner.patch(url, { role: 'editor' }),
        tablet.patch(url, { role: round % 2 === 0 ? 'viewer' : 'editor' }),
      ]);
      expect([first.status, second.status]).toEqual([200, 200]);
      const members = await owner.get<{ members: MemberJson[] }>(`/api/campaigns/${campaign.id}/members`);
      const held = members.body.members.find((m) => m.user.id === member.user!.id)?.role;
      // The feed's newest role entry is what the member holds, and their items say the same.
      const [last] = await rows<{ role: string | null }>(
        harness.database.db,
        sql`SELECT COALESCE(metadata->'role'->>'new', metadata->>'role') AS role FROM activities
            WHERE root_id = ${campaign.id} AND action IN ('member_added', 'role_changed') ORDER BY id DESC LIMIT 1`,
      );
      expect(held).toBe(last?.role);
      expect((await member.item(campaign.id)).my_role).toBe(held);
    }
  });

  it('M4, M5: a removal racing an edit: the edit lands before it or is a 404, and the pull then purges the tree', async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const owner = await signedIn(harness.app, 'Olive');
      const member = await signedIn(harness.app, 'Mia');
      const { campaign, task, todo } = await sharedCampaign(owner, 'editor', member);
      const before = await pullAll(member, harness.database);
      const [edit, removal] = await Promise.all([
        member.patch(`/api/items/${task.id}`, { title: `Edited in round ${round}` }),
        owner.delete(`/api/campaigns/${campaign.id}/members/${member.user!.id}`),
      ]);
      expect(removal.status).toBe(204);
      expect([200, 404]).toContain(edit.status);
      const now = await owner.item(task.id);
      expect(now.title).toBe(edit.status === 200 ? `Edited in round ${round}` : 'Book the hut');
      const after = await pullAll(member, harness.database, before.cursor);
      const latest = new Map(after.items.map((i) => [i.id, i]));
      for (const id of [campaign.id, task.id, todo.id]) expect(isTombstone(latest.get(id)!)).toBe(true);
      expect(JSON.stringify(after.items)).not.toContain('Edited in round');
    }
  });
});
