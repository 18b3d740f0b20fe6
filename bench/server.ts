/**
 * The server benchmark: the real app, in its own process, on a real loopback port, loaded by
 * autocannon from this process, on PGlite and on PostgreSQL, against a bare Fastify hello-world
 * (also in its own process) as the ceiling. Budgets are stated for PostgreSQL; PGlite figures are
 * shown as information.
 *
 *   npm run bench -- server [pglite] [pg]      BENCH_DURATION=10 BENCH_WARMUP=2 (seconds)
 */
import os from 'node:os';
import autocannon from 'autocannon';
import pg from 'pg';
import { openTestDatabase } from '../testkit/server';
import { type BenchServer, startBenchServer } from './lib/child';
import { ownCpuSeconds, postgresCpuSeconds, processCpuSeconds } from './lib/cpu';
import { check, fmt, heading, info, skip } from './lib/report';
import { BENCH_NAME, BENCH_PHONE } from './lib/seed';

const CONNECTIONS = 50;
const DURATION = positive(process.env.BENCH_DURATION, 10);
const WARMUP = positive(process.env.BENCH_WARMUP, 2, true);
const DEFAULT_PG_URL = 'postgres://postgres@127.0.0.1:5432/test';

const BUDGET = {
  p99Ms: 25,
  itemsShareOfCeiling: 0.3,
  syncShareOfCeiling: 0.5,
  syncBodyBytes: 1024,
} as const;

function positive(raw: string | undefined, fallback: number, zeroOk = false): number {
  const value = Number(raw);
  if (raw === undefined || raw === '' || !Number.isFinite(value)) return fallback;
  return value > 0 || (zeroOk && value === 0) ? value : fallback;
}

interface Load {
  rps: number;
  p50: number;
  p99: number;
  requests: number;
  errors: number;
  timeouts: number;
  non2xx: number;
  statusCodes: string;
  /** CPU microseconds per request in the server process, its PostgreSQL backends and autocannon. */
  cpu: { server: number | null; postgres: number | null; loadGenerator: number };
}

/** Whose CPU time to attribute to the requests: the server's process and, on PostgreSQL, its database. */
interface CpuTarget {
  serverPid: number | undefined;
  database: string | null;
}

function cpuSnapshot(target: CpuTarget) {
  return {
    server: target.serverPid === undefined ? null : processCpuSeconds(target.serverPid),
    postgres: target.database === null ? null : postgresCpuSeconds(target.database),
    self: ownCpuSeconds(),
  };
}

/** A warm-up (not recorded, lets V8 and the database caches settle) and then the measured run. */
async function measure(options: autocannon.Options, target: CpuTarget): Promise<Load> {
  if (WARMUP > 0) await autocannon({ ...options, connections: CONNECTIONS, duration: WARMUP });
  const before = cpuSnapshot(target);
  const r = await autocannon({ ...options, connections: CONNECTIONS, duration: DURATION });
  const after = cpuSnapshot(target);
  const perRequest = (a: number | null, b: number | null) =>
    a === null || b === null || r.requests.total === 0 ? null : ((b - a) / r.requests.total) * 1e6;
  const statusCodes = Object.entries(r.statusCodeStats ?? {})
    .map(([code, s]) => `${code}×${s.count ?? 0}`)
    .join(' ');
  return {
    rps: r.requests.average,
    p50: r.latency.p50,
    p99: r.latency.p99,
    requests: r.requests.total,
    errors: r.errors,
    timeouts: r.timeouts,
    non2xx: r.non2xx,
    statusCodes,
    cpu: {
      server: perRequest(before.server, after.server),
      postgres: perRequest(before.postgres, after.postgres),
      loadGenerator: perRequest(before.self, after.self) ?? 0,
    },
  };
}

const micros = (v: number | null) => (v === null ? 'n/a' : `${Math.round(v)} µs`);

