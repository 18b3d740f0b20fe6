/**
 * Issue 64 'Budgets': `npm run bench -- attachments [--pairs N] [--rounds N] [--edits N]
 * [--only upload,parallel,edit] [--profile DIR] [--pg]`. The real server (`src/server/index.ts`, PGlite in a temporary
 * DATA_DIR, files under DATA_DIR/files) runs in its own process on a port; every figure is set
 * beside a reference measured in the same run, alternating (A B A B …), as the median of the
 * per-pair ratios with their spread (min–max).
 *
 *  1. upload: a 10 MB file attached (POST /api/items/{id}/attachments, the multipart form as one
 *     Blob, sent as undici sends the reference's Blob; a signed-in owner) against a raw PUT of the same bytes to a bare Fastify 5 route in
 *     another process that streams the body to a file (bench/lib/rawPutServer.ts); --pairs (default
 *     9) after two unrecorded pairs. Budget ≤ 1.2×. Beside it, each server's own CPU time per request
 *     (/proc), steadier than the wall clock on a busy machine, and the same two requests with a 1 KB
 *     file (each side's cost per request, so the rest is its cost per byte); --profile DIR writes the
 *     app server's V8 CPU profile there (open it in Chrome DevTools' Performance panel), and
 *     BENCH_NODE_ARGS passes other flags to its Node (e.g. --trace-gc).
 *  2. parallel: ten 25 MB uploads at once by one person (sent from a worker thread, so their sending
 *     never delays the timing thread) while another person edits a todo of theirs and lists their
 *     items in a loop (the edit makes every list a database read, not a read-cache answer); the GETs
 *     are timed. The server's resident memory (/proc/<pid>/status VmRSS, sampled every 10 ms, and the
 *     kernel's own high-water mark VmHWM after a reset through clear_refs) before and at the peak.
 *     Reference: the same loop with no upload running, alternating, --rounds (default 3) of each.
 *     Budgets: growth < 60 MB (the highest peak of any round against the resident size before the
 *     first), the other person's GET p99 beside the uploads < 100 ms; the p99 ratio is reported.
 *  3. edit: in Chromium, a device of the app's own data layer (bench/browser/attachments.ts) attaches
 *     a 25 MB file with `attachments.add`, its uploads throttled through CDP to 25 MB in 10 s; two
 *     seconds into the upload's request it edits an item's title with `items.update`, and the bench
 *     polls GET /api/items/{id} from Node until the server has the title. Reference: the same edit with
 *     no upload running, alternating, --edits (default 7) after one unrecorded pair. Budget: every
 *     edit with an upload running on the server within 1,000 ms; the ratio is reported.
 *
 * --profile DIR applies to the server of figures 1 and 2 (one profile file each). --pg runs every
 * app server on a new database of the PostgreSQL cluster (TEST_DATABASE_URL, default the local one),
 * dropped after; PGlite in DATA_DIR otherwise.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { chromium, type Page, type Request } from 'playwright-core';
import { throwawayPostgres } from '../e2e/lib/servers';
import { chromiumArgs, chromiumAvailable, chromiumPath } from '../scripts/lib/chromium';
import { repoRoot } from '../scripts/lib/paths';
import { type HttpSession, signInOverHttp } from '../testkit/childServer';
import { buildPage } from './clientBrowser';
import { numberArg, pageApi } from './lib/pageApi';
import { ms, type Pairs, ratioText, times } from './lib/pairs';
import { pgReachable, pgUrl } from './lib/pg';
import { check, heading, info, printAlternatingSummary, skip } from './lib/report';
import { median, percentile as quantileOf } from './lib/stats';

const MIB = 1024 * 1024;
/** Figure 1's file. */
const UPLOAD_BYTES = 10 * MIB;
/** Figures 2 and 3's file: the default ATTACHMENT_MAX_BYTES, the largest a person may attach. */
const BIG_BYTES = 25 * MIB;
const PARALLEL = 10;

const BUDGET = { uploadRatio: 1.2, growthMb: 60, p99Ms: 100, editMs: 1000 } as const;

/** Figure 3: the page's uploads go at this many bytes a second (25 MB in about 10 s). */
const THROTTLE_BYTES_PER_S = BIG_BYTES / 10;
/** Figure 3: how far into the upload's request the edit is made. */
const EDIT_INTO_UPLOAD_MS = 2_000;
/** Figure 3: the pause after an upload before the next reference edit. */
const SETTLE_MS = 2_000;

const now = () => performance.now();
const sleep = (milliseconds: number) => new Promise((resolve) => setTimeout(resolve, milliseconds));
const mb = (bytes: number) => `${(bytes / MIB).toFixed(1)} MB`;

