/**
 * Issue 51 'Budgets': `npm run bench -- webhook-delivery [--seconds N] [--hooks N] [--database-url URL]`
 * (default 10 s, 100 webhooks). One campaign with `hooks` webhooks subscribed to it (every event),
 * each at its own path of one local receiver that answers 204; then 10 title edits a second of the
 * campaign's tasks, sent on a fixed schedule (not one after another) and spread over the instances.
 * Figure: for every delivery of every edit, the time from sending the edit to the receiver getting
 * it, p50 / p95 / max; budget p95 < 500 ms. Deliveries missing 30 s after the last edit are counted
 * as lost (budget 0). Every delivery's signature is checked with `standardwebhooks` afterwards.
 *
 * On PostgreSQL (--database-url, else TEST_DATABASE_URL) a fresh database of its own and 2 server
 * instances as child processes, as the budget states; without either, PGlite and 1 instance in
 * process, and the figure is informational. The webhooks are written straight into the table: the
 * API allows 20 a person, and the budget is about delivery, not creation.
 */
import type { AddressInfo } from 'node:net';
import { throwawayPostgres } from '../e2e/lib/servers';
import { type Database, openDatabase, rows, sql } from '../src/server/db/client';
import { newSecret } from '../src/server/webhooks/send';
import { openTestDatabase } from '../testkit/server';
import { type ReceivedWebhook, startWebhookReceiver } from '../testkit/webhookReceiver';
import { percentile, type Session, signIn } from './events';
import { type BenchServer, startBenchServer } from './lib/child';
import { hookApp } from './lib/hookApp';
import { numberArg } from './lib/pageApi';
import { ms } from './lib/pairs';
import { check, heading, info } from './lib/report';

const WRITES_PER_SECOND = 10;
const TASKS = 20;

function stringArg(args: readonly string[], name: string): string | undefined {
  const at = args.indexOf(name);
  return at >= 0 ? args[at + 1] : undefined;
}

async function send<T>(
  base: string,
  who: Session,
  method: 'POST' | 'PATCH',
  url: string,
  body: unknown,
): Promise<T> {
  const response = await fetch(`${base}${url}`, {
    method,
    headers: { 'content-type': 'application/json', cookie: who.cookie, 'x-xsrf-token': who.xsrf },
    body: JSON.stringify(body),
  });
  if (response.status >= 400)
    throw new Error(`${method} ${url} answered ${response.status}: ${await response.text()}`);
  return (await response.json()) as T;
}

/** The instances and the database the bench writes its webhooks into. */
interface Setup {
  engine: 'pg' | 'pglite';
  urls: string[];
  database: Database;
  close(): Promise<void>;
}

async function startPg(base: string): Promise<Setup> {
  const fresh = await throwawayPostgres(base);
  // Migrated here once, before the instances start on it.
  const database = await openDatabase({ url: fresh.url });
  const servers: BenchServer[] = [];
  for (let n = 0; n < 2; n++)
    servers.push(await startBenchServer(['outpost', fresh.url, 'bare', 'webhooks']));
  return {
    engine: 'pg',
    urls: servers.map((s) => s.ready.url),
    database,
    async close() {
      for (const s of servers) await s.stop();
      await database.close();
      await fresh.drop();
    },
  };
}

async function startPglite(): Promise<Setup> {
  const database = await openTestDatabase('pglite');
  const app = await hookApp(database);
  await app.listen({ port: 0, host: '127.0.0.1' });
  const port = (app.server.address() as AddressInfo).port;
  return {
    engine: 'pglite',
    urls: [`http://127.0.0.1:${port}`],
    database,
    async close() {
      await app.close();
      await database.close();
    },
  };
}

