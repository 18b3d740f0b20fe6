/**
 * Issue 48: `npm run bench -- comment-fanout [--commenters N] [--pairs N]` (default 300 earlier
 * commenters, 6 pairs). On the embedded database a campaign task carries one comment by each of N
 * members; then, alternating, a comment nobody else hears of (the reference: on the author's own
 * task) and a comment on the busy task, each by another member, so every one of them is a fresh
 * notification to every earlier commenter (no burst folds it, no per-recipient bound is reached).
 * Meanwhile another user edits their own todo and lists their items, one request after another.
 * Printed: each comment write's time (median, spread, ratio to the reference per pair) and the
 * other user's slowest request during each kind of write. In-process (app.inject), as bench cascade:
 * the embedded database has one connection, so a long write is a stall for everyone.
 */
import type { FastifyInstance } from 'fastify';
import { rows, sql } from '../src/server/db/client';
import { createTestApp } from '../testkit/server';
import { type InjectSession, injectSignIn } from './lib/injectSession';
import { numberArg } from './lib/pageApi';
import { ms, ratioText } from './lib/pairs';
import { check, heading, info } from './lib/report';
import { median } from './lib/stats';

async function send<T>(
  app: FastifyInstance,
  who: InjectSession,
  method: 'GET' | 'POST' | 'PATCH',
  url: string,
  body?: unknown,
): Promise<T> {
  const response = await app.inject({
    method,
    url,
    headers: { cookie: who.cookie, 'x-xsrf-token': who.xsrf },
    ...(body === undefined ? {} : { payload: body as object }),
  });
  if (response.statusCode >= 400)
    throw new Error(`${method} ${url} answered ${response.statusCode}: ${response.body.slice(0, 300)}`);
  return response.json() as T;
}

/** The other user's requests (an edit of their todo, then their list) until `done`; each one's time. */
async function otherUser(app: FastifyInstance, reader: InjectSession, todoId: number, done: () => boolean) {
  const latencies: number[] = [];
  for (let n = 0; !done(); n++) {
    let started = performance.now();
    await send(app, reader, 'PATCH', `/api/items/${todoId}`, { title: `Mine, edit ${n}` });
    latencies.push(performance.now() - started);
    started = performance.now();
    await send(app, reader, 'GET', '/api/items?per_page=20');
    latencies.push(performance.now() - started);
  }
  return latencies;
}

