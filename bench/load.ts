/**
 * Writes at the database's pace: `npm run bench -- load [pg] [pglite] [--rounds 3] [--seconds 5]
 * [--writers-seconds 60]`.
 *
 * For each engine the real app runs in a child process on a seeded database (bench/lib/seed.ts) and
 * autocannon sends it one kind of write at 50 connections: creates (a todo under a random task),
 * PATCHes (a task's description) and complete/reopen of a todo (with roll-up into its task and
 * campaign), every one with an Idempotency-Key. The ceiling is the database alone running the very
 * statements those requests send: they are captured from the same app in this process (drizzle's
 * logger) on a second database seeded alike, then replayed with only the Idempotency-Key made unique
 * by `pg` clients in a tight loop with named prepared statements (the database's best): on PostgreSQL
 * as many connections as the app's pool, on PGlite one in-process connection over the engine (its
 * node-postgres adapter), one transaction after the other; 50 clients share those connections, as
 * the app's 50 share its pool, and a ceiling request's time includes its wait for one. The embedded
 * engine's upkeep (db/autovacuum.ts) runs between the ceiling's transactions as it does in the app. On PGlite the same statements are also replayed unnamed
 * through the engine's own query() (each one parsed and planned again, as drizzle's PGlite driver sent
 * them), for reference. App and ceiling runs alternate (A B A B …), so a noisy machine slows both
 * alike; the figures are the medians of each side and of the per-round ratios, with their spread.
 *
 * Then on PGlite, 50 mixed writers (creates, PATCHes, completes in turn) for --writers-seconds, and
 * the longest any request waited, measured here at the client: a request the server leaves unread in
 * its socket queue waits too, and the server's own timings never see that.
 */
import { randomUUID } from 'node:crypto';
import os from 'node:os';
import type { PGlite } from '@electric-sql/pglite';
import { createPgConfig } from '@electric-sql/pglite/node-postgres';
import autocannon from 'autocannon';
import type { Logger, SQL } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import pg from 'pg';
import { buildApp } from '../src/server/app';
import { MAINTENANCE_INTERVAL_MS, maintainTables } from '../src/server/db/autovacuum';
import { type Database, type Executor, openDatabase, PG_POOL_SIZE } from '../src/server/db/client';
import { loadConfig } from '../src/server/env';
import { openTestDatabase } from '../testkit/server';
import { startBenchServer } from './lib/child';
import { pgReachable } from './lib/pg';
import { check, fmt, heading, info, skip, table } from './lib/report';
import { BENCH_NAME, BENCH_PHONE, seedBenchData } from './lib/seed';

const CONNECTIONS = 50;
const SCENARIOS = ['create', 'patch', 'complete'] as const;
type Scenario = (typeof SCENARIOS)[number];
type Engine = 'pg' | 'pglite';
/** Requests captured per scenario for the ceiling to cycle through: many families, so replays neither
 * queue on one family lock nor pile dead row versions onto a few rows. Replayed creates still add a
 * todo under the same 120 tasks every cycle, while the app's spread over every task: the create
 * ceiling's families (read whole for roll-up) grow faster than the app's, so its ratio reads high. */
const TEMPLATES = 120;
/** Budgets (issue 17): share of the ceiling's requests/s, and p99 against the ceiling's p99. */
const BUDGET = { pg: { rps: 0.8, p99: 1.5 }, pglite: { rps: 0.7 }, maxWaitMs: 1000 } as const;

interface Options {
  engines: Engine[];
  rounds: number;
  seconds: number;
  writersSeconds: number;
}

function parseOptions(args: string[]): Options {
  const value = (name: string, fallback: number) => {
    const at = args.indexOf(name);
    const n = at >= 0 ? Number(args[at + 1]) : Number.NaN;
    return Number.isFinite(n) && n > 0 ? n : fallback;
  };
  const engines = args.filter((a): a is Engine => a === 'pg' || a === 'pglite');
  return {
    engines: engines.length > 0 ? engines : ['pg', 'pglite'],
    rounds: value('--rounds', 3),
    seconds: value('--seconds', 5),
    writersSeconds: value('--writers-seconds', 60),
  };
}