export async function run(args: string[] = []): Promise<void> {
  const seconds = Math.max(1, numberArg(args, '--seconds', 10));
  const hooks = Math.max(1, numberArg(args, '--hooks', 100));
  const pgBase = stringArg(args, '--database-url') ?? process.env.TEST_DATABASE_URL;
  const setup = pgBase ? await startPg(pgBase) : await startPglite();
  const where =
    setup.engine === 'pg'
      ? 'PostgreSQL, 2 instances'
      : 'PGlite, 1 instance: no --database-url or TEST_DATABASE_URL';
  heading(
    `webhook-delivery: ${hooks} webhooks on one campaign, ${WRITES_PER_SECOND} writes a second for ${seconds} s (${where})`,
  );
  const receiver = await startWebhookReceiver();
  const arrived = new Map<ReceivedWebhook, number>();
  receiver.answer((request) => {
    arrived.set(request, performance.now());
    return { status: 204 };
  });
  try {
    const [first] = setup.urls;
    const phone = '+15555550531';
    const owner = await signIn(first!, phone, 'Hook Owner');
    const campaign = await send<{ id: number }>(first!, owner, 'POST', '/api/items', {
      title: 'Hooked campaign',
      type: 'campaign',
    });
    const tasks: number[] = [];
    for (let n = 0; n < TASKS; n++)
      tasks.push(
        (
          await send<{ id: number }>(first!, owner, 'POST', '/api/items', {
            title: `Task ${n}`,
            type: 'task',
            parent_id: campaign.id,
          })
        ).id,
      );
    const [user] = await rows<{ id: number }>(
      setup.database.db,
      sql`SELECT id FROM users WHERE phone = ${phone}`,
    );
    const secrets = new Map<string, string>();
    for (let n = 0; n < hooks; n++) {
      const secret = newSecret();
      const path = `/hook/${n}`;
      secrets.set(path, secret);
      await setup.database.db.execute(sql`INSERT INTO webhooks (user_id, url, events, campaign_id, secret)
        VALUES (${user!.id}, ${receiver.url + path}, '{*}'::text[], ${campaign.id}, ${secret})`);
    }
    // The edits, on a fixed schedule: edit n leaves at start + n × 100 ms whatever the earlier ones do.
    const writes = seconds * WRITES_PER_SECOND;
    const sentAt: number[] = [];
    const writeMs: number[] = [];
    const start = performance.now() + 50;
    const pending: Promise<void>[] = [];
    for (let n = 0; n < writes; n++) {
      const due = start + (n * 1000) / WRITES_PER_SECOND;
      const wait = due - performance.now();
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      sentAt[n] = performance.now();
      const base = setup.urls[n % setup.urls.length]!;
      pending.push(
        send(base, owner, 'PATCH', `/api/items/${tasks[n % TASKS]}`, { title: `Bench edit ${n}.` }).then(
          () => {
            writeMs[n] = performance.now() - sentAt[n]!;
          },
        ),
      );
    }
    await Promise.all(pending);
    const expected = writes * hooks;
    const deliveryOf = (r: ReceivedWebhook) => /Bench edit (\d+)\./.exec(r.body);
    const counted = () => receiver.received.filter((r) => deliveryOf(r)).length;
    const deadline = Date.now() + 30_000;
    while (counted() < expected && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 50));
    const latencies: number[] = [];
    let verified = 0;
    for (const r of receiver.received) {
      const match = deliveryOf(r);
      if (!match) continue;
      latencies.push(arrived.get(r)! - sentAt[Number(match[1])]!);
      try {
        receiver.verify(r, secrets.get(r.path) ?? '');
        verified++;
      } catch {
        // Counted below as not verified.
      }
    }
    latencies.sort((a, b) => a - b);
    writeMs.sort((a, b) => a - b);
    const lost = expected - latencies.length;
    info('the edits', 'p50 / p95', `${ms(percentile(writeMs, 50))} / ${ms(percentile(writeMs, 95))}`);
    info('deliveries', 'received / expected', `${latencies.length} / ${expected}`);
    info('deliveries', 'signature verified', `${verified} / ${latencies.length}`);
    info(
      'change → delivery',
      'p50 / max',
      `${ms(percentile(latencies, 50))} / ${ms(latencies.at(-1) ?? Number.NaN)}`,
    );
    const enforced = setup.engine === 'pg';
    const p95 = percentile(latencies, 95);
    check({
      subject: `change → delivery, ${hooks} webhooks, ${where}`,
      metric: 'p95',
      value: ms(p95),
      budget: '< 500 ms',
      ok: p95 < 500,
      enforced,
    });
    check({
      subject: `deliveries lost, ${where}`,
      metric: 'lost',
      value: String(lost),
      budget: '0',
      ok: lost === 0 && verified === latencies.length,
      enforced,
    });
  } finally {
    await receiver.close();
    await setup.close();
  }
}