export async function run(args: string[] = []): Promise<void> {
  const commenters = Math.max(1, numberArg(args, '--commenters', 300));
  const pairs = Math.max(2, numberArg(args, '--pairs', 6));
  heading(
    `comment-fanout: a comment on a task with ${commenters} earlier commenters vs one nobody hears of (PGlite)`,
  );
  const harness = await createTestApp('pglite');
  const { app, database } = harness;
  try {
    const owner = await injectSignIn(app, '+15555550401', 'Fanout Owner');
    const reader = await injectSignIn(app, '+15555550402', 'Other Reader');
    const todo = await send<{ id: number }>(app, reader, 'POST', '/api/items', {
      title: 'Mine',
      type: 'todo',
    });
    const campaign = await send<{ id: number }>(app, owner, 'POST', '/api/items', {
      title: 'Big thread',
      type: 'campaign',
    });
    const task = await send<{ id: number }>(app, owner, 'POST', '/api/items', {
      title: 'Busy task',
      type: 'task',
      parent_id: campaign.id,
    });
    // The earlier commenters, written directly: members of the campaign with a comment each.
    await database.db.execute(
      sql`WITH people AS (
            INSERT INTO users (name, phone)
            SELECT 'Commenter ' || k, '+1555600' || lpad(k::text, 4, '0') FROM generate_series(1, ${commenters}) k
            RETURNING id),
          joined AS (
            INSERT INTO campaign_members (campaign_id, user_id, role)
            SELECT ${campaign.id}, id, 'editor' FROM people RETURNING user_id)
          INSERT INTO comments (uuid, item_id, user_id, body)
          SELECT gen_random_uuid(), ${task.id}, user_id, 'Earlier comment' FROM joined`,
    );
    await database.db.execute(sql`UPDATE items SET comments_count = ${commenters} WHERE id = ${task.id}`);
    // The authors of the measured comments: members too, each writing one comment on the busy task.
    const authors: InjectSession[] = [];
    for (let k = 0; k < pairs + 1; k++) {
      const author = await injectSignIn(app, `+1555700${String(k).padStart(4, '0')}`, `Author ${k}`);
      await database.db.execute(
        sql`INSERT INTO campaign_members (campaign_id, user_id, role) VALUES (${campaign.id}, ${author.id}, 'editor')`,
      );
      authors.push(author);
    }
    const lonely = await send<{ id: number }>(app, owner, 'POST', '/api/items', {
      title: 'Quiet task',
      type: 'task',
    });
    const [counted] = await rows<{ n: number }>(
      database.db,
      sql`SELECT count(DISTINCT user_id)::int AS n FROM comments WHERE item_id = ${task.id}`,
    );
    info('busy task', 'earlier commenters on the task', String(counted?.n ?? 0));

    const timedBeside = async (write: () => Promise<unknown>) => {
      let done = false;
      const other = otherUser(app, reader, todo.id, () => done);
      await new Promise((resolve) => setTimeout(resolve, 20));
      const started = performance.now();
      await write();
      const took = performance.now() - started;
      done = true;
      const latencies = await other;
      return { took, slowest: Math.max(...latencies) };
    };
    const reference = () =>
      timedBeside(() => send(app, owner, 'POST', `/api/items/${lonely.id}/comments`, { body: 'To myself' }));
    const fanout = (author: InjectSession) =>
      timedBeside(() => send(app, author, 'POST', `/api/items/${task.id}/comments`, { body: 'Me too' }));

    // One unrecorded pair: the first comment compiles the path.
    await reference();
    await fanout(authors[pairs]!);
    const p = { ref: [] as number[], app: [] as number[], ratios: [] as number[] };
    const slowRef: number[] = [];
    const slowApp: number[] = [];
    for (let i = 0; i < pairs; i++) {
      const r = await reference();
      const a = await fanout(authors[i]!);
      p.ref.push(r.took);
      p.app.push(a.took);
      p.ratios.push(a.took / r.took);
      slowRef.push(r.slowest);
      slowApp.push(a.slowest);
    }
    const [told] = await rows<{ n: number }>(
      database.db,
      sql`SELECT count(*)::int AS n FROM notifications WHERE item_id = ${task.id} AND kind = 'commented'`,
    );
    info('busy task', "'commented' entries written", String(told?.n ?? 0));
    info('reference', 'comment nobody hears of: median', ms(median(p.ref)));
    info(
      'fan-out',
      `comment to ${commenters}: median (min–max)`,
      `${ms(median(p.app))} (${ms(Math.min(...p.app))}–${ms(Math.max(...p.app))})`,
    );
    info('fan-out', `÷ reference (${pairs} pairs)`, ratioText(p));
    info('reference', "other user's slowest request beside it: median of pairs", ms(median(slowRef)));
    const slowest = median(slowApp);
    check({
      subject: `other user's slowest request beside a comment to ${commenters} commenters (PGlite)`,
      metric: `median of ${pairs} pairs (max)`,
      value: `${ms(slowest)} (${ms(Math.max(...slowApp))})`,
      budget: '< 200 ms',
      ok: slowest < 200,
    });
    check({
      subject: `comment to ${commenters} earlier commenters (PGlite)`,
      metric: 'median',
      value: ms(median(p.app)),
      budget: '< 100 ms',
      ok: median(p.app) < 100,
    });
  } finally {
    await harness.close();
  }
}
