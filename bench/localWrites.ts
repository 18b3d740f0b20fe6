/**
 * `npm run bench -- local-writes [--pull-pairs N] [--edit-pairs N] [--profile] [--phases] [--series] [--probe] [--plain-dexie] [--no-own-transaction]` (`--pull-pairs 0`: B alone;
 * `--plain-dexie`: the app with every faster route off, plain Dexie's transactions and table calls only
 * (src/client/data/store/dexieInternals.ts), to see what the raw routes earn; `--no-own-transaction`:
 * without the edit in place's own raw transaction (changes/writeRoute.ts), to see what it earns;
 * `--series`: B's pairs in the order run; `--phases`: when each side's write transaction opens, issues its last request, is answered and commits;
 * `--probe`: what the app's write requests cost in raw IndexedDB, shape by shape, without Dexie or the app): issue 28's two references
 * beside the app, in headless Chromium against the real server (PGlite, seeded with bench/lib/seed.ts's
 * 10,000 items), alternating reference and app (A B A B …): each side's median, the median of the
 * per-pair ratios app/reference with their spread (min–max), beside the budget.
 *
 *  A. A fresh device pulling 10,000 items until all are queryable (one engine.sync() after an untimed
 *     sign-in, a fresh database each run); reference: one GET of the same rows (the account's
 *     GET /api/sync pages concatenated, read once before, served by the real server) plus one raw
 *     IndexedDB readwrite transaction writing them with the same derived keys and counter rows, into a
 *     database with the app's schema built from its own definitions. Budget ≤ 1.3×. Once per run the
 *     reference's database is checked row by row against the app's (rows, every index entry, counter
 *     rows, users, logged ids): any difference fails the bench. Beside it, issue 69's bare floor: the
 *     same GET, then one raw transaction putting each item as sent into a store keyed by id with no
 *     index, derived key or counter (budget ≤ 2.5×); the three alternate in each round.
 *  B. A title rename through the repository (items.update) with 10,000 stored, until the children
 *     list's live query (Dexie liveQuery over queries.childrenOf, the task page's read) shows it;
 *     reference: one raw put of the changed row plus one read of the children index range. Budget ≤ 2×.
 *     Breakdowns, no budget: the update resolving (committed), and the list as the task page listens
 *     (with the local echo, which shows the title before the write commits).
 *
 * The page is bench/browser/localWrites.ts (loaded into the client-browser bench page).
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { chromium, type Page } from 'playwright-core';
import { chromiumArgs, chromiumAvailable, chromiumPath } from '../scripts/lib/chromium';
import { buildPage } from './clientBrowser';
import { type CpuProfile, printProfile } from './firstSync';
import { startSeededAppServer } from './lib/appServer';
import { numberArg, pageApi } from './lib/pageApi';
import { alternatePairs, ms, type Pairs, ratioText, times as x } from './lib/pairs';
import { check, heading, info, printAlternatingSummary, skip } from './lib/report';
import { median, percentile } from './lib/stats';

type Api = {
  schema(): string;
  countIdb(on: boolean): Record<string, number>;
  traceEdit(side?: 'app' | 'ref'): Promise<string[]>;
  editPhases(side: 'app' | 'ref'): Promise<Record<string, number>>;
  timeGets(): Promise<{ pagesMs: number; pages: number; oneGetMs: number }>;
  setup(): Promise<string>;
  refPull(run: number, keep: boolean): Promise<{ ms: number; count: number }>;
  barePull(run: number): Promise<{ ms: number; count: number }>;
  appPull(run: number, keep: boolean): Promise<{ ms: number; count: number }>;
  check(): { ok: boolean; problems: string[]; summary: string };
  editSetup(): Promise<{ items: number; rawItems: number; children: number }>;
  listen(mode: 'live' | 'echo'): Promise<void>;
  appEdit(): Promise<{ ms: number; storedMs: number }>;
  refEdit(): Promise<{ ms: number; startedAt: number }>;
  editTeardown(): Promise<void>;
  probe(n: number): Promise<Record<string, number>>;
  pullTimeline(run: number): Promise<string[]>;
  recordPages(run: number): Promise<void>;
};

const call = pageApi<Api>('localWrites');

const rows: string[][] = [];

function report(subject: string, p: Pairs, budget: number | null, labels = ['app', 'reference']): void {
  const ratio = median(p.ratios);
  const value = ratioText(p);
  info(subject, `${labels[0]} median`, ms(median(p.app)));
  info(subject, `${labels[1]} median`, ms(median(p.ref)));
  // The tails side by side: the p90 of the per-pair ratios (in the verdict's line) mixes both sides'
  // noise, a pair whose reference ran unusually fast reading as a slow app.
  const tails = percentile(p.app, 0.9) / percentile(p.ref, 0.9);
  info(
    subject,
    `p90 ${labels[0]} ÷ p90 ${labels[1]}`,
    `${ms(percentile(p.app, 0.9))} ÷ ${ms(percentile(p.ref, 0.9))} = ${x(tails)}`,
  );
  const metric = `ratio (${p.ratios.length} pairs)`;
  let verdict = 'info';
  if (budget === null) info(subject, metric, value);
  else {
    const ok = check({ subject, metric, value, budget: `≤ ${x(budget)}`, ok: ratio <= budget });
    verdict = ok ? 'PASS' : 'FAIL';
  }
  rows.push([
    subject,
    ms(median(p.app)),
    ms(median(p.ref)),
    value,
    budget === null ? '-' : `≤ ${x(budget)}`,
    verdict,
  ]);
}

/** --profile: one edit's samples in order, from the first inside the repository's update, as runs of one stack. */
function printTimeline(cpu: CpuProfile): void {
  const byNode = new Map(cpu.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of cpu.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const stackOf = (id: number): string[] => {
    const out: string[] = [];
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      const f = byNode.get(at)!.callFrame;
      out.push(`${f.functionName || '(anon)'}:${f.url.split('/').pop()}:${f.lineNumber}`);
    }
    return out;
  };
  let t = 0;
  let started = -1;
  const runs: { at: number; label: string; n: number }[] = [];
  cpu.samples.forEach((id, i) => {
    t += cpu.timeDeltas[i] ?? 0;
    const stack = stackOf(id);
    if (started < 0 && stack.some((f) => f.startsWith('update:'))) started = t;
    if (started < 0) return;
    const leaf = stack[0]!;
    if (leaf.startsWith('(idle)')) {
      const last = runs[runs.length - 1];
      if (last?.label === '(idle)') last.n += cpu.timeDeltas[i] ?? 0;
      else runs.push({ at: t - started, label: '(idle)', n: cpu.timeDeltas[i] ?? 0 });
      return;
    }
    const label = stack.slice(0, 7).join(' < ');
    const last = runs[runs.length - 1];
    if (last?.label === label) last.n += cpu.timeDeltas[i] ?? 0;
    else runs.push({ at: t - started, label, n: cpu.timeDeltas[i] ?? 0 });
  });
  heading('timeline: one app edit (ms from its first sample; run length)');
  for (const r of runs.filter((r) => r.at < 12_000))
    console.log(`  ${(r.at / 1000).toFixed(2)} +${(r.n / 1000).toFixed(2)} ${r.label.slice(0, 300)}`);
}

