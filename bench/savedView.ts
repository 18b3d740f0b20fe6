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
import { loadavg } from 'node:os';
import { numberArg, pageApi } from './lib/pageApi';
import { alternatePairs, ms, ratioText, times } from './lib/pairs';
import { check, heading, info, printAlternatingSummary } from './lib/report';
import { inSeededPage } from './lib/seededPage';
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
  const pairs = Math.max(5, numberArg(args, '--pairs', 20));
  const started = Date.now();
  const load0 = loadavg();
  const rows: string[][] = [];
  const ran = await inSeededPage('saved-view', 'savedView', async (page, url) => {
    heading(`saved-view: an edit shown by a saved view's live list vs the same list unfiltered (${url})`);
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
  });
  if (!ran) return;
  printAlternatingSummary(
    'saved-view, medians (reference and app alternated in one page; ratio = median of per-pair app/reference, min–max)',
    rows,
    load0,
    started,
  );
}