interface Run {
  requests: number;
  rps: number;
  p50: number;
  p99: number;
  max: number;
  failures: number;
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
}

function summarise(latencies: number[], seconds: number, failures: number): Run {
  const sorted = [...latencies].sort((a, b) => a - b);
  return {
    requests: sorted.length,
    rps: sorted.length / seconds,
    p50: percentile(sorted, 50),
    p99: percentile(sorted, 99),
    max: sorted.at(-1) ?? 0,
    failures,
  };
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? (sorted[mid] ?? 0) : ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2;
};

/** What the writes aim at; completes take a todo out of the pool until their answer comes back. */
export class Workload {
  private readonly completed = new Set<number>();
  private readonly busy = new Set<number>();
  private n = 0;
  constructor(
    private readonly taskIds: number[],
    private readonly todoIds: number[],
    private readonly runId: string,
  ) {}

  private pick<T>(list: T[]): T {
    return list[Math.floor(Math.random() * list.length)] as T;
  }

  next(scenario: Scenario): {
    method: 'POST' | 'PATCH';
    path: string;
    body: string;
    key: string;
    todo?: number;
  } {
    const n = this.n++;
    const key = `load-${this.runId}-${scenario}-${n}`;
    switch (scenario) {
      case 'create':
        return {
          method: 'POST',
          path: '/api/items',
          body: JSON.stringify({ title: `Load todo ${n}`, type: 'todo', parent_id: this.pick(this.taskIds) }),
          key,
        };
      case 'patch':
        return {
          method: 'PATCH',
          path: `/api/items/${this.pick(this.taskIds)}`,
          body: JSON.stringify({ description: `Edited under load ${n}` }),
          key,
        };
      case 'complete': {
        let todo = this.pick(this.todoIds);
        for (let tries = 0; this.busy.has(todo) && tries < 100; tries++) todo = this.pick(this.todoIds);
        this.busy.add(todo);
        const status = this.completed.has(todo) ? 'pending' : 'completed';
        return { method: 'PATCH', path: `/api/items/${todo}`, body: JSON.stringify({ status }), key, todo };
      }
    }
  }

  /** The answer for a complete/reopen came: the todo is free again, in the state it answered. */
  settle(todo: number, body: string): void {
    this.busy.delete(todo);
    try {
      const status = (JSON.parse(body) as { status?: string }).status;
      if (status === 'completed') this.completed.add(todo);
      else if (status) this.completed.delete(todo);
    } catch {
      // Not an item: leave the state as it was.
    }
  }
}

interface Session {
  cookie: string;
  xsrf: string;
}

function collect(setCookies: string[], jar: Map<string, string>): void {
  for (const line of setCookies) {
    const pair = line.split(';')[0] ?? '';
    const eq = pair.indexOf('=');
    if (eq > 0) jar.set(pair.slice(0, eq), pair.slice(eq + 1));
  }
}

async function signIn(base: string): Promise<Session> {
  const jar = new Map<string, string>();
  collect((await fetch(`${base}/sanctum/csrf-cookie`)).headers.getSetCookie(), jar);
  const cookie = () => [...jar].map(([k, v]) => `${k}=${v}`).join('; ');
  const login = await fetch(`${base}/api/login`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      cookie: cookie(),
      'x-xsrf-token': decodeURIComponent(jar.get('XSRF-TOKEN') ?? ''),
    },
    body: JSON.stringify({ phone: BENCH_PHONE, name: BENCH_NAME }),
  });
  if (login.status !== 200) throw new Error(`login answered ${login.status}: ${await login.text()}`);
  collect(login.headers.getSetCookie(), jar);
  return { cookie: cookie(), xsrf: decodeURIComponent(jar.get('XSRF-TOKEN') ?? '') };
}