type Row = string[];

/** The app's server process: where it listens, its pid (for /proc), and how to stop it. */
interface AppProcess {
  url: string;
  pid: number;
  stop(): Promise<void>;
}

/**
 * The real server as `npm start` runs it (src/server/index.ts), in its own process, on a fresh
 * embedded database in `work`; `nodeArgs` go to its Node (a CPU profile: not allowed in NODE_OPTIONS).
 */
async function startServer(
  work: string,
  env: Record<string, string> = {},
  nodeArgs: string[] = [],
): Promise<AppProcess> {
  const dataDir = path.join(work, 'data');
  await mkdir(dataDir, { recursive: true });
  // --pg: the server's database is a new one on the PostgreSQL cluster, dropped when it stops.
  const database = onPostgres ? await throwawayPostgres(pgUrl()) : null;
  // BENCH_NODE_ARGS passes flags to the server's Node (as bench/lib/child.ts does), e.g. "--trace-gc";
  // what the server prints after it is ready is then shown.
  const extraArgs = (process.env.BENCH_NODE_ARGS ?? '').split(' ').filter(Boolean);
  const child = spawn(
    process.execPath,
    [...extraArgs, ...nodeArgs, '--import', 'tsx', path.join(repoRoot, 'src/server/index.ts')],
    {
      cwd: repoRoot,
      stdio: ['ignore', 'pipe', 'inherit'],
      env: {
        ...process.env,
        NODE_ENV: 'production',
        PORT: '0',
        HOST: '127.0.0.1',
        DATA_DIR: dataDir,
        DATABASE_URL: database?.url ?? '',
        CLIENT_DIR: path.join(work, 'no-client'),
        LOG_LEVEL: 'error',
        SEED_SAMPLE_USERS: 'false',
        // One run sends hundreds of writes a minute on purpose.
        RATE_LIMIT_WRITES_PER_MINUTE: '0',
        RATE_LIMIT_LOGINS_PER_MINUTE: '0',
        RATE_LIMIT_ANONYMOUS_WRITES_PER_MINUTE: '0',
        ATTACHMENT_MAX_BYTES: String(BIG_BYTES),
        ...env,
      },
    },
  );
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null)
      await new Promise<void>((resolve) => {
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
        setTimeout(() => child.kill('SIGKILL'), 15_000).unref();
      });
    await database?.drop();
  };
  const url = await new Promise<string>((resolve, reject) => {
    let output = '';
    const timer = setTimeout(() => {
      void stop();
      reject(new Error('the app did not start within 180 s'));
    }, 180_000);
    child.stdout?.setEncoding('utf8');
    const read = (chunk: string) => {
      output += chunk;
      const match = /Outpost is running on http:\/\/localhost:(\d+)/.exec(output);
      if (!match) return;
      clearTimeout(timer);
      // Read on (shown with BENCH_NODE_ARGS, else dropped), so its pipe never fills.
      child.stdout?.off('data', read);
      if (extraArgs.length > 0) child.stdout?.pipe(process.stdout);
      else child.stdout?.resume();
      resolve(`http://127.0.0.1:${match[1]}`);
    };
    child.stdout?.on('data', read);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the app exited with code ${code} before it listened`));
    });
  });
  if (child.pid === undefined) throw new Error('the app has no pid');
  return { url, pid: child.pid, stop };
}

/** --profile DIR: the app server writes a V8 CPU profile there when it stops. */
const profileArgs = (dir: string | null) =>
  dir ? ['--cpu-prof', `--cpu-prof-dir=${path.resolve(dir)}`] : [];

/** bench/lib/rawPutServer.ts in its own process: the upload's reference. */
async function startRawServer(
  folder: string,
): Promise<{ url: string; pid: number | undefined; stop(): Promise<void> }> {
  const child: ChildProcess = spawn(
    process.execPath,
    ['--import', 'tsx', path.join(repoRoot, 'bench/lib/rawPutServer.ts'), folder],
    { cwd: repoRoot, stdio: ['pipe', 'pipe', 'inherit'], env: { ...process.env, NODE_ENV: 'production' } },
  );
  const stop = () =>
    new Promise<void>((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve();
      child.once('exit', () => resolve());
      child.stdin?.end();
      setTimeout(() => child.kill('SIGKILL'), 10_000).unref();
    });
  const url = await new Promise<string>((resolve, reject) => {
    let buffer = '';
    child.stdout?.setEncoding('utf8');
    child.stdout?.on('data', (chunk: string) => {
      buffer += chunk;
      const newline = buffer.indexOf('\n');
      if (newline >= 0) resolve((JSON.parse(buffer.slice(0, newline)) as { url: string }).url);
    });
    child.once('exit', (code) => reject(new Error(`the raw PUT server exited with code ${code}`)));
  });
  return { url, pid: child.pid, stop };
}

async function api<T>(
  base: string,
  who: HttpSession,
  method: 'GET' | 'POST' | 'PATCH',
  url: string,
  body?: unknown,
): Promise<T> {
  const response = await fetch(`${base}${url}`, {
    method,
    headers: { ...who.headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  if (response.status >= 400)
    throw new Error(`${method} ${url} answered ${response.status}: ${text.slice(0, 300)}`);
  return JSON.parse(text) as T;
}

const createTodo = (base: string, who: HttpSession, title: string) =>
  api<{ id: number }>(base, who, 'POST', '/api/items', { title, type: 'todo' });

/**
 * One attachment sent as the app's devices send it: multipart, part `file`, the device's uuid. The
 * form is one Blob (its boundary and part header around the file's bytes), so undici sends it as it
 * sends the raw PUT's Blob, in one write: its FormData body goes through a web stream chunk by chunk,
 * a cost of the sending side (a browser's XHR has no such cost) that is not the server's.
 */
async function uploadOnce(base: string, who: HttpSession, itemId: number, file: Blob): Promise<number> {
  const boundary = `----outpost-bench-${randomUUID()}`;
  const form = new Blob([
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="bench-upload.bin"\r\n`,
    'Content-Type: application/octet-stream\r\n\r\n',
    file,
    `\r\n--${boundary}--\r\n`,
  ]);
  const started = now();
  const response = await fetch(`${base}/api/items/${itemId}/attachments?uuid=${randomUUID()}`, {
    method: 'POST',
    headers: { ...who.headers, 'content-type': `multipart/form-data; boundary=${boundary}` },
    body: form,
  });
  const text = await response.text();
  const elapsed = now() - started;
  if (response.status !== 201)
    throw new Error(`the upload answered ${response.status}: ${text.slice(0, 300)}`);
  const { size } = JSON.parse(text) as { size: number };
  if (size !== file.size) throw new Error(`the server stored ${size} bytes of ${file.size}`);
  return elapsed;
}

