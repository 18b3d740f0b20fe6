/**
 * Live events across server instances (ARCHITECTURE §2, §4 `/api/events`):
 *
 * 1. Latency: two server processes on one PostgreSQL; a client holds an event stream on instance B
 *    while todos are created one at a time on instance A. Figure: time from sending the write to the
 *    `changed` event arriving on B's stream (the write's own time included), median and p95.
 * 2. Capacity: 1,000 event streams open on one instance; the server process's RSS growth (VmRSS
 *    from /proc/<pid>/status) and whether every stream received an event for every write. A sign-in
 *    holds at most STREAMS_PER_SESSION streams and an account STREAMS_PER_USER, so the streams are
 *    those of enough people, each signed in a few times, all members of one campaign the writes
 *    land in.
 *
 * `npm run bench -- events [writes] [streams]`; TEST_DATABASE_URL picks the PostgreSQL
 * (default postgres://postgres@127.0.0.1:5432/test). Skipped when PostgreSQL is unreachable.
 */
import { readFileSync } from 'node:fs';
import http from 'node:http';
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import { findOrCreateUser } from '../src/server/auth/users';
import { type Database, sql } from '../src/server/db/client';
import { STREAMS_PER_SESSION, STREAMS_PER_USER } from '../src/server/events/routes';
import { openTestDatabase } from '../testkit/server';
import { type BenchServer, startBenchServer } from './lib/child';
import { check, fmt, heading, info, skip } from './lib/report';
import { BENCH_NAME, BENCH_PHONE } from './lib/seed';

const DEFAULT_PG_URL = 'postgres://postgres@127.0.0.1:5432/test';
const EVENT_TIMEOUT_MS = 10_000;

export interface Session {
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

/** Signs in (the benchmark user by default) the way a browser does; sessions live in the database, so any instance takes it. */
export async function signIn(base: string, phone = BENCH_PHONE, name = BENCH_NAME): Promise<Session> {
  const jar = new Map<string, string>();
  collectCookies(await fetch(`${base}/sanctum/csrf-cookie`), jar);
  const header = () => [...jar].map(([k, v]) => `${k}=${v}`).join('; ');
  const login = await fetch(`${base}/api/login`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      cookie: header(),
      'x-xsrf-token': decodeURIComponent(jar.get('XSRF-TOKEN') ?? ''),
    },
    body: JSON.stringify({ phone, name }),
  });
  if (login.status !== 200) throw new Error(`login answered ${login.status}: ${await login.text()}`);
  collectCookies(login, jar);
  return { cookie: header(), xsrf: decodeURIComponent(jar.get('XSRF-TOKEN') ?? '') };
}

const jsonHeaders = (session: Session) => ({
  'content-type': 'application/json',
  cookie: session.cookie,
  'x-xsrf-token': session.xsrf,
});

async function createItem(
  base: string,
  session: Session,
  item: { title: string; type: 'todo' | 'campaign'; parent_id?: number },
): Promise<number> {
  const response = await fetch(`${base}/api/items`, {
    method: 'POST',
    headers: jsonHeaders(session),
    body: JSON.stringify(item),
  });
  if (response.status !== 201)
    throw new Error(`create answered ${response.status}: ${await response.text()}`);
  return ((await response.json()) as { id: number }).id;
}

async function createTodo(base: string, session: Session, title: string, parent?: number): Promise<void> {
  await createItem(base, session, {
    title,
    type: 'todo',
    ...(parent === undefined ? {} : { parent_id: parent }),
  });
}

/** One open GET /api/events, counting `changed` events as they arrive. */
export interface Stream {
  received: number;
  /** Resolves at the next `changed` event (or rejects after the timeout). */
  next(timeoutMs?: number): Promise<number>;
  close(): void;
}