/** The 25 functions of the page's own code with the most inclusive time (each counted once per sample). */
function printInclusive(cpu: CpuProfile, under?: string): void {
  const byNode = new Map(cpu.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of cpu.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const total = new Map<string, number>();
  cpu.samples.forEach((id, i) => {
    const dt = (cpu.timeDeltas[i + 1] ?? 0) / 1000;
    const seen = new Set<string>();
    let inside = under === undefined;
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      const f = byNode.get(at)?.callFrame;
      if (!f) continue;
      const key = `${f.functionName || '(anonymous)'} ${f.url.split('/').pop()}:${f.lineNumber + 1}`;
      if (under !== undefined && (f.functionName === under || key.includes(under))) inside = true;
      seen.add(key);
    }
    if (!inside) return;
    for (const key of seen) total.set(key, (total.get(key) ?? 0) + dt);
  });
  console.log(under ? `  inclusive, under ${under}:` : '  inclusive:');
  for (const [key, v] of [...total].sort((a, b) => b[1] - a[1]).slice(0, under ? 45 : 25))
    console.log(`${v.toFixed(0).padStart(7)} ms  ${key}`);
}

const PHASES = [
  ['opened', 'write transaction opened'],
  ['lastIssued', 'its last request issued'],
  ['answered', 'every request answered'],
  ['committed', 'committed'],
  ['firstReread', 'first re-read opened'],
  ['lastReread', 'last re-read opened'],
  ['heard', "Dexie's commit listeners done"],
  ['shown', 'the list shows it'],
  ['rereads', 're-reads opened (count)'],
] as const;

