/**
 * `npm run bench -- template-instantiate [--pairs N]`: issue 66's budget for creating from a template,
 * in headless Chromium against the real server (PGlite, seeded with bench/lib/seed.ts's items), the
 * device offline, alternating reference and app (A B A B …, N pairs, 20 by default).
 *
 * App: a 200-item template (a campaign, 12 tasks, 187 todos) created through the templates command
 * (one local write) until a live read of the device shows all 200. Reference: a raw 200-row put in one
 * IndexedDB transaction on the app's schema, then one count. Budget: the app's median under 300 ms
 * (visible after Create); the ratio is shown beside it, no budget.
 *
 * The page is bench/browser/templateInstantiate.ts (loaded into the client-browser bench page).
 */
import { loadavg } from 'node:os';
import { numberArg, pageApi } from './lib/pageApi';
import { alternatePairs, ms, ratioText } from './lib/pairs';
import { check, heading, info, printAlternatingSummary } from './lib/report';
import { inSeededPage } from './lib/seededPage';
import { median } from './lib/stats';

type Api = {
  setup(): Promise<{ items: number }>;
  app(): Promise<{ ms: number; storedMs: number }>;
  ref(): Promise<{ ms: number }>;
  teardown(): Promise<void>;
};

const call = pageApi<Api>('templateInstantiate');

const VISIBLE_BUDGET_MS = 300;

export async function run(args: string[] = []): Promise<void> {
  const pairs = Math.max(5, numberArg(args, '--pairs', 20));
  const started = Date.now();
  const load0 = loadavg();
  const rows: string[][] = [];
  const ran = await inSeededPage('template-instantiate', 'templateInstantiate', async (page, url) => {
    heading(`template-instantiate: 200 items from a template offline vs a raw 200-row put (${url})`);
    const setup = await call(page, 'setup');
    info('setup', 'stored on the device', String(setup.items));
    const p = await alternatePairs(
      pairs,
      () => call(page, 'ref'),
      () => call(page, 'app'),
    );
    await call(page, 'teardown');
    const subject = '200-item template → visible (offline)';
    const appMedian = median(p.shown.app);
    info(subject, 'reference median (raw put)', ms(median(p.shown.ref)));
    info(subject, 'stored (command resolved) median', ms(median(p.stored.app)));
    info(subject, `ratio (${p.shown.ratios.length} pairs)`, ratioText(p.shown));
    const ok = check({
      subject,
      metric: 'app median',
      value: ms(appMedian),
      budget: `< ${VISIBLE_BUDGET_MS} ms`,
      ok: appMedian < VISIBLE_BUDGET_MS,
    });
    rows.push([
      subject,
      ms(appMedian),
      ms(median(p.shown.ref)),
      ratioText(p.shown),
      `< ${VISIBLE_BUDGET_MS} ms`,
      ok ? 'PASS' : 'FAIL',
    ]);
  });
  if (!ran) return;
  printAlternatingSummary(
    'template-instantiate, medians (reference and app alternated in one page; ratio = median of per-pair app/reference, min–max)',
    rows,
    load0,
    started,
  );
}
