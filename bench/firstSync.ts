/**
 * `npm run bench -- first-sync [--items N] [--pg]`: a user signs in on a fresh device (real Chromium,
 * the built app served by the real server, PGlite, or PostgreSQL with --pg and TEST_DATABASE_URL)
 * and pulls N items (30,000 by default) with Home on screen. Reports the time until every item is
 * stored, the main-thread long tasks during it (PerformanceObserver 'longtask'; issue 19's budget:
 * none over 100 ms), the peak JS heap, and the progress line ('Syncing 45,000 of 100,000') as the
 * page showed it.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { throwawayPostgres } from '../e2e/lib/servers';
import { chromiumArgs, chromiumAvailable, chromiumPath } from '../scripts/lib/chromium';
import { openDatabase } from '../src/server/db/client';
import { seedAccount } from '../testkit/seedAccount';
import { startAppServer } from './lib/appServer';
import { storedItemCount } from './lib/pageApi';
import { check, heading, info, skip } from './lib/report';

const PHONE = '+15555550177';

interface Observed {
  long: { start: number; duration: number }[];
  heapPeak: number;
  labels: { at: number; text: string }[];
}

/** Collects long tasks, the heap's peak and every progress line the page shows, from the first script on. */
const OBSERVER = `
  const observed = { long: [], heapPeak: 0, labels: [] };
  window.observed = observed;
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) observed.long.push({ start: entry.startTime, duration: entry.duration });
  }).observe({ type: 'longtask', buffered: true });
  setInterval(() => {
    observed.heapPeak = Math.max(observed.heapPeak, performance.memory ? performance.memory.usedJSHeapSize : 0);
  }, 200);
  const watch = () => {
    const text = [...document.querySelectorAll('[role="status"]')]
      .map((n) => n.textContent || '')
      .find((t) => t.startsWith('Syncing '));
    if (text && (observed.labels.length === 0 || observed.labels[observed.labels.length - 1].text !== text))
      observed.labels.push({ at: performance.now(), text });
  };
  new MutationObserver(watch).observe(document, { subtree: true, childList: true, characterData: true });
`;