function printLoad(subject: string, load: Load): void {
  heading(`${subject}`);
  console.log(
    `  p50 ${fmt.ms(load.p50)}  p99 ${fmt.ms(load.p99)}  ${fmt.rps(load.rps)}  ` +
      `${load.requests} requests  errors ${load.errors}  timeouts ${load.timeouts}  non-2xx ${load.non2xx}` +
      `  [${load.statusCodes}]`,
  );
  console.log(
    `  CPU per request: server process ${micros(load.cpu.server)}, PostgreSQL backends ${micros(load.cpu.postgres)}, ` +
      `autocannon ${micros(load.cpu.loadGenerator)}`,
  );
}

/** Figures every run reports: a run with failed requests measured something else than intended. */
function commonFigures(subject: string, load: Load, enforced: boolean): void {
  info(subject, 'p50 latency', fmt.ms(load.p50));
  check({
    subject,
    metric: 'errors + timeouts',
    value: fmt.count(load.errors + load.timeouts),
    budget: '= 0',
    ok: load.errors + load.timeouts === 0,
    enforced,
  });
  check({
    subject,
    metric: 'non-2xx',
    value: fmt.count(load.non2xx),
    budget: '= 0',
    ok: load.non2xx === 0,
    enforced,
  });
}

interface Session {
  cookie: string;
  xsrf: string;
}

function collectCookies(response: Response, jar: Map<string, string>): void {
  for (const line of response.headers.getSetCookie()) {
    const pair = line.split(';')[0] ?? '';
    const eq = pair.indexOf('=');
    if (eq > 0) jar.set(pair.slice(0, eq), pair.slice(eq + 1));
  }
}

/** Signs in as the benchmark user the way a browser does: anti-forgery cookie, then login. */
async function signIn(base: string): Promise<Session> {
  const jar = new Map<string, string>();
  const first = await fetch(`${base}/sanctum/csrf-cookie`);
  collectCookies(first, jar);
  const header = () => [...jar].map(([k, v]) => `${k}=${v}`).join('; ');
  const login = await fetch(`${base}/api/login`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      cookie: header(),
      'x-xsrf-token': decodeURIComponent(jar.get('XSRF-TOKEN') ?? ''),
    },
    body: JSON.stringify({ phone: BENCH_PHONE, name: BENCH_NAME }),
  });
  if (login.status !== 200) throw new Error(`login answered ${login.status}: ${await login.text()}`);
  collectCookies(login, jar);
  return { cookie: header(), xsrf: decodeURIComponent(jar.get('XSRF-TOKEN') ?? '') };
}

/** Pages through /api/sync from the bootstrap until has_more is false: the current cursor. */
async function currentCursor(base: string, session: Session): Promise<{ cursor: string; items: number }> {
  let cursor = '';
  let items = 0;
  for (;;) {
    const response = await fetch(`${base}/api/sync?cursor=${encodeURIComponent(cursor)}`, {
      headers: { cookie: session.cookie },
    });
    if (response.status !== 200) throw new Error(`sync answered ${response.status}`);
    const page = (await response.json()) as { items: unknown[]; cursor: string; has_more: boolean };
    items += page.items.length;
    cursor = page.cursor;
    if (!page.has_more) return { cursor, items };
  }
}

async function measureCeiling(hello: BenchServer): Promise<Load> {
  const load = await measure({ url: `${hello.ready.url}/` }, { serverPid: hello.pid, database: null });
  printLoad('Ceiling: bare Fastify hello-world (child process)', load);
  info('ceiling', 'req/s', fmt.rps(load.rps));
  info('ceiling', 'p99 latency', fmt.ms(load.p99));
  commonFigures('ceiling', load, true);
  return load;
}

type Engine = 'pglite' | 'pg';

