import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase, testEngines } from '../../../testkit/server';
import { share } from '../../../testkit/sharing';
import { makeMutual, signedIn, type TestClient } from '../../../testkit/testClient';
import { startWebhookReceiver, type WebhookReceiver } from '../../../testkit/webhookReceiver';
import type { WebhookCreated } from '../../shared/webhooks';
import { buildApp } from '../app';
import { type Database, rows, sql } from '../db/client';
import { loadConfig } from '../env';

/** Other people's enabled hooks, subscribed to everything: none of them may hear these tests' writes. */
const OTHER_PEOPLE = 2_000;
const HOOKS_EACH = 10;

interface PlanNode {
  'Relation Name'?: string;
  'Actual Rows'?: number;
  'Actual Loops'?: number;
  'Rows Removed by Filter'?: number;
  'Rows Removed by Index Recheck'?: number;
  Plans?: PlanNode[];
}

/** The rows of `table` a plan's scans read: those they kept and those their filters threw away. */
function rowsRead(node: PlanNode, table: string): number {
  const own =
    node['Relation Name'] === table
      ? ((node['Actual Rows'] ?? 0) +
          (node['Rows Removed by Filter'] ?? 0) +
          (node['Rows Removed by Index Recheck'] ?? 0)) *
        (node['Actual Loops'] ?? 1)
      : 0;
  return own + (node.Plans ?? []).reduce((sum, child) => sum + rowsRead(child, table), 0);
}

