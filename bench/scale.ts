/**
 * `npm run bench -- scale [--rounds N] [--sizes 10000,100000] [--loads N] [--quick] [--sync-only] [--timeline] [--profile FILE] [--pg | --no-pg |
 * --pg-only]`: the app at
 * scale, measured in the running app with its screens mounted (issue 19). A report: it prints every
 * figure beside the issue's budget with ✓/✗ and never fails on a timing.
 *
 * The built app (dist/client, `vite build` when stale) is served by the real server (`npm start`'s
 * entry, bench/lib/appServer.ts) on PGlite, and on PostgreSQL when TEST_DATABASE_URL is set or --pg is
 * given. Before the server starts, one account per size is seeded with set-based SQL
 * (bench/lib/seed.ts seedScaleAccount: campaigns of 30 tasks, tasks with up to a few hundred todos,
 * one task with 2,000 todos, thousands of top-level items, a third completed). Rounds alternate the
 * sizes (10k, 100k, 10k, 100k …); each round uses fresh browser contexts (fresh profiles) in real
 * Chromium (/usr/bin/chromium, never downloaded):
 *
 *  a. reference: a bare paged pull of the same account (GET /api/sync page by page, one raw
 *     IndexedDB transaction with the app's indexes, the rows carrying the list keys the app's
 *     middleware gives them and the progress counters computed once, as client-browser's reference
 *     stores them; bench/browser/scalePage.ts rawPull with bench/browser/rawKeys.ts), then
 *     the app: sign-in through the real /login screen until every item is stored and Home shows a
 *     row. Also when Home's first row was on screen (the frame after it entered the DOM painted) and
 *     whether a 'Syncing N of M' line was seen;
 *  b. main-thread tasks over 50 ms and over 100 ms during that sync, and the longest;
 *  c. peak JS heap during that sync (CDP Runtime.getHeapUsage, sampled every 200 ms);
 *  d. page load to the first item row for Home, Queue, Active, Done, My List, a campaign and the
 *     2,000-todo task, the data already local (median of 3 loads a round), once the machine has
 *     settled after the sync (Chromium, the server and PostgreSQL under 15% of a core for 2 s, at
 *     most 60 s: after 100,000 rows are written the browser's storage and the server work on for a
 *     while, and loads timed meanwhile measured that);
 *  e. an inline title edit (Enter) until its row shows the new title, with Home open, with the
 *     task page open, with a campaign page open (its heading: the rows there are links), and on the
 *     task page with Home open in a second tab of the same profile (whose live queries run on every
 *     write too; search is timed there as well);
 *  f. search (Ctrl+K, a fresh dialog each time), with the server's search failing so that the
 *     device's answers (online and signed in, the spec asks the server: timed too, without a budget),
 *     from the dialog's 300 ms typing debounce firing (the page script notes when a 300 ms timer
 *     fires) until results show: the first in the profile, the median of later ones, the first after
 *     each edit; and as typed, from the input event.
 *
 * `--sync-only`: the figures a–c alone; `--timeline`: what the page asked for between the Sign In click
 * and Home's first row, with the app's User Timing marks; `--profile FILE`: the page's V8 CPU profile from that
 * click until the sync's end, written to FILE with the click's time (open it in DevTools), and the
 * page's long tasks beside it (FILE.tasks.json, on the profile's clock). `--quick`: one round of 10,000 and 30,000 items, for checking the bench itself. `--loads N`: page
 * loads per screen and round (3).
 *
 * Read from outside, as the app has no hooks for a bench: the sync's end from the app's IndexedDB
 * (a count, opened only once the app has created it), its progress line by matching the page's text,
 * an edit's end and search results by DOM mutations, and the search debounce by the firing of a
 * 300 ms timer. Timings never fail the run; a step that breaks is reported as n/a with a screenshot.
 */
import { writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';
import { chromiumArgs, chromiumAvailable, chromiumPath } from '../scripts/lib/chromium';
import { repoRoot } from '../scripts/lib/paths';
import { type Database, openDatabase } from '../src/server/db/client';
import { openTestDatabase } from '../testkit/server';
import { OutpostDb } from './lib/appData';
import { type AppServer, ONBOARDED_STORAGE, startAppServer } from './lib/appServer';
import { cpuSecondsWhere } from './lib/cpu';
import { pgReachable, pgUrl } from './lib/pg';
import { check, heading, skip, table } from './lib/report';
import { type ScaleAccount, seedScaleAccount } from './lib/seed';
import { median } from './lib/stats';

type ScaleApi = {
  probe(): Promise<{ stored: number; row: boolean; progress: string | null; heap: number }>;
  searchAfterDebounce(): number;
  rawPull(indexes: IndexSpec[]): Promise<{ ms: number; count: number; pages: number; networkMs: number }>;
  firstRowAt(): number | null;
  signInToFirstRow(): number | null;
  signInTimeline(): string[];
  armEdit(container: string, title: string): void;
  armSearch(): void;
  result(): Promise<number>;
};

interface IndexSpec {
  name: string;
  keyPath: string | string[];
  unique: boolean;
}

interface LongTask {
  at: number;
  duration: number;
}

const SCREENS = [
  ['Home', '/'],
  ['Queue', '/queue'],
  ['Active', '/active'],
  ['Done', '/completed'],
  ['My List', '/my-list'],
  ['a campaign', 'campaign'],
  ['the 2,000-todo task', 'task'],
] as const;
const EDITS_PER_SCREEN = 3;
const WARM_SEARCHES = 7;
const QUERIES = ['paint', 'fence tape', 'budget', 'review draft', 'Campaign 1', 'ship', 'call plan', 'order'];

interface Options {
  rounds: number;
  /** Page loads per screen and round (--loads, 3). */
  loads: number;
  sizes: number[];
  engines: Array<'pglite' | 'pg'>;
  /** --sync-only: the first sync's figures (a–c) alone, no screens, edits or searches. */
  syncOnly: boolean;
  /** --timeline: the page's requests from the Sign In click to Home's first row. */
  timeline: boolean;
  /** --profile FILE: where the page's CPU profile of its sign-in and first sync goes. */
  profile: string | undefined;
}

function parseOptions(args: string[]): Options {
  const value = (name: string) => {
    const at = args.indexOf(name);
    return at >= 0 ? args[at + 1] : undefined;
  };
  const quick = args.includes('--quick');
  const rounds = Number(value('--rounds') ?? (quick ? 1 : 2));
  // Smallest first: rounds run the sizes in this order and the ratios are largest over smallest.
  const sizes = [
    ...new Set((value('--sizes') ?? (quick ? '10000,30000' : '10000,100000')).split(',').map(Number)),
  ].sort((a, b) => a - b);
  if (!Number.isInteger(rounds) || rounds < 1) throw new Error('--rounds takes a whole number ≥ 1');
  if (sizes.some((s) => !Number.isInteger(s) || s < 5000)) {
    throw new Error('--sizes takes item counts of at least 5,000, e.g. 10000,100000');
  }
  const wantPg = !args.includes('--no-pg') && (args.includes('--pg') || !!process.env.TEST_DATABASE_URL);
  const engines: Options['engines'] = args.includes('--pg-only')
    ? ['pg']
    : wantPg
      ? ['pglite', 'pg']
      : ['pglite'];
  const loads = Number(value('--loads') ?? 3);
  if (!Number.isInteger(loads) || loads < 1) throw new Error('--loads takes a whole number ≥ 1');
  return {
    rounds,
    sizes,
    engines,
    loads,
    syncOnly: args.includes('--sync-only'),
    timeline: args.includes('--timeline'),
    profile: value('--profile'),
  };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Chromium's processes (the browser, its renderers and its storage), the app's server, PostgreSQL. */
const benchProcess = (cmdline: string) =>
  cmdline.includes('chromium') || cmdline.includes('src/server/index.ts') || cmdline.startsWith('postgres:');
/** The machine is settled once those processes use under this share of one core over a second… */
const QUIET_SHARE = 0.15;
/** …this many seconds running; waited for at most QUIET_MAX_MS. */
const QUIET_SECONDS = 2;
const QUIET_MAX_MS = 60_000;

interface Settled {
  ms: number;
  quiet: boolean;
}

/**
 * Waits until the browser, the server and the database are idle (their CPU time from /proc), so a
 * timing after a large sync is not of their catching up. Without /proc it waits nothing.
 */
async function settle(): Promise<Settled> {
  const started = Date.now();
  const first = cpuSecondsWhere(benchProcess);
  if (first === null) return { ms: 0, quiet: false };
  let last: number = first;
  let quietFor = 0;
  while (Date.now() - started < QUIET_MAX_MS) {
    await sleep(1000);
    const now: number = cpuSecondsWhere(benchProcess) ?? last;
    quietFor = now - last < QUIET_SHARE ? quietFor + 1 : 0;
    last = now;
    if (quietFor >= QUIET_SECONDS) return { ms: Date.now() - started, quiet: true };
  }
  return { ms: Date.now() - started, quiet: false };
}
const thousands = (n: number) => n.toLocaleString('en-US');

/** The app's own item indexes, as its Dexie schema declares them (read in Node, never opened). */
function appItemIndexes(): IndexSpec[] {
  const probe = new OutpostDb('scale-schema-probe', { indexedDB: new IDBFactory(), IDBKeyRange });
  return probe.items.schema.indexes.map((i) => ({
    name: i.name,
    keyPath: i.keyPath as string | string[],
    unique: !!i.unique,
  }));
}

/** bench/browser/scalePage.ts as one classic script, without the app: it runs before the app's code. */
function pageScript(): Promise<string> {
  return bundle('bench/browser/scalePage.ts');
}

/** bench/browser/rawKeys.ts: the app's list keys and counters, for the reference's page only. */
let rawKeys: Promise<string> | null = null;
function rawKeysScript(): Promise<string> {
  rawKeys ??= bundle('bench/browser/rawKeys.ts');
  return rawKeys;
}

/** A bench page script as one classic script (esbuild, IIFE). */
async function bundle(entry: string): Promise<string> {
  const { build } = await import('esbuild');
  const out = await build({
    entryPoints: [path.join(repoRoot, entry)],
    bundle: true,
    write: false,
    format: 'iife',
    target: 'chrome110',
    minify: false,
  });
  const file = out.outputFiles[0];
  if (!file) throw new Error('esbuild produced no page script');
  return file.text;
}

function call<K extends keyof ScaleApi>(page: Page, name: K, ...args: Parameters<ScaleApi[K]>) {
  return page.evaluate(
    ([n, a]) => {
      const api = (window as unknown as { scale?: Record<string, (...xs: unknown[]) => unknown> }).scale;
      if (!api) throw new Error('the bench page script is not loaded on this page');
      return api[n as string]!(...(a as unknown[]));
    },
    [name, args] as const,
  ) as Promise<Awaited<ReturnType<ScaleApi[K]>>>;
}

/** One size's figures in one round (arrays hold every sample). */
interface RoundFigures {
  rawMs: number;
  /** The bare pull's GETs alone, every page in turn and parsed, before its write. */
  networkMs: number;
  appMs: number;
  firstHomeRowMs: number;
  progressSeen: string | null;
  long50: number;
  long100: number;
  longest: number;
  longTotal: number;
  peakHeapMiB: number;
  screens: Record<string, number>;
  /** How long the machine took to settle before the screens were timed, and whether it did (see settle). */
  settled: Settled;
  editHome: number[];
  editTask: number[];
  editCampaign: number[];
  /** The task page's edit and search with Home open in a second tab of the same profile. */
  editTwoTabs: number[];
  searchTwoTabs: Search[];
  /** Online: the signed-in dialog's server search (GET /api/items/search), not budgeted. */
  searchServer: Search[];
  searchCold: Search;
  search: Search[];
  searchAfterWrite: Search[];
}

interface Account extends ScaleAccount {
  phone: string;
  name: string;
  size: number;
}

const XSRF = 'XSRF-TOKEN';

/** Signs a context in through the API (its cookies), as the app's sign-in request does. */
async function apiSignIn(context: BrowserContext, url: string, account: Account): Promise<void> {
  const csrf = await context.request.get(`${url}/sanctum/csrf-cookie`);
  if (!csrf.ok()) throw new Error(`GET /sanctum/csrf-cookie answered ${csrf.status()}`);
  const token = (await context.cookies(url)).find((c) => c.name === XSRF)?.value ?? '';
  const res = await context.request.post(`${url}/api/login`, {
    data: { phone: account.phone, name: account.name },
    headers: { 'X-XSRF-TOKEN': decodeURIComponent(token), Accept: 'application/json' },
  });
  if (!res.ok()) throw new Error(`POST /api/login answered ${res.status()}: ${await res.text()}`);
}

async function freshContext(
  browser: Browser,
  script: string,
  longTasks: LongTask[],
): Promise<BrowserContext> {
  // Service workers blocked: every figure is the app's own work, not a cache warming in between.
  const context = await browser.newContext({
    serviceWorkers: 'block',
    viewport: { width: 1280, height: 900 },
  });
  context.setDefaultTimeout(60_000);
  await context.exposeBinding('scaleLongTask', (_source, task: LongTask) => {
    longTasks.push(task);
  });
  await context.addInitScript(
    ([key, value]) => localStorage.setItem(key as string, value as string),
    [ONBOARDED_STORAGE.key, ONBOARDED_STORAGE.value],
  );
  await context.addInitScript({ content: script });
  return context;
}

async function rawPull(
  browser: Browser,
  server: AppServer,
  script: string,
  account: Account,
  indexes: IndexSpec[],
): Promise<{ ms: number; networkMs: number }> {
  const context = await freshContext(browser, script, []);
  try {
    await apiSignIn(context, server.url, account);
    const page = await context.newPage();
    // A same-origin page without the app: only the reference's own work runs in it.
    await page.goto(`${server.url}/api/auth/mode`);
    // Evaluated rather than added as a tag: the app's CSP allows no inline script.
    await page.evaluate(await rawKeysScript());
    const r = await call(page, 'rawPull', indexes);
    if (r.count < account.total) {
      throw new Error(`the reference pull stored ${r.count} items, not ${account.total}`);
    }
    return { ms: r.ms, networkMs: r.networkMs };
  } finally {
    await context.close();
  }
}

/** Samples the page's JS heap (CDP) until stopped; the peak in MiB. */
async function heapSampler(context: BrowserContext, page: Page) {
  const cdp = await context.newCDPSession(page);
  let peak = 0;
  let running = true;
  const loop = (async () => {
    while (running) {
      try {
        const usage = (await cdp.send('Runtime.getHeapUsage')) as { usedSize: number };
        peak = Math.max(peak, usage.usedSize);
      } catch {
        // A page between documents answers nothing; the next sample will.
      }
      await sleep(200);
    }
  })();
  return {
    async stop(): Promise<number> {
      running = false;
      await loop;
      await cdp.detach().catch(() => {});
      return peak / 2 ** 20;
    },
  };
}

async function openSearch(page: Page) {
  await page.locator('body').click({ position: { x: 1, y: 1 } });
  await page.keyboard.press('Control+k');
  const dialog = page.getByRole('dialog', { name: 'Search items' });
  await dialog.waitFor();
  return dialog.getByRole('combobox', { name: 'Search items' });
}

/** A search's times: from its input event (the dialog's 300 ms debounce included) and from the debounce. */
interface Search {
  seen: number;
  own: number;
  /**
   * The device's part, from the app's user-timing measure (src/client/data/search/search.ts SEARCH_MEASURE):
   * its whole answer, whether it scanned (index not ready), and the wait for its copy (read or patched).
   */
  device?: { ms: number; scanned: boolean; readMs: number; rankMs: number } | null;
}
const NO_SEARCH: Search = { seen: Number.NaN, own: Number.NaN };
const DEVICE_MEASURE = 'outpost: local search';

/** One search in a freshly opened dialog, until results show. */
async function searchOnce(page: Page, query: string): Promise<Search> {
  const input = await openSearch(page);
  await call(page, 'armSearch');
  await page.evaluate((name) => performance.clearMeasures(name), DEVICE_MEASURE);
  await input.fill(query);
  const ms = await call(page, 'result');
  const device = await page.evaluate((name) => {
    const entry = performance.getEntriesByName(name).at(-1) as PerformanceMeasure | undefined;
    return entry
      ? { ms: entry.duration, ...(entry.detail as { scanned: boolean; readMs: number; rankMs: number }) }
      : null;
  }, DEVICE_MEASURE);
  const dialog = page.getByRole('dialog', { name: 'Search items' });
  await input.press('Escape');
  // After an edit, the first Escape can go to the edit's toast instead; Ctrl+K toggles the dialog shut.
  if (
    !(await dialog.waitFor({ state: 'hidden', timeout: 3000 }).then(
      () => true,
      () => false,
    ))
  ) {
    await page.keyboard.press('Control+k');
    await dialog.waitFor({ state: 'hidden' });
  }
  return { seen: ms, own: await call(page, 'searchAfterDebounce'), device };
}

let editCounter = 0;
let failures = 0;

/** Edits the title of an editable row in `main` inline; ms from Enter until the row shows it. */
async function editOnce(page: Page, where: 'row' | 'heading' = 'row'): Promise<number> {
  // A pending todo's title is a button that turns into a field (InlineTitle); other rows link away.
  // A campaign page's rows are links: there the page's own title (its heading) is edited.
  let container = 'main h1';
  if (where === 'row') {
    const editable = page.getByRole('button', { name: /^Edit title: / });
    const row = page.locator('main [data-item-id]').filter({ has: editable }).first();
    container = `main [data-item-id="${Number(await row.getAttribute('data-item-id'))}"]`;
  }
  const button = page.locator(container).getByRole('button', { name: /^Edit title: / });
  const title = `Scale edit ${++editCounter} ${Math.random().toString(36).slice(2, 7)}`;
  await button.click();
  const field = page.locator(container).getByRole('textbox', { name: 'Title' });
  await field.fill(title);
  await call(page, 'armEdit', container, title);
  await field.press('Enter');
  const ms = await call(page, 'result');
  if (Number.isNaN(ms)) throw new Error(`${container} did not show its new title within 30 s`);
  return ms;
}

/** Loads a route and waits for its first item row; ms from navigation start. */
async function loadToFirstRow(page: Page, url: string): Promise<number> {
  await page.goto(url, { waitUntil: 'commit' });
  await page.waitForFunction(
    () => (window as unknown as { scaleFirstRowAt?: number }).scaleFirstRowAt !== undefined,
    undefined,
    { timeout: 120_000, polling: 50 },
  );
  return (await call(page, 'firstRowAt')) ?? Number.NaN;
}

async function measureRound(
  browser: Browser,
  server: AppServer,
  script: string,
  account: Account,
  indexes: IndexSpec[],
  options: Options,
): Promise<RoundFigures> {
  const { ms: rawMs, networkMs } = await rawPull(browser, server, script, account, indexes);

  const longTasks: LongTask[] = [];
  const context = await freshContext(browser, script, longTasks);
  try {
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(`${server.url}/login`);
    await page.getByRole('heading', { level: 1, name: 'Sign In to Outpost' }).waitFor();
    const main = page.locator('main');
    await main.getByLabel('Phone number').fill(account.phone);
    await main.getByLabel('Name').fill(account.name);
    const heap = await heapSampler(context, page);

    // a–c. Sign-in until every item is stored and Home shows a row.
    const profiler = options.profile ? await context.newCDPSession(page) : null;
    // When the profile started, by the page's clock (epoch ms): its samples line up with the long
    // tasks' times, which FILE.tasks.json keeps beside it.
    let profileEpoch = 0;
    if (profiler) {
      await profiler.send('Profiler.enable');
      await profiler.send('Profiler.setSamplingInterval', { interval: 200 });
      await profiler.send('Profiler.start');
      profileEpoch = await page.evaluate(() => performance.timeOrigin + performance.now());
    }
    const t0 = Date.now();
    await main.getByRole('button', { name: 'Sign In', exact: true }).click();
    const deadline = t0 + Math.max(180_000, account.total * 12);
    let firstHomeRow = Number.NaN;
    let progressSeen: string | null = null;
    let lastStored = 0;
    let probeHeap = 0;
    let t1 = 0;
    for (;;) {
      const p = await call(page, 'probe').catch(() => ({
        stored: lastStored,
        row: false,
        progress: null,
        heap: 0,
      }));
      probeHeap = Math.max(probeHeap, p.heap);
      const now = Date.now();
      lastStored = p.stored;
      progressSeen ??= p.progress;
      const onHome = p.row && new URL(page.url()).pathname === '/';
      if (onHome && Number.isNaN(firstHomeRow)) firstHomeRow = now - t0;
      if (onHome && p.stored >= account.total) {
        t1 = now;
        break;
      }
      if (now > deadline) {
        throw new Error(
          `first sync of ${thousands(account.total)} items: ${thousands(p.stored)} stored, Home row ${p.row}, ` +
            `after ${((now - t0) / 1000).toFixed(0)} s (${page.url()}); page errors: ${errors.join(' | ') || 'none'}`,
        );
      }
      await sleep(250);
    }
    // The larger of the CDP samples and the page's own (performance.memory, read by every probe).
    const peakHeapMiB = Math.max(await heap.stop(), probeHeap / 2 ** 20);
    // The page's own stamps, when it has both: the poll above sees a row only after its store count,
    // which waits behind the pull's write transaction.
    const stamped = await call(page, 'signInToFirstRow').catch(() => null);
    if (profiler && options.profile) {
      const { profile } = await profiler.send('Profiler.stop');
      writeFileSync(options.profile, JSON.stringify(profile));
      writeFileSync(
        `${options.profile}.tasks.json`,
        JSON.stringify({ epoch: profileEpoch, t0, tasks: longTasks }),
      );
      console.log(`  CPU profile from the Sign In click (${new Date(t0).toISOString()}): ${options.profile}`);
    }
    if (typeof stamped === 'number' && new URL(page.url()).pathname === '/') firstHomeRow = stamped;
    if (options.timeline) {
      const requests = await call(page, 'signInTimeline').catch(() => []);
      console.log(`  from the Sign In click to Home's first row:\n    ${requests.join('\n    ')}`);
    }
    const during = longTasks.filter((t) => t.at >= t0 && t.at <= t1);
    // Where the sync's tasks over 100 ms fell (issue 19 allows none): early ones hold up Home's first
    // row, late ones are the pull's last transaction (its counting).
    const over = during.filter((t) => t.duration > 100);
    if (over.length > 0)
      console.log(
        `  tasks over 100 ms, s after the click: ${over.map((t) => `${((t.at - t0) / 1000).toFixed(1)} (${t.duration.toFixed(0)} ms)`).join(', ')}`,
      );
    console.log(
      `  ${thousands(account.total)} items: reference pull ${(rawMs / 1000).toFixed(1)} s, app sync ` +
        `${((t1 - t0) / 1000).toFixed(1)} s; timing screens, edits and searches…`,
    );
    const syncFigures = {
      rawMs,
      networkMs,
      appMs: t1 - t0,
      firstHomeRowMs: firstHomeRow,
      progressSeen,
      long50: during.length,
      long100: during.filter((t) => t.duration > 100).length,
      longest: Math.max(0, ...during.map((t) => t.duration)),
      longTotal: during.reduce((sum, t) => sum + t.duration, 0),
      peakHeapMiB,
    };
    if (options.syncOnly) {
      return {
        ...syncFigures,
        screens: {},
        settled: { ms: Number.NaN, quiet: false },
        editHome: [],
        editTask: [],
        editCampaign: [],
        editTwoTabs: [],
        searchTwoTabs: [],
        searchServer: [],
        searchCold: NO_SEARCH,
        search: [],
        searchAfterWrite: [],
      };
    }
    // Let the app finish what it does after a sync before the screens are timed, and the machine
    // settle: after 100,000 rows written (twice: the reference's database too) the browser and the
    // server go on working for a while, and loads timed then measure that, not the screens.
    await page.waitForLoadState('networkidle').catch(() => {});
    await sleep(2000);
    const settled = await settle();

    // d. Each screen loaded again, data local: navigation start to its first row.
    const screens: Record<string, number> = {};
    for (const [label, route] of SCREENS) {
      const target =
        route === 'campaign'
          ? `/campaigns/${account.campaignId}`
          : route === 'task'
            ? `/tasks/${account.bigTaskId}`
            : route;
      const loads: number[] = [];
      for (let i = 0; i < options.loads; i++) {
        loads.push(await loadToFirstRow(page, `${server.url}${target}`));
        await sleep(300);
      }
      screens[label] = median(loads);
    }

    // e, f. Edits on Home and on the task page; a search after each; searches with nothing changed.
    // A step that fails is reported (n/a) and the round goes on: the other figures still count.
    const attempt = async <T>(what: string, step: () => Promise<T>, failed: T): Promise<T> => {
      try {
        return await step();
      } catch (error) {
        const shot = path.join(tmpdir(), `outpost-scale-failure-${++failures}.png`);
        await page.screenshot({ path: shot }).catch(() => {});
        const dialogs = await page
          .locator('[role="dialog"], [role="alertdialog"]')
          .evaluateAll((els) => els.map((e) => (e.textContent ?? '').slice(0, 80)))
          .catch(() => []);
        console.log(
          `  ${what} failed: ${(error as Error).message.split('\n')[0]} (at ${page.url()}; ` +
            `dialogs open: ${dialogs.length ? dialogs.join(' / ') : 'none'}; screenshot ${shot})`,
        );
        return failed;
      }
    };
    // The searches with budgets are the device's: the server's search endpoint fails at once (the
    // spec's fallback, 'Server search fails: falls back to local search'), everything else is
    // online as usual (going offline would also keep the bench's fresh profile from loading the
    // app's code for the dialog and the toasts). The server's search is timed at the end, for the record.
    const SEARCH_ROUTE = '**/api/items/search*';
    const serverSearchFails = async (on: boolean) => {
      if (on) await context.route(SEARCH_ROUTE, (route) => route.abort('internetdisconnected'));
      else await context.unroute(SEARCH_ROUTE);
    };
    await loadToFirstRow(page, `${server.url}/`);
    await sleep(1000);
    await serverSearchFails(true);
    const searchCold = await attempt('first search', () => searchOnce(page, QUERIES[0]!), NO_SEARCH);
    const search: Search[] = [];
    for (let i = 0; i < WARM_SEARCHES; i++) {
      search.push(
        await attempt('search', () => searchOnce(page, QUERIES[(i + 1) % QUERIES.length]!), NO_SEARCH),
      );
    }
    const editHome: number[] = [];
    const searchAfterWrite: Search[] = [];
    for (let i = 0; i < EDITS_PER_SCREEN; i++) {
      editHome.push(await attempt('edit on Home', () => editOnce(page), Number.NaN));
      await sleep(300);
      searchAfterWrite.push(
        await attempt(
          'search after a write',
          () => searchOnce(page, QUERIES[i % QUERIES.length]!),
          NO_SEARCH,
        ),
      );
    }
    await serverSearchFails(false);
    await loadToFirstRow(page, `${server.url}/tasks/${account.bigTaskId}`);
    await sleep(1000);
    await serverSearchFails(true);
    const editTask: number[] = [];
    for (let i = 0; i < EDITS_PER_SCREEN; i++) {
      editTask.push(await attempt('edit on the task page', () => editOnce(page), Number.NaN));
      await sleep(300);
      searchAfterWrite.push(
        await attempt(
          'search after a write',
          () => searchOnce(page, QUERIES[(i + 3) % QUERIES.length]!),
          NO_SEARCH,
        ),
      );
    }
    await serverSearchFails(false);
    await loadToFirstRow(page, `${server.url}/campaigns/${account.campaignId}`);
    await sleep(1000);
    const editCampaign: number[] = [];
    for (let i = 0; i < EDITS_PER_SCREEN; i++) {
      editCampaign.push(
        await attempt('edit on the campaign page', () => editOnce(page, 'heading'), Number.NaN),
      );
      await sleep(300);
    }
    // A second tab of the same profile on Home: its live queries run on every write too (Dexie
    // tells every tab of the database), on the same machine's CPU.
    const second = await context.newPage();
    second.on('pageerror', (e) => errors.push(`second tab: ${e.message}`));
    const editTwoTabs: number[] = [];
    const searchTwoTabs: Search[] = [];
    await attempt('second tab on Home', () => loadToFirstRow(second, `${server.url}/`), Number.NaN);
    await page.bringToFront();
    await loadToFirstRow(page, `${server.url}/tasks/${account.bigTaskId}`);
    await sleep(1000);
    await serverSearchFails(true);
    for (let i = 0; i < EDITS_PER_SCREEN; i++) {
      editTwoTabs.push(await attempt('edit with a second tab open', () => editOnce(page), Number.NaN));
      await sleep(300);
      searchTwoTabs.push(
        await attempt(
          'search with a second tab open',
          () => searchOnce(page, QUERIES[(i + 1) % QUERIES.length]!),
          NO_SEARCH,
        ),
      );
    }
    await second.close();
    await serverSearchFails(false);
    await loadToFirstRow(page, `${server.url}/`);
    await sleep(2000);
    const searchServer: Search[] = [];
    for (let i = 0; i < WARM_SEARCHES; i++) {
      searchServer.push(
        await attempt('server search', () => searchOnce(page, QUERIES[(i + 2) % QUERIES.length]!), NO_SEARCH),
      );
    }
    if (errors.length > 0) console.log(`  page errors: ${errors.join(' | ')}`);
    return {
      ...syncFigures,
      screens,
      settled,
      editHome,
      editTask,
      editCampaign,
      editTwoTabs,
      searchTwoTabs,
      searchServer,
      searchCold,
      search,
      searchAfterWrite,
    };
  } finally {
    await context.close();
  }
}

/** A figure's line: its value per size, the largest/smallest ratio, the budget and ✓/✗. */
interface Line {
  figure: string;
  /** Per size, every sample (rounds, or edits and searches pooled over rounds). */
  values: (f: RoundFigures[]) => number[];
  unit: 'ms' | 's' | 'MiB' | 'count' | '×';
  /** The budget's text, and whether the figures meet it (given median per size, smallest first). */
  budget?: { text: string; ok: (medians: number[]) => boolean };
}

function show(value: number, unit: Line['unit']): string {
  if (!Number.isFinite(value)) return 'n/a';
  switch (unit) {
    case 's':
      return `${(value / 1000).toFixed(value < 10_000 ? 2 : 1)} s`;
    case 'MiB':
      return `${value.toFixed(0)} MiB`;
    case 'count':
      return value % 1 === 0 ? String(value) : value.toFixed(1);
    case '×':
      return `${value.toFixed(2)}×`;
    default:
      return `${value.toFixed(value < 10 ? 1 : 0)} ms`;
  }
}

function cell(samples: number[], unit: Line['unit']): string {
  const finite = samples.filter((v) => Number.isFinite(v));
  const m = median(finite);
  if (finite.length <= 1) return show(m, unit);
  return `${show(m, unit)} (${show(Math.min(...finite), unit)}–${show(Math.max(...finite), unit)})`;
}

const last = (medians: number[]) => medians[medians.length - 1] ?? Number.NaN;

function lines(): Line[] {
  const screenLines: Line[] = SCREENS.map(([label]) => ({
    figure: `d. ${label}: load to first row`,
    values: (f) => f.map((r) => r.screens[label] ?? Number.NaN),
    unit: 'ms',
    budget: {
      text: '≤ 1.3× smallest, < 400 ms',
      ok: (m) => last(m) < 400 && last(m) <= 1.3 * (m[0] ?? Number.NaN),
    },
  }));
  return [
    { figure: 'a. bare paged pull (reference)', values: (f) => f.map((r) => r.rawMs), unit: 's' },
    {
      figure: 'a. first sync, every item stored, Home on screen',
      values: (f) => f.map((r) => r.appMs),
      unit: 's',
    },
    {
      figure: 'a. first sync ÷ bare pull (same round)',
      values: (f) => f.map((r) => r.appMs / r.rawMs),
      unit: '×',
      budget: { text: '≤ 1.3×', ok: (m) => last(m) <= 1.3 },
    },
    {
      figure: "a. bare pull's network and parse (its GETs in turn)",
      values: (f) => f.map((r) => r.networkMs),
      unit: 's',
    },
    {
      figure: 'a. first sync ÷ network and parse (same round)',
      values: (f) => f.map((r) => r.appMs / r.networkMs),
      unit: '×',
      budget: { text: '≤ 3× (issue 69)', ok: (m) => last(m) <= 3 },
    },
    {
      figure: 'a. Home first row after the Sign In click',
      values: (f) => f.map((r) => r.firstHomeRowMs),
      unit: 's',
      budget: { text: '< 1 s', ok: (m) => last(m) < 1000 },
    },
    {
      figure: "a. 'Syncing N of M' line seen (rounds)",
      values: (f) => f.map((r) => (r.progressSeen ? 1 : 0)),
      unit: 'count',
      budget: { text: 'seen', ok: (m) => last(m) >= 1 },
    },
    {
      figure: 'b. main-thread tasks > 50 ms in the sync',
      values: (f) => f.map((r) => r.long50),
      unit: 'count',
    },
    {
      figure: 'b. main-thread tasks > 100 ms in the sync',
      values: (f) => f.map((r) => r.long100),
      unit: 'count',
      budget: { text: '0', ok: (m) => last(m) === 0 },
    },
    { figure: 'b. longest task in the sync', values: (f) => f.map((r) => r.longest), unit: 'ms' },
    { figure: 'b. long tasks in the sync, total', values: (f) => f.map((r) => r.longTotal), unit: 's' },
    {
      figure: 'c. peak JS heap in the sync',
      values: (f) => f.map((r) => r.peakHeapMiB),
      unit: 'MiB',
      budget: { text: '< 250 MiB', ok: (m) => last(m) < 250 },
    },
    ...screenLines,
    {
      figure: 'e. title edit, Home open, until shown',
      values: (f) => f.flatMap((r) => r.editHome),
      unit: 'ms',
      budget: { text: '< 16 ms', ok: (m) => last(m) < 16 },
    },
    {
      figure: 'e. title edit, task page open, until shown',
      values: (f) => f.flatMap((r) => r.editTask),
      unit: 'ms',
      budget: { text: '< 16 ms', ok: (m) => last(m) < 16 },
    },
    {
      figure: 'e. title edit, campaign page open, until shown',
      values: (f) => f.flatMap((r) => r.editCampaign),
      unit: 'ms',
      budget: { text: '< 16 ms', ok: (m) => last(m) < 16 },
    },
    {
      figure: 'e. title edit, task page, Home in a 2nd tab',
      values: (f) => f.flatMap((r) => r.editTwoTabs),
      unit: 'ms',
      budget: { text: '< 16 ms', ok: (m) => last(m) < 16 },
    },
    {
      figure: 'f. first search in a fresh profile',
      values: (f) => f.map((r) => r.searchCold.own),
      unit: 'ms',
    },
    {
      figure: 'f. search, median',
      values: (f) => f.flatMap((r) => r.search.map((v) => v.own)),
      unit: 'ms',
      budget: { text: '< 10 ms', ok: (m) => last(m) < 10 },
    },
    {
      figure: 'f. first search after a write',
      values: (f) => f.flatMap((r) => r.searchAfterWrite.map((v) => v.own)),
      unit: 'ms',
      budget: { text: '< 30 ms', ok: (m) => last(m) < 30 },
    },
    {
      figure: 'f. search after a write, Home in a 2nd tab',
      values: (f) => f.flatMap((r) => r.searchTwoTabs.map((v) => v.own)),
      unit: 'ms',
      budget: { text: '< 30 ms', ok: (m) => last(m) < 30 },
    },
    {
      figure: 'f. search online (the server), median',
      values: (f) => f.flatMap((r) => r.searchServer.map((v) => v.own)),
      unit: 'ms',
    },
    {
      figure: 'f. search as typed (incl. 300 ms debounce)',
      values: (f) => f.flatMap((r) => r.search.map((v) => v.seen)),
      unit: 'ms',
    },
  ];
}

/** Prints the table; `final` also records the figures for the dispatcher's summary. */
function report(engine: string, sizes: number[], results: Map<number, RoundFigures[]>, final = true): void {
  const label = (n: number) => (n % 1000 === 0 ? `${n / 1000}k` : thousands(n));
  const smallest = sizes[0]!;
  const largest = sizes[sizes.length - 1]!;
  const body: string[][] = [];
  for (const line of lines()) {
    const samples = sizes.map((s) => line.values(results.get(s) ?? []));
    const medians = samples.map((v) => median(v));
    const ratio = last(medians) / (medians[0] ?? Number.NaN);
    const ok = line.budget ? line.budget.ok(medians) : null;
    body.push([
      line.figure,
      ...samples.map((v) => cell(v, line.unit)),
      Number.isFinite(ratio) ? `${ratio.toFixed(2)}×` : 'n/a',
      line.budget?.text ?? '',
      ok === null ? '' : ok ? '✓' : '✗',
    ]);
    if (line.budget && final) {
      // Recorded for the dispatcher's summary as informational: timings are reported, never enforced.
      check({
        subject: `scale ${engine} ${label(largest)}`,
        metric: line.figure,
        value: cell(samples[samples.length - 1] ?? [], line.unit),
        budget: line.budget.text,
        ok: ok ?? false,
        enforced: false,
      });
    }
  }
  const rounds = results.get(largest)?.length ?? 0;
  console.log(
    `\nscale on ${engine}${final ? '' : ' (so far)'}: median (min–max) over ${rounds} round(s) per size; edits and searches pooled ` +
      `over rounds; verdicts on the ${label(largest)} figures`,
  );
  console.log(
    table(
      ['figure', ...sizes.map(label), `${label(largest)}/${label(smallest)}`, 'budget (issue 19)', ''],
      body,
    ),
  );
  for (const s of sizes) {
    const seen = (results.get(s) ?? []).map((r) => r.progressSeen).find((p) => p);
    if (seen) console.log(`  progress line at ${label(s)}: '${seen}'`);
  }
}

interface Served {
  server: AppServer;
  accounts: Account[];
  close(): Promise<void>;
}

/** Seeds one account per size into a fresh database of the engine, then starts the real server on it. */
async function serve(engine: 'pglite' | 'pg', sizes: number[]): Promise<Served> {
  const work = await mkdtemp(path.join(tmpdir(), 'outpost-scale-'));
  let database: Database;
  let dataDir: string | undefined;
  let url = '';
  if (engine === 'pg') {
    database = await openTestDatabase('pg');
    url = database.url ?? '';
    if (!url) throw new Error('the PostgreSQL test database has no url');
  } else {
    dataDir = path.join(work, 'data');
    database = await openDatabase({ dataDir });
  }
  const accounts: Account[] = [];
  const unique = [...new Set(sizes)];
  for (const [i, size] of unique.entries()) {
    const t = Date.now();
    const phone = `+1555555${String(3100 + i).padStart(4, '0')}`;
    const name = `Scale ${thousands(size)}`;
    const seeded = await seedScaleAccount(database.db, { phone, name, items: size });
    console.log(
      `  seeded ${thousands(seeded.total)} items (${thousands(seeded.topLevel)} top-level) for ${phone} ` +
        `in ${((Date.now() - t) / 1000).toFixed(1)} s`,
    );
    accounts.push({ ...seeded, phone, name, size });
  }
  // PGlite is one process's folder: the server opens it after the seeding has closed it.
  if (engine === 'pglite') await database.close();
  const server = await startAppServer(180_000, {
    ...(dataDir ? { dataDir } : {}),
    env: {
      // Demo sign-in (phone and name, no code) on both engines, said outright for PostgreSQL.
      ...(engine === 'pg' ? { DATABASE_URL: url } : {}),
      AUTH_MODE: 'demo',
      RATE_LIMIT_WRITES_PER_MINUTE: '0',
      RATE_LIMIT_LOGINS_PER_MINUTE: '0',
      RATE_LIMIT_ANONYMOUS_WRITES_PER_MINUTE: '0',
    },
  });
  return {
    server,
    accounts,
    async close() {
      await server.stop();
      if (engine === 'pg') await database.close();
      await rm(work, { recursive: true, force: true });
    },
  };
}

export async function run(args: string[] = []): Promise<void> {
  const options = parseOptions(args);
  if (!chromiumAvailable()) {
    skip('scale', `no Chromium at ${chromiumPath}`);
    return;
  }
  const started = Date.now();
  const load0 = loadavg();
  const script = await pageScript();
  const indexes = appItemIndexes();
  for (const engine of options.engines) {
    const name = engine === 'pg' ? 'PostgreSQL' : 'PGlite';
    if (engine === 'pg') {
      const why = await pgReachable(pgUrl());
      if (why) {
        skip(`scale on ${name}`, why);
        continue;
      }
    }
    heading(
      `scale on ${name}: sizes ${options.sizes.map(thousands).join(', ')}, ${options.rounds} round(s) ` +
        `(load average ${loadavg()
          .map((v) => v.toFixed(2))
          .join(' ')})`,
    );
    const served = await serve(engine, options.sizes);
    // Precise performance.memory: the heap figure is read in the page as well as over CDP.
    const browser = await chromium.launch({
      executablePath: chromiumPath,
      args: [...chromiumArgs, '--enable-precise-memory-info'],
    });
    const results = new Map<number, RoundFigures[]>();
    try {
      for (let round = 1; round <= options.rounds; round++) {
        for (const size of options.sizes) {
          const account = served.accounts.find((a) => a.size === size)!;
          const t = Date.now();
          const r = await measureRound(browser, served.server, script, account, indexes, options);
          results.set(size, [...(results.get(size) ?? []), r]);
          console.log(
            `  round ${round}, ${thousands(account.total)} items: pull ${(r.rawMs / 1000).toFixed(1)} s, ` +
              `app sync ${(r.appMs / 1000).toFixed(1)} s (${(r.appMs / r.rawMs).toFixed(2)}×), ` +
              `${r.long100} tasks > 100 ms (longest ${r.longest.toFixed(0)} ms), heap ${r.peakHeapMiB.toFixed(0)} MiB, ` +
              `screens timed ${(r.settled.ms / 1000).toFixed(0)} s after the sync${r.settled.quiet ? '' : ' (machine not quiet)'}, ` +
              `Home ${show(r.screens.Home ?? Number.NaN, 'ms')}, edit on Home ${show(median(r.editHome), 'ms')}, ` +
              `search ${show(median(r.search.map((v) => v.own)), 'ms')}; round took ` +
              `${((Date.now() - t) / 1000).toFixed(0)} s`,
          );
          // Each search in the order taken (from the debounce), so a median can be read against when
          // each ran: the first after a page load reads the device's copy, later ones may meet its indexing.
          // Beside each, the device's own part: read (the wait for its copy) + rank, 's' when it scanned.
          const one = (v: Search) =>
            `${v.own.toFixed(1)}${v.device ? ` [${v.device.readMs.toFixed(1)}+${v.device.rankMs.toFixed(1)}${v.device.scanned ? ' s' : ''}]` : ''}`;
          const own = (list: Search[]) => list.map(one).join(', ');
          console.log(
            `    searches (ms, [device: copy + rank, s: scanned]): first ${one(r.searchCold)}; then ${own(r.search)}; ` +
              `after writes (Home ×${EDITS_PER_SCREEN}, task page ×${EDITS_PER_SCREEN} after its load) ` +
              `${own(r.searchAfterWrite)}; 2nd tab ${own(r.searchTwoTabs)}`,
          );
        }
        // A long run that is stopped early still leaves a table of the rounds it finished.
        if (round < options.rounds) report(name, options.sizes, results, false);
      }
    } finally {
      await browser.close();
      await served.close();
    }
    report(name, options.sizes, results);
  }
  const load1 = loadavg();
  console.log(
    `\nload average before ${load0.map((l) => l.toFixed(2)).join(' ')}, after ` +
      `${load1.map((l) => l.toFixed(2)).join(' ')} (1/5/15 min); run took ` +
      `${((Date.now() - started) / 1000).toFixed(0)} s`,
  );
}