async function rawPutOnce(rawUrl: string, file: Blob): Promise<number> {
  const started = now();
  const response = await fetch(`${rawUrl}/raw`, {
    method: 'PUT',
    headers: { 'content-type': 'application/octet-stream' },
    body: file,
  });
  const text = await response.text();
  const elapsed = now() - started;
  if (response.status !== 201) throw new Error(`the raw PUT answered ${response.status}: ${text}`);
  const { size } = JSON.parse(text) as { size: number };
  if (size !== file.size) throw new Error(`the raw PUT wrote ${size} bytes of ${file.size}`);
  return elapsed;
}

const pairsOf = (): Pairs => ({ ref: [], app: [], ratios: [] });

/**
 * CPU milliseconds a process has run, every thread summed, from the scheduler's nanosecond counts
 * (/proc/<pid>/task/<tid>/schedstat; /proc/<pid>/stat counts 10 ms ticks); null off Linux.
 */
function cpuMsOf(pid: number | undefined): number | null {
  if (pid === undefined) return null;
  try {
    let ns = 0;
    for (const tid of readdirSync(`/proc/${pid}/task`)) {
      try {
        ns += Number(readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'utf8').split(' ')[0]);
      } catch {
        // A thread that ended between the listing and the read.
      }
    }
    return ns / 1e6;
  } catch {
    return null;
  }
}