/** Opens GET /api/events on `base` for the session; resolves once the server has answered 200. */
export function openStream(base: string, session: Session, agent: http.Agent): Promise<Stream> {
  return new Promise((resolve, reject) => {
    const waiters: ((at: number) => void)[] = [];
    let buffer = '';
    const request = http.get(
      `${base}/api/events`,
      { headers: { cookie: session.cookie, accept: 'text/event-stream' }, agent },
      (response) => {
        if (response.statusCode !== 200) {
          reject(new Error(`GET /api/events answered ${response.statusCode}`));
          response.resume();
          return;
        }
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => {
          buffer += chunk;
          let end = buffer.indexOf('\n\n');
          while (end >= 0) {
            const block = buffer.slice(0, end);
            buffer = buffer.slice(end + 2);
            if (block.split('\n').includes('event: changed')) {
              const at = performance.now();
              stream.received += 1;
              for (const waiter of waiters.splice(0)) waiter(at);
            }
            end = buffer.indexOf('\n\n');
          }
        });
        resolve(stream);
      },
    );
    request.on('error', reject);
    const stream: Stream = {
      received: 0,
      next: (timeoutMs = EVENT_TIMEOUT_MS) =>
        new Promise((done, fail) => {
          const timer = setTimeout(() => fail(new Error('no changed event in time')), timeoutMs);
          waiters.push((at) => {
            clearTimeout(timer);
            done(at);
          });
        }),
      close: () => request.destroy(),
    };
  });
}

/** The p-th percentile (nearest rank) of ascending values; NaN for none. */
export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[index] ?? Number.NaN;
}

/** Resident memory of a process in bytes (Linux). */
function rssBytes(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = /VmRSS:\s+(\d+)\s+kB/.exec(status)?.[1];
  if (!kb) throw new Error(`no VmRSS for process ${pid}`);
  return Number(kb) * 1024;
}

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

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

async function latencyAcrossInstances(a: BenchServer, b: BenchServer, writes: number): Promise<void> {
  heading(
    `== Write on instance A → changed event on a client of instance B (${writes} writes, one at a time)`,
  );
  const session = await signIn(a.ready.url);
  const agent = new http.Agent({ keepAlive: false });
  const stream = await openStream(b.ready.url, session, agent);
  try {
    // Warm-up: connections, prepared statements and JIT on both instances.
    for (let i = 0; i < 10; i++) {
      const arrived = stream.next();
      await createTodo(a.ready.url, session, `Warm-up ${i}`);
      await arrived;
    }
    const latencies: number[] = [];
    const writeTimes: number[] = [];
    for (let i = 0; i < writes; i++) {
      const arrived = stream.next();
      const started = performance.now();
      await createTodo(a.ready.url, session, `Latency ${i}`);
      writeTimes.push(performance.now() - started);
      latencies.push((await arrived) - started);
    }
    latencies.sort((x, y) => x - y);
    writeTimes.sort((x, y) => x - y);
    const median = percentile(latencies, 50);
    check({
      subject: 'PostgreSQL A→B changed event',
      metric: 'median latency',
      value: fmt.ms(median),
      budget: '< 200 ms',
      ok: median < 200,
    });
    info('PostgreSQL A→B changed event', 'p95 latency', fmt.ms(percentile(latencies, 95)));
    info(
      'PostgreSQL A→B changed event',
      'max latency',
      fmt.ms(latencies[latencies.length - 1] ?? Number.NaN),
    );
    info(
      'PostgreSQL write on A (POST /api/items)',
      'median response time',
      fmt.ms(percentile(writeTimes, 50)),
    );
  } finally {
    stream.close();
    agent.destroy();
  }
}

