/**
 * Mixed load on PostgreSQL: `npm run bench -- load-mixed` (BENCH_LOAD_DURATION seconds, default 60).
 *
 * The app runs in a child process on a throwaway PostgreSQL database seeded with the benchmark's
 * 10,000 items (bench/lib/seed.ts), with sign-in and write limits off. USERS users are signed in;
 * 100 connections split over five autocannon instances, one per kind of request, all at once:
 * list pages, single items, creates with unique Idempotency-Keys, patches, and sync pulls that
 * follow each user's cursor. Budgets: 0 errors or timeouts and 0 answers outside 2xx. Latency is
 * taken from every response (not autocannon's per-second samples), so the totals are exact.
 */
import os from 'node:os';
import autocannon from 'autocannon';
import { openTestDatabase } from '../testkit/server';
import { startBenchServer } from './lib/child';
import { pgReachable } from './lib/pg';
import { check, fmt, heading, info, skip } from './lib/report';
import { BENCH_NAME, BENCH_PHONE } from './lib/seed';

const DURATION = Number(process.env.BENCH_LOAD_DURATION) > 0 ? Number(process.env.BENCH_LOAD_DURATION) : 60;
const USERS = 5;
/** Connections per kind of request; they add up to 100. */
const MIX = { list: 30, item: 25, sync: 20, create: 15, patch: 10 } as const;
type Kind = keyof typeof MIX;

interface User {
  cookie: string;
  xsrf: string;
  /** Items this user owns: targets for GET /api/items/{id} and PATCH. */
  itemIds: number[];
  /** Parents for new todos. */
  parentIds: number[];
  /** Where this user's sync pulls continue from; moved on by every answer. */
  cursor: string;
}

function collect(response: Response, jar: Map<string, string>): void {
  for (const line of response.headers.getSetCookie()) {
    const pair = line.split(';')[0] ?? '';
    const eq = pair.indexOf('=');
    if (eq > 0) jar.set(pair.slice(0, eq), pair.slice(eq + 1));
  }
}

async function signIn(base: string, phone: string, name: string): Promise<Pick<User, 'cookie' | 'xsrf'>> {
  const jar = new Map<string, string>();
  collect(await fetch(`${base}/sanctum/csrf-cookie`), jar);
  const cookie = () => [...jar].map(([k, v]) => `${k}=${v}`).join('; ');
  const login = await fetch(`${base}/api/login`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      cookie: cookie(),
      'x-xsrf-token': decodeURIComponent(jar.get('XSRF-TOKEN') ?? ''),
    },
    body: JSON.stringify({ phone, name }),
  });
  if (login.status !== 200) throw new Error(`login answered ${login.status}: ${await login.text()}`);
  collect(login, jar);
  return { cookie: cookie(), xsrf: decodeURIComponent(jar.get('XSRF-TOKEN') ?? '') };
}

async function post(base: string, user: Pick<User, 'cookie' | 'xsrf'>, body: unknown): Promise<number> {
  const response = await fetch(`${base}/api/items`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', cookie: user.cookie, 'x-xsrf-token': user.xsrf },
    body: JSON.stringify(body),
  });
  if (response.status !== 201) throw new Error(`set-up create answered ${response.status}`);
  return ((await response.json()) as { id: number }).id;
}

/** The user's cursor after a full pull, so the run's pulls carry only what changes during it. */
async function caughtUp(base: string, user: Pick<User, 'cookie'>): Promise<string> {
  let cursor = '';
  for (;;) {
    const response = await fetch(`${base}/api/sync?cursor=${encodeURIComponent(cursor)}`, {
      headers: { cookie: user.cookie },
    });
    const page = (await response.json()) as { cursor: string; has_more: boolean };
    cursor = page.cursor;
    if (!page.has_more) return cursor;
  }
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
}

interface Outcome {
  kind: Kind | 'total';
  connections: number;
  requests: number;
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  timeouts: number;
  non2xx: number;
  statuses: Map<number, number>;
}

