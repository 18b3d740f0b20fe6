/**
 * Issue 30 'Scale': a shared campaign at 200 members on PostgreSQL, three server instances.
 *
 * 1. Fan-out: the owner of a 10,000-item campaign shared with 200 members renames one of its tasks
 *    (PATCH, on each instance in turn); every member holds 2 event streams on two of the 3
 *    instances, 400 in all. Figure: time from sending the write to each stream's `changed` event,
 *    p50 and p95 over every delivery of every write (budget p95 < 1 s), and events lost (= 0).
 * 2. The write itself: the same PATCH in the shared campaign (owner O) and in an unshared one of the
 *    same shape (owner R), alternating A B A B with the streams open; each shared write's deliveries
 *    are awaited before the next write, so neither side runs beside the other's fan-out. Figure: the
 *    median of the per-round ratios shared/unshared with their spread (budget ≤ 1.2×).
 * 3. First sync: a member's full pull (the client's: first page with count=1, then page after page
 *    to has_more false) of the shared campaign, against R's full pull of their own campaign of the
 *    same shape, alternating. Each sees exactly 10,000 items and the other's 10,000 sit in the same
 *    table, so both walk the same rows. Figure: median per-round ratio with spread (budget ≤ 1.3×).
 *
 * `npm run bench -- shared-scale [--writes N] [--rounds N] [--syncs N] [--members N] [--items N]`:
 * fan-out writes (10), write pairs (20), sync pairs (3), members (200), items per campaign (10,000).
 * A fresh database of its own on TEST_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/test);
 * skipped when PostgreSQL is unreachable.
 */
