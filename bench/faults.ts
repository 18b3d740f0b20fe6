/**
 * Fault benchmarks: `npm run bench -- faults [pg-restart] [sigkill]`.
 *
 * pg-restart: the app in a child process on a throwaway PostgreSQL database; WRITERS concurrent
 * writers create items with an Idempotency-Key each and retry a failed attempt (5xx, dropped
 * connection) with the same key. Partway through, the machine's PostgreSQL cluster is restarted.
 * Afterwards every write the server acknowledged (2xx) must exist exactly once, no key may have made
 * two items, and the same server process must answer again without a restart of its own.
 * BENCH_FAULT_SECONDS (default 20) sets how long the writers run.
 *
 * sigkill: a device (the real client sync engine on fake-indexeddb, in this process) creates
 * OFFLINE_ITEMS items offline, then syncs against the app in a child process on PGlite with a data
 * directory; the server is killed with SIGKILL while the queue replays, started again on the same
 * directory and port, and the device syncs until its queue is empty. Every item must be on the
 * server exactly once and the device must equal the server.
 */
import { type ChildProcess, execFile, execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import pg from 'pg';
import { type Item, isTombstone, type SyncChange, type SyncPage } from '../src/shared/item';
import { createDevice, signIn as signInDevice } from '../testkit/client/harness';
import { openTestDatabase } from '../testkit/server';
import { pgReachable } from './lib/pg';
import { check, fmt, heading, info, skip } from './lib/report';

const WRITERS = 16;
const USERS = 4;
const FAULT_SECONDS =
  Number(process.env.BENCH_FAULT_SECONDS) > 0 ? Number(process.env.BENCH_FAULT_SECONDS) : 20;
const OFFLINE_ITEMS = 200;
const serveScript = path.join(path.dirname(fileURLToPath(import.meta.url)), 'lib', 'serveApp.ts');

interface AppChild {
  url: string;
  pid: number | undefined;
  process: ChildProcess;
  stop(): Promise<void>;
  kill(): Promise<void>;
}

/** Starts bench/lib/serveApp.ts and waits for its ready line. */
function startApp(args: string[], timeoutMs = 120_000): Promise<AppChild> {
  const child = spawn(process.execPath, ['--import', 'tsx', serveScript, ...args], {
    stdio: ['pipe', 'pipe', 'inherit'],
    env: process.env,
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const gone = () => child.exitCode !== null || child.signalCode !== null;
  const stop = async () => {
    if (gone()) return;
    child.stdin?.end();
    const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
    await exited;
    clearTimeout(timer);
  };
  const kill = async () => {
    if (gone()) return;
    child.kill('SIGKILL');
    await exited;
  };
  return new Promise((resolve, reject) => {
    let buffer = '';
    const timer = setTimeout(() => {
      void kill();
      reject(new Error(`app (${args.join(' ')}) did not start within ${timeoutMs / 1000} s`));
    }, timeoutMs);
    child.stdout?.setEncoding('utf8');
    child.stdout?.on('data', (chunk: string) => {
      buffer += chunk;
      const newline = buffer.indexOf('\n');
      if (newline < 0) return;
      clearTimeout(timer);
      const { url } = JSON.parse(buffer.slice(0, newline)) as { url: string };
      resolve({ url, pid: child.pid, process: child, stop, kill });
    });
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`app (${args.join(' ')}) exited (${code ?? signal}) before it was ready`));
    });
  });
}

interface Session {
  cookie: string;
  xsrf: string;
}

function collect(response: Response, jar: Map<string, string>): void {
  for (const line of response.headers.getSetCookie()) {
    const pair = line.split(';')[0] ?? '';
    const eq = pair.indexOf('=');
    if (eq > 0) jar.set(pair.slice(0, eq), pair.slice(eq + 1));
  }
}