export async function run(): Promise<void> {
  const subject = 'load PostgreSQL';
  const problem = await pgReachable();
  if (problem) {
    skip(subject, problem);
    return;
  }
  heading(
    `Mixed load on PostgreSQL: ${Object.values(MIX).reduce((a, b) => a + b, 0)} connections, ${DURATION} s, ${USERS} users ` +
      `(load average before ${os
        .loadavg()
        .map((v) => v.toFixed(2))
        .join(' ')}, ${os.cpus().length} cores)`,
  );
  const database = await openTestDatabase('pg');
  const server = await startBenchServer(['outpost', database.url ?? '']);
  try {
    const base = server.ready.url;
    const users: User[] = [];
    // The benchmark user owns the 10,000 seeded items; the others start with a small tree each.
    const bench = await signIn(base, BENCH_PHONE, BENCH_NAME);
    const taskIds = server.ready.taskIds ?? [];
    users.push({ ...bench, itemIds: taskIds, parentIds: taskIds, cursor: await caughtUp(base, bench) });
    for (let u = 1; u < USERS; u++) {
      const session = await signIn(base, `+1202555${3000 + u}`, `Load user ${u}`);
      const campaign = await post(base, session, { title: `Load campaign ${u}`, type: 'campaign' });
      const tasks: number[] = [];
      for (let t = 0; t < 3; t++) {
        tasks.push(await post(base, session, { title: `Task ${t}`, type: 'task', parent_id: campaign }));
      }
      const todos: number[] = [];
      for (let t = 0; t < 30; t++) {
        todos.push(await post(base, session, { title: `Todo ${t}`, type: 'todo', parent_id: tasks[t % 3] }));
      }
      users.push({ ...session, itemIds: todos, parentIds: tasks, cursor: await caughtUp(base, session) });
    }

    const runId = Date.now().toString(36);
    let sequence = 0;
    const pick = <T>(list: T[]): T => list[Math.floor(Math.random() * list.length)] as T;
    const target = (
      kind: Kind,
      user: User,
    ): { method: 'GET' | 'POST' | 'PATCH'; path: string; body?: string } => {
      const n = sequence++;
      switch (kind) {
        case 'list':
          return { method: 'GET', path: `/api/items?page=${1 + (n % 10)}${n % 2 ? '&type=todo' : ''}` };
        case 'item':
          return { method: 'GET', path: `/api/items/${pick(user.itemIds)}` };
        case 'sync':
          return { method: 'GET', path: `/api/sync?cursor=${encodeURIComponent(user.cursor)}` };
        case 'create':
          return {
            method: 'POST',
            path: '/api/items',
            body: JSON.stringify({ title: `Load todo ${n}`, type: 'todo', parent_id: pick(user.parentIds) }),
          };
        case 'patch':
          return {
            method: 'PATCH',
            path: `/api/items/${pick(user.itemIds)}`,
            body: JSON.stringify({ description: `Edited under load ${n}` }),
          };
      }
    };

    const started = performance.now();
    const runs = (Object.keys(MIX) as Kind[]).map((kind) => {
      const latencies: number[] = [];
      const statuses = new Map<number, number>();
      let turn = 0;
      let finish: (result: autocannon.Result) => void = () => {};
      let fail: (error: unknown) => void = () => {};
      const done = new Promise<autocannon.Result>((resolve, reject) => {
        finish = resolve;
        fail = reject;
      });
      // The callback form returns the instance, whose 'response' events carry every latency.
      const instance = autocannon(
        {
          url: base,
          connections: MIX[kind],
          duration: DURATION,
          requests: [
            {
              setupRequest: (request, context) => {
                // Each request goes out as one of the users in turn, so sessions and caches are shared
                // the way many people's are, not one hot session.
                const user = users[turn++ % users.length] as User;
                (context as { user?: User }).user = user;
                const t = target(kind, user);
                const headers: Record<string, string> = { cookie: user.cookie };
                if (t.method !== 'GET') {
                  headers['content-type'] = 'application/json';
                  headers['x-xsrf-token'] = user.xsrf;
                  headers['idempotency-key'] = `load-${runId}-${kind}-${sequence}`;
                }
                return {
                  ...request,
                  method: t.method,
                  path: t.path,
                  headers,
                  ...(t.body ? { body: t.body } : {}),
                };
              },
              onResponse: (status, body, context) => {
                if (kind !== 'sync' || status !== 200) return;
                // A client continues from the cursor it was given, so pulls carry what others wrote since.
                const user = (context as { user?: User }).user;
                const page = JSON.parse(body) as { cursor?: string };
                if (user && page.cursor) user.cursor = page.cursor;
              },
            },
          ],
        },
        (error, result) => (error ? fail(error) : finish(result)),
      );
      instance.on('response', (_client, statusCode, _bytes, responseTime) => {
        latencies.push(responseTime);
        statuses.set(statusCode, (statuses.get(statusCode) ?? 0) + 1);
      });
      return { kind, latencies, statuses, done };
    });
    const results = await Promise.all(runs.map((r) => r.done));
    const seconds = (performance.now() - started) / 1000;

    const outcomes: Outcome[] = runs.map((r, i) => {
      const result = results[i] as autocannon.Result;
      const sorted = [...r.latencies].sort((a, b) => a - b);
      return {
        kind: r.kind,
        connections: MIX[r.kind],
        requests: r.latencies.length,
        rps: r.latencies.length / seconds,
        p50: percentile(sorted, 50),
        p99: percentile(sorted, 99),
        errors: result.errors,
        timeouts: result.timeouts,
        non2xx: result.non2xx,
        statuses: r.statuses,
      };
    });
    const all = runs.flatMap((r) => r.latencies).sort((a, b) => a - b);
    const statuses = new Map<number, number>();
    for (const o of outcomes) for (const [s, n] of o.statuses) statuses.set(s, (statuses.get(s) ?? 0) + n);
    const total: Outcome = {
      kind: 'total',
      connections: outcomes.reduce((n, o) => n + o.connections, 0),
      requests: all.length,
      rps: all.length / seconds,
      p50: percentile(all, 50),
      p99: percentile(all, 99),
      errors: outcomes.reduce((n, o) => n + o.errors, 0),
      timeouts: outcomes.reduce((n, o) => n + o.timeouts, 0),
      non2xx: outcomes.reduce((n, o) => n + o.non2xx, 0),
      statuses,
    };
    const describe = {
      list: 'GET /api/items?page=1..10[&type=todo]',
      item: 'GET /api/items/{id}',
      sync: 'GET /api/sync?cursor= (following)',
      create: 'POST /api/items (Idempotency-Key)',
      patch: 'PATCH /api/items/{id}',
      total: 'all',
    } as const;
    for (const o of [...outcomes, total]) {
      const name = `${subject} ${describe[o.kind]} (${o.connections} conn.)`;
      const codes = [...o.statuses].map(([s, n]) => `${s}×${n}`).join(' ');
      console.log(`\n${name}: ${o.requests} requests [${codes}]`);
      info(name, 'req/s', fmt.rps(o.rps));
      info(name, 'p50 latency', fmt.ms(o.p50));
      info(name, 'p99 latency', fmt.ms(o.p99));
      if (o.kind !== 'total') continue;
      check({
        subject: name,
        metric: 'errors + timeouts',
        value: fmt.count(o.errors + o.timeouts),
        budget: '= 0',
        ok: o.errors + o.timeouts === 0,
      });
      check({
        subject: name,
        metric: 'non-2xx',
        value: fmt.count(o.non2xx),
        budget: '= 0',
        ok: o.non2xx === 0,
      });
      check({
        subject: name,
        metric: 'requests',
        value: fmt.count(o.requests),
        budget: '> 0',
        ok: o.requests > 0,
      });
    }
    console.log(
      `\nload average after: ${os
        .loadavg()
        .map((v) => v.toFixed(2))
        .join(' ')}`,
    );
  } finally {
    await server.stop();
    await database.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await run();
}