async function benchEngine(engine: Engine, target: string, ceiling: Load): Promise<void> {
  const database = engine === 'pg' ? decodeURIComponent(new URL(target).pathname.slice(1)) : null;
  const label = engine === 'pg' ? 'PostgreSQL' : 'PGlite';
  const enforced = engine === 'pg';
  const started = Date.now();
  const server = await startBenchServer(['outpost', target]);
  try {
    const base = server.ready.url;
    const taskIds = server.ready.taskIds ?? [];
    console.log(
      `\n== ${label}: ${server.ready.total} items seeded and server up in ${((Date.now() - started) / 1000).toFixed(1)} s (pid ${server.pid}, ${base})`,
    );
    if (taskIds.length === 0) throw new Error('the seed produced no tasks');
    const session = await signIn(base);
    const cpu: CpuTarget = { serverPid: server.pid, database };

    // Not a budget: the cheapest authenticated route (one session lookup), the floor every other
    // route starts from, so the figures below can be read against it.
    const me = await measure({ url: `${base}/api/me`, headers: { cookie: session.cookie } }, cpu);
    const meSubject = `${label} GET /api/me (session lookup only, reference)`;
    printLoad(meSubject, me);
    info(meSubject, 'req/s', `${fmt.rps(me.rps)} (${fmt.pct(me.rps / ceiling.rps)} of ceiling)`);
    info(meSubject, 'p99 latency', fmt.ms(me.p99));
    commonFigures(meSubject, me, enforced);

    // GET /api/items?type=todo&page=3
    const itemsPath = '/api/items?type=todo&page=3';
    const probe = await fetch(`${base}${itemsPath}`, { headers: { cookie: session.cookie } });
    const listed = (await probe.json()) as { data?: unknown[]; total?: number };
    if (probe.status !== 200 || listed.data?.length !== 20) {
      throw new Error(`${itemsPath} answered ${probe.status} with ${listed.data?.length} items`);
    }
    const items = await measure({ url: `${base}${itemsPath}`, headers: { cookie: session.cookie } }, cpu);
    const itemsSubject = `${label} GET ${itemsPath}`;
    printLoad(`${itemsSubject} (total ${listed.total} todos)`, items);
    const itemsFloor = ceiling.rps * BUDGET.itemsShareOfCeiling;
    check({
      subject: itemsSubject,
      metric: 'req/s',
      value: fmt.rps(items.rps),
      budget: `>= ${fmt.pct(BUDGET.itemsShareOfCeiling)} of ceiling = ${fmt.rps(itemsFloor)} (is ${fmt.pct(items.rps / ceiling.rps)})`,
      ok: items.rps >= itemsFloor,
      enforced,
    });
    check({
      subject: itemsSubject,
      metric: 'p99 latency',
      value: fmt.ms(items.p99),
      budget: `< ${BUDGET.p99Ms} ms`,
      ok: items.p99 < BUDGET.p99Ms,
      enforced,
    });
    commonFigures(itemsSubject, items, enforced);

    // GET /api/sync with the current cursor and nothing changed since.
    const { cursor, items: synced } = await currentCursor(base, session);
    const syncPath = `/api/sync?cursor=${encodeURIComponent(cursor)}`;
    const syncProbe = await fetch(`${base}${syncPath}`, { headers: { cookie: session.cookie } });
    const syncBody = await syncProbe.text();
    const syncBytes = Buffer.byteLength(syncBody);
    const syncPage = JSON.parse(syncBody) as { items: unknown[]; has_more: boolean };
    if (syncProbe.status !== 200 || syncPage.items.length !== 0 || syncPage.has_more) {
      throw new Error(`sync with the current cursor answered ${syncProbe.status}: ${syncBody.slice(0, 200)}`);
    }
    const sync = await measure({ url: `${base}${syncPath}`, headers: { cookie: session.cookie } }, cpu);
    const syncSubject = `${label} GET /api/sync (current cursor, no changes)`;
    printLoad(`${syncSubject} (bootstrap pulled ${synced} items)`, sync);
    check({
      subject: syncSubject,
      metric: 'response body',
      value: fmt.bytes(syncBytes),
      budget: `< ${BUDGET.syncBodyBytes} B`,
      ok: syncBytes < BUDGET.syncBodyBytes,
      enforced,
    });
    const syncFloor = ceiling.rps * BUDGET.syncShareOfCeiling;
    check({
      subject: syncSubject,
      metric: 'req/s',
      value: fmt.rps(sync.rps),
      budget: `>= ${fmt.pct(BUDGET.syncShareOfCeiling)} of ceiling = ${fmt.rps(syncFloor)} (is ${fmt.pct(sync.rps / ceiling.rps)})`,
      ok: sync.rps >= syncFloor,
      enforced,
    });
    info(syncSubject, 'p99 latency', fmt.ms(sync.p99));
    commonFigures(syncSubject, sync, enforced);

    // POST /api/items: a todo under a task spread over all tasks, a fresh Idempotency-Key each time.
    let counter = 0;
    const runId = Date.now().toString(36);
    const post = await measure(
      {
        url: base,
        requests: [
          {
            method: 'POST',
            path: '/api/items',
            setupRequest: (request) => {
              const n = counter++;
              // A large prime stride visits the tasks in a scattered order, like many users would.
              const parent = taskIds[(n * 7919) % taskIds.length];
              return {
                ...request,
                method: 'POST',
                path: '/api/items',
                headers: {
                  'content-type': 'application/json',
                  cookie: session.cookie,
                  'x-xsrf-token': session.xsrf,
                  'idempotency-key': `bench-${runId}-${n}`,
                },
                body: JSON.stringify({ title: `Bench todo ${n}`, type: 'todo', parent_id: parent }),
              };
            },
          },
        ],
      },
      cpu,
    );
    const postSubject = `${label} POST /api/items (todo, unique Idempotency-Key)`;
    printLoad(`${postSubject} (${counter} sent incl. warm-up)`, post);
    info(postSubject, 'req/s', fmt.rps(post.rps));
    check({
      subject: postSubject,
      metric: 'p99 latency',
      value: fmt.ms(post.p99),
      budget: `< ${BUDGET.p99Ms} ms`,
      ok: post.p99 < BUDGET.p99Ms,
      enforced,
    });
    commonFigures(postSubject, post, enforced);
  } finally {
    await server.stop();
  }
}