export async function run(args: string[] = []): Promise<void> {
  if (!chromiumAvailable()) {
    skip('first-sync', `no Chromium at ${chromiumPath}`);
    return;
  }
  const itemsArg = args.indexOf('--items');
  const count = itemsArg >= 0 ? Number(args[itemsArg + 1]) : 30_000;
  const pg = args.includes('--pg');
  if (pg && !process.env.TEST_DATABASE_URL) {
    skip('first-sync --pg', 'TEST_DATABASE_URL is not set');
    return;
  }
  const work = await mkdtemp(path.join(tmpdir(), 'outpost-first-sync-'));
  const dataDir = path.join(work, 'data');
  const throwaway = pg ? await throwawayPostgres(process.env.TEST_DATABASE_URL ?? '') : null;
  const seedStarted = Date.now();
  const database = throwaway ? await openDatabase({ url: throwaway.url }) : await openDatabase({ dataDir });
  const seeded = await seedAccount(database.db, PHONE, 'Sync Bench', count);
  await database.close();
  info(
    'first-sync',
    'seeded',
    `${seeded.items} items in ${((Date.now() - seedStarted) / 1000).toFixed(1)} s`,
  );

  // --profile: an unminified build and a CPU profile of the sync, its main-thread self time by function.
  const profile = args.includes('--profile');
  const clientDir = profile ? path.join(work, 'client') : undefined;
  if (clientDir) {
    const { build } = await import('vite');
    await build({ logLevel: 'warn', build: { outDir: clientDir, emptyOutDir: true, minify: false } });
  }
  const server = await startAppServer(180_000, {
    dataDir,
    ...(clientDir ? { clientDir } : {}),
    env: {
      ...(throwaway ? { DATABASE_URL: throwaway.url } : {}),
      RATE_LIMIT_WRITES_PER_MINUTE: '0',
      RATE_LIMIT_LOGINS_PER_MINUTE: '0',
      RATE_LIMIT_ANONYMOUS_WRITES_PER_MINUTE: '0',
    },
  });
  const browser = await chromium.launch({
    executablePath: chromiumPath,
    args: [...chromiumArgs, '--enable-precise-memory-info'],
  });
  try {
    heading(`first-sync: ${seeded.items} items on a fresh device (${pg ? 'PostgreSQL' : 'PGlite'})`);
    const context = await browser.newContext({
      serviceWorkers: 'block',
      viewport: { width: 1280, height: 800 },
    });
    const page = await context.newPage();
    page.on('pageerror', (e) => console.error('page error:', e.message));
    // A string, not a function: the bench runs through tsx, whose helpers do not exist in the page.
    await page.addInitScript({ content: OBSERVER });

    await page.goto(`${server.url}/login`);
    await page.locator('main').getByLabel('Phone number').fill(PHONE);
    await page.locator('main').getByLabel('Name').fill('Sync Bench');
    const cdp = profile ? await context.newCDPSession(page) : null;
    if (cdp) {
      await cdp.send('Profiler.enable');
      await cdp.send('Profiler.setSamplingInterval', { interval: 500 });
      await cdp.send('Profiler.start');
    }
    const startedAt = await page.evaluate(() => performance.now());
    await page.locator('main').getByRole('button', { name: 'Sign In', exact: true }).click();
    const stored = () => storedItemCount(page);
    const deadline = Date.now() + 15 * 60_000;
    for (let have = await stored(); have < seeded.items; have = await stored()) {
      if (Date.now() > deadline) throw new Error(`only ${have} of ${seeded.items} items after 15 minutes`);
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
    const doneAt = await page.evaluate(() => performance.now());
    if (cdp) printProfile((await cdp.send('Profiler.stop')).profile as CpuProfile);
    // The line goes once the pull ends; give the last render a moment.
    await page.waitForFunction(
      () =>
        ![...document.querySelectorAll('[role="status"]')].some((n) => n.textContent?.startsWith('Syncing ')),
      undefined,
      { timeout: 30_000 },
    );
    const observed = await page.evaluate(() => (window as unknown as { observed: Observed }).observed);
    const during = observed.long.filter((t) => t.start >= startedAt && t.start <= doneAt);
    const seconds = (doneAt - startedAt) / 1000;
    const longest = Math.max(0, ...during.map((t) => t.duration));
    const over100 = during.filter((t) => t.duration > 100);
    info('first-sync', 'sign-in until every item is stored', `${seconds.toFixed(1)} s`);
    info('first-sync', 'rate', `${Math.round(seeded.items / seconds)} items/s`);
    info(
      'first-sync',
      'long tasks (> 50 ms)',
      `${during.length}, ${Math.round(during.reduce((s, t) => s + t.duration, 0))} ms in all`,
    );
    info('first-sync', 'longest task', `${Math.round(longest)} ms`);
    check({
      subject: 'first-sync',
      metric: 'tasks over 100 ms',
      value: String(over100.length),
      budget: '0',
      ok: over100.length === 0,
    });
    info('first-sync', 'peak JS heap', `${(observed.heapPeak / 2 ** 20).toFixed(0)} MiB`);
    info(
      'first-sync',
      'progress line',
      observed.labels.length === 0
        ? 'never shown'
        : `${observed.labels.length} updates, first '${observed.labels[0]?.text}', last '${observed.labels.at(-1)?.text}'`,
    );
    if (over100.length > 0) {
      const worst = [...over100].sort((a, b) => b.duration - a.duration).slice(0, 10);
      info(
        'first-sync',
        'worst tasks (s after sign-in: ms)',
        worst
          .map((t) => `${((t.start - startedAt) / 1000).toFixed(1)}: ${Math.round(t.duration)}`)
          .join(', '),
      );
    }
    await context.close();
  } finally {
    await browser.close();
    await server.stop();
    await throwaway?.drop();
    await rm(work, { recursive: true, force: true });
  }
}

export interface CpuProfile {
  nodes: {
    id: number;
    callFrame: { functionName: string; url: string; lineNumber: number };
    children?: number[];
  }[];
  samples: number[];
  timeDeltas: number[];
}

/** The 30 functions with the most self time in the profile. */
export function printProfile(cpu: CpuProfile): void {
  const byNode = new Map(cpu.nodes.map((n) => [n.id, n]));
  const self = new Map<string, number>();
  cpu.samples.forEach((id, index) => {
    const frame = byNode.get(id)?.callFrame;
    if (!frame) return;
    const key = `${frame.functionName || '(anonymous)'} ${frame.url.split('/').pop()}:${frame.lineNumber + 1}`;
    self.set(key, (self.get(key) ?? 0) + (cpu.timeDeltas[index + 1] ?? 0) / 1000);
  });
  const top = [...self.entries()].sort((a, b) => b[1] - a[1]).slice(0, 30);
  for (const [key, ms] of top) console.log(`${ms.toFixed(0).padStart(7)} ms  ${key}`);
  // Busy stretches (no idle sample for over 80 ms): the functions on the stack most of the stretch.
  const parent = new Map<number, number>();
  for (const n of cpu.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const label = (id: number) => {
    const f = byNode.get(id)?.callFrame;
    return f ? `${f.functionName || '(anonymous)'} ${f.url.split('/').pop()}:${f.lineNumber + 1}` : '?';
  };
  let start = -1;
  let elapsed = 0;
  let at = 0;
  const stretches: { at: number; ms: number; from: number; to: number }[] = [];
  cpu.samples.forEach((id, index) => {
    const dt = (cpu.timeDeltas[index + 1] ?? 0) / 1000;
    at += (cpu.timeDeltas[index] ?? 0) / 1000;
    const idle = byNode.get(id)?.callFrame.functionName === '(idle)';
    if (!idle && start < 0) {
      start = index;
      elapsed = 0;
    }
    if (!idle) elapsed += dt;
    if ((idle || index === cpu.samples.length - 1) && start >= 0) {
      if (elapsed > 80) stretches.push({ at, ms: elapsed, from: start, to: index });
      start = -1;
    }
  });
  for (const stretch of stretches.sort((a, b) => b.ms - a.ms).slice(0, 12)) {
    const inclusive = new Map<string, number>();
    for (let i = stretch.from; i < stretch.to; i++) {
      const seen = new Set<string>();
      for (let id: number | undefined = cpu.samples[i]; id !== undefined; id = parent.get(id))
        seen.add(label(id));
      for (const key of seen)
        inclusive.set(key, (inclusive.get(key) ?? 0) + (cpu.timeDeltas[i + 1] ?? 0) / 1000);
    }
    const main = [...inclusive.entries()]
      .filter(([key]) => !key.startsWith('(root)') && !key.startsWith('(program)'))
      .sort((a, b) => b[1] - a[1])
      .slice(0, 14);
    console.log(`busy ${stretch.ms.toFixed(0)} ms at ${(stretch.at / 1000).toFixed(1)} s:`);
    for (const [key, ms] of main) console.log(`    ${ms.toFixed(0).padStart(5)} ms  ${key}`);
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  run(process.argv.slice(2)).catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}