/** One autocannon run of one scenario (or all of them in turn) against the app. */
async function appRun(
  base: string,
  session: Session,
  workload: Workload,
  scenario: Scenario | 'mixed',
  seconds: number,
): Promise<Run> {
  const latencies: number[] = [];
  let failures = 0;
  let turn = 0;
  let finish: (result: autocannon.Result) => void = () => {};
  let fail: (error: unknown) => void = () => {};
  const done = new Promise<autocannon.Result>((resolve, reject) => {
    finish = resolve;
    fail = reject;
  });
  const started = performance.now();
  const instance = autocannon(
    {
      url: base,
      connections: CONNECTIONS,
      duration: seconds,
      // A request that waits is what this measures: never cut it off early.
      timeout: 600,
      requests: [
        {
          setupRequest: (request, context) => {
            const kind = scenario === 'mixed' ? (SCENARIOS[turn++ % SCENARIOS.length] as Scenario) : scenario;
            const t = workload.next(kind);
            (context as { todo?: number }).todo = t.todo;
            return {
              ...request,
              method: t.method,
              path: t.path,
              headers: {
                cookie: session.cookie,
                'content-type': 'application/json',
                'x-xsrf-token': session.xsrf,
                'idempotency-key': t.key,
              },
              body: t.body,
            };
          },
          onResponse: (_status, body, context) => {
            const todo = (context as { todo?: number }).todo;
            if (todo !== undefined) workload.settle(todo, body);
          },
        },
      ],
    },
    (error, result) => (error ? fail(error) : finish(result)),
  );
  instance.on('response', (_client, statusCode, _bytes, responseTime) => {
    latencies.push(responseTime);
    if (statusCode < 200 || statusCode >= 300) failures += 1;
  });
  const result = await done;
  const elapsed = (performance.now() - started) / 1000;
  // autocannon stops with up to 50 writes still queued in the server, which then go on running:
  // one more write, queued behind them, tells when they are done, so the next run starts clean.
  const t = workload.next('create');
  await fetch(`${base}${t.path}`, {
    method: t.method,
    headers: { cookie: session.cookie, 'content-type': 'application/json', 'x-xsrf-token': session.xsrf },
    body: t.body,
    signal: AbortSignal.timeout(600_000),
  });
  return summarise(latencies, elapsed, failures + result.errors + result.timeouts);
}

export interface Statement {
  text: string;
  params: unknown[];
}

/** The statements of one request, in order, each transaction between 'begin' and 'commit'. */
type Template = Statement[];

const isControl = (text: string) => /^\s*(begin|commit|rollback)\b/i.test(text);

/**
 * The app in this process on the ceiling's database, with every statement logged (BEGIN and COMMIT
 * too, on both engines): the requests of each scenario, their statements as templates.
 */
export async function captureTemplates(
  database: Database,
  log: Statement[],
  workload: Workload,
): Promise<Record<Scenario, Template[]>> {
  const config = loadConfig({
    LOG_LEVEL: 'error',
    SEED_SAMPLE_USERS: 'false',
    RATE_LIMIT_WRITES_PER_MINUTE: '0',
    RATE_LIMIT_LOGINS_PER_MINUTE: '0',
  });
  const app = await buildApp({ database, config: { ...config, clientDir: null } });
  await app.ready();
  const jar = new Map<string, string>();
  const cookie = () => [...jar].map(([k, v]) => `${k}=${v}`).join('; ');
  const setCookies = (headers: Record<string, unknown>) => {
    const raw = headers['set-cookie'];
    return Array.isArray(raw) ? raw.map(String) : raw ? [String(raw)] : [];
  };
  collect(setCookies((await app.inject({ method: 'GET', url: '/sanctum/csrf-cookie' })).headers), jar);
  const login = await app.inject({
    method: 'POST',
    url: '/api/login',
    headers: { cookie: cookie(), 'x-xsrf-token': decodeURIComponent(jar.get('XSRF-TOKEN') ?? '') },
    payload: { phone: BENCH_PHONE, name: BENCH_NAME },
  });
  collect(setCookies(login.headers), jar);
  const templates = { create: [], patch: [], complete: [] } as Record<Scenario, Template[]>;
  // The first requests warm the session cache; only later ones are the steady state.
  for (const scenario of SCENARIOS) {
    for (let i = 0; i < TEMPLATES + 2; i++) {
      const t = workload.next(scenario);
      log.length = 0;
      const response = await app.inject({
        method: t.method,
        url: t.path,
        headers: {
          cookie: cookie(),
          'x-xsrf-token': decodeURIComponent(jar.get('XSRF-TOKEN') ?? ''),
          'content-type': 'application/json',
          'idempotency-key': t.key,
        },
        payload: t.body,
      });
      if (t.todo !== undefined) workload.settle(t.todo, response.body);
      if (response.statusCode >= 300) throw new Error(`capture ${scenario} answered ${response.statusCode}`);
      if (i < 2) continue;
      // The key must differ between repeats (it is unique per user), and so must a new item's uuid:
      // replayed as it was, the INSERT … ON CONFLICT (user_id, uuid) DO NOTHING inserted nothing, and
      // the ceiling's create skipped the very row (and index entries) the app writes.
      const uuids = new Set(
        log
          .filter((s) => /^\s*insert\s+into\s+items\b/i.test(s.text))
          .flatMap((s) => s.params.filter(isUuid)),
      );
      const statements = log.map((s) => ({
        text: s.text,
        params: s.params.map((p) => (p === t.key ? KEY : uuids.has(p) ? NEW_UUID : p)),
      }));
      templates[scenario].push(statements);
    }
  }
  await app.close();
  return templates;
}

