/**
 * `npm run bench -- saved-view [--pairs N]`: issue 66's budget for a saved view's live list, in
 * headless Chromium against the real server (PGlite, seeded with bench/lib/seed.ts's 10,000 items),
 * the device offline, alternating reference and app (A B A B …, N pairs, 20 by default).
 *
 * App: a title rename until the saved view's live query ('!status: completed & !p1' by title, the
 * view page's read) shows it. Reference: the same rename until the same items' list without the
 * filter (the Queue screen's live query, its first page) shows it. Budgets: the app's median under
 * 50 ms, and the median of the per-pair ratios at most 2×.
 *
 * The page is bench/browser/savedView.ts (loaded into the client-browser bench page).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { chromiumArgs, chromiumAvailable, chromiumPath } from '../scripts/lib/chromium';
import { buildPage } from './clientBrowser';
import { startSeededAppServer } from './lib/appServer';
import { numberArg, pageApi } from './lib/pageApi';
import { alternatePairs, ms, ratioText, times } from './lib/pairs';
import { check, heading, info, printAlternatingSummary, skip } from './lib/report';
import { median } from './lib/stats';

type Api = {
  setup(): Promise<{ items: number; matching: number; target: number }>;
  app(): Promise<{ ms: number; storedMs: number }>;
  ref(): Promise<{ ms: number; storedMs: number }>;
  teardown(): Promise<void>;
};

const call = pageApi<Api>('savedView');

const SHOWN_BUDGET_MS = 50;
const RATIO_BUDGET = 2;

export async function run(args: string[] = []): Promise<void> {
  if (!chromiumAvailable()) {
    skip('saved-view', `no Chromium at ${chromiumPath}`);
    return;
  }
  const pairs = Math.max(5, numberArg(args, '--pairs', 20));
  const started = Date.now();
  const load0 = loadavg();
  const work = await mkdtemp(path.join(tmpdir(), 'outpost-saved-view-'));
  const clientDir = path.join(work, 'client');
  const dataDir = path.join(work, 'data');
  await buildPage(clientDir);
  const server = await startSeededAppServer(clientDir, dataDir);
  const browser = await chromium.launch({ executablePath: chromiumPath, args: chromiumArgs });
  const rows: string[][] = [];
  try {
    const context = await browser.newContext({ serviceWorkers: 'block' });
    const page = await context.newPage();
    page.on('pageerror', (e) => console.error('page error:', e.message));
    await page.goto(`${server.url}/`);
    await page.waitForFunction(() => 'savedView' in window);
    heading(
      `saved-view: an edit shown by a saved view's live list vs the same list unfiltered (${server.url})`,
    );
    const setup = await call(page, 'setup');
    info('setup', 'stored on the device', String(setup.items));
    info('setup', 'matching the view', String(setup.matching));
    const p = await alternatePairs(
      pairs,
      () => call(page, 'ref'),
      () => call(page, 'app'),
    );
    await call(page, 'teardown');
    const subject = 'edit → saved view shows it (10,000 items)';
    const appMedian = median(p.shown.app);
    const ratio = median(p.shown.ratios);
    info(subject, 'reference median (Queue, no filter)', ms(median(p.shown.ref)));
    info(subject, 'stored (update resolved) median', ms(median(p.stored.app)));
    const fast = check({
      subject,
      metric: 'app median',
      value: ms(appMedian),
      budget: `< ${SHOWN_BUDGET_MS} ms`,
      ok: appMedian < SHOWN_BUDGET_MS,
    });
    const near = check({
      subject,
      metric: `ratio (${p.shown.ratios.length} pairs)`,
      value: ratioText(p.shown),
      budget: `≤ ${times(RATIO_BUDGET)}`,
      ok: ratio <= RATIO_BUDGET,
    });
    rows.push([
      subject,
      ms(appMedian),
      ms(median(p.shown.ref)),
      ratioText(p.shown),
      `< ${SHOWN_BUDGET_MS} ms, ≤ ${times(RATIO_BUDGET)}`,
      fast && near ? 'PASS' : 'FAIL',
    ]);
    await context.close();
  } finally {
    await browser.close();
    await server.stop();
    await rm(work, { recursive: true, force: true });
  }
  printAlternatingSummary(
    'saved-view, medians (reference and app alternated in one page; ratio = median of per-pair app/reference, min–max)',
    rows,
    load0,
    started,
  );
}
