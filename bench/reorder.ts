/**
 * `npm run bench -- reorder [--pairs N]`: issue 33's budget for a reorder, in headless Chromium against
 * the real server (PGlite, seeded with bench/lib/seed.ts's 10,000 items), alternating reference and app
 * (A B A B …, N pairs, 20 by default): each side's median, the median of the per-pair ratios
 * app/reference with their spread (min–max), beside the budget.
 *
 * App: a campaign's last row moved to the top (one items.update of sort_key, as a drop writes it) with
 * 10,000 stored, until the campaign page's contents query, under a Dexie liveQuery, shows it first (the
 * write committed and the list read again). Reference: one raw IndexedDB put of the moved row plus one
 * read of the children index range, in a database with the app's schema and rows (local-writes'
 * reference). Budget: ≤ 2× and under 16 ms (a frame). Breakdowns, no budget: the update resolving, and
 * the list as the page listens (useLive: with the local echo, which shows the move before the write
 * commits, SYNC.md W5).
 *
 * The page is bench/browser/reorder.ts (loaded into the client-browser bench page).
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { chromiumArgs, chromiumAvailable, chromiumPath } from '../scripts/lib/chromium';
import { buildPage } from './clientBrowser';
import { startSeededAppServer } from './lib/appServer';
import { numberArg, pageApi } from './lib/pageApi';
import { alternatePairs, ms, type Pairs, ratioText, times as x } from './lib/pairs';
import { check, heading, info, printAlternatingSummary, skip } from './lib/report';
import { median } from './lib/stats';

type Api = {
  setup(): Promise<{ items: number; rawItems: number; children: number }>;
  listen(mode: 'live' | 'echo'): Promise<void>;
  app(): Promise<{ ms: number; storedMs: number }>;
  ref(): Promise<{ ms: number }>;
  teardown(): Promise<void>;
};

const call = pageApi<Api>('reorder');

const RATIO_BUDGET = 2;
const FRAME_MS = 16;

const rows: string[][] = [];

function report(subject: string, p: Pairs, budget: number | null, labels = ['app', 'reference']): void {
  const ratio = median(p.ratios);
  const value = ratioText(p);
  const appMedian = median(p.app);
  info(subject, `${labels[1]} median`, ms(median(p.ref)));
  const metric = `ratio (${p.ratios.length} pairs)`;
  let verdict = 'info';
  if (budget === null) {
    info(subject, `${labels[0]} median`, ms(appMedian));
    info(subject, metric, value);
  } else {
    const fast = check({
      subject,
      metric: `${labels[0]} median`,
      value: ms(appMedian),
      budget: `< ${FRAME_MS} ms`,
      ok: appMedian < FRAME_MS,
    });
    const close = check({ subject, metric, value, budget: `≤ ${x(budget)}`, ok: ratio <= budget });
    verdict = fast && close ? 'PASS' : 'FAIL';
  }
  rows.push([
    subject,
    ms(appMedian),
    ms(median(p.ref)),
    value,
    budget === null ? '-' : `≤ ${x(budget)}, < ${FRAME_MS} ms`,
    verdict,
  ]);
}

export async function run(args: string[] = []): Promise<void> {
  if (!chromiumAvailable()) {
    skip('reorder', `no Chromium at ${chromiumPath}`);
    return;
  }
  const pairs = Math.max(5, numberArg(args, '--pairs', 20));
  const started = Date.now();
  const load0 = loadavg();
  const work = await mkdtemp(path.join(tmpdir(), 'outpost-reorder-'));
  const clientDir = path.join(work, 'client');
  const dataDir = path.join(work, 'data');
  await buildPage(clientDir);
  const server = await startSeededAppServer(clientDir, dataDir);
  const browser = await chromium.launch({ executablePath: chromiumPath, args: chromiumArgs });
  try {
    const context = await browser.newContext({ serviceWorkers: 'block' });
    const page = await context.newPage();
    page.on('pageerror', (e) => console.error('page error:', e.message));
    await page.goto(`${server.url}/`);
    await page.waitForFunction(() => 'reorder' in window && 'localWrites' in window);
    heading(`reorder: the app vs a raw IndexedDB put plus index read in Chromium (${server.url})`);
    // The reference's rows come from the account's sync pages, served from the app's folder (local-writes' setup).
    const syncPages = await page.evaluate(() =>
      (window as unknown as { localWrites: { setup(): Promise<string> } }).localWrites.setup(),
    );
    await writeFile(path.join(clientDir, 'bench-sync-pages.json'), syncPages);
    const setup = await call(page, 'setup');
    info(
      'setup',
      'stored (app, reference)',
      `${setup.items}, ${setup.rawItems}; ${setup.children} rows in the campaign's contents`,
    );
    const moves = (n: number) =>
      alternatePairs(
        n,
        () => call(page, 'ref'),
        () => call(page, 'app'),
      );
    await call(page, 'listen', 'live');
    const live = await moves(pairs);
    await call(page, 'listen', 'echo');
    const echo = await moves(Math.max(5, Math.round(pairs / 2)));
    await call(page, 'teardown');

    // The budget is the live query's own answer: the write committed and the list read again.
    report('reorder → contents liveQuery, 10k (vs put + index read)', live.shown, RATIO_BUDGET);
    report('(breakdown) reorder committed (update resolved)', live.stored, null, ['app stored', 'reference']);
    // The campaign page's own listener (useLive): the local echo shows the move before the commit (W5).
    report('(breakdown) reorder → contents as the page listens (local echo)', echo.shown, null);
    await context.close();
  } finally {
    await browser.close();
    await server.stop();
    await rm(work, { recursive: true, force: true });
  }
  printAlternatingSummary(
    'reorder, medians (reference and app alternated in one page; ratio = median of per-pair app/reference, min–max)',
    rows,
    load0,
    started,
  );
}
