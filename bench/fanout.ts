/**
 * Issue 54 part 4 'Fan-out that scales': one campaign shared by N members, each with 4 tabs (4 event
 * streams of one sign-in, plain HTTP SSE readers), spread over 3 server instances on PostgreSQL.
 *
 * For each level of streams (default 400, 5,000 and 10,000, i.e. 100, 1,250 and 2,500 members):
 * 1. Fan-out: the owner renames one of the campaign's tasks (on each instance in turn); figure: the
 *    time from sending the write to each stream's `changed` event, p50 / p95 over every delivery of
 *    every write (budget p95 < 1 s), and events lost (= 0).
 * 2. Memory per open stream: the growth of the 3 instances' resident memory while the level's
 *    streams opened, divided by the streams opened (budget < 20 KB).
 * 3. The write itself: the same rename in the shared campaign and in an unshared one of the same
 *    shape, alternating A B A B with the streams open; each shared write's deliveries are awaited
 *    before the next write. Figure: the median per-round ratio shared / unshared (budget ≤ 1.2×).
 *
 * `npm run bench -- fanout [--streams 400,5000,10000] [--writes N] [--rounds N] [--items N]`.
 * A fresh database of its own on TEST_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/test);
 * skipped when PostgreSQL is unreachable. Members, contacts and memberships are written by SQL: the
 * bench measures delivery, not sign-up.
 */