const KEY = Symbol('idempotency key');
const NEW_UUID = Symbol('uuid of the item a create inserts');
const isUuid = (p: unknown) =>
  typeof p === 'string' && /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(p);

/** A template's parameters for one replay: a fresh Idempotency-Key and a fresh uuid for a new item. */
function bind(statement: Statement, key: string, uuid: string): unknown[] {
  return statement.params.map((p) => (p === KEY ? key : p === NEW_UUID ? uuid : p));
}

// One name per statement text for the whole run: the clients keep their prepared statements.
const names = new Map<string, string>();
function nameOf(text: string): string {
  let name = names.get(text);
  if (!name) {
    name = `ceiling_${names.size}`;
    names.set(text, name);
  }
  return name;
}

/**
 * The embedded engine's upkeep for the ceiling: the app's database runs it on a timer
 * (db/autovacuum.ts), queued between its transactions on the engine's one session; the ceiling's
 * database is opened without that timer (it ran VACUUM inside the ceiling's open transactions, which
 * failed them and left the ceiling's tables unvacuumed), and this runs the same pass as often,
 * between the ceiling's own transactions, so both sides pay for it alike.
 */
class Upkeep {
  private due = performance.now() + MAINTENANCE_INTERVAL_MS;
  constructor(private readonly enabled: boolean) {}
  async runIfDue(client: pg.Client): Promise<void> {
    if (!this.enabled || performance.now() < this.due) return;
    this.due = performance.now() + MAINTENANCE_INTERVAL_MS;
    // Straight through the client: drizzle's driver hands pg type parsers where the engine's adapter
    // expects parameter types (client.ts's pgliteQueue works around that for the app's own pool).
    const execute = (query: SQL) => {
      const { sql: text, params } = dialect.sqlToQuery(query);
      return client.query(text, params);
    };
    await maintainTables({ execute } as unknown as Executor);
  }
}
const dialect = new PgDialect();

/**
 * The ceiling: `CONNECTIONS` clients (as many as the app gets from autocannon) sharing one `pg`
 * connection per pool connection (one on PGlite), each replaying templates in turn. A request's time
 * runs from when its client wants a connection, as in the app, where 50 requests share the pool's 20
 * connections and a request's time includes its wait for one: timing only the transaction, at 20 in
 * flight, compared the app's latency at 50 outstanding requests with the ceiling's at 20 (a p99
 * ratio of 2.5× before the app did any work of its own). Throughput is unchanged: the connections
 * never idle while a client waits.
 */