/**
 * --phases: where a B edit's time goes, without a profiler's cost: `n` edits of each side, alternating,
 * each side's write transaction timed at its IndexedDB calls (medians, ms from the edit's start).
 */
async function printPhases(page: Page, n: number): Promise<void> {
  const runs = { app: [] as Record<string, number>[], ref: [] as Record<string, number>[] };
  for (let i = 0; i < n; i++) {
    runs.ref.push(await call(page, 'editPhases', 'ref'));
    runs.app.push(await call(page, 'editPhases', 'app'));
  }
  heading(`phases of a B edit (medians and p90s of ${n} each, alternating; ms from the edit's start)`);
  console.log(
    `  ${'phase'.padEnd(28)} ${'app'.padStart(8)} ${'app p90'.padStart(8)} ${'reference'.padStart(10)} ${'ref p90'.padStart(8)}`,
  );
  for (const [key, label] of PHASES) {
    const at = (side: 'app' | 'ref', of: (values: number[]) => number) => {
      const values = runs[side].map((r) => r[key]!).filter(Number.isFinite);
      return values.length === 0 ? '-' : of(values).toFixed(2);
    };
    const p90 = (values: number[]) => percentile(values, 0.9);
    console.log(
      `  ${label.padEnd(28)} ${at('app', median).padStart(8)} ${at('app', p90).padStart(8)} ${at('ref', median).padStart(10)} ${at('ref', p90).padStart(8)}`,
    );
  }
  // The tail: in the slowest tenth of each side's edits, which step took the time (each step's own ms).
  const steps = ['opened', 'lastIssued', 'answered', 'committed', 'lastReread', 'shown'] as const;
  for (const side of ['app', 'ref'] as const) {
    const slow = runs[side]
      .slice()
      .sort((a, b) => b.shown! - a.shown!)
      .slice(0, Math.max(3, Math.round(n / 10)));
    heading(`the slowest tenth of the ${side}'s edits: each step's own ms (${steps.join(', ')})`);
    for (const r of slow) {
      let prev = 0;
      const own = steps.map((k) => {
        const v = r[k]!;
        const d = Number.isFinite(v) ? v - prev : Number.NaN;
        if (Number.isFinite(v)) prev = v;
        return d.toFixed(2).padStart(6);
      });
      console.log(`  ${own.join(' ')}  = ${r.shown!.toFixed(2)}`);
    }
  }
}