async function signIn(base: string, phone: string, name: string): Promise<Session> {
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

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function clusterVersion(): string {
  const [version] = readdirSync('/etc/postgresql');
  if (!version) throw new Error('no cluster under /etc/postgresql');
  return version;
}

function pgCtl(action: 'start' | 'status'): void {
  execFileSync('pg_ctlcluster', ['--skip-systemctl-redirect', clusterVersion(), 'main', action], {
    stdio: action === 'status' ? 'ignore' : 'inherit',
  });
}

/** Starts the cluster when it is down (a failed restart must not leave the machine without it). */
async function ensureClusterUp(): Promise<void> {
  try {
    pgCtl('status');
  } catch {
    console.log('  PostgreSQL is down: starting it again');
    try {
      pgCtl('start');
    } catch (error) {
      console.error(`  pg_ctlcluster start failed: ${(error as Error).message}`);
    }
  }
  for (let i = 0; i < 60 && (await pgReachable()) !== null; i++) await sleep(500);
}

async function pgRestart(): Promise<void> {
  heading(`PostgreSQL restart under ${WRITERS} writers (${USERS} users, ${FAULT_SECONDS} s)`);
  const subject = 'faults pg-restart';
  const problem = await pgReachable();
  if (problem) {
    skip(subject, problem);
    return;
  }
  const database = await openTestDatabase('pg');
  const url = database.url ?? '';
  let app: AppChild | null = null;
  try {
    app = await startApp(['--url', url]);
    const base = app.url;
    const runId = Date.now().toString(36);
    const sessions: Session[] = [];
    for (let u = 0; u < USERS; u++) sessions.push(await signIn(base, `+1202555${1000 + u}`, `Writer ${u}`));

    const acknowledged = new Map<string, number>();
    let attempts = 0;
    let failedAttempts = 0;
    const unexpected: string[] = [];
    const gaveUp: string[] = [];
    const failureStatuses = new Map<string, number>();
    let restartStarted = 0;
    let restartDone = 0;
    let firstAckAfterRestart = 0;
    const deadline = Date.now() + FAULT_SECONDS * 1000;

    const writer = async (w: number) => {
      const session = sessions[w % USERS];
      if (!session) return;
      for (let n = 0; Date.now() < deadline; n++) {
        const key = `fault-${runId}-${w}-${n}`;
        // The same key until the server acknowledges it: a retry after a lost answer is a repeat.
        for (;;) {
          const sentAt = Date.now();
          attempts++;
          let status = 0;
          let text = '';
          try {
            const response = await fetch(`${base}/api/items`, {
              method: 'POST',
              headers: {
                'content-type': 'application/json',
                cookie: session.cookie,
                'x-xsrf-token': session.xsrf,
                'idempotency-key': key,
              },
              body: JSON.stringify({ title: key, type: 'todo' }),
              signal: AbortSignal.timeout(15_000),
            });
            status = response.status;
            text = await response.text();
          } catch (error) {
            const reason = (error as Error).name === 'TimeoutError' ? 'timeout' : 'connection error';
            failureStatuses.set(reason, (failureStatuses.get(reason) ?? 0) + 1);
          }
          if (status >= 200 && status < 300) {
            acknowledged.set(key, (JSON.parse(text) as Item).id);
            if (restartDone > 0 && sentAt >= restartDone && firstAckAfterRestart === 0) {
              firstAckAfterRestart = Date.now();
            }
            break;
          }
          if (status !== 0)
            failureStatuses.set(String(status), (failureStatuses.get(String(status)) ?? 0) + 1);
          if (status >= 400 && status < 500) {
            unexpected.push(`${key}: ${status} ${text.slice(0, 200)}`);
            break;
          }
          failedAttempts++;
          // A server that never comes back must fail the run, not hang it.
          if (
            Date.now() > deadline + 60_000 ||
            app?.process.exitCode !== null ||
            app.process.signalCode !== null
          ) {
            gaveUp.push(key);
            break;
          }
          await sleep(100);
        }
      }
    };
    const restarter = async () => {
      await sleep((FAULT_SECONDS * 1000) / 3);
      restartStarted = Date.now();
      console.log(
        `  restarting PostgreSQL ${clusterVersion()}/main at ${acknowledged.size} acknowledged writes`,
      );
      // Asynchronously: the writers must keep sending while the cluster goes down and comes back.
      await promisify(execFile)('pg_ctlcluster', [
        '--skip-systemctl-redirect',
        clusterVersion(),
        'main',
        'restart',
      ]);
      restartDone = Date.now();
      console.log(`  pg_ctlcluster restart took ${restartDone - restartStarted} ms`);
    };
    try {
      await Promise.all([...Array.from({ length: WRITERS }, (_, w) => writer(w)), restarter()]);
    } finally {
      await ensureClusterUp();
    }

    // Verify straight in the database: each acknowledged key made exactly one item, the one answered.
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    const counted = await client.query<{ title: string; n: number; ids: number[] }>(
      `SELECT title, count(*)::int AS n, array_agg(id) AS ids FROM items WHERE title LIKE $1 GROUP BY title`,
      [`fault-${runId}-%`],
    );
    await client.end();
    const byTitle = new Map(counted.rows.map((r) => [r.title, r]));
    let lost = 0;
    let wrongId = 0;
    for (const [key, id] of acknowledged) {
      const row = byTitle.get(key);
      if (!row) lost++;
      else if (!row.ids.map(Number).includes(id)) wrongId++;
    }
    const doubled = counted.rows.filter((r) => r.n > 1).length;

    // The same server process, never restarted, must answer reads and writes again.
    let answersAgain = true;
    try {
      for (const session of sessions) {
        const me = await fetch(`${base}/api/me`, { headers: { cookie: session.cookie } });
        if (me.status !== 200) answersAgain = false;
      }
      const after = await fetch(`${base}/api/items`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          cookie: sessions[0]?.cookie ?? '',
          'x-xsrf-token': sessions[0]?.xsrf ?? '',
        },
        body: JSON.stringify({ title: `after-${runId}`, type: 'todo' }),
      });
      if (after.status !== 201) answersAgain = false;
    } catch (error) {
      console.log(`  the server did not answer after the restart: ${(error as Error).message}`);
      answersAgain = false;
    }
    const childAlive = app.process.exitCode === null && app.process.signalCode === null;

    info(subject, 'write attempts', fmt.count(attempts));
    info(
      subject,
      'failed attempts',
      `${failedAttempts} [${[...failureStatuses].map(([s, n]) => `${s}×${n}`).join(' ')}]`,
    );
    info(subject, 'restart command', fmt.ms(restartDone - restartStarted));
    check({
      subject,
      metric: 'acknowledged writes',
      value: fmt.count(acknowledged.size),
      budget: '> 0',
      ok: acknowledged.size > 0,
    });
    check({ subject, metric: 'lost', value: fmt.count(lost), budget: '= 0', ok: lost === 0 });
    check({ subject, metric: 'doubled', value: fmt.count(doubled), budget: '= 0', ok: doubled === 0 });
    check({
      subject,
      metric: 'acked id differs',
      value: fmt.count(wrongId),
      budget: '= 0',
      ok: wrongId === 0,
    });
    check({
      subject,
      metric: 'writes given up',
      value: fmt.count(gaveUp.length),
      budget: '= 0',
      ok: gaveUp.length === 0,
    });
    check({
      subject,
      metric: 'unexpected 4xx',
      value: fmt.count(unexpected.length),
      budget: '= 0',
      ok: unexpected.length === 0,
    });
    const recovered = firstAckAfterRestart > 0;
    check({
      subject,
      metric: 'time to recover',
      value: recovered ? fmt.ms(firstAckAfterRestart - restartDone) : 'never',
      budget: 'recovers without a server restart',
      ok: recovered && answersAgain && childAlive,
    });
    if (recovered) info(subject, 'write outage', fmt.ms(firstAckAfterRestart - restartStarted));
    for (const line of unexpected.slice(0, 5)) console.log(`  ${line}`);
  } finally {
    await app?.stop();
    await ensureClusterUp();
    await database
      .close()
      .catch((error: unknown) => console.error(`dropping the database: ${String(error)}`));
  }
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

