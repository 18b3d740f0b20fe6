import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase, testEngines } from '../../../testkit/server';
import { share } from '../../../testkit/sharing';
import { makeMutual, signedIn, type TestClient } from '../../../testkit/testClient';
import type { Paginated } from '../../shared/item';
import { campaignFullMessage, MAX_OPEN_INVITES, TOO_MANY_INVITES_MESSAGE } from '../../shared/membership';
import { buildApp } from '../app';
import { type Database, rows, sql } from '../db/client';
import type { InviteJson } from './invites';
import type { MemberJson } from './members';

/** People a campaign may hold in these tests, its owner included. */
const MAX_MEMBERS = 4;

const makeInvite = (owner: TestClient, campaignId: number, maxUses = 1) =>
  owner.post<{ id: number; token: string; message?: string }>(`/api/campaigns/${campaignId}/invites`, {
    role: 'viewer',
    max_uses: maxUses,
  });

const openInvites = async (database: Database, campaignId: number) =>
  (
    await rows<{ n: number }>(
      database.db,
      sql`SELECT count(*)::int AS n FROM campaign_invites WHERE campaign_id = ${campaignId} AND revoked_at IS NULL`,
    )
  )[0]!.n;

const membersOf = async (owner: TestClient, campaignId: number) =>
  (await owner.get<{ members: MemberJson[] }>(`/api/campaigns/${campaignId}/members`)).body.members;

async function appOn(engine: 'pglite' | 'pg') {
  const database = await openTestDatabase(engine);
  const app = await buildApp({
    database,
    config: { seedSampleUsers: true, campaignMaxMembers: MAX_MEMBERS, reminderTickMs: 0 },
  });
  await app.ready();
  return { database, app };
}

describe.each(testEngines())('caps on invites and members on %s', (engine) => {
  let database: Database;
  let app: FastifyInstance;
  beforeAll(async () => {
    ({ database, app } = await appOn(engine));
  });
  afterAll(async () => {
    await app.close();
    await database.close();
  });

  it('M13: a campaign holds at most 50 open invite links, and lists them a page at a time', async () => {
    const owner = await signedIn(app, 'Olive');
    const campaign = await owner.create({ title: 'Big party', type: 'campaign' });
    for (let n = 0; n < MAX_OPEN_INVITES; n++) {
      const made = await makeInvite(owner, campaign.id, 100);
      expect(made.status, made.text).toBe(201);
    }
    const refused = await makeInvite(owner, campaign.id);
    expect(refused.status).toBe(422);
    expect(refused.body.message).toBe(TOO_MANY_INVITES_MESSAGE);

    const first = await owner.get<Paginated<InviteJson>>(`/api/campaigns/${campaign.id}/invites`);
    expect(first.status).toBe(200);
    expect([first.body.data.length, first.body.total, first.body.last_page, first.body.current_page]).toEqual(
      [20, 50, 3, 1],
    );
    const last = await owner.get<Paginated<InviteJson>>(`/api/campaigns/${campaign.id}/invites?page=3`);
    expect(last.body.data.length).toBe(10);
    const pages = [first.body.data, last.body.data].flat().map((i) => i.id);
    expect(new Set(pages).size).toBe(30);
    expect((await owner.get(`/api/campaigns/${campaign.id}/invites?page=0`)).status).toBe(422);

    // Revoking one makes room for one.
    expect((await owner.delete(`/api/invites/${first.body.data[0]!.id}`)).status).toBe(204);
    expect((await makeInvite(owner, campaign.id)).status).toBe(201);
    expect((await makeInvite(owner, campaign.id)).status).toBe(422);
  });

  it('M13: a campaign holds at most the configured number of people, by adding or by a link', async () => {
    const owner = await signedIn(app, 'Olive');
    const campaign = await owner.create({ title: 'Small boat', type: 'campaign' });
    const crew: TestClient[] = [];
    for (let n = 1; n < MAX_MEMBERS; n++) crew.push(await signedIn(app, `Crew ${n}`));
    await share(owner, campaign, 'editor', ...crew);

    const late = await signedIn(app, 'Late');
    await makeMutual(owner, late);
    const added = await owner.post<{ message: string }>(`/api/campaigns/${campaign.id}/members`, {
      user_id: late.user!.id,
      role: 'viewer',
    });
    expect(added.status).toBe(422);
    expect(added.body.message).toBe(campaignFullMessage(MAX_MEMBERS));
    const link = await makeInvite(owner, campaign.id, 5);
    const accepted = await late.post<{ message: string }>(`/api/invites/${link.body.token}/accept`);
    expect(accepted.status).toBe(422);
    expect(accepted.body.message).toBe(campaignFullMessage(MAX_MEMBERS));
    const [invite] = (await owner.get<Paginated<InviteJson>>(`/api/campaigns/${campaign.id}/invites`)).body
      .data;
    expect(invite?.uses).toBe(0);
    // A role change is no new person; a leave makes room.
    const promoted = await owner.patch(`/api/campaigns/${campaign.id}/members/${crew[0]!.user!.id}`, {
      role: 'viewer',
    });
    expect(promoted.status).toBe(200);
    expect((await crew[1]!.delete(`/api/campaigns/${campaign.id}/members/${crew[1]!.user!.id}`)).status).toBe(
      204,
    );
    expect((await late.post(`/api/invites/${link.body.token}/accept`)).status).toBe(200);
    expect((await membersOf(owner, campaign.id)).length).toBe(MAX_MEMBERS);
  });
});

// Real parallel requests need real connections: PGlite serves one at a time, so these run on PostgreSQL.
describe.skipIf(!process.env.TEST_DATABASE_URL)('caps under parallel requests (pg)', () => {
  let database: Database;
  let app: FastifyInstance;
  beforeAll(async () => {
    ({ database, app } = await appOn('pg'));
  });
  afterAll(async () => {
    await app?.close();
    await database?.close();
  });

  it('M13: 60 invite links made at once leave exactly 50 open, the rest a 422', async () => {
    const owner = await signedIn(app, 'Olive');
    const campaign = await owner.create({ title: 'Rush', type: 'campaign' });
    const answers = await Promise.all(Array.from({ length: 60 }, () => makeInvite(owner, campaign.id, 100)));
    const statuses = answers.map((a) => a.status).sort();
    expect(statuses.filter((s) => s === 201).length).toBe(MAX_OPEN_INVITES);
    expect(statuses.filter((s) => s === 422).length).toBe(10);
    expect(await openInvites(database, campaign.id)).toBe(MAX_OPEN_INVITES);
  });

  it('M13: ten people taking one link at once fill the campaign to its cap and no further', async () => {
    const owner = await signedIn(app, 'Olive');
    const campaign = await owner.create({ title: 'Rush hour', type: 'campaign' });
    const link = await makeInvite(owner, campaign.id, 100);
    const people = await Promise.all(Array.from({ length: 10 }, (_, n) => signedIn(app, `Person ${n}`)));
    const answers = await Promise.all(people.map((p) => p.post(`/api/invites/${link.body.token}/accept`)));
    const statuses = answers.map((a) => a.status);
    expect(statuses.filter((s) => s === 200).length).toBe(MAX_MEMBERS - 1);
    expect(statuses.filter((s) => s === 422).length).toBe(10 - (MAX_MEMBERS - 1));
    expect((await membersOf(owner, campaign.id)).length).toBe(MAX_MEMBERS);
    const [invite] = (await owner.get<Paginated<InviteJson>>(`/api/campaigns/${campaign.id}/invites`)).body
      .data;
    expect(invite?.uses).toBe(MAX_MEMBERS - 1);
  });
});