async function pgCeilingRun(
  connections: pg.Client[],
  templates: Template[],
  seconds: number,
  upkeep: Upkeep,
): Promise<Run> {
  const latencies: number[] = [];
  let failures = 0;
  let next = 0;
  const idle = [...connections];
  const waiting: ((connection: pg.Client) => void)[] = [];
  const acquire = () =>
    idle.pop() ?? new Promise<pg.Client>((resolve) => waiting.push((connection) => resolve(connection)));
  const release = (connection: pg.Client) => {
    const first = waiting.shift();
    if (first) first(connection);
    else idle.push(connection);
  };
  const started = performance.now();
  const until = started + seconds * 1000;
  await Promise.all(
    Array.from({ length: CONNECTIONS }, async () => {
      while (performance.now() < until) {
        const template = templates[next++ % templates.length] as Template;
        const key = `ceiling-${next}-${Math.random().toString(36).slice(2)}`;
        const uuid = randomUUID();
        const t0 = performance.now();
        const client = await acquire();
        try {
          await upkeep.runIfDue(client);
          for (const s of template) {
            if (isControl(s.text)) await client.query(s.text);
            else await client.query({ name: nameOf(s.text), text: s.text, values: bind(s, key, uuid) });
          }
        } catch (error) {
          failures += 1;
          await client.query('ROLLBACK').catch(() => {});
          if (failures === 1) console.error('  ceiling statement failed:', (error as Error).message);
        } finally {
          release(client);
        }
        latencies.push(performance.now() - t0);
      }
    }),
  );
  return summarise(latencies, (performance.now() - started) / 1000, failures);
}

/**
 * The reference on PGlite: the same statements unnamed through the engine's query(), one transaction
 * after the other, the whole request in one (it is one, but for reads outside it).
 */
async function pgliteUnnamedRun(
  db: PGlite,
  client: pg.Client,
  templates: Template[],
  seconds: number,
  upkeep: Upkeep,
): Promise<Run> {
  const latencies: number[] = [];
  let failures = 0;
  let next = 0;
  const started = performance.now();
  const until = started + seconds * 1000;
  while (performance.now() < until) {
    const template = templates[next++ % templates.length] as Template;
    const key = `ceiling-${next}-${Math.random().toString(36).slice(2)}`;
    const uuid = randomUUID();
    const t0 = performance.now();
    try {
      await upkeep.runIfDue(client);
      // Inside PGlite's own transaction, as drizzle runs the app's: outside one, PGlite syncs its
      // file system after every statement.
      await db.transaction(async (tx) => {
        for (const s of template) if (!isControl(s.text)) await tx.query(s.text, bind(s, key, uuid));
      });
    } catch (error) {
      failures += 1;
      if (failures === 1) console.error('  ceiling statement failed:', (error as Error).message);
    }
    latencies.push(performance.now() - t0);
  }
  return summarise(latencies, (performance.now() - started) / 1000, failures);
}

interface Row {
  engine: Engine;
  scenario: Scenario;
  app: Run[];
  ceiling: Run[];
  /** PGlite only: the statements replayed unnamed (re-planned each time), for reference. */
  unnamed: Run[];
  statements: number;
}

const spread = (values: number[]) =>
  `${median(values).toFixed(2)}× [${Math.min(...values).toFixed(2)}–${Math.max(...values).toFixed(2)}]`;

