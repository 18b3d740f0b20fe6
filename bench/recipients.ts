/**
 * Issue 48 (SYNC.md M10): `npm run bench -- recipients [items] [--pg]`. The change bus's viewers of one
 * write of `items` tasks (default 5,000) in a campaign of 12 people, 3 of whom departed, found with the
 * departures left out (viewersOfChanges) against the same query without that filter (its text before
 * M10, the reference), alternating A B A B inside the writing transaction. Figure: the median of the
 * per-round ratios with their spread; budget ≤ 1.3×. PGlite by default, PostgreSQL with --pg
 * (TEST_DATABASE_URL, default postgres://postgres@127.0.0.1:5432/test).
 */
import { performance } from 'node:perf_hooks';
import { rows, sql } from '../src/server/db/client';
import { campaignMembers, viewersOfChanges } from '../src/server/events/changeBus';
import { openTestDatabase } from '../testkit/server';
import { check, heading, info } from './lib/report';
import { median } from './lib/stats';

const ROUNDS = 15;

/** The change bus's viewers query as it was before M10: creators, assignees and members, no departures. */
const REFERENCE = sql`SELECT v.viewer FROM items i
    LEFT JOIN items p ON p.id = i.parent_id
    LEFT JOIN items g ON g.id = p.parent_id
    CROSS JOIN LATERAL (VALUES (i.user_id), (i.assigned_to), (p.user_id), (p.assigned_to), (g.user_id), (g.assigned_to)) v(viewer)
    WHERE i.change_xid = pg_current_xact_id()::text::bigint AND v.viewer IS NOT NULL
  UNION
  SELECT m.user_id FROM items i
    LEFT JOIN items p ON p.id = i.parent_id
    LEFT JOIN items g ON g.id = p.parent_id
    JOIN campaign_members m ON m.campaign_id = COALESCE(g.id, p.id, i.id)
    WHERE i.change_xid = pg_current_xact_id()::text::bigint`;

export async function run(args: string[]): Promise<void> {
  const items = Number(args.find((a) => /^\d+$/.test(a))) || 5_000;
  const engine = args.includes('--pg') ? 'pg' : 'pglite';
  if (engine === 'pg') process.env.TEST_DATABASE_URL ??= 'postgres://postgres@127.0.0.1:5432/test';
  heading(
    `recipients: viewers of a ${items.toLocaleString('en-US')}-item write, departures left out (${engine})`,
  );
  const database = await openTestDatabase(engine);
  try {
    const db = database.db;
    const [first] = await rows<{ id: number }>(
      db,
      sql`INSERT INTO users (name, phone) SELECT 'Bench ' || g, '+1202555' || lpad(g::text, 4, '0')
          FROM generate_series(1, 12) g RETURNING id`,
    );
    const owner = first!.id;
    const [campaign] = await rows<{ id: number }>(
      db,
      sql`INSERT INTO items (title, type, status, user_id, uuid)
          VALUES ('Bench', 'campaign', 'pending', ${owner}, gen_random_uuid()) RETURNING id`,
    );
    const c = campaign!.id;
    await db.execute(sql`INSERT INTO campaign_members (campaign_id, user_id, role)
      SELECT ${c}, id, 'editor' FROM users WHERE id > ${owner} AND id <= ${owner + 8}`);
    await db.execute(sql`INSERT INTO campaign_departures (campaign_id, user_id)
      SELECT ${c}, id FROM users WHERE id > ${owner + 8} AND id < ${owner + 12}`);
    await db.execute(sql`INSERT INTO items (title, type, status, user_id, assigned_to, parent_id, uuid)
      SELECT 'Task ' || g, 'task', 'pending', ${owner} + (g % 12), ${owner} + ((g + 3) % 12), ${c}, gen_random_uuid()
      FROM generate_series(1, ${items}) g`);
    const times = { app: [] as number[], reference: [] as number[] };
    const found = { app: 0, reference: 0 };
    for (let round = 0; round <= ROUNDS; round++) {
      for (const side of ['reference', 'app'] as const) {
        await db.transaction(async (tx) => {
          await tx.execute(
            sql`UPDATE items SET change_xid = pg_current_xact_id()::text::bigint WHERE parent_id = ${c} OR id = ${c}`,
          );
          const started = performance.now();
          // The app's audience whole: the users it names and its campaigns' members (E4), as one
          // instance resolves them.
          const viewers =
            side === 'app'
              ? await viewersOfChanges(tx).then(async (a) => [
                  ...new Set([...a.users, ...(await campaignMembers(tx, a.campaigns))]),
                ])
              : await rows(tx, REFERENCE);
          // The first round warms both up and is not counted.
          if (round > 0) times[side].push(performance.now() - started);
          found[side] = viewers.length;
        });
      }
    }
    const ratios = times.app.map((t, n) => t / times.reference[n]!);
    info('viewers found', 'app / reference', `${found.app} / ${found.reference}`);
    info(
      'median',
      'app / reference',
      `${median(times.app).toFixed(1)} / ${median(times.reference).toFixed(1)} ms`,
    );
    const ratio = median(ratios);
    check({
      subject: 'viewers with departures',
      metric: 'ratio (spread)',
      value: `${ratio.toFixed(2)}× (${Math.min(...ratios).toFixed(2)}–${Math.max(...ratios).toFixed(2)})`,
      budget: '≤ 1.3×',
      ok: ratio <= 1.3,
    });
  } finally {
    await database.close();
  }
}
