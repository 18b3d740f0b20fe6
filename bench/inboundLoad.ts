/**
 * Issue 65 '100 inbound mails a minute': `npm run bench -- inbound-load [--seconds N] [--rate N]
 * [--rounds N] [--pg]` (defaults: 60 s phases, 100 mails a minute, 1 round). One app with mail in on
 * (its SMTP listener on a free loopback port, trusting senders as the tests do, so no DNS is asked)
 * and files on a temporary disk store; a campaign whose editor has a verified address, and its
 * secret address from GET /api/campaigns/:id/inbound_address. Each round is two phases of the same
 * length: first a reference with no mail, then one in which a worker thread (so composing the mails
 * costs the app's thread nothing) sends `--rate` mails a minute over real SMTP with nodemailer, on a
 * fixed schedule whatever the answers take, each from the editor with some quoted history and a
 * 200 KB PDF-ish file of random bytes. In both phases another user makes the usual requests one
 * after another, in-process (app.inject): an edit of their own todo, their list, and a sync pull
 * from their cursor. Printed: that user's p50/p95/p99/max in each phase, the mails sent and how long
 * each took to be answered, and the tasks the campaign gained (must equal the mails taken). Budget:
 * p99 < 100 ms while the mail comes in. PGlite by default, PostgreSQL with --pg (TEST_DATABASE_URL,
 * default postgres://postgres@127.0.0.1:5432/test).
 */
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../src/server/app';
import { type Database, rows, sql } from '../src/server/db/client';
import type { DnsResolver } from '../src/server/inbound/service';
import { tempDiskStore } from '../testkit/files';
import { openTestDatabase } from '../testkit/server';
import { benchConfig } from './lib/benchConfig';
import { injectJson } from './lib/hookApp';
import { type InjectSession, injectSignIn } from './lib/injectSession';
import { numberArg } from './lib/pageApi';
import { ms } from './lib/pairs';
import { pgReachable, pgUrl } from './lib/pg';
import { check, heading, info, skip } from './lib/report';
import { median, percentile as quantileOf } from './lib/stats';

const DOMAIN = 'in.outpost.test';
const SENDER = 'editor@example.test';
/** The size of each mail's file, before base64. */
const PDF_BYTES = 200 * 1024;

/** Nothing is published: senders are trusted (INBOUND_TRUST_UNAUTHENTICATED), so nothing should ask. */
const noDns: DnsResolver = async (name) => {
  throw Object.assign(new Error(`ENOTFOUND ${name}`), { code: 'ENOTFOUND' });
};

/**
 * The sender, run in a worker thread: `count` mails, one every `intervalMs` from its start (open
 * loop: a slow answer never delays the next mail), each on a connection of its own. Posts
 * {ok, ms, error?} per mail, then {finished: true}.
 */