/** Null when PostgreSQL at `url` answers, else the reason it cannot be used. */
async function reachable(url: string): Promise<string | null> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3000 });
  try {
    await client.connect();
    await client.query('SELECT 1');
    return null;
  } catch (error) {
    return (error as Error).message;
  } finally {
    await client.end().catch(() => {});
  }
}

export async function run(args: string[]): Promise<void> {
  const wanted = args.filter((a): a is Engine => a === 'pglite' || a === 'pg');
  const engines: Engine[] = wanted.length > 0 ? wanted : ['pglite', 'pg'];
  console.log(
    `server benchmark: autocannon ${CONNECTIONS} connections, ${DURATION} s per run after a ${WARMUP} s warm-up ` +
      '(BENCH_DURATION, BENCH_WARMUP); servers in child processes on 127.0.0.1',
  );
  // Other work on the machine skews every figure here; the load average says how quiet it was.
  const load = () =>
    os
      .loadavg()
      .map((v) => v.toFixed(2))
      .join(' ');
  console.log(`load average before: ${load()} (${os.cpus().length} cores)`);
  const hello = await startBenchServer(['hello']);
  try {
    for (const engine of engines) {
      if (engine === 'pglite') {
        const ceiling = await measureCeiling(hello);
        await benchEngine('pglite', 'pglite', ceiling);
        continue;
      }
      const url = process.env.TEST_DATABASE_URL || DEFAULT_PG_URL;
      const problem = await reachable(url);
      if (problem) {
        heading('== PostgreSQL');
        skip('PostgreSQL', `skipped: ${url} is unreachable (${problem}); set TEST_DATABASE_URL`);
        continue;
      }
      process.env.TEST_DATABASE_URL = url;
      const database = await openTestDatabase('pg');
      try {
        const connectionString = database.pool?.options.connectionString;
        if (!connectionString) throw new Error('the throwaway database has no connection string');
        const ceiling = await measureCeiling(hello);
        await benchEngine('pg', connectionString, ceiling);
      } finally {
        await database.close();
      }
    }
  } finally {
    await hello.stop();
    console.log(`\nload average after: ${load()}`);
  }
}
