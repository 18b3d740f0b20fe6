/**
 * Issue 62 'Every write reads every enabled webhook': `npm run bench -- webhook-others [--pairs N]
 * [--hooks N] [--pg]` (defaults: 40 pairs, 100,000 hooks). Two apps on two fresh databases, alike but
 * for one thing: one holds `--hooks` enabled webhooks of 10,000 other people (10 each, subscribed to
 * every event), the other none. In each, the same person edits the title of a task in her campaign,
 * shared with two members (so the look-up of who hears it has people to look up); nobody near her
 * has a webhook. Alternating A B A B after three unrecorded pairs, each side of a pair the total of
 * 5 edits. Figure: the median of the per-pair ratios (with / without) with their spread; budget
 * ≤ 1.1×. In-process (app.inject); PGlite by default, PostgreSQL with --pg (TEST_DATABASE_URL,
 * default postgres://postgres@127.0.0.1:5432/test). Before issue 62 every write read every enabled
 * hook of every user.
 */
import type { FastifyInstance } from 'fastify';
import type { Database } from '../src/server/db/client';
import { sql } from '../src/server/db/client';
import { openTestDatabase } from '../testkit/server';
import { hookApp, injectJson } from './lib/hookApp';
import { type InjectSession, injectSignIn } from './lib/injectSession';
import { numberArg } from './lib/pageApi';
import { ms, type Pairs, ratioText } from './lib/pairs';
import { pgReachable, pgUrl } from './lib/pg';
import { check, heading, info, skip } from './lib/report';
import { median } from './lib/stats';

const EDITS_PER_SIDE = 5;
const OTHER_PEOPLE = 10_000;

interface Side {
  database: Database;
  app: FastifyInstance;
  writer: InjectSession;
  taskId: number;
}

/** A database and app with the writer's shared campaign, and `hooks` webhooks of other people. */
async function side(engine: 'pglite' | 'pg', hooks: number): Promise<Side> {
  const database = await openTestDatabase(engine);
  const app = await hookApp(database);
  const writer = await injectSignIn(app, '+15555550621', 'Writer');
  const members = [
    await injectSignIn(app, '+15555550622', 'Member One'),
    await injectSignIn(app, '+15555550623', 'Member Two'),
  ];
  const campaign = await injectJson<{ id: number }>(app, writer, 'POST', '/api/items', {
    title: 'Campaign',
    type: 'campaign',
  });
  const task = await injectJson<{ id: number }>(app, writer, 'POST', '/api/items', {
    title: 'Task',
    type: 'task',
    parent_id: campaign.id,
  });
  // Members straight in the table: the route needs mutual contacts, which this bench does not measure.
  for (const member of members)
    await database.db.execute(
      sql`INSERT INTO campaign_members (campaign_id, user_id, role) VALUES (${campaign.id}, ${member.id}, 'editor')`,
    );
  if (hooks > 0) {
    await database.db.execute(
      sql`INSERT INTO users (name, phone) SELECT 'Other ' || g, '+1303' || lpad(g::text, 7, '0')
          FROM generate_series(1, ${OTHER_PEOPLE}) g`,
    );
    await database.db.execute(
      sql`INSERT INTO webhooks (user_id, url, events, secret)
          SELECT u.id, 'https://hooks.example.com/' || n, '{*}', 'whsec_' || md5(n::text)
          FROM generate_series(1, ${hooks}) n
          JOIN users u ON u.phone = '+1303' || lpad((1 + n % ${OTHER_PEOPLE})::text, 7, '0')`,
    );
  }
  return { database, app, writer, taskId: task.id };
}

export async function run(args: string[] = []): Promise<void> {
  const pairs = Math.max(2, numberArg(args, '--pairs', 40));
  const hooks = Math.max(1, numberArg(args, '--hooks', 100_000));
  const engine = args.includes('--pg') ? 'pg' : 'pglite';
  const count = hooks.toLocaleString('en-US');
  heading(
    `webhook-others: a write with ${count} other people's webhooks in the database vs none (${engine}, ${pairs} pairs)`,
  );
  if (engine === 'pg') {
    const why = await pgReachable(pgUrl());
    if (why) {
      skip('webhook-others --pg', why);
      return;
    }
  }
  const crowded = await side(engine, hooks);
  const empty = await side(engine, 0);
  try {
    let n = 0;
    const edits = async (s: Side) => {
      const started = performance.now();
      for (let i = 0; i < EDITS_PER_SIDE; i++)
        await injectJson(s.app, s.writer, 'PATCH', `/api/items/${s.taskId}`, { title: `Task ${n++}` });
      return performance.now() - started;
    };
    const p: Pairs = { ref: [], app: [], ratios: [] };
    for (let round = -3; round < pairs; round++) {
      const withOthers = await edits(crowded);
      const without = await edits(empty);
      if (round < 0) continue;
      p.ref.push(without / EDITS_PER_SIDE);
      p.app.push(withOthers / EDITS_PER_SIDE);
      p.ratios.push(withOthers / without);
    }
    info(
      'PATCH /api/items/:id',
      `median per write, none / ${count} others`,
      `${ms(median(p.ref))} / ${ms(median(p.app))}`,
    );
    check({
      subject: `a write with ${count} other people's webhooks vs none (${engine})`,
      metric: 'ratio (spread)',
      value: ratioText(p),
      budget: '≤ 1.1×',
      ok: median(p.ratios) <= 1.1,
    });
  } finally {
    for (const s of [crowded, empty]) {
      await s.app.close();
      await s.database.close();
    }
  }
}