import http from 'node:http';
import { loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { findOrCreateUser } from '../src/server/auth/users';
import { sql } from '../src/server/db/client';
import type { SyncPage } from '../src/shared/item';
import { openTestDatabase } from '../testkit/server';
import { openStream, percentile, type Session, type Stream, signIn } from './events';
import { type BenchServer, startBenchServer } from './lib/child';
import { pgReachable, pgUrl } from './lib/pg';
import { check, fmt, heading, info, printAlternatingSummary, skip } from './lib/report';
import { seedCampaignTree } from './lib/seed';
import { median } from './lib/stats';

const FANOUT_BUDGET_MS = 1000;
const WRITE_RATIO_BUDGET = 1.2;
const SYNC_RATIO_BUDGET = 1.3;
const OWNER = { phone: '+15555551900', name: 'Shared Owner' };
const SOLO = { phone: '+15555551901', name: 'Solo Owner' };
const memberPhone = (i: number) => `+1555555${String(2000 + i)}`;

interface Options {
  writes: number;
  rounds: number;
  syncs: number;
  members: number;
  items: number;
}

function parseOptions(args: string[]): Options {
  const flag = (name: string, fallback: number) => {
    const at = args.indexOf(`--${name}`);
    const value = at >= 0 ? Number(args[at + 1]) : fallback;
    if (!Number.isInteger(value) || value < 1) throw new Error(`--${name} takes a whole number above 0`);
    return value;
  };
  return {
    writes: flag('writes', 10),
    rounds: flag('rounds', 20),
    syncs: flag('syncs', 3),
    members: flag('members', 200),
    items: flag('items', 10_000),
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

/** A fresh device's pull, as src/client/data/sync/pull.ts asks it (one page after the other). */
async function firstSync(
  base: string,
  session: Session,
): Promise<{ ms: number; pages: number; rows: number; items: number }> {
  const started = performance.now();
  const seen = new Set<number>();
  let cursor = '';
  let pages = 0;
  let received = 0;
  for (;;) {
    const count = pages === 0 ? '&count=1' : '';
    const response = await fetch(`${base}/api/sync?cursor=${encodeURIComponent(cursor)}${count}`, {
      headers: { cookie: session.cookie },
    });
    if (response.status !== 200) throw new Error(`GET /api/sync answered ${response.status}`);
    const page = (await response.json()) as SyncPage;
    pages += 1;
    received += page.items.length;
    for (const item of page.items) seen.add(item.id);
    cursor = page.cursor;
    if (!page.has_more) break;
  }
  return { ms: performance.now() - started, pages, rows: received, items: seen.size };
}

const ratioText = (ratios: number[]) =>
  `${median(ratios).toFixed(2)}× (${Math.min(...ratios).toFixed(2)}–${Math.max(...ratios).toFixed(2)}×)`;

/** Users, two campaigns of the same shape and the owner's mutual contacts, by SQL before any server starts. */
async function seed(
  db: Awaited<ReturnType<typeof openTestDatabase>>['db'],
  options: Options,
): Promise<{
  memberIds: number[];
  shared: { id: number; tasks: number[] };
  solo: { id: number; tasks: number[] };
}> {
  const owner = await findOrCreateUser(db, OWNER.phone, OWNER.name);
  const solo = await findOrCreateUser(db, SOLO.phone, SOLO.name);
  const phones = Array.from({ length: options.members }, (_, i) => memberPhone(i));
  const memberIds: number[] = [];
  for (const [i, phone] of phones.entries()) {
    memberIds.push((await findOrCreateUser(db, phone, `Member ${i + 1}`)).id);
  }
  // Mutual contacts both ways, as POST /api/contacts/sync would store them: adding requires them.
  await db.execute(sql`
    INSERT INTO contacts (user_id, contact_phone)
    SELECT ${owner.id}, p FROM unnest(string_to_array(${phones.join(',')}, ',')) p
    UNION ALL SELECT m, ${owner.phone} FROM unnest(string_to_array(${memberIds.join(',')}, ',')::int[]) m`);
  // The shared one first: each user's pull then walks the other's 10,000 invisible rows too, one
  // before and one after its own, the same work on both sides.
  const shared = await seedCampaignTree(db, owner.id, { items: options.items, title: 'Shared campaign' });
  const own = await seedCampaignTree(db, solo.id, { items: options.items, title: 'Solo campaign' });
  return {
    memberIds,
    shared: { id: shared.campaignId, tasks: shared.taskIds },
    solo: { id: own.campaignId, tasks: own.taskIds },
  };
}

export async function run(args: string[]): Promise<void> {
  const options = parseOptions(args);
  const subject = `${options.members} members, ${options.members * 2} streams, 3 instances`;
  const problem = await pgReachable();
  if (problem) {
    skip('shared-scale on PostgreSQL', problem);
    return;
  }
  pgUrl();
  const load0 = loadavg();
  const started = Date.now();
  const database = await openTestDatabase('pg');
  const servers: BenchServer[] = [];
  const streams: Stream[] = [];
  const agent = new http.Agent({ keepAlive: false, maxSockets: Number.POSITIVE_INFINITY });
  try {
    const connectionString = database.pool?.options.connectionString;
    if (!connectionString) throw new Error('the throwaway database has no connection string');
    console.log(
      `shared-scale: ${options.items.toLocaleString('en-US')}-item campaigns, ${subject}, on a throwaway PostgreSQL database`,
    );
    const { memberIds, shared, solo } = await seed(database.db, options);
    // The database is migrated already; the first start still goes alone so the others find it warm.
    servers.push(await startBenchServer(['outpost', connectionString, 'bare']));
    servers.push(
      ...(await Promise.all([
        startBenchServer(['outpost', connectionString, 'bare']),
        startBenchServer(['outpost', connectionString, 'bare']),
      ])),
    );
    const urls = servers.map((s) => s.ready.url);
    const at = (i: number) => urls[i % urls.length]!;

    const owner = await signIn(at(0), OWNER.phone, OWNER.name);
    const soloOwner = await signIn(at(0), SOLO.phone, SOLO.name);
    const members: Session[] = [];
    for (let i = 0; i < options.members; i += 20) {
      const batch = Array.from({ length: Math.min(20, options.members - i) }, (_, k) => i + k);
      members.push(
        ...(await Promise.all(batch.map((n) => signIn(at(n), memberPhone(n), `Member ${n + 1}`)))),
      );
    }
    // Through the API, as the Share dialog adds them: activity, notification and all.
    for (const id of memberIds) {
      const response = await fetch(`${at(0)}/api/campaigns/${shared.id}/members`, {
        method: 'POST',
        headers: headers(owner),
        body: JSON.stringify({ user_id: id, role: 'editor' }),
      });
      if (response.status !== 201) throw new Error(`adding a member answered ${response.status}`);
    }
    // Two tabs each, on two different instances; opened in batches as people arrive.
    for (let i = 0; i < options.members; i += 50) {
      const batch = Array.from({ length: Math.min(50, options.members - i) }, (_, k) => i + k);
      streams.push(
        ...(await Promise.all(
          batch.flatMap((n) => [
            openStream(at(n), members[n]!, agent),
            openStream(at(n + 1), members[n]!, agent),
          ]),
        )),
      );
    }
    const task = (list: number[], n: number) => list[n % list.length]!;
    // Every title new: a rename to the title an item already has may change nothing and announce nothing.
    let serial = 0;
    /** The owner's rename on instance n % 3 and every stream's arrival time (NaN when lost). */
    const sharedWrite = async (n: number) => {
      const arrivals = Promise.all(streams.map((s) => s.next().catch(() => Number.NaN)));
      const sent = performance.now();
      const ms = await rename(at(n), owner, task(shared.tasks, n), `Shared package ${++serial}`);
      return { ms, delays: (await arrivals).map((t) => t - sent) };
    };

    heading(
      `== 1. A rename in the shared campaign → ${streams.length} event streams (${options.writes} writes)`,
    );
    // Warm-up: prepared statements, pools and JIT on every instance.
    for (let n = 0; n < 3; n++) await sharedWrite(n);
    const delays: number[] = [];
    const lastDelivery: number[] = [];
    let lost = 0;
    for (let n = 0; n < options.writes; n++) {
      const write = await sharedWrite(n);
      const arrived = write.delays.filter((d) => Number.isFinite(d));
      lost += write.delays.length - arrived.length;
      delays.push(...arrived);
      lastDelivery.push(Math.max(...arrived));
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
    info(subject, 'median last delivery', fmt.ms(median(lastDelivery)));
    check({
      subject,
      metric: 'events lost',
      value: `${lost} of ${options.writes * streams.length}`,
      budget: '= 0',
      ok: lost === 0,
    });

    heading(
      `== 2. The rename itself: shared (${options.members} members) vs unshared, ${options.rounds} pairs`,
    );
    const sharedMs: number[] = [];
    const soloMs: number[] = [];
    for (let n = 0; n < 3; n++)
      await rename(at(n), soloOwner, task(solo.tasks, n), `Solo package ${++serial}`);
    for (let n = 0; n < options.rounds; n++) {
      // The same instance for both halves of a pair; the instance moves on each round.
      sharedMs.push((await sharedWrite(n)).ms);
      soloMs.push(await rename(at(n), soloOwner, task(solo.tasks, n), `Solo package ${++serial}`));
    }
    const writeRatios = sharedMs.map((ms, i) => ms / soloMs[i]!);
    check({
      subject: 'PATCH title, shared / unshared',
      metric: `ratio (${writeRatios.length} rounds)`,
      value: ratioText(writeRatios),
      budget: `≤ ${WRITE_RATIO_BUDGET}×`,
      ok: median(writeRatios) <= WRITE_RATIO_BUDGET,
    });
    for (const stream of streams.splice(0)) stream.close();

    heading(
      `== 3. First sync: a member's of the shared campaign vs an owner's of their own, ${options.syncs} pairs`,
    );
    const member = await signIn(at(0), memberPhone(0), 'Member 1');
    // Warm-up, and the sanity check: both must pull exactly their campaign.
    const firstMember = await firstSync(at(0), member);
    const firstSolo = await firstSync(at(0), soloOwner);
    // A transaction open elsewhere in the cluster holds the horizon back and a row with it: say so.
    if (firstMember.items !== options.items || firstSolo.items !== options.items) {
      console.warn(
        `  note: the first syncs pulled ${firstMember.items} (member) and ${firstSolo.items} (owner) items, not ${options.items}`,
      );
    }
    const memberSyncs: Awaited<ReturnType<typeof firstSync>>[] = [];
    const soloSyncs: Awaited<ReturnType<typeof firstSync>>[] = [];
    for (let n = 0; n < options.syncs; n++) {
      memberSyncs.push(await firstSync(at(0), member));
      soloSyncs.push(await firstSync(at(0), soloOwner));
    }
    const syncRatios = memberSyncs.map((s, i) => s.ms / soloSyncs[i]!.ms);
    check({
      subject: `first sync of ${options.items.toLocaleString('en-US')}, member / owner`,
      metric: `ratio (${syncRatios.length} rounds)`,
      value: ratioText(syncRatios),
      budget: `≤ ${SYNC_RATIO_BUDGET}×`,
      ok: median(syncRatios) <= SYNC_RATIO_BUDGET,
    });
    // Rows sent beyond the items seen: the same item twice in one pull.
    info('member first sync', 'pages, rows sent', `${firstMember.pages}, ${firstMember.rows}`);
    info('owner first sync', 'pages, rows sent', `${firstSolo.pages}, ${firstSolo.rows}`);

    const ms = (values: number[]) => fmt.ms(median(values));
    printAlternatingSummary(
      'shared-scale, medians (app = shared campaign, reference = unshared; ratio = median per-round, min–max)',
      [
        [
          'rename (PATCH)',
          ms(sharedMs),
          ms(soloMs),
          ratioText(writeRatios),
          `≤ ${WRITE_RATIO_BUDGET}×`,
          median(writeRatios) <= WRITE_RATIO_BUDGET ? 'PASS' : 'FAIL',
        ],
        [
          'first sync',
          ms(memberSyncs.map((s) => s.ms)),
          ms(soloSyncs.map((s) => s.ms)),
          ratioText(syncRatios),
          `≤ ${SYNC_RATIO_BUDGET}×`,
          median(syncRatios) <= SYNC_RATIO_BUDGET ? 'PASS' : 'FAIL',
        ],
      ],
      load0,
      started,
    );
  } finally {
    for (const stream of streams) stream.close();
    agent.destroy();
    for (const server of servers) await server.stop();
    await database.close();
  }
}