describe.each(testEngines())('which webhooks a write reads (%s)', (engine) => {
  let database: Database;
  let app: FastifyInstance;
  let receiver: WebhookReceiver;
  /** Every statement the app sent, with its parameters, since the last clear. */
  const sent: { query: string; params: unknown[] }[] = [];

  beforeAll(async () => {
    database = await openTestDatabase(engine, {
      logger: { logQuery: (query, params) => sent.push({ query, params }) },
    });
    app = await buildApp({
      database,
      config: {
        seedSampleUsers: false,
        webhooks: { ...loadConfig({}).webhooks, allowLoopback: true },
      },
    });
    await app.ready();
    receiver = await startWebhookReceiver();
    await database.db.execute(
      sql`INSERT INTO users (name, phone) SELECT 'Other ' || g, '+1303' || lpad(g::text, 7, '0')
          FROM generate_series(1, ${OTHER_PEOPLE}) g`,
    );
    await database.db.execute(
      sql`INSERT INTO webhooks (user_id, url, events, secret)
          SELECT u.id, 'https://hooks.example.com/' || u.id || '/' || n, '{*}', 'whsec_' || md5(u.id || '/' || n)
          FROM users u CROSS JOIN generate_series(1, ${HOOKS_EACH}) n WHERE u.name LIKE 'Other %'`,
    );
  });
  afterAll(async () => {
    await app?.close();
    await receiver?.close();
    await database?.close();
  });

  async function addHook(client: TestClient, campaignId?: number): Promise<WebhookCreated> {
    const response = await client.post<WebhookCreated>('/api/webhooks', {
      url: `${receiver.url}/hook`,
      events: ['*'],
      ...(campaignId ? { campaign_id: campaignId } : {}),
    });
    expect(response.status, response.text).toBe(201);
    return response.body;
  }

  /** What a hook was given to send, in order: event type and item (outbox rows, sent or not). */
  async function heard(hook: WebhookCreated): Promise<string[]> {
    const found = await rows<{ event_type: string; item_id: number | null }>(
      database.db,
      sql`SELECT event_type, item_id FROM webhook_deliveries WHERE webhook_id = ${hook.id} ORDER BY id`,
    );
    return found.map((d) => `${d.event_type} ${d.item_id ?? '-'}`);
  }

  it('an unrelated person’s write reads none of 20,000 other people’s enabled webhooks', async () => {
    const writer = await signedIn(app, 'Unrelated');
    const todo = await writer.create({ title: 'Mine alone', type: 'todo' });
    sent.length = 0;
    await writer.update(todo.id, { title: 'Still mine alone' });
    // The write's look-up of who hears it (the sender's own reads join the outbox, never this).
    const lookups = sent.filter(
      (s) => /\bFROM webhooks\b/i.test(s.query) && !/webhook_deliveries/.test(s.query),
    );
    expect(lookups.length).toBeGreaterThan(0);
    // Planned without statistics (the embedded engine's state until its upkeep runs), then with.
    for (const analyzed of [false, true]) {
      if (analyzed) await database.db.execute(sql`ANALYZE webhooks`);
      for (const lookup of lookups) {
        const text = `EXPLAIN (ANALYZE, FORMAT JSON) ${lookup.query}`;
        const result =
          engine === 'pg'
            ? (await database.pool!.query(text, lookup.params)).rows
            : (await database.pglite!.query<Record<string, unknown>>(text, lookup.params)).rows;
        const plan = result[0]!['QUERY PLAN'] as [{ Plan: PlanNode }];
        expect(rowsRead(plan[0].Plan, 'webhooks'), JSON.stringify(plan)).toBe(0);
      }
    }
  });

  it('the people who see a change still hear it: owner, members, a removed member of her removal, assignees, a campaign-scoped hook', async () => {
    const alice = await signedIn(app, 'Alice');
    const bob = await signedIn(app, 'Bob');
    const carol = await signedIn(app, 'Carol');
    const dave = await signedIn(app, 'Dave');
    const erin = await signedIn(app, 'Erin');
    const trip = await alice.create({ title: 'Trip', type: 'campaign' });
    const task = await alice.create({ title: 'Book the hut', type: 'task', parent_id: trip.id });
    const bobsOwn = await bob.create({ title: 'Bob’s own', type: 'campaign' });
    await share(alice, trip, 'editor', bob, dave);
    await makeMutual(alice, carol);
    const hooks = {
      alice: await addHook(alice),
      bob: await addHook(bob),
      bobInTrip: await addHook(bob, trip.id),
      bobElsewhere: await addHook(bob, bobsOwn.id),
      carol: await addHook(carol),
      dave: await addHook(dave),
      erin: await addHook(erin),
    };
    await alice.update(task.id, { title: 'Book the hut by Friday' });
    expect((await alice.delete(`/api/campaigns/${trip.id}/members/${dave.user!.id}`)).status).toBe(204);
    await alice.update(task.id, { title: 'Hut booked' });
    const errand = await alice.create({ title: 'Errand', type: 'task', assigned_to: carol.user!.id });
    const step = await alice.create({ title: 'First step', type: 'todo', parent_id: errand.id });

    const inTrip = [`item.updated ${task.id}`, 'member.removed -', `item.updated ${task.id}`];
    expect(await heard(hooks.alice)).toEqual([
      ...inTrip,
      `item.created ${errand.id}`,
      `item.created ${step.id}`,
    ]);
    expect(await heard(hooks.bob)).toEqual(inTrip);
    expect(await heard(hooks.bobInTrip)).toEqual(inTrip);
    expect(await heard(hooks.bobElsewhere)).toEqual([]);
    // Dave heard the trip until his removal, and the removal itself; nothing after it.
    expect(await heard(hooks.dave)).toEqual([`item.updated ${task.id}`, 'member.removed -']);
    // Carol sees the errand as its assignee, and the step under it through its parent.
    expect(await heard(hooks.carol)).toEqual([`item.created ${errand.id}`, `item.created ${step.id}`]);
    expect(await heard(hooks.erin)).toEqual([]);
    const others = await rows<{ n: number }>(
      database.db,
      sql`SELECT count(*)::int AS n FROM webhook_deliveries d JOIN webhooks w ON w.id = d.webhook_id
          WHERE w.url LIKE 'https://hooks.example.com/%'`,
    );
    expect(others[0]!.n).toBe(0);
  });
});