/** Figure 1: the app's upload against a raw PUT of the same bytes, alternating. */
async function uploadFigure(pairs: number, rows: Row[], profileDir: string | null): Promise<void> {
  heading(`attachments: a ${mb(UPLOAD_BYTES)} upload vs a raw PUT to a bare Fastify route (${pairs} pairs)`);
  const work = await mkdtemp(path.join(tmpdir(), 'outpost-attachments-upload-'));
  const rawFolder = path.join(work, 'raw');
  await mkdir(rawFolder);
  // --profile DIR: the app server writes a V8 CPU profile there when it stops (open it in DevTools).
  const server = await startServer(work, {}, profileArgs(profileDir));
  const raw = await startRawServer(rawFolder);
  try {
    const owner = await signInOverHttp(server.url, '+15555550641', 'Upload Owner');
    const item = await createTodo(server.url, owner, 'Holds the uploads');
    // The same bytes both ways; the store keeps one copy of them, as the reference keeps none.
    const file = new Blob([randomBytes(UPLOAD_BYTES)]);
    const p = pairsOf();
    // The servers' own CPU time per request too: on a busy machine it varies less than the wall clock.
    const cpu = pairsOf();
    const timedCpu = async (pid: number | undefined, work: () => Promise<number>) => {
      const before = cpuMsOf(pid);
      const elapsed = await work();
      const after = cpuMsOf(pid);
      return { elapsed, cpuMs: before === null || after === null ? Number.NaN : after - before };
    };
    // Where the difference lies: the same two requests with a 1 KB file give each side's cost per
    // request (session, database, answer); the rest of the big one's is its cost per byte.
    const tiny = new Blob([randomBytes(1024)]);
    const tinyCpu = pairsOf();
    const tinyWall = pairsOf();
    for (let round = -2; round < pairs; round++) {
      const r = await timedCpu(raw.pid, () => rawPutOnce(raw.url, file));
      const a = await timedCpu(server.pid, () => uploadOnce(server.url, owner, item.id, file));
      const tr = await timedCpu(raw.pid, () => rawPutOnce(raw.url, tiny));
      const ta = await timedCpu(server.pid, () => uploadOnce(server.url, owner, item.id, tiny));
      if (round < 0) continue;
      tinyCpu.ref.push(tr.cpuMs);
      tinyCpu.app.push(ta.cpuMs);
      tinyCpu.ratios.push(ta.cpuMs / tr.cpuMs);
      tinyWall.ref.push(tr.elapsed);
      tinyWall.app.push(ta.elapsed);
      tinyWall.ratios.push(ta.elapsed / tr.elapsed);
      p.ref.push(r.elapsed);
      p.app.push(a.elapsed);
      p.ratios.push(a.elapsed / r.elapsed);
      cpu.ref.push(r.cpuMs);
      cpu.app.push(a.cpuMs);
      cpu.ratios.push(a.cpuMs / r.cpuMs);
    }
    const subject = `${mb(UPLOAD_BYTES)} upload vs raw PUT of the same bytes`;
    info(subject, 'app / raw PUT median', `${ms(median(p.app))} / ${ms(median(p.ref))}`);
    info(
      subject,
      'each pair (app / raw)',
      p.app.map((a, i) => `${a.toFixed(0)}/${p.ref[i]?.toFixed(0)}`).join(' '),
    );
    info(
      subject,
      'server CPU app / raw PUT',
      `${ms(median(cpu.app))} / ${ms(median(cpu.ref))}, ratio ${ratioText(cpu)}`,
    );
    info(
      subject,
      'a 1 KB file app / raw',
      `${ms(median(tinyWall.app))} / ${ms(median(tinyWall.ref))}; CPU ${ms(median(tinyCpu.app))} / ${ms(median(tinyCpu.ref))}`,
    );
    info(
      subject,
      `CPU per ${mb(UPLOAD_BYTES)} beyond 1 KB`,
      `app ${ms(median(cpu.app) - median(tinyCpu.app))} / raw ${ms(median(cpu.ref) - median(tinyCpu.ref))}`,
    );
    info(subject, 'app throughput', `${(UPLOAD_BYTES / MIB / (median(p.app) / 1000)).toFixed(0)} MB/s`);
    const ok = check({
      subject,
      metric: `ratio (${p.ratios.length} pairs)`,
      value: ratioText(p),
      budget: `≤ ${BUDGET.uploadRatio}×`,
      ok: median(p.ratios) <= BUDGET.uploadRatio,
    });
    rows.push([
      subject,
      ms(median(p.app)),
      ms(median(p.ref)),
      ratioText(p),
      `≤ ${BUDGET.uploadRatio}×`,
      ok ? 'PASS' : 'FAIL',
    ]);
  } finally {
    await raw.stop();
    await server.stop();
    await rm(work, { recursive: true, force: true });
  }
}