async function benchEngine(engine: Engine, options: Options): Promise<Row[]> {
  heading(
    `Writes on ${engine === 'pg' ? 'PostgreSQL' : 'PGlite'}: ${CONNECTIONS} connections against the ceiling, ` +
      `${options.rounds} rounds of ${options.seconds} s (load average ${os
        .loadavg()
        .map((v) => v.toFixed(2))
        .join(' ')}, ${os.cpus().length} cores)`,
  );
  // The app's database, served by a child process.
  const appDatabase = engine === 'pg' ? await openTestDatabase('pg') : null;
  const server = await startBenchServer(['outpost', appDatabase?.url ?? 'pglite']);
  // The ceiling's database, seeded alike, with the app in this process only to capture statements.
  const log: Statement[] = [];
  const logger: Logger = { logQuery: (text, params) => void log.push({ text, params }) };
  let ceilingDatabase: Database;
  let dropCeiling = async () => {};
  if (engine === 'pg') {
    const scratch = await openTestDatabase('pg');
    ceilingDatabase = await openDatabase({ url: scratch.url ?? '', logger });
    dropCeiling = async () => {
      await ceilingDatabase.close();
      await scratch.close();
    };
  } else {
    ceilingDatabase = await openDatabase({ dataDir: 'memory://', logger, autovacuum: false });
    dropCeiling = () => ceilingDatabase.close();
  }
  const clients: pg.Client[] = [];
  try {
    const seeded = await seedBenchData(ceilingDatabase.db);
    const runId = Date.now().toString(36);
    const templates = await captureTemplates(
      ceilingDatabase,
      log,
      new Workload(seeded.taskIds, seeded.todoIds, `${runId}-capture`),
    );
    log.length = 0;
    if (engine === 'pg') {
      for (let i = 0; i < PG_POOL_SIZE; i++) {
        const client = new pg.Client({ connectionString: ceilingDatabase.url, options: '-c jit=off' });
        await client.connect();
        clients.push(client);
      }
    } else {
      // The app's own pool on this engine sits idle from here on: the ceiling's client is the
      // session's only user, and its statement names (ceiling_N) are its own.
      const client = new pg.Client(createPgConfig(ceilingDatabase.pglite as PGlite) as pg.ClientConfig);
      await client.connect();
      clients.push(client);
    }
    // PostgreSQL's own autovacuum serves both databases; the embedded engine's is ours to run.
    const upkeep = new Upkeep(engine === 'pglite');
    const ceiling = (scenario: Scenario, seconds: number) =>
      pgCeilingRun(clients, templates[scenario], seconds, upkeep);
    const unnamed = (scenario: Scenario, seconds: number) =>
      pgliteUnnamedRun(
        ceilingDatabase.pglite as PGlite,
        clients[0] as pg.Client,
        templates[scenario],
        seconds,
        upkeep,
      );

    const base = server.ready.url;
    const session = await signIn(base);
    const workload = new Workload(server.ready.taskIds ?? [], server.ready.todoIds ?? [], runId);
    const rows: Row[] = SCENARIOS.map((scenario) => ({
      engine,
      scenario,
      app: [],
      ceiling: [],
      unnamed: [],
      statements: (templates[scenario][0] ?? []).length,
    }));
    // A short warm-up of each side (JIT, caches, prepared plans), not recorded.
    for (const scenario of SCENARIOS) {
      await appRun(base, session, workload, scenario, 1);
      await ceiling(scenario, 1);
      if (engine === 'pglite') await unnamed(scenario, 1);
    }
    for (let round = 1; round <= options.rounds; round++) {
      for (const row of rows) {
        const a = await appRun(base, session, workload, row.scenario, options.seconds);
        const b = await ceiling(row.scenario, options.seconds);
        const c = engine === 'pglite' ? await unnamed(row.scenario, options.seconds) : null;
        // The PGlite ceiling holds this process's event loop for its whole run: let sockets settle.
        await new Promise((resolve) => setTimeout(resolve, 500));
        row.app.push(a);
        row.ceiling.push(b);
        if (c) row.unnamed.push(c);
        console.log(
          `  round ${round} ${row.scenario.padEnd(8)} app ${fmt.rps(a.rps)} p99 ${fmt.ms(a.p99)} max ${fmt.ms(a.max)}` +
            `${a.failures ? ` FAILURES ${a.failures}` : ''} | ceiling ${fmt.rps(b.rps)} p99 ${fmt.ms(b.p99)}` +
            `${b.failures ? ` FAILURES ${b.failures}` : ''}` +
            (c ? ` | unnamed ${fmt.rps(c.rps)}${c.failures ? ` FAILURES ${c.failures}` : ''}` : ''),
        );
      }
    }
    if (engine === 'pglite') await mixedWriters(base, session, workload, options.writersSeconds);
    return rows;
  } finally {
    for (const client of clients) await client.end().catch(() => {});
    await server.stop();
    await dropCeiling().catch(() => {});
    await appDatabase?.close().catch(() => {});
  }
}