const SENDER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const { randomBytes } = require('node:crypto');
const nodemailer = require(workerData.nodemailer);
const { port, from, to, count, intervalMs, pdfBytes } = workerData;
const transport = nodemailer.createTransport({ host: '127.0.0.1', port, secure: false, ignoreTLS: true });
const pdf = () => {
  const head = Buffer.from('%PDF-1.4\\n1 0 obj\\n<< /Length ' + pdfBytes + ' >>\\nstream\\n');
  const tail = Buffer.from('\\nendstream\\nendobj\\ntrailer\\n<< /Root 1 0 R >>\\n%%EOF\\n');
  return Buffer.concat([head, randomBytes(pdfBytes - head.length - tail.length), tail]);
};
const quoted = Array.from({ length: 40 }, (_, k) => '> line ' + k + ' of what was said before, kept by the mail program').join('\\n');
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
(async () => {
  const started = Date.now();
  const sends = [];
  for (let i = 0; i < count; i++) {
    const wait = started + i * intervalMs - Date.now();
    if (wait > 0) await sleep(wait);
    const t0 = performance.now();
    sends.push(transport.sendMail({
      from: 'Editor <' + from + '>',
      to,
      subject: 'Re: Order ' + i + ' for the site',
      text: 'Please order batch ' + i + ' as quoted in the file.\\n\\nOn Mon, 3 Mar 2025 at 10:00, Blair <blair@example.test> wrote:\\n' + quoted + '\\n',
      attachments: [{ filename: 'quote-' + i + '.pdf', content: pdf(), contentType: 'application/pdf' }],
    }).then(
      () => parentPort.postMessage({ ok: true, ms: performance.now() - t0 }),
      (error) => parentPort.postMessage({ ok: false, ms: performance.now() - t0, error: String(error.response || error.message) }),
    ));
  }
  await Promise.all(sends);
  transport.close();
  parentPort.postMessage({ finished: true });
})();
`;

interface SendResult {
  ok: boolean;
  ms: number;
  error?: string;
}

/** Sends `count` mails to `to` from the worker thread, `intervalMs` apart; resolves with every answer. */
function sendMails(port: number, to: string, count: number, intervalMs: number): Promise<SendResult[]> {
  const worker = new Worker(SENDER_SOURCE, {
    eval: true,
    workerData: {
      nodemailer: createRequire(import.meta.url).resolve('nodemailer'),
      port,
      from: SENDER,
      to,
      count,
      intervalMs,
      pdfBytes: PDF_BYTES,
    },
  });
  const results: SendResult[] = [];
  return new Promise((resolve, reject) => {
    worker.on('message', (message: SendResult | { finished: true }) => {
      if ('finished' in message) {
        void worker.terminate();
        resolve(results);
      } else results.push(message);
    });
    worker.on('error', reject);
  });
}

/** The nearest-rank percentile `p` (0–100) of `values`. */
const percentile = (values: readonly number[], p: number) => quantileOf(values, p / 100);

const spread = (v: readonly number[]) =>
  `${ms(percentile(v, 50))} / ${ms(percentile(v, 95))} / ${ms(percentile(v, 99))} / ${ms(Math.max(...v))}`;

interface Reader {
  who: InjectSession;
  todoId: number;
  cursor: string;
  edits: number;
}

/** The reader's sync cursor after pulling everything there is. */
async function caughtUp(app: FastifyInstance, who: InjectSession): Promise<string> {
  let cursor = '';
  for (;;) {
    const page = await injectJson<{ cursor: string; has_more: boolean }>(
      app,
      who,
      'GET',
      `/api/sync?cursor=${encodeURIComponent(cursor)}`,
    );
    cursor = page.cursor;
    if (!page.has_more) return cursor;
  }
}

/** The other user's requests, one after another, for `seconds`: each one's time. */
async function otherUser(app: FastifyInstance, reader: Reader, seconds: number): Promise<number[]> {
  const latencies: number[] = [];
  const until = performance.now() + seconds * 1000;
  const timed = async <T>(request: () => Promise<T>): Promise<T> => {
    const started = performance.now();
    const answer = await request();
    latencies.push(performance.now() - started);
    return answer;
  };
  while (performance.now() < until) {
    await timed(() =>
      injectJson(app, reader.who, 'PATCH', `/api/items/${reader.todoId}`, {
        title: `Mine, edit ${reader.edits++}`,
      }),
    );
    await timed(() => injectJson(app, reader.who, 'GET', '/api/items?per_page=20'));
    const page = await timed(() =>
      injectJson<{ cursor: string }>(
        app,
        reader.who,
        'GET',
        `/api/sync?cursor=${encodeURIComponent(reader.cursor)}`,
      ),
    );
    reader.cursor = page.cursor;
  }
  return latencies;
}

/** The campaign's tasks, and the PDFs of PDF_BYTES on them. */
async function tasksIn(database: Database, campaignId: number): Promise<{ tasks: number; files: number }> {
  const [found] = await rows<{ tasks: number; files: number }>(
    database.db,
    sql`SELECT count(*)::int AS tasks,
          (SELECT count(*)::int FROM attachments a JOIN items t ON t.id = a.item_id
           WHERE t.parent_id = ${campaignId} AND a.size = ${PDF_BYTES}) AS files
        FROM items WHERE parent_id = ${campaignId} AND type = 'task'`,
  );
  return found ?? { tasks: 0, files: 0 };
}

export async function run(args: string[] = []): Promise<void> {
  const seconds = Math.max(5, numberArg(args, '--seconds', 60));
  const rate = Math.max(1, numberArg(args, '--rate', 100));
  const rounds = Math.max(1, numberArg(args, '--rounds', 1));
  const engine = args.includes('--pg') ? 'pg' : 'pglite';
  const perPhase = Math.round((rate * seconds) / 60);
  heading(
    `inbound-load: ${rate} inbound mails a minute (200 KB PDF each) vs none, another user's requests beside them (${engine}, ${rounds} × ${seconds} s + ${seconds} s)`,
  );
  if (engine === 'pg') {
    const why = await pgReachable(pgUrl());
    if (why) {
      skip('inbound-load --pg', why);
      return;
    }
  }
  const database = await openTestDatabase(engine);
  const files = await tempDiskStore();
  const config = benchConfig();
  const app = await buildApp({
    database,
    files: files.store,
    dnsResolver: noDns,
    config: {
      ...config,
      clientDir: null,
      host: '127.0.0.1',
      email: {
        ...config.email,
        inbound: { ...config.email.inbound, smtpPort: 0, domain: DOMAIN, trustUnauthenticated: true },
      },
    },
  });
  await app.ready();
  try {
    const port = app.inboundSmtp.port;
    if (port === null) throw new Error('the inbound SMTP listener did not start');
    const owner = await injectSignIn(app, '+15555550661', 'Owner');
    const editor = await injectSignIn(app, '+15555550662', 'Editor');
    const other = await injectSignIn(app, '+15555550663', 'Other User');
    const campaign = await injectJson<{ id: number }>(app, owner, 'POST', '/api/items', {
      title: 'Orders',
      type: 'campaign',
    });
    // Straight into the tables: membership through the API needs mutual contacts, and an address
    // its mailed link; neither is what this bench measures.
    await database.db.execute(
      sql`INSERT INTO campaign_members (campaign_id, user_id, role) VALUES (${campaign.id}, ${editor.id}, 'editor')`,
    );
    await database.db.execute(
      sql`INSERT INTO user_emails (user_id, email, verified_at) VALUES (${editor.id}, ${SENDER}, now())`,
    );
    const { address } = await injectJson<{ address: string }>(
      app,
      owner,
      'GET',
      `/api/campaigns/${campaign.id}/inbound_address`,
    );
    const todo = await injectJson<{ id: number }>(app, other, 'POST', '/api/items', {
      title: 'Mine',
      type: 'todo',
    });
    const reader: Reader = { who: other, todoId: todo.id, cursor: await caughtUp(app, other), edits: 0 };

    // Unrecorded: the first requests and the first mail compile their paths.
    await otherUser(app, reader, 1);
    const [first] = await sendMails(port, address, 1, 0);
    if (!first?.ok) throw new Error(`the first mail was refused: ${first?.error}`);
    let before = await tasksIn(database, campaign.id);

    const quiet: number[] = [];
    const busy: number[] = [];
    const answers: SendResult[] = [];
    let taken = 0;
    let made = 0;
    let filed = 0;
    for (let round = 0; round < rounds; round++) {
      quiet.push(...(await otherUser(app, reader, seconds)));
      const sending = sendMails(port, address, perPhase, 60_000 / rate);
      busy.push(...(await otherUser(app, reader, seconds)));
      // The last mails' answers may still be on the way; their tasks count once they are taken.
      const results = await sending;
      answers.push(...results);
      taken += results.filter((r) => r.ok).length;
      const now = await tasksIn(database, campaign.id);
      made += now.tasks - before.tasks;
      filed += now.files - before.files;
      before = now;
    }
    const refused = answers.filter((r) => !r.ok);
    const times = answers.map((r) => r.ms);
    info(
      'mails',
      `sent / taken (250) / refused`,
      `${answers.length} / ${taken} / ${refused.length}${refused[0] ? ` (first: ${refused[0].error})` : ''}`,
    );
    info(
      'mails',
      'SMTP answer time p50 / p95 / max',
      `${ms(median(times))} / ${ms(percentile(times, 95))} / ${ms(Math.max(...times))}`,
    );
    info('campaign', 'tasks made by mail', `${made} (with their PDF: ${filed}; mails taken: ${taken})`);
    info('other user, no mail', `no mail: p50/p95/p99/max`, `${spread(quiet)} (${quiet.length} requests)`);
    info(
      'other user, mail coming in',
      `mail in: p50/p95/p99/max`,
      `${spread(busy)} (${busy.length} requests)`,
    );
    check({
      subject: `every mail taken made one task (${engine})`,
      metric: 'tasks / mails sent',
      value: `${made} / ${answers.length}`,
      budget: 'equal',
      ok: made === answers.length && taken === answers.length && filed === made,
    });
    const p99 = percentile(busy, 99);
    check({
      subject: `another user's requests beside ${rate} inbound mails a minute (${engine})`,
      metric: 'p99',
      value: `${ms(p99)} (no mail: ${ms(percentile(quiet, 99))})`,
      budget: '< 100 ms',
      ok: p99 < 100,
    });
  } finally {
    await app.close();
    await database.close();
    await files.close();
  }
}