async function serverItems(device: ReturnType<typeof createDevice>): Promise<Item[]> {
  const out = new Map<number, SyncChange>();
  let cursor = '';
  for (let page = 0; page < 100; page++) {
    const { data } = await device.client.api.get<SyncPage>(`/sync?cursor=${encodeURIComponent(cursor)}`);
    for (const item of data.items) out.set(item.id, item);
    cursor = data.cursor;
    if (!data.has_more) break;
  }
  return [...out.values()].filter((i): i is Item => !isTombstone(i));
}

async function sigkillReplay(): Promise<void> {
  heading(`SIGKILL of the server mid-replay: ${OFFLINE_ITEMS} offline items, PGlite with a data directory`);
  const subject = 'faults sigkill';
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'outpost-faults-'));
  const port = await freePort();
  const args = ['--data-dir', dataDir, '--port', String(port)];
  let app: AppChild | null = await startApp(args);
  const device = createDevice(app.url, 'faults');
  try {
    await signInDevice(device, '+12025552000', 'Offline device');
    device.goOffline();
    const titles: string[] = [];
    let campaign: number | null = null;
    for (let i = 0; i < OFFLINE_ITEMS; i++) {
      const title = `offline-${i}`;
      titles.push(title);
      // Campaigns with todos under them, so the replay also maps temporary parent ids to real ones.
      const created = await device.client.items.create(
        i % 10 === 0 ? { title, type: 'campaign' } : { title, type: 'todo', parent_id: campaign },
      );
      if (i % 10 === 0) campaign = created.id;
    }
    const queued = await device.client.db.syncQueue.count();
    info(subject, 'queued offline', fmt.count(queued));

    // Kill the server 0-30 ms after the device sends a write a third of the way in, so the kill
    // lands while that write or the next one is in flight (or between them).
    const killAt = Math.floor(OFFLINE_ITEMS / 3);
    let writes = 0;
    let killed: Promise<void> | null = null;
    const running = app;
    device.control.failNext = {
      match: (method) => {
        if (method !== 'GET' && ++writes === killAt) {
          killed = sleep(Math.floor(Math.random() * 30)).then(() => running.kill());
        }
        return false;
      },
      status: 500,
    };
    device.goOnline();
    const first = await device.client.engine.sync();
    if (killed) await killed;
    device.control.failNext = null;
    info(
      subject,
      'killed at write',
      `${killAt} (${writes} sent; first sync ${first.error ? 'failed' : 'ended'})`,
    );
    const queueAfterKill = await device.client.db.syncQueue.count();
    info(subject, 'queue after kill', fmt.count(queueAfterKill));

    const restartedAt = Date.now();
    app = await startApp(args);
    info(subject, 'restart (PGlite recovery)', fmt.ms(Date.now() - restartedAt));
    // More on the server than the device saw acknowledged means the write in flight committed and
    // only its answer was lost: the replay must then repeat it without making a second item.
    const committed = (await serverItems(device)).length;
    info(
      subject,
      'on server at restart',
      `${committed} (device saw ${queued - queueAfterKill} acknowledged)`,
    );
    let rounds = 0;
    for (; rounds < 30; rounds++) {
      const result = await device.client.engine.sync();
      if (!result.error && (await device.client.db.syncQueue.count()) === 0) break;
      await sleep(200);
    }
    const remaining = await device.client.db.syncQueue.count();
    const onServer = await serverItems(device);
    const counts = new Map<string, number>();
    for (const item of onServer) counts.set(item.title, (counts.get(item.title) ?? 0) + 1);
    const lost = titles.filter((t) => !counts.has(t)).length;
    const doubled = [...counts.values()].filter((n) => n > 1).length;
    const shape = (i: { id: number; title: string; parent_id: number | null; version: number }) =>
      `${i.id}|${i.title}|${i.parent_id}|${i.version}`;
    const local = (await device.client.db.items.toArray()).filter((i) => i._deleted === 0);
    const serverSet = onServer.map(shape).sort();
    const localSet = local.map(shape).sort();
    const differ =
      serverSet.filter((s) => !localSet.includes(s)).length +
      localSet.filter((s) => !serverSet.includes(s)).length;
    const wrongParent = onServer.filter((i) => {
      const n = Number(i.title.split('-')[1]);
      return n % 10 !== 0 && onServer.find((p) => p.id === i.parent_id)?.title !== `offline-${n - (n % 10)}`;
    }).length;

    info(subject, 'sync rounds after restart', fmt.count(rounds + 1));
    check({ subject, metric: 'queue left', value: fmt.count(remaining), budget: '= 0', ok: remaining === 0 });
    check({ subject, metric: 'lost', value: fmt.count(lost), budget: '= 0', ok: lost === 0 });
    check({ subject, metric: 'doubled', value: fmt.count(doubled), budget: '= 0', ok: doubled === 0 });
    check({
      subject,
      metric: 'wrong parent',
      value: fmt.count(wrongParent),
      budget: '= 0',
      ok: wrongParent === 0,
    });
    check({ subject, metric: 'device ≠ server', value: fmt.count(differ), budget: '= 0', ok: differ === 0 });
    info(subject, 'items on server', fmt.count(onServer.length));
  } finally {
    device.client.close();
    await app?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

export async function run(args: string[]): Promise<void> {
  const all = args.length === 0;
  if (all || args.includes('pg-restart')) await pgRestart();
  if (all || args.includes('sigkill')) await sigkillReplay();
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await run(process.argv.slice(2));
}
