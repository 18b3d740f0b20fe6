/**
 * `npm run bench -- index-cost [--pairs N] [--write-pairs N]`: issue 49's budget on what the items store's indexes cost a
 * fresh device's first sync. In headless Chromium against the real server (PGlite, bench/lib/seed.ts's
 * 10,000 items), alternating bare reference, reference, app (B R A B R A …), a fresh database each run:
 *
 *  - app: a fresh device signed in (untimed), one engine.sync() until every item is queryable
 *    (local-writes' figure A app side, bench/browser/localWrites.ts appPull);
 *  - reference: one GET of the account's sync pages concatenated plus one raw readwrite transaction
 *    writing what the app stores, on the app's schema (local-writes' figure A reference, refPull);
 *  - bare reference: the same GET and transaction into the app's stores with no index on `items`
 *    (bench/browser/indexCost.ts barePull).
 *
 * Reports the medians of the per-triple ratios app/bare (budget ≤ 3×) and app/reference (≤ 1.3×, the
 * figure local-writes owns, here beside it) with their spread, and what the indexes cost the reference
 * (reference/bare). Then the reference's transaction alone (no GET, which under load is most of the
 * time), alternating no items index, the schema before version 15 (23 indexes) and today's
 * (`--write-pairs N`, 15): what the indexes cost every put, before and after. The page is the
 * client-browser bench page.
 *
 * `--without INDEX[,INDEX]`: instead, how many entries each items index holds for the 10,000 items, then
 * the reference's transaction alone alternating the app's schema and the app's without those indexes
 * (`--write-pairs N`): what they cost every put, before a version drops them.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { chromiumArgs, chromiumAvailable, chromiumPath } from '../scripts/lib/chromium';
import { buildPage } from './clientBrowser';
import { startSeededAppServer } from './lib/appServer';
import { numberArg, pageApi } from './lib/pageApi';
import { ms, type Pairs, ratioText, times as x } from './lib/pairs';
import { check, heading, info, printAlternatingSummary, skip } from './lib/report';
import { median } from './lib/stats';

type Pull = { ms: number; count: number };
type LocalWritesApi = {
  setup(): Promise<string>;
  refPull(run: number, keep: boolean): Promise<Pull>;
  appPull(run: number, keep: boolean): Promise<Pull>;
};
type IndexCostApi = {
  itemIndexes(): string[];
  barePull(run: number): Promise<Pull>;
  writeOnly(items: 'bare' | 'v14' | 'app' | 'without', run: number, without?: string[]): Promise<Pull>;
  entries(): Promise<Record<string, number>>;
};

const lw = pageApi<LocalWritesApi>('localWrites');
const ic = pageApi<IndexCostApi>('indexCost');

const ITEMS = 10_000;

export async function run(args: string[] = []): Promise<void> {
  if (!chromiumAvailable()) {
    skip('index-cost', `no Chromium at ${chromiumPath}`);
    return;
  }
  const pairs = Math.max(3, numberArg(args, '--pairs', 7));
  const writes = Math.max(3, numberArg(args, '--write-pairs', 15));
  const started = Date.now();
  const load0 = loadavg();
  const work = await mkdtemp(path.join(tmpdir(), 'outpost-index-cost-'));
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
    await page.waitForFunction(() => 'localWrites' in window && 'indexCost' in window);
    heading(
      `index-cost: a fresh device's 10k pull vs raw IndexedDB with and without the items indexes (${server.url})`,
    );
    const indexes = await ic(page, 'itemIndexes');
    info('schema', `items indexes (${indexes.length})`, indexes.join(' '));
    const pages = await lw(page, 'setup');
    await writeFile(path.join(clientDir, 'bench-sync-pages.json'), pages);
    const without = args.includes('--without')
      ? (args[args.indexOf('--without') + 1] ?? '').split(',')
      : null;
    if (without) {
      const unknown = without.filter((i) => !indexes.includes(i));
      if (unknown.length > 0) throw new Error(`no such items index: ${unknown.join(' ')}`);
      for (const [index, n] of Object.entries(await ic(page, 'entries'))) info('entries', index, String(n));
      const lean: Pairs = { ref: [], app: [], ratios: [] };
      for (let i = -1; i < writes; i++) {
        const all = await ic(page, 'writeOnly', 'app', i + 1);
        const less = await ic(page, 'writeOnly', 'without', i + 1, without);
        if (all.count !== ITEMS || less.count !== ITEMS) throw new Error('a write stored too few items');
        if (i < 0) continue;
        lean.ref.push(all.ms);
        lean.app.push(less.ms);
        lean.ratios.push(less.ms / all.ms);
      }
      info('raw tx alone', `without ${without.join(' ')} ÷ app schema median`, ratioText(lean));
      info('raw tx alone', 'app schema median', ms(median(lean.ref)));
      info('raw tx alone', 'without median', ms(median(lean.app)));
      await context.close();
      return;
    }

    const bare: Pairs = { ref: [], app: [], ratios: [] };
    const full: Pairs = { ref: [], app: [], ratios: [] };
    const cost: Pairs = { ref: [], app: [], ratios: [] };
    // One unrecorded triple first: the first runs compile the paths.
    for (let i = -1; i < pairs; i++) {
      const b = await ic(page, 'barePull', i + 1);
      const r = await lw(page, 'refPull', i + 1, false);
      const a = await lw(page, 'appPull', i + 1, false);
      if (b.count !== ITEMS || r.count !== ITEMS || a.count !== ITEMS)
        throw new Error(`stored ${a.count} (app), ${r.count} (reference), ${b.count} (bare), not ${ITEMS}`);
      if (i < 0) continue;
      bare.ref.push(b.ms);
      bare.app.push(a.ms);
      bare.ratios.push(a.ms / b.ms);
      full.ref.push(r.ms);
      full.app.push(a.ms);
      full.ratios.push(a.ms / r.ms);
      cost.ref.push(b.ms);
      cost.app.push(r.ms);
      cost.ratios.push(r.ms / b.ms);
      console.log(
        `  triple ${i + 1} (load ${loadavg()[0]!.toFixed(2)}): bare ${ms(b.ms)}, reference ${ms(r.ms)}, app ${ms(a.ms)}; ` +
          `app/bare ${x(a.ms / b.ms)}, app/reference ${x(a.ms / r.ms)}`,
      );
    }
    const report = (subject: string, p: Pairs, budget: number | null, labels: [string, string]) => {
      info(subject, `${labels[0]} median`, ms(median(p.app)));
      info(subject, `${labels[1]} median`, ms(median(p.ref)));
      let verdict = 'info';
      if (budget === null) info(subject, `ratio (${p.ratios.length} triples)`, ratioText(p));
      else
        verdict = check({
          subject,
          metric: `ratio (${p.ratios.length} triples)`,
          value: ratioText(p),
          budget: `≤ ${x(budget)}`,
          ok: median(p.ratios) <= budget,
        })
          ? 'PASS'
          : 'FAIL';
      rows.push([
        subject,
        ms(median(p.app)),
        ms(median(p.ref)),
        ratioText(p),
        budget === null ? '-' : `≤ ${x(budget)}`,
        verdict,
      ]);
    };
    report('pull 10k vs 1 GET + 1 raw tx, no items indexes', bare, 3, ['app', 'bare reference']);
    report('pull 10k vs 1 GET + 1 raw tx, app schema', full, 1.3, ['app', 'reference']);
    report(`(what ${indexes.length} indexes cost the reference)`, cost, null, [
      'reference',
      'bare reference',
    ]);

    // The transaction alone (no GET): the schema before version 15 against today's, alternating.
    const before: Pairs = { ref: [], app: [], ratios: [] };
    const now: Pairs = { ref: [], app: [], ratios: [] };
    const saved: Pairs = { ref: [], app: [], ratios: [] };
    for (let i = -1; i < writes; i++) {
      const b = await ic(page, 'writeOnly', 'bare', i + 1);
      const old = await ic(page, 'writeOnly', 'v14', i + 1);
      const cur = await ic(page, 'writeOnly', 'app', i + 1);
      if (b.count !== ITEMS || old.count !== ITEMS || cur.count !== ITEMS)
        throw new Error('a write stored too few items');
      if (i < 0) continue;
      before.ref.push(b.ms);
      before.app.push(old.ms);
      before.ratios.push(old.ms / b.ms);
      now.ref.push(b.ms);
      now.app.push(cur.ms);
      now.ratios.push(cur.ms / b.ms);
      saved.ref.push(old.ms);
      saved.app.push(cur.ms);
      saved.ratios.push(cur.ms / old.ms);
    }
    report('raw tx alone, 23 indexes (before v15) vs none', before, null, ['23 indexes', 'no items index']);
    report(`raw tx alone, ${indexes.length} indexes (now) vs none`, now, null, [
      `${indexes.length} indexes`,
      'no items index',
    ]);
    report(`raw tx alone, ${indexes.length} indexes vs 23`, saved, null, ['now', 'before v15']);
    await context.close();
  } finally {
    await browser.close();
    await server.stop();
    await rm(work, { recursive: true, force: true });
  }
  printAlternatingSummary(
    'index-cost, medians (bare reference, reference and app alternated in one page; ratio = median of per-triple ratios, min–max)',
    rows,
    load0,
    started,
  );
}