/** 50 writers on PGlite: creates, PATCHes and completes in turn; the longest wait seen by a client. */
async function mixedWriters(
  base: string,
  session: Session,
  workload: Workload,
  seconds: number,
): Promise<void> {
  heading(`PGlite: ${CONNECTIONS} mixed writers for ${seconds} s`);
  const run = await appRun(base, session, workload, 'mixed', seconds);
  const subject = `PGlite ${CONNECTIONS} mixed writers, ${seconds} s`;
  info(subject, 'req/s', fmt.rps(run.rps));
  info(subject, 'p50 latency', fmt.ms(run.p50));
  info(subject, 'p99 latency', fmt.ms(run.p99));
  check({
    subject,
    metric: 'max wait (client)',
    value: fmt.ms(run.max),
    budget: `≤ ${BUDGET.maxWaitMs} ms`,
    ok: run.max <= BUDGET.maxWaitMs,
  });
  check({
    subject,
    metric: 'failures',
    value: fmt.count(run.failures),
    budget: '= 0',
    ok: run.failures === 0,
  });
}

export async function run(args: string[] = []): Promise<void> {
  const options = parseOptions(args);
  const all: Row[] = [];
  for (const engine of options.engines) {
    if (engine === 'pg') {
      const problem = await pgReachable();
      if (problem) {
        skip('load PostgreSQL', problem);
        continue;
      }
    }
    all.push(...(await benchEngine(engine, options)));
  }
  const body = all.map((row) => {
    const appRps = row.app.map((r) => r.rps);
    const ceilRps = row.ceiling.map((r) => r.rps);
    const rpsRatios = row.app.map((r, i) => r.rps / (row.ceiling[i]?.rps || 1));
    const p99Ratios = row.app.map((r, i) => r.p99 / (row.ceiling[i]?.p99 || 1));
    return [
      row.engine,
      row.scenario,
      String(row.statements),
      fmt.rps(median(appRps)),
      fmt.rps(median(ceilRps)),
      spread(rpsRatios),
      fmt.ms(median(row.app.map((r) => r.p99))),
      fmt.ms(median(row.ceiling.map((r) => r.p99))),
      spread(p99Ratios),
      fmt.ms(Math.max(...row.app.map((r) => r.max))),
      String(row.app.reduce((n, r) => n + r.failures, 0) + row.ceiling.reduce((n, r) => n + r.failures, 0)),
    ];
  });
  console.log('\nWrites against the ceiling (medians of alternating rounds; ratio median [min–max])');
  console.log(
    table(
      [
        'engine',
        'write',
        'stmts',
        'app req/s',
        'ceiling req/s',
        'req/s ratio',
        'app p99',
        'ceiling p99',
        'p99 ratio',
        'app max',
        'failures',
      ],
      body,
    ),
  );
  for (const row of all) {
    const subject = `${row.engine} ${row.scenario}`;
    const rpsRatio = median(row.app.map((r, i) => r.rps / (row.ceiling[i]?.rps || 1)));
    const budget = BUDGET[row.engine].rps;
    check({
      subject,
      metric: 'req/s ÷ ceiling',
      value: `${rpsRatio.toFixed(2)}×`,
      budget: `≥ ${budget}×`,
      ok: rpsRatio >= budget,
    });
    if (row.engine === 'pg') {
      const p99Ratio = median(row.app.map((r, i) => r.p99 / (row.ceiling[i]?.p99 || 1)));
      check({
        subject,
        metric: 'p99 ÷ ceiling p99',
        value: `${p99Ratio.toFixed(2)}×`,
        budget: `≤ ${BUDGET.pg.p99}×`,
        ok: p99Ratio <= BUDGET.pg.p99,
      });
    }
    if (row.unnamed.length > 0) {
      info(
        subject,
        'req/s ÷ unnamed replay',
        spread(row.app.map((r, i) => r.rps / (row.unnamed[i]?.rps || 1))),
      );
      info(subject, 'unnamed replay req/s', fmt.rps(median(row.unnamed.map((r) => r.rps))));
    }
    const failures = [...row.app, ...row.ceiling, ...row.unnamed].reduce((n, r) => n + r.failures, 0);
    check({ subject, metric: 'failures', value: fmt.count(failures), budget: '= 0', ok: failures === 0 });
  }
}