async function manyStreams(
  db: Database['db'],
  server: BenchServer,
  writer: BenchServer,
  count: number,
  writes: number,
): Promise<void> {
  heading(`== ${count} event streams on one instance, ${writes} writes on the other`);
  const pid = server.pid;
  if (pid === undefined) throw new Error('the server process has no pid');
  // Enough people for `count` streams, each signed in as often as one account's streams allow; the
  // first owns a campaign the others are members of, and every write lands in it.
  const people = Math.ceil(count / STREAMS_PER_USER);
  const phones = Array.from({ length: people }, (_, i) => `+1555555${String(3000 + i)}`);
  const ids: number[] = [];
  for (const [i, phone] of phones.entries())
    ids.push((await findOrCreateUser(db, phone, `Streamer ${i + 1}`)).id);
  const [ownerId, ...memberIds] = ids as [number, ...number[]];
  // Mutual contacts, as POST /api/contacts/sync would store them: adding a member requires them.
  await db.execute(sql`
    INSERT INTO contacts (user_id, contact_phone)
    SELECT ${ownerId}, p FROM unnest(string_to_array(${phones.slice(1).join(',')}, ',')) p
    UNION ALL SELECT m, ${phones[0]!} FROM unnest(string_to_array(${memberIds.join(',')}, ',')::int[]) m
    ON CONFLICT DO NOTHING`);
  const owner = await signIn(writer.ready.url, phones[0]!, 'Streamer 1');
  const campaign = await createItem(writer.ready.url, owner, {
    title: 'Streamed campaign',
    type: 'campaign',
  });
  for (const id of memberIds) {
    const response = await fetch(`${writer.ready.url}/api/campaigns/${campaign}/members`, {
      method: 'POST',
      headers: jsonHeaders(owner),
      body: JSON.stringify({ user_id: id, role: 'editor' }),
    });
    if (response.status !== 201) throw new Error(`adding a member answered ${response.status}`);
  }
  const sessions: Session[] = [];
  for (let opened = 0; opened < count; opened += STREAMS_PER_SESSION) {
    const person = Math.floor(opened / STREAMS_PER_USER);
    sessions.push(await signIn(server.ready.url, phones[person]!, `Streamer ${person + 1}`));
  }
  const agent = new http.Agent({ keepAlive: false, maxSockets: Number.POSITIVE_INFINITY });
  const before = rssBytes(pid);
  const streams: Stream[] = [];
  try {
    // Opened in batches, as users arrive, rather than in one burst of 1,000 simultaneous handshakes.
    for (let opened = 0; opened < count; opened += 100) {
      const batch = Math.min(100, count - opened);
      streams.push(
        ...(await Promise.all(
          Array.from({ length: batch }, (_, k) =>
            openStream(server.ready.url, sessions[Math.floor((opened + k) / STREAMS_PER_SESSION)]!, agent),
          ),
        )),
      );
    }
    const open = rssBytes(pid);
    let peak = open;
    const latencies: number[] = [];
    for (let i = 0; i < writes; i++) {
      const started = performance.now();
      const arrivals = Promise.all(streams.map((stream) => stream.next().catch(() => Number.NaN)));
      await createTodo(writer.ready.url, owner, `Fan-out ${i}`, campaign);
      const times = await arrivals;
      latencies.push(Math.max(...times) - started);
      peak = Math.max(peak, rssBytes(pid));
    }
    const complete = streams.filter((stream) => stream.received === writes).length;
    const lost = streams.reduce((sum, stream) => sum + Math.max(0, writes - stream.received), 0);
    info(`${count} streams`, 'RSS before', mb(before));
    info(`${count} streams`, 'RSS with streams open', mb(open));
    check({
      subject: `${count} streams on one instance`,
      metric: 'RSS growth (peak)',
      value: mb(peak - before),
      budget: '< 100 MB',
      ok: peak - before < 100 * 1024 * 1024,
    });
    check({
      subject: `${count} streams on one instance`,
      metric: 'events lost',
      value: `${lost} (${complete}/${count} streams got all ${writes})`,
      budget: '= 0',
      ok: lost === 0,
    });
    latencies.sort((x, y) => x - y);
    info(`${count} streams`, 'median last delivery', fmt.ms(percentile(latencies, 50)));
  } finally {
    for (const stream of streams) stream.close();
    agent.destroy();
  }
}

export async function run(args: string[]): Promise<void> {
  const writes = Number(args[0] ?? 200);
  const streamCount = Number(args[1] ?? 1000);
  const url = process.env.TEST_DATABASE_URL || DEFAULT_PG_URL;
  const problem = await reachable(url);
  if (problem) {
    skip('events on PostgreSQL', `${url} is unreachable (${problem}); set TEST_DATABASE_URL`);
    return;
  }
  process.env.TEST_DATABASE_URL = url;
  const database = await openTestDatabase('pg');
  const servers: BenchServer[] = [];
  try {
    const connectionString = database.pool?.options.connectionString;
    if (!connectionString) throw new Error('the throwaway database has no connection string');
    console.log('events benchmark: two server processes on one throwaway PostgreSQL database, 127.0.0.1');
    // One after the other: the first migrates and seeds.
    servers.push(await startBenchServer(['outpost', connectionString]));
    servers.push(await startBenchServer(['outpost', connectionString]));
    const [a, b] = servers as [BenchServer, BenchServer];
    await latencyAcrossInstances(a, b, writes);
    await manyStreams(database.db, b, a, streamCount, 20);
  } finally {
    for (const server of servers) await server.stop();
    await database.close();
  }
}