/** Resident memory of a process in bytes, now and at its high-water mark (Linux /proc). */
function memoryOf(pid: number): { rss: number; hwm: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (key: string) =>
    Number(new RegExp(`^${key}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? Number.NaN);
  return { rss: kb('VmRSS') * 1024, hwm: kb('VmHWM') * 1024 };
}

/** Resets the kernel's high-water mark of `pid`'s resident memory; false where that is not allowed. */
function resetPeak(pid: number): boolean {
  try {
    writeFileSync(`/proc/${pid}/clear_refs`, '5');
    return true;
  } catch {
    return false;
  }
}

/** Samples `pid`'s resident memory every 10 ms until stopped; answers the highest seen. */
function sampleMemory(pid: number): { stop(): number } {
  let peak = memoryOf(pid).rss;
  const timer = setInterval(() => {
    peak = Math.max(peak, memoryOf(pid).rss);
  }, 10);
  return {
    stop() {
      clearInterval(timer);
      return Math.max(peak, memoryOf(pid).rss);
    },
  };
}

const percentile = (values: readonly number[], p: number) => quantileOf(values, p / 100);

/**
 * The other person at work until `until` says stop: an edit of their own todo, then their list,
 * whose latency is what counts (the edit makes the list a database read).
 */
async function otherPersonLoop(
  base: string,
  reader: HttpSession,
  todoId: number,
  until: () => boolean,
): Promise<{ gets: number[]; edits: number[] }> {
  const gets: number[] = [];
  const edits: number[] = [];
  for (let n = 0; !until(); n++) {
    const editing = now();
    await api(base, reader, 'PATCH', `/api/items/${todoId}`, { title: `Mine, edit ${n}` });
    const listing = now();
    edits.push(listing - editing);
    await api(base, reader, 'GET', '/api/items?per_page=20');
    gets.push(now() - listing);
  }
  return { gets, edits };
}

/**
 * The uploading person, in a worker thread with its own event loop: on each message it sends
 * `count` uploads of `bytes` at once (each file's first 64 bytes random, so every one is new bytes
 * to the store) and answers how long they took.
 */
const UPLOADER = `
const { parentPort, workerData } = require('node:worker_threads');
const { randomBytes, randomUUID } = require('node:crypto');
const { url, headers, itemId, count, bytes } = workerData;
const body = new Blob([randomBytes(bytes)]).slice(64);
async function one() {
  const form = new FormData();
  form.append('file', new Blob([randomBytes(64), body]), 'parallel.bin');
  const started = performance.now();
  const response = await fetch(url + '/api/items/' + itemId + '/attachments?uuid=' + randomUUID(), {
    method: 'POST', headers, body: form,
  });
  const text = await response.text();
  if (response.status !== 201) throw new Error('an upload answered ' + response.status + ': ' + text.slice(0, 300));
  if (JSON.parse(text).size !== bytes) throw new Error('the server stored another size: ' + text.slice(0, 300));
  return performance.now() - started;
}
parentPort.on('message', async (n) => {
  try {
    const started = performance.now();
    const each = await Promise.all(Array.from({ length: n }, one));
    parentPort.postMessage({ ms: performance.now() - started, each });
  } catch (error) {
    parentPort.postMessage({ error: String((error && error.stack) || error) });
  }
});
parentPort.postMessage({ ready: true });
`;

interface Uploader {
  send(n: number): Promise<{ ms: number; each: number[] }>;
  close(): Promise<void>;
}

async function startUploader(base: string, who: HttpSession, itemId: number): Promise<Uploader> {
  const worker = new Worker(UPLOADER, {
    eval: true,
    workerData: { url: base, headers: who.headers, itemId, count: PARALLEL, bytes: BIG_BYTES },
  });
  type Message = { ready?: true; ms?: number; each?: number[]; error?: string };
  const next = () =>
    new Promise<Message>((resolve, reject) => {
      worker.once('message', resolve);
      worker.once('error', reject);
    });
  await next();
  return {
    async send(n) {
      const answer = next();
      worker.postMessage(n);
      const m = await answer;
      if (m.error) throw new Error(m.error);
      return { ms: m.ms ?? Number.NaN, each: m.each ?? [] };
    },
    close: () => worker.terminate().then(() => undefined),
  };
}

/** Figure 2: memory and another person's latency during ten parallel 25 MB uploads. */
async function parallelFigure(rounds: number, rows: Row[], profileDir: string | null): Promise<void> {
  heading(
    `attachments: ${PARALLEL} parallel ${mb(BIG_BYTES)} uploads: server memory, another person's GET p99 (${rounds} rounds)`,
  );
  const work = await mkdtemp(path.join(tmpdir(), 'outpost-attachments-parallel-'));
  const server = await startServer(work, {}, profileArgs(profileDir));
  const { pid } = server;
  let uploader: Uploader | null = null;
  try {
    const owner = await signInOverHttp(server.url, '+15555550642', 'Parallel Uploader');
    const reader = await signInOverHttp(server.url, '+15555550643', 'Other Person');
    const item = await createTodo(server.url, owner, 'Holds ten files');
    let todoId = 0;
    for (let n = 0; n < 40; n++) todoId = (await createTodo(server.url, reader, `Mine ${n}`)).id;
    uploader = await startUploader(server.url, owner, item.id);
    // Warm-up, not recorded: one upload and the other person's loop, so the routes' code is loaded
    // and compiled and the pools are made before the memory is first read.
    await uploader.send(1);
    const warmEnd = now() + 1_000;
    await otherPersonLoop(server.url, reader, todoId, () => now() > warmEnd);
    await sleep(1_000);

    const before = memoryOf(pid).rss;
    let hwmReset = false;
    const alone: { gets: number[]; edits: number[] } = { gets: [], edits: [] };
    const beside: { gets: number[]; edits: number[] } = { gets: [], edits: [] };
    const roundP99: Pairs = pairsOf();
    let peak = before;
    let roundMs = 3_000;
    for (let round = 0; round < rounds; round++) {
      const aloneEnd = now() + roundMs;
      const a = await otherPersonLoop(server.url, reader, todoId, () => now() > aloneEnd);
      alone.gets.push(...a.gets);
      alone.edits.push(...a.edits);

      const roundBefore = memoryOf(pid).rss;
      const cpuBefore = cpuMsOf(pid);
      hwmReset = resetPeak(pid);
      const sampler = sampleMemory(pid);
      let uploading = true;
      const loop = otherPersonLoop(server.url, reader, todoId, () => !uploading);
      const sent = await uploader.send(PARALLEL).finally(() => {
        uploading = false;
      });
      const b = await loop;
      const roundPeak = Math.max(sampler.stop(), hwmReset ? memoryOf(pid).hwm : 0);
      const cpuAfter = cpuMsOf(pid);
      const cpuText =
        cpuBefore === null || cpuAfter === null
          ? ''
          : `; server CPU ${((cpuAfter - cpuBefore) / 1000).toFixed(1)} s`;
      peak = Math.max(peak, roundPeak);
      beside.gets.push(...b.gets);
      beside.edits.push(...b.edits);
      roundMs = Math.max(3_000, sent.ms);
      const p99Alone = percentile(a.gets, 99);
      const p99Beside = percentile(b.gets, 99);
      roundP99.ref.push(p99Alone);
      roundP99.app.push(p99Beside);
      roundP99.ratios.push(p99Beside / p99Alone);
      info(
        `round ${round + 1}`,
        'uploads, memory, p99',
        `${PARALLEL} × ${mb(BIG_BYTES)} in ${ms(sent.ms)} (slowest ${ms(Math.max(...sent.each))}); RSS ${mb(roundBefore)} → peak ${mb(roundPeak)} (+${mb(roundPeak - roundBefore)}); GET p99 ${ms(p99Alone)} alone, ${ms(p99Beside)} beside (${a.gets.length} / ${b.gets.length} GETs)${cpuText}`,
      );
      await sleep(500);
    }

    const growth = peak - before;
    info(
      'server memory',
      'resident before / peak',
      `${mb(before)} / ${mb(peak)}${hwmReset ? ' (sampled and VmHWM)' : ' (sampled every 10 ms)'}`,
    );
    const memoryOk = check({
      subject: `server memory, ${PARALLEL} parallel ${mb(BIG_BYTES)} uploads`,
      metric: 'growth',
      value: mb(growth),
      budget: `< ${BUDGET.growthMb} MB`,
      ok: growth < BUDGET.growthMb * MIB,
    });
    rows.push([
      `server memory growth, ${PARALLEL} × ${mb(BIG_BYTES)} at once`,
      `+${mb(growth)}`,
      `${mb(before)} before`,
      '-',
      `< ${BUDGET.growthMb} MB`,
      memoryOk ? 'PASS' : 'FAIL',
    ]);
    const p99Alone = percentile(alone.gets, 99);
    const p99Beside = percentile(beside.gets, 99);
    const subject = "another person's GET /api/items beside the uploads";
    info(
      subject,
      'p50 alone / beside',
      `${ms(percentile(alone.gets, 50))} / ${ms(percentile(beside.gets, 50))}`,
    );
    info(
      subject,
      'their edits p99 alone / beside',
      `${ms(percentile(alone.edits, 99))} / ${ms(percentile(beside.edits, 99))}`,
    );
    info(subject, `p99 ratio per round (${rounds})`, ratioText(roundP99));
    const latencyOk = check({
      subject,
      metric: `p99 (${beside.gets.length} GETs)`,
      value: ms(p99Beside),
      budget: `< ${BUDGET.p99Ms} ms`,
      ok: p99Beside < BUDGET.p99Ms,
    });
    rows.push([
      `${subject}, p99`,
      ms(p99Beside),
      ms(p99Alone),
      `${times(p99Beside / p99Alone)} (rounds ${ratioText(roundP99)})`,
      `< ${BUDGET.p99Ms} ms`,
      latencyOk ? 'PASS' : 'FAIL',
    ]);
  } finally {
    await uploader?.close();
    await server.stop();
    await rm(work, { recursive: true, force: true });
  }
}

type PageApi = {
  setup(phone: string, name: string, bytes: number): Promise<{ items: number }>;
  attach(itemId: number): Promise<string>;
  edit(id: number, title: string): Promise<void>;
  errors(): string[];
  teardown(): void;
};
const call = pageApi<PageApi>('attachmentsBench');

const UPLOAD_PATH = /\/api\/items\/\d+\/attachments(\?|$)/;

/** The page's requests as Node sees them: when each upload and each edit of the item left and ended. */
function watchRequests(page: Page, itemId: number) {
  const uploads: { startedAt: number; endedAt: number | null; failure: string | null }[] = [];
  const patches: { startedAt: number; endedAt: number | null }[] = [];
  const upload = new Map<Request, (typeof uploads)[number]>();
  const patch = new Map<Request, (typeof patches)[number]>();
  const isPatch = (r: Request) =>
    r.method() === 'PATCH' && new URL(r.url()).pathname === `/api/items/${itemId}`;
  page.on('request', (r) => {
    if (r.method() === 'POST' && UPLOAD_PATH.test(r.url())) {
      const entry = { startedAt: now(), endedAt: null, failure: null };
      uploads.push(entry);
      upload.set(r, entry);
    } else if (isPatch(r)) {
      const entry = { startedAt: now(), endedAt: null };
      patches.push(entry);
      patch.set(r, entry);
    }
  });
  const ended = (r: Request, failure: string | null) => {
    const u = upload.get(r);
    if (u) {
      u.endedAt = now();
      u.failure = failure;
    }
    const p = patch.get(r);
    if (p) p.endedAt = now();
  };
  page.on('requestfinished', (r) => ended(r, null));
  page.on('requestfailed', (r) => ended(r, r.failure()?.errorText ?? 'failed'));
  return { uploads, patches };
}

async function waitFor(what: string, ok: () => boolean, timeoutMs: number): Promise<void> {
  const deadline = now() + timeoutMs;
  while (!ok()) {
    if (now() > deadline) throw new Error(`${what}: not within ${timeoutMs / 1000} s`);
    await sleep(5);
  }
}

/** Figure 3: a title edit while a 25 MB upload runs, until the server has it, against one without. */
async function editFigure(edits: number, rows: Row[]): Promise<void> {
  if (!chromiumAvailable()) {
    skip('attachments: title edit during an upload', `no Chromium at ${chromiumPath}`);
    return;
  }
  heading(
    `attachments: a title edit while a ${mb(BIG_BYTES)} upload runs → on the server, vs with none (${edits} pairs, Chromium)`,
  );
  const work = await mkdtemp(path.join(tmpdir(), 'outpost-attachments-edit-'));
  const clientDir = path.join(work, 'client');
  await buildPage(clientDir);
  const server = await startServer(work, { CLIENT_DIR: clientDir });
  const browser = await chromium.launch({ executablePath: chromiumPath, args: chromiumArgs });
  try {
    const phone = '+15555550644';
    const name = 'Editing Uploader';
    const watcher = await signInOverHttp(server.url, phone, name);
    const item = await createTodo(server.url, watcher, 'Title 0');
    const context = await browser.newContext({ serviceWorkers: 'block' });
    const page = await context.newPage();
    page.on('pageerror', (e) => console.error('page error:', e.message));
    await page.goto(`${server.url}/`);
    await page.waitForFunction(() => 'attachmentsBench' in window);
    const setup = await call(page, 'setup', phone, name, BIG_BYTES);
    info('device', 'items pulled', String(setup.items));
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.emulateNetworkConditions', {
      offline: false,
      latency: 0,
      downloadThroughput: -1,
      uploadThroughput: THROTTLE_BYTES_PER_S,
    });
    const seen = watchRequests(page, item.id);

    let n = 0;
    /** Edits the title through the page until GET /api/items/{id} answers it: ms from the edit. */
    const timedEdit = async () => {
      const title = `Title ${++n}`;
      const patchesBefore = seen.patches.length;
      const started = now();
      await call(page, 'edit', item.id, title);
      const local = now() - started;
      for (;;) {
        const got = await api<{ title: string }>(server.url, watcher, 'GET', `/api/items/${item.id}`);
        if (got.title === title) break;
        if (now() - started > 30_000) throw new Error(`the edit "${title}" did not reach the server in 30 s`);
        await sleep(5);
      }
      const arrived = now();
      // The page's answer event may come after the server has the title; the breakdown waits for it.
      await waitFor('the edit’s PATCH', () => seen.patches[patchesBefore]?.endedAt != null, 30_000);
      const sent = seen.patches[patchesBefore];
      return {
        ms: arrived - started,
        local,
        leftMs: sent ? sent.startedAt - started : Number.NaN,
        patchMs: sent?.endedAt ? sent.endedAt - sent.startedAt : Number.NaN,
        arrivedAt: arrived,
      };
    };

    const p = pairsOf();
    const left: number[] = [];
    const leftRef: number[] = [];
    const uploadSeconds: number[] = [];
    let inFlight = 0;
    for (let round = -1; round < edits; round++) {
      // The device settles after an upload (its row swapped for the server's, its bytes dropped, a
      // pull): the reference edit is made on a quiet device, as the one during the upload is.
      await sleep(SETTLE_MS);
      const ref = await timedEdit();
      const uploadsBefore = seen.uploads.length;
      await call(page, 'attach', item.id);
      await waitFor('the upload request', () => seen.uploads.length > uploadsBefore, 30_000);
      const upload = seen.uploads[uploadsBefore]!;
      await sleep(EDIT_INTO_UPLOAD_MS);
      const during = await timedEdit();
      const stillRunning = upload.endedAt === null || upload.endedAt > during.arrivedAt;
      await waitFor('the upload', () => upload.endedAt !== null, 120_000);
      if (upload.failure) throw new Error(`the upload failed: ${upload.failure}`);
      const took = (upload.endedAt! - upload.startedAt) / 1000;
      if (round < 0) continue;
      if (stillRunning) inFlight++;
      uploadSeconds.push(took);
      left.push(during.leftMs);
      leftRef.push(ref.leftMs);
      p.ref.push(ref.ms);
      p.app.push(during.ms);
      p.ratios.push(during.ms / ref.ms);
      info(
        `pair ${round + 1}`,
        'edit → server',
        `${ms(during.ms)} during the upload (stored on the device in ${ms(during.local)}; its PATCH left after ${ms(during.leftMs)} and took ${ms(during.patchMs)}), ${ms(ref.ms)} without (PATCH left after ${ms(ref.leftMs)}, took ${ms(ref.patchMs)}); upload ${took.toFixed(1)} s`,
      );
    }
    const errors = await call(page, 'errors');
    if (errors.length > 0) console.error('page errors:', errors.join('\n'));
    await call(page, 'teardown');
    await context.close();

    info(
      'upload',
      'throttle, time',
      `CDP upload ${mb(THROTTLE_BYTES_PER_S)}/s; ${mb(BIG_BYTES)} took ${median(uploadSeconds).toFixed(1)} s (median)`,
    );
    info('upload', 'running when the edit arrived', `${inFlight} of ${p.app.length} edits`);
    const subject = `title edit → server while a ${mb(BIG_BYTES)} upload runs`;
    info(subject, 'median with / without', `${ms(median(p.app))} / ${ms(median(p.ref))}`);
    info(
      subject,
      'edit → its PATCH leaves, median with / without',
      `${ms(median(left))} / ${ms(median(leftRef))}`,
    );
    info(subject, `ratio (${p.ratios.length} pairs)`, ratioText(p));
    const worst = Math.max(...p.app);
    const ok = check({
      subject,
      metric: `slowest of ${p.app.length}`,
      value: ms(worst),
      budget: `≤ ${BUDGET.editMs} ms`,
      ok: worst <= BUDGET.editMs && inFlight === p.app.length,
    });
    rows.push([
      `${subject} (median; slowest ${ms(worst)})`,
      ms(median(p.app)),
      ms(median(p.ref)),
      ratioText(p),
      `≤ ${BUDGET.editMs} ms`,
      ok ? 'PASS' : 'FAIL',
    ]);
  } finally {
    await browser.close();
    await server.stop();
    await rm(work, { recursive: true, force: true });
  }
}

/** --pg: the app servers run on PostgreSQL (TEST_DATABASE_URL's cluster) instead of PGlite. */
let onPostgres = false;

export async function run(args: string[] = []): Promise<void> {
  const started = Date.now();
  onPostgres = args.includes('--pg');
  if (onPostgres) {
    const unreachable = await pgReachable();
    if (unreachable) throw new Error(unreachable);
  }
  const load0 = loadavg();
  const onlyAt = args.indexOf('--only');
  const only = new Set(onlyAt >= 0 ? (args[onlyAt + 1] ?? '').split(',') : ['upload', 'parallel', 'edit']);
  const rows: Row[] = [];
  const profileAt = args.indexOf('--profile');
  const profileDir = profileAt >= 0 ? (args[profileAt + 1] ?? '.tmp/profile') : null;
  if (only.has('upload')) await uploadFigure(Math.max(7, numberArg(args, '--pairs', 9)), rows, profileDir);
  if (only.has('parallel'))
    await parallelFigure(Math.max(1, numberArg(args, '--rounds', 3)), rows, profileDir);
  if (only.has('edit')) await editFigure(Math.max(3, numberArg(args, '--edits', 7)), rows);
  printAlternatingSummary('attachments (issue 64): app against its reference', rows, load0, started);
}
