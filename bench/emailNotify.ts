/**
 * Issue 65 'A write that notifies 50 people by mail': `npm run bench -- email-notify [--pairs N]
 * [--drain commit|after] [--pg]` (default 20 pairs, drain at the commit). Two apps on two fresh
 * databases of one engine, alike but for mail: one sends through SMTP_URL to a real smtp-server on
 * loopback (testkit/mailServer.ts), the other has no SMTP_URL. In each, the writer comments on a
 * task of her own that 50 members of her campaign commented on before, each with a verified
 * address and the 'Comments' switch on, so the comment is 50 'commented' notifications, and on the
 * mail side 50 mails. Every measured comment is on a task of its own with 50 people of its own: a
 * person hears of at most COMMENT_NOTICES_PER_MINUTE comments a minute (K24), which a run of pairs
 * on one task would pass in seconds.
 *
 * batchMs is 0 and each app's outbox is set off at the write's commit (as a write that marks a push
 * entry sets it off), so the mail side's drain (claim, render, the outbox rows, the SMTP sends)
 * runs beside the end of the very request it follows; with `--drain after` it is set off once the
 * answer is in, so only what the mail work leaves behind (garbage to collect, the database's
 * cleanup) meets the writes after it. After each side's write the bench waits for its outbox to
 * settle (and on the mail side for the 50 mails at the server), so one side's background work never
 * runs in the other's time. Alternating pairs (A B, then B A) after three unrecorded ones, each
 * side of a pair the total of three comments. Figure: the requests' time (app.inject), median
 * ratio mail on / mail off with the spread of the per-pair ratios; budget ≤ 1.1×. PGlite by
 * default, PostgreSQL with --pg (TEST_DATABASE_URL, default postgres://postgres@127.0.0.1:5432/test).
 */
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../src/server/app';
import { type Database, rows, sql } from '../src/server/db/client';
import { COMMENT_NOTICES_PER_MINUTE } from '../src/shared/comments';
import { tempDiskStore } from '../testkit/files';
import { testEmailConfig } from '../testkit/mailServer';
import { openTestDatabase } from '../testkit/server';
import { benchConfig } from './lib/benchConfig';
import { injectJson } from './lib/hookApp';
import { type InjectSession, injectSignIn } from './lib/injectSession';
import { type MailSink, startMailSink } from './lib/mailSink';
import { numberArg } from './lib/pageApi';
import { ms, type Pairs, ratioText } from './lib/pairs';
import { pgReachable, pgUrl } from './lib/pg';
import { check, heading, info, skip } from './lib/report';
import { median } from './lib/stats';

/** People each measured comment notifies. */
const PEOPLE = 50;
/** Unrecorded pairs first: the first comments compile their statements and open the SMTP pool. */
const WARMUP = 3;
/** Comments each side of a pair makes (their times added): one request's time is too noisy alone. */
const WRITES = 3;

interface Side {
  database: Database;
  app: FastifyInstance;
  closeFiles: () => Promise<void>;
  writer: InjectSession;
  /** One task per comment to come, each with its own 50 earlier commenters. */
  taskIds: number[];
}

/** When the bench sets each app's outbox off: at the write's commit, or once its answer is in. */
type DrainAt = 'commit' | 'after';

/** The app on `database`, mailing through `mail` (null: mail off). */
async function sideApp(
  database: Database,
  mail: MailSink | null,
  drainAt: DrainAt,
): Promise<{ app: FastifyInstance; closeFiles: () => Promise<void> }> {
  const files = await tempDiskStore();
  const config = benchConfig();
  const app = await buildApp({
    database,
    files: files.store,
    config: { ...config, clientDir: null, email: testEmailConfig(mail) },
  });
  // The app drains on its tick, or at once after a commit that wrote an entry to push; nobody here
  // has a push subscription, so the bench sets the drain off at the commit, where the drain of a
  // pushed write starts (the tick is off in testEmailConfig).
  if (drainAt === 'commit') app.changes.onChange(() => app.emailOutbox.poke(true));
  await app.ready();
  return { app, closeFiles: files.close };
}

/** A database and app with the writer's `groups` campaigns, each a task that 50 mailable people commented on. */
async function side(
  engine: 'pglite' | 'pg',
  mail: MailSink | null,
  groups: number,
  drainAt: DrainAt,
): Promise<Side> {
  const database = await openTestDatabase(engine);
  const { app, closeFiles } = await sideApp(database, mail, drainAt);
  const writer = await injectSignIn(app, '+15555550651', 'Writer');
  const taskIds: number[] = [];
  for (let g = 0; g < groups; g++) {
    const campaign = await injectJson<{ id: number }>(app, writer, 'POST', '/api/items', {
      title: `Campaign ${g}`,
      type: 'campaign',
    });
    const task = await injectJson<{ id: number }>(app, writer, 'POST', '/api/items', {
      title: `Task ${g}`,
      type: 'task',
      parent_id: campaign.id,
    });
    // Straight into the tables: members need mutual contacts through the API, and an address its
    // mailed link; neither is what this bench measures.
    await database.db.execute(
      sql`WITH people AS (
            INSERT INTO users (name, phone)
            SELECT 'Member ' || k, '+1556' || lpad((${g * PEOPLE} + k)::text, 7, '0')
            FROM generate_series(1, ${PEOPLE}) k RETURNING id),
          joined AS (
            INSERT INTO campaign_members (campaign_id, user_id, role)
            SELECT ${campaign.id}, id, 'editor' FROM people RETURNING user_id),
          addressed AS (
            INSERT INTO user_emails (user_id, email, verified_at)
            SELECT user_id, 'member' || user_id || '@example.test', now() FROM joined RETURNING user_id),
          switched AS (
            INSERT INTO email_preferences (user_id, kinds)
            SELECT user_id, '{"commented": true}'::jsonb FROM addressed RETURNING user_id)
          INSERT INTO comments (uuid, item_id, user_id, body)
          SELECT gen_random_uuid(), ${task.id}, user_id, 'Earlier comment' FROM switched`,
    );
    await database.db.execute(sql`UPDATE items SET comments_count = ${PEOPLE} WHERE id = ${task.id}`);
    taskIds.push(task.id);
  }
  return { database, app, closeFiles, writer, taskIds };
}