import { readFileSync } from 'node:fs';
import http from 'node:http';
import { loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { findOrCreateUser } from '../src/server/auth/users';
import { sql } from '../src/server/db/client';
import { openTestDatabase } from '../testkit/server';
import { openStream, percentile, type Session, type Stream, signIn } from './events';
import { type BenchServer, startBenchServer } from './lib/child';
import { pgReachable, pgUrl } from './lib/pg';
import { check, fmt, heading, info, skip } from './lib/report';
import { seedCampaignTree } from './lib/seed';
import { median } from './lib/stats';

const FANOUT_BUDGET_MS = 1000;
const WRITE_RATIO_BUDGET = 1.2;
const STREAM_MEMORY_BUDGET_BYTES = 20 * 1024;
const TABS = 4;
const INSTANCES = 3;
const OWNER = { phone: '+15555553900', name: 'Fanout Owner' };
const SOLO = { phone: '+15555553901', name: 'Fanout Solo' };
const memberPhone = (i: number) => `+1555${String(4_000_000 + i)}`;

interface Options {
  levels: number[];
  writes: number;
  rounds: number;
  items: number;
}

function parseOptions(args: string[]): Options {
  const at = (name: string) => {
    const i = args.indexOf(`--${name}`);
    return i >= 0 ? args[i + 1] : undefined;
  };
  const whole = (name: string, fallback: number) => {
    const value = at(name) === undefined ? fallback : Number(at(name));
    if (!Number.isInteger(value) || value < 1) throw new Error(`--${name} takes a whole number above 0`);
    return value;
  };
  const levels = (at('streams') ?? '400,5000,10000').split(',').map(Number);
  if (levels.some((n) => !Number.isInteger(n) || n < TABS))
    throw new Error(`--streams takes whole numbers of at least ${TABS}, separated by commas`);
  return {
    levels: [...levels].sort((a, b) => a - b),
    writes: whole('writes', 10),
    rounds: whole('rounds', 10),
    items: whole('items', 200),
  };
}

const headers = (session: Session) => ({
  'content-type': 'application/json',
  cookie: session.cookie,
  'x-xsrf-token': session.xsrf,
});

/** Renames an item and answers the request's time in ms (the response read whole, as a client does). */
async function rename(base: string, session: Session, id: number, title: string): Promise<number> {
  const started = performance.now();
  const response = await fetch(`${base}/api/items/${id}`, {
    method: 'PATCH',
    headers: headers(session),
    body: JSON.stringify({ title }),
  });
  const text = await response.text();
  const ms = performance.now() - started;
  if (response.status !== 200) throw new Error(`PATCH answered ${response.status}: ${text}`);
  return ms;
}

/** Resident memory of a process in bytes (Linux). */
function rssBytes(pid: number | undefined): number {
  if (pid === undefined) return 0;
  const kb = /VmRSS:\s+(\d+)\s+kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
  return Number(kb ?? 0) * 1024;
}

const ratioText = (ratios: number[]) =>
  `${median(ratios).toFixed(2)}× (${Math.min(...ratios).toFixed(2)}–${Math.max(...ratios).toFixed(2)}×)`;

export async function run(args: string[]): Promise<void> {
  const options = parseOptions(args);
  const problem = await pgReachable();
  if (problem) {
    skip('fanout on PostgreSQL', problem);
    return;
  }
  pgUrl();
  const load0 = loadavg();
  const membersNeeded = Math.ceil(Math.max(...options.levels) / TABS);
  const database = await openTestDatabase('pg');
  const servers: BenchServer[] = [];
  const streams: Stream[] = [];
  const agent = new http.Agent({ keepAlive: false, maxSockets: Number.POSITIVE_INFINITY });
  try {
    const connectionString = database.pool?.options.connectionString;
    if (!connectionString) throw new Error('the throwaway database has no connection string');
    const db = database.db;
    const owner = await findOrCreateUser(db, OWNER.phone, OWNER.name);
    const solo = await findOrCreateUser(db, SOLO.phone, SOLO.name);
    await db.execute(sql`
      INSERT INTO users (phone, name, created_at, updated_at)
      SELECT '+1555' || (4000000 + n)::text, 'Member ' || (n + 1)::text, now(), now()
      FROM generate_series(0, ${membersNeeded - 1}) n`);
    const shared = await seedCampaignTree(db, owner.id, { items: options.items, title: 'Shared campaign' });
    const own = await seedCampaignTree(db, solo.id, { items: options.items, title: 'Solo campaign' });
    await db.execute(sql`
      INSERT INTO campaign_members (campaign_id, user_id, role, added_by)
      SELECT ${shared.campaignId}, id, 'editor', ${owner.id} FROM users WHERE phone LIKE '+15554%'`);
    console.log(
      `fanout: one campaign shared by up to ${membersNeeded.toLocaleString('en-US')} members × ${TABS} tabs on ${INSTANCES} instances (PostgreSQL, throwaway database)`,
    );

    servers.push(await startBenchServer(['outpost', connectionString, 'bare']));
    for (let n = 1; n < INSTANCES; n++)
      servers.push(await startBenchServer(['outpost', connectionString, 'bare']));
    const urls = servers.map((s) => s.ready.url);
    const at = (i: number) => urls[i % urls.length]!;
    const ownerSession = await signIn(at(0), OWNER.phone, OWNER.name);
    const soloSession = await signIn(at(0), SOLO.phone, SOLO.name);
    const task = (list: number[], n: number) => list[n % list.length]!;
    let serial = 0;
    const sharedWrite = async (n: number) => {
      const arrivals = Promise.all(streams.map((s) => s.next(30_000).catch(() => Number.NaN)));
      const sent = performance.now();
      const ms = await rename(at(n), ownerSession, task(shared.taskIds, n), `Shared package ${++serial}`);
      return { ms, delays: (await arrivals).map((t) => t - sent) };
    };

    let members = 0;
    // Memory is read against the instances before any stream opened: a level's own growth is too
    // small beside the garbage collector's swings at 400 streams.
    await new Promise((resolve) => setTimeout(resolve, 2000));
    const rssBefore = servers.map((s) => rssBytes(s.pid));
    for (const level of options.levels) {
      const want = Math.ceil(level / TABS);
      for (let i = members; i < want; i += 25) {
        const batch = Array.from({ length: Math.min(25, want - i) }, (_, k) => i + k);
        const opened = await Promise.all(
          batch.map(async (n) => {
            const session = await signIn(at(n), memberPhone(n), `Member ${n + 1}`);
            // A person's tabs land on different instances, as a balancer spreads them.
            return Promise.all(
              Array.from({ length: TABS }, (_, tab) => openStream(at(n + tab), session, agent)),
            );
          }),
        );
        streams.push(...opened.flat());
      }
      members = want;
      // Let the instances settle (the opening queries, the garbage they left) before reading memory.
      await new Promise((resolve) => setTimeout(resolve, 2000));
      const grown = servers.reduce((sum, s, i) => sum + rssBytes(s.pid) - rssBefore[i]!, 0);
      const perStream = grown / Math.max(1, streams.length);
      const subject = `${members.toLocaleString('en-US')} members × ${TABS} = ${streams.length.toLocaleString('en-US')} streams`;

      heading(`== ${subject}: a rename → every stream (${options.writes} writes)`);
      for (let n = 0; n < INSTANCES; n++) await sharedWrite(n);
      const delays: number[] = [];
      let lost = 0;
      for (let n = 0; n < options.writes; n++) {
        const write = await sharedWrite(n);
        const arrived = write.delays.filter((d) => Number.isFinite(d));
        lost += write.delays.length - arrived.length;
        delays.push(...arrived);
      }
      delays.sort((a, b) => a - b);
      const p95 = percentile(delays, 95);
      info(subject, 'p50 delivery', fmt.ms(percentile(delays, 50)));
      check({
        subject,
        metric: 'p95 delivery',
        value: fmt.ms(p95),
        budget: `< ${FANOUT_BUDGET_MS} ms`,
        ok: p95 < FANOUT_BUDGET_MS,
      });
      check({
        subject,
        metric: 'events lost',
        value: `${lost} of ${options.writes * streams.length}`,
        budget: '= 0',
        ok: lost === 0,
      });
      check({
        subject,
        metric: 'memory per open stream (RSS growth since none)',
        value: `${(perStream / 1024).toFixed(1)} KB`,
        budget: `< ${STREAM_MEMORY_BUDGET_BYTES / 1024} KB`,
        ok: perStream < STREAM_MEMORY_BUDGET_BYTES,
      });

      const sharedMs: number[] = [];
      const soloMs: number[] = [];
      for (let n = 0; n < INSTANCES; n++)
        await rename(at(n), soloSession, task(own.taskIds, n), `Solo package ${++serial}`);
      for (let n = 0; n < options.rounds; n++) {
        sharedMs.push((await sharedWrite(n)).ms);
        soloMs.push(await rename(at(n), soloSession, task(own.taskIds, n), `Solo package ${++serial}`));
      }
      const ratios = sharedMs.map((ms, i) => ms / soloMs[i]!);
      info(
        subject,
        'rename, shared / unshared medians',
        `${fmt.ms(median(sharedMs))} / ${fmt.ms(median(soloMs))}`,
      );
      check({
        subject,
        metric: `write shared / unshared (${ratios.length} A B rounds)`,
        value: ratioText(ratios),
        budget: `≤ ${WRITE_RATIO_BUDGET}×`,
        ok: median(ratios) <= WRITE_RATIO_BUDGET,
      });
    }
    const load1 = loadavg();
    console.log(
      `  load average (1 min) ${load0[0]?.toFixed(2)} before, ${load1[0]?.toFixed(2)} after, on ${INSTANCES} instances and this process`,
    );
  } finally {
    for (const stream of streams) stream.close();
    agent.destroy();
    for (const server of servers) await server.stop();
    await database.close();
  }
}