export async function run(args: string[] = []): Promise<void> {
  if (!chromiumAvailable()) {
    skip('local-writes', `no Chromium at ${chromiumPath}`);
    return;
  }
  // --pull-pairs 0 skips A (B alone, while working on the edit).
  const pullPairs =
    numberArg(args, '--pull-pairs', 5) === 0 ? 0 : Math.max(5, numberArg(args, '--pull-pairs', 5));
  const editPairs = Math.max(30, numberArg(args, '--edit-pairs', 30));
  const started = Date.now();
  const load0 = loadavg();
  const work = await mkdtemp(path.join(tmpdir(), 'outpost-local-writes-'));
  const clientDir = path.join(work, 'client');
  const dataDir = path.join(work, 'data');
  // --profile: an unminified page and, after the pairs, one more run of each side under the CPU profiler.
  const profile = args.includes('--profile');
  await buildPage(clientDir, !profile);
  const server = await startSeededAppServer(clientDir, dataDir);
  const browser = await chromium.launch({ executablePath: chromiumPath, args: chromiumArgs });
  try {
    const context = await browser.newContext({ serviceWorkers: 'block' });
    const page = await context.newPage();
    page.on('pageerror', (e) => console.error('page error:', e.message));
    const plain = args.includes('--plain-dexie');
    const modes = [
      plain ? 'plainDexie' : '',
      args.includes('--no-own-transaction') ? 'noOwnTransaction' : '',
    ];
    const query = modes.filter(Boolean).join('&');
    if (args.includes('--phases'))
      // Cross-origin isolated, the page's clock reads to 5 µs instead of 100 µs: phases a tenth of a
      // millisecond apart are told apart. Only then: the app's own pages are not isolated.
      await page.route(/\/(\?.*)?$/, async (route) => {
        const response = await route.fetch();
        await route.fulfill({
          response,
          headers: { ...response.headers(), 'cross-origin-embedder-policy': 'require-corp' },
        });
      });
    await page.goto(`${server.url}/${query ? `?${query}` : ''}`);
    await page.waitForFunction(() => 'localWrites' in window);
    heading(
      `local-writes: the app${query ? ` (${query})` : ''} vs issue 28's raw IndexedDB references in Chromium (${server.url})`,
    );
    info('schema', 'stores (indexes)', await call(page, 'schema'));
    // The reference's one GET serves the sync pages concatenated from the app's folder (the real server).
    const pages = await call(page, 'setup');
    await writeFile(path.join(clientDir, 'bench-sync-pages.json'), pages);
    info('A. reference GET', 'sync pages concatenated', `${(pages.length / 1e6).toFixed(1)} MB`);

    // A. Fresh device pulls 10,000 items; the first pair is kept and compared row by row.
    const pull: Pairs = { ref: [], app: [], ratios: [] };
    // The app against the bare floor too (issue 69: ≤ 2.5×), the bare pull run in each pair beside the other two.
    const bare: Pairs = { ref: [], app: [], ratios: [] };
    const replayPages = args.includes('--replay-pages');
    for (let i = 0; i < pullPairs; i++) {
      const keep = i === 0;
      // Its pages from memory, not the server (the app's pull without the server's work beside it).
      if (replayPages) await call(page, 'recordPages', 1000 + i);
      const r = await call(page, 'refPull', i, keep);
      const a = await call(page, 'appPull', i, keep);
      const b = await call(page, 'barePull', i);
      if (r.count !== 10_000 || a.count !== 10_000 || b.count !== 10_000)
        throw new Error(
          `stored ${a.count} items (app), ${r.count} (reference) and ${b.count} (bare), not 10,000`,
        );
      bare.ref.push(b.ms);
      bare.app.push(a.ms);
      bare.ratios.push(a.ms / b.ms);
      if (keep) {
        const same = await call(page, 'check');
        if (!same.ok) {
          for (const p of same.problems) console.error(`  DIFF ${p}`);
          throw new Error(
            `the reference did not store what the app stores (${same.problems.length} differences)`,
          );
        }
        info('A. row-by-row check', 'reference = app', `yes: ${same.summary}`);
      }
      pull.ref.push(r.ms);
      pull.app.push(a.ms);
      pull.ratios.push(a.ms / r.ms);
      console.log(
        `  pull pair ${i + 1}: reference ${ms(r.ms)}, app ${ms(a.ms)}, ${x(a.ms / r.ms)}; bare ${ms(b.ms)}, ${x(a.ms / b.ms)}`,
      );
    }

    if (args.includes('--timeline')) {
      heading('timeline: one app pull (ms from the sync call)');
      for (const line of await call(page, 'pullTimeline', 200)) console.log(`  ${line}`);
    }

    if (profile) {
      const cdp = await context.newCDPSession(page);
      await cdp.send('Profiler.enable');
      await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
      for (const side of ['refPull', 'appPull'] as const) {
        await call(page, 'countIdb', true);
        await cdp.send('Profiler.start');
        const r = await call(page, side, 100, false);
        const cpu = (await cdp.send('Profiler.stop')).profile as CpuProfile;
        const calls = await call(page, 'countIdb', false);
        const idle = new Set(cpu.nodes.filter((n) => n.callFrame.functionName === '(idle)').map((n) => n.id));
        const busy = cpu.samples.reduce(
          (sum, id, i) => (idle.has(id) ? sum : sum + (cpu.timeDeltas[i + 1] ?? 0) / 1000),
          0,
        );
        heading(`profile: ${side} ${ms(r.ms)}, main thread busy ${ms(busy)} of the profile`);
        console.log(`  IndexedDB calls: ${JSON.stringify(calls)}`);
        printProfile(cpu);
        printInclusive(cpu);
      }
      for (let i = 0; i < 3; i++) {
        const g = await call(page, 'timeGets');
        console.log(
          `  GETs alone: ${g.pages} sync pages in turn ${ms(g.pagesMs)}, the reference's one GET ${ms(g.oneGetMs)}`,
        );
      }
      await cdp.detach();
    }

    // B. A title edit with 10,000 stored.
    const setup = await call(page, 'editSetup');
    info(
      'B. setup',
      'stored (app, reference)',
      `${setup.items}, ${setup.rawItems}; ${setup.children} children`,
    );
    const edits = (n: number) =>
      alternatePairs(
        n,
        () => call(page, 'refEdit'),
        () => call(page, 'appEdit'),
      );
    await call(page, 'listen', 'live');
    const live = await edits(editPairs);
    if (args.includes('--series')) {
      // The pairs in the order run: whether the slow rounds cluster (early, periodic) or scatter.
      heading('B. the pairs in order (app ms / reference ms = ratio)');
      for (let i = 0; i < live.shown.ratios.length; i++)
        console.log(
          `  ${String(i + 1).padStart(3)} ${ms(live.shown.app[i]!).padStart(8)} ${ms(live.shown.ref[i]!).padStart(8)} ${x(live.shown.ratios[i]!)}`,
        );
    }
    if (profile) {
      // B under the CPU profiler: 40 app edits, where a title edit's time goes on the main thread.
      const cdp = await context.newCDPSession(page);
      await cdp.send('Profiler.enable');
      await cdp.send('Profiler.setSamplingInterval', { interval: 100 });
      await call(page, 'countIdb', true);
      await cdp.send('Profiler.start');
      for (let i = 0; i < 40; i++) await call(page, 'appEdit');
      const cpu = (await cdp.send('Profiler.stop')).profile as CpuProfile;
      heading('profile: 40 app edits (B)');
      console.log(`  IndexedDB calls: ${JSON.stringify(await call(page, 'countIdb', false))}`);
      printProfile(cpu);
      printInclusive(cpu);
      printInclusive(cpu, 'itemsRepository');
      await call(page, 'countIdb', true);
      await cdp.send('Profiler.start');
      for (let i = 0; i < 40; i++) await call(page, 'refEdit');
      const refCpu = (await cdp.send('Profiler.stop')).profile as CpuProfile;
      heading('profile: 40 reference edits (B)');
      console.log(`  IndexedDB calls: ${JSON.stringify(await call(page, 'countIdb', false))}`);
      printProfile(refCpu);
      // A timeline of single edits: what the main thread runs, in order, from the edit's first sample.
      await cdp.send('Profiler.setSamplingInterval', { interval: 50 });
      for (let k = 0; k < 3; k++) {
        await cdp.send('Profiler.start');
        await call(page, 'appEdit');
        printTimeline((await cdp.send('Profiler.stop')).profile as CpuProfile);
      }
      await cdp.detach();
      for (let i = 0; i < 3; i++)
        for (const side of ['app', 'ref'] as const) {
          heading(`trace: the IndexedDB calls of one ${side} edit (ms from its start)`);
          for (const line of await call(page, 'traceEdit', side)) console.log(`  ${line}`);
        }
    }
    if (args.includes('--phases')) await printPhases(page, editPairs);
    if (args.includes('--probe')) {
      heading(
        'raw IndexedDB: the request shapes of a write, on the reference database (median ms of 40 each)',
      );
      for (const [shape, value] of Object.entries(await call(page, 'probe', 40)))
        console.log(`  ${shape.padEnd(20)} ${value.toFixed(2)} ms`);
    }
    await call(page, 'listen', 'echo');
    const echo = await edits(Math.round(editPairs / 2));
    await call(page, 'editTeardown');

    if (pullPairs > 0) {
      report('A. fresh device pulls 10k (vs 1 GET + 1 raw tx)', pull, 1.3);
      report('A. fresh device pulls 10k (vs 1 GET + bare puts, no index)', bare, 2.5, ['app', 'bare']);
    }
    report('B. edit → children liveQuery, 10k (vs put + index read)', live.shown, 2);
    report('B. (breakdown) edit committed (update resolved)', live.stored, null, ['app stored', 'reference']);
    // The task page's own listener: the local echo shows the title before the write commits.
    report('B. (breakdown) edit → children list with local echo', echo.shown, null);
    await context.close();
  } finally {
    await browser.close();
    await server.stop();
    await rm(work, { recursive: true, force: true });
  }
  printAlternatingSummary(
    'local-writes, medians (reference and app alternated in one page; ratio = median of per-pair app/reference, min–max)',
    rows,
    load0,
    started,
  );
}