async function closeSide(s: Side): Promise<void> {
  await s.app.close();
  await s.database.close();
  await s.closeFiles();
}

/** 'commented' entries the side's comments on `taskIds` wrote. */
async function notified(s: Side, taskIds: readonly number[]): Promise<number> {
  const [found] = await rows<{ n: number }>(
    s.database.db,
    sql`SELECT count(*)::int AS n FROM notifications
        WHERE kind = 'commented' AND item_id = ANY(${`{${taskIds.join(',')}}`}::int[])`,
  );
  return found?.n ?? 0;
}

export async function run(args: string[] = []): Promise<void> {
  const pairs = Math.max(2, numberArg(args, '--pairs', 20));
  const engine = args.includes('--pg') ? 'pg' : 'pglite';
  const drainAt: DrainAt = args[args.indexOf('--drain') + 1] === 'after' ? 'after' : 'commit';
  heading(
    `email-notify: a comment that notifies ${PEOPLE} people by mail vs the same with mail off (${engine}, ${pairs} pairs, drain at ${drainAt === 'commit' ? 'the commit' : 'the answer'})`,
  );
  if (engine === 'pg') {
    const why = await pgReachable(pgUrl());
    if (why) {
      skip('email-notify --pg', why);
      return;
    }
  }
  const groups = (WARMUP + pairs) * WRITES;
  const mail = await startMailSink();
  const on = await side(engine, mail, groups, drainAt);
  const off = await side(engine, null, groups, drainAt);
  try {
    const comment = async (s: Side, round: number) => {
      const started = performance.now();
      await injectJson(s.app, s.writer, 'POST', `/api/items/${s.taskIds[round]}/comments`, {
        body: `Comment ${round}`,
      });
      return performance.now() - started;
    };
    const p: Pairs = { ref: [], app: [], ratios: [] };
    const delivered: number[] = [];
    const withMail = async (round: number) => {
      let took = 0;
      const inboxes: number[] = [];
      for (let k = 0; k < WRITES; k++) {
        const before = mail.received.length;
        const started = performance.now();
        took += await comment(on, round * WRITES + k);
        if (drainAt === 'after') on.app.emailOutbox.poke(true);
        // The 50 mails reach the server (or the bench says so) before anything else is written.
        await mail.waitFor(before + PEOPLE, 30_000);
        inboxes.push(performance.now() - started);
        await on.app.emailOutbox.settled();
      }
      return { took, inboxes };
    };
    const without = async (round: number) => {
      let took = 0;
      for (let k = 0; k < WRITES; k++) {
        took += await comment(off, round * WRITES + k);
        if (drainAt === 'after') off.app.emailOutbox.poke(true);
        await off.app.emailOutbox.settled();
      }
      return took;
    };
    for (let round = 0; round < WARMUP + pairs; round++) {
      // Which side goes first alternates: what one side leaves behind (the mail server's parsed
      // mails to collect, say) must not always fall in the same side's time.
      let a: { took: number; inboxes: number[] };
      let b: number;
      if (round % 2 === 0) {
        a = await withMail(round);
        b = await without(round);
      } else {
        b = await without(round);
        a = await withMail(round);
      }
      if (round < WARMUP) continue;
      p.app.push(a.took / WRITES);
      p.ref.push(b / WRITES);
      p.ratios.push(a.took / b);
      delivered.push(...a.inboxes);
    }
    const measured = on.taskIds.slice(WARMUP * WRITES);
    const [sent] = await rows<{ n: number }>(
      on.database.db,
      sql`SELECT count(*)::int AS n FROM email_outbox WHERE kind = 'notification' AND status = 'sent'`,
    );
    info(
      'mail on',
      `mails at the SMTP server (${groups} comments)`,
      `${mail.received.length} (${(mail.received.length / groups).toFixed(1)} a comment; outbox rows sent: ${sent?.n ?? 0})`,
    );
    info(
      'notifications',
      `'commented' entries, on / off (${pairs * WRITES} measured)`,
      `${await notified(on, measured)} / ${await notified(off, measured)} (${PEOPLE} a comment expected; K24 allows ${COMMENT_NOTICES_PER_MINUTE} a minute a person)`,
    );
    info(
      'POST /api/items/:id/comments',
      'median per comment, mail off / mail on',
      `${ms(median(p.ref))} / ${ms(median(p.app))}`,
    );
    info(
      'mail on',
      `comment sent → ${PEOPLE} mails at the server: median (max)`,
      `${ms(median(delivered))} (${ms(Math.max(...delivered))})`,
    );
    check({
      subject: `a comment notifying ${PEOPLE} people by mail vs mail off (${engine}, drain at ${drainAt})`,
      metric: `ratio (spread), ${pairs} pairs`,
      value: ratioText(p),
      budget: '≤ 1.1×',
      ok: median(p.ratios) <= 1.1 && mail.received.length === groups * PEOPLE,
    });
  } finally {
    await closeSide(on);
    await closeSide(off);
    await mail.close();
  }
}
