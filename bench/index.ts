/**
 * `npm run bench` runs every registered benchmark; `npm run bench -- <name> [args…]` runs one and
 * passes it the rest of the arguments. Each benchmark module exports `run(args)` and is imported
 * only when it runs, so one that is not written yet prints "not available yet" instead of breaking
 * the others. The run ends with a summary table; the exit code is 1 when a budget failed or a
 * benchmark crashed.
 */
import { pathToFileURL } from 'node:url';
import { type Figure, recordedFigures, setCurrentBench, table } from './lib/report';

interface Benchmark {
  name: string;
  /** Module path relative to this file. */
  file: string;
  about: string;
}

const BENCHMARKS: Benchmark[] = [
  { name: 'server', file: './server.ts', about: 'HTTP API throughput and latency on PGlite and PostgreSQL' },
  { name: 'client-data', file: './clientData.ts', about: 'client data layer' },
  {
    name: 'search-index',
    file: './searchIndex.ts',
    about: 'local search index vs the linear scan over 100,000 keys (Node): query medians, an edit, heap',
  },
  {
    name: 'client-browser',
    file: './clientBrowser.ts',
    about: "the app's data layer in Chromium vs raw IndexedDB: edits, a 10k pull, --100k",
  },
  {
    name: 'local-writes',
    file: './localWrites.ts',
    about:
      "issue 28: a 10k pull and a children-list edit vs raw IndexedDB on the app's own schema (≤ 1.3×, ≤ 2×)",
  },
  {
    name: 'sync-pages',
    file: './syncPages.ts',
    about:
      "the server alone for a 10k bootstrap's pages (in process, PGlite on disk): wall, CPU, file-size calls, per statement",
  },
  {
    name: 'first-sync',
    file: './firstSync.ts',
    about:
      'a fresh device signs in to N items in Chromium: time, long tasks over 100 ms, heap, progress line',
  },
  {
    name: 'guest-upgrade',
    file: './guestUpgrade.ts',
    about: '1,000 guest items moved to a new account (batches) against the real server: under 5 s',
  },
  {
    name: 'import',
    file: './importBatch.ts',
    about: 'issue 29 P19: a signed-in import of 2,000 items vs the guest upgrade of the same: ≤ 2×',
  },
  {
    name: 'quick-add',
    file: './quickAdd.ts',
    about: 'issue 32: the quick-add reader per keystroke (chrono-node and our grammar): median < 1 ms',
  },
  {
    name: 'calendar-feed',
    file: './calendarFeed.ts',
    about:
      'issue 48 F1/F4: a 5,000-event feed with long descriptions built on PGlite (< 500 ms); another GET beside it (max < 100 ms)',
  },
  {
    name: 'caldav-sync',
    file: './caldavSync.ts',
    about:
      'issue 67: sync-collection on a 5,000-item campaign on PGlite: first listing < 1 s, one change < 50 ms (1 href), against the API',
  },
  {
    name: 'cascade',
    file: './cascade.ts',
    about:
      "issue 29 F0: a campaign's cascades in a loop on PGlite; another user's GET /api/items p99 < 200 ms",
  },
  {
    name: 'recipients',
    file: './recipients.ts',
    about:
      "issue 48 M10: the change bus's viewers of a 5,000-item write, departures left out, vs without (≤ 1.3×)",
  },
  { name: 'sync-soak', file: './syncSoak.ts', about: 'sync under sustained concurrent writes' },
  {
    name: 'events',
    file: './events.ts',
    about: 'live events across instances: latency and 1,000 open streams',
  },
  {
    name: 'shared-scale',
    file: './sharedScale.ts',
    about:
      "issue 30: a rename in a campaign of 200 members → 400 streams on 3 instances (p95 < 1 s); the write (≤ 1.2×) and a member's first sync (≤ 1.3×) vs unshared",
  },
  {
    name: 'fanout',
    file: './fanout.ts',
    about:
      'issue 54: one campaign, members × 4 tabs on 3 instances (400, 5,000, 10,000 streams): write → every stream p50/p95 (< 1 s), memory per stream (< 20 KB), the write vs unshared (≤ 1.2×)',
  },
  {
    name: 'fuzz',
    file: './fuzz.ts',
    about: 'random input on every route: 0 answers of 5xx, 0 unhandled rejections',
  },
  {
    name: 'faults',
    file: './faults.ts',
    about: 'PostgreSQL restart under writers; SIGKILL of the server mid-replay: nothing lost or doubled',
  },
  {
    name: 'load',
    file: './load.ts',
    about:
      'writes against the database ceiling (same statements), PostgreSQL and PGlite; 50 writers on PGlite',
  },
  {
    name: 'load-mixed',
    file: './loadMixed.ts',
    about: '100 connections, mixed reads, writes and sync pulls on PostgreSQL',
  },
  { name: 'bundle', file: './bundle.ts', about: 'JavaScript the first screen loads (gzip)' },
  {
    name: 'lighthouse',
    file: './lighthouse.ts',
    about: 'Lighthouse mobile: performance, accessibility, CLS on /login and Home',
  },
  {
    name: 'home-10k',
    file: './home10k.ts',
    about: 'Home with 10,000 local items: first row, rows in the DOM',
  },
  {
    name: 'home-100k',
    file: './home100k.ts',
    about: 'Home with 100,000 local items: first row, rows in the DOM',
  },
  {
    name: 'home-after-sync',
    file: './homeAfterSync.ts',
    about:
      "issue 49: Home's first row right after a fresh device's first sync, 100,000 vs 10,000 items (alternating): ≤ 1.3×, < 300 ms",
  },
  {
    name: 'index-cost',
    file: './indexCost.ts',
    about:
      "issue 49: a fresh device's 10k pull vs 1 GET + 1 raw tx on the app's schema without the items indexes (≤ 3×) and with them (≤ 1.3×)",
  },
  {
    name: 'scale',
    file: './scale.ts',
    about:
      'the built app at 10k and 100k items in Chromium: first sync vs a bare pull, long tasks, heap, screens, edits, search',
  },
  {
    name: 'reorder',
    file: './reorder.ts',
    about:
      "issue 33: a reorder with 10,000 stored until the list's live query shows it vs a raw put + index read (≤ 2×, < 16 ms)",
  },
  {
    name: 'template-instantiate',
    file: './templateInstantiate.ts',
    about:
      'issue 66: a 200-item template created offline until a live read shows it, vs a raw 200-row put (< 300 ms)',
  },
  {
    name: 'saved-view',
    file: './savedView.ts',
    about:
      "issue 66: an edit until a saved view's live list over 10,000 items shows it, vs the same list unfiltered (< 50 ms, ≤ 2×)",
  },
  {
    name: 'filter-query',
    file: './filterQuery.ts',
    about: 'issue 66: GET /api/items?filter= over 100,000 items on PostgreSQL, every term (p95 < 300 ms)',
  },
  {
    name: 'board',
    file: './board.ts',
    about:
      'issue 33: a campaign board of 2,000 cards opens to its first card vs one of 200 (alternating): ≤ 1.3×',
  },
  {
    name: 'board-drag',
    file: './boardDrag.ts',
    about: 'issue 33: a card dragged in a board column of 500 under a Chromium trace: no frame over 16 ms',
  },
  {
    name: 'timeline',
    file: './timeline.ts',
    about:
      'issue 31: a task page with 500 comments and 500 changes opens to its first timeline row vs an empty one (alternating): ≤ 1.2×',
  },
  {
    name: 'comments',
    file: './comments.ts',
    about:
      'issue 31: a comment sent → its own timeline (< 16 ms, vs a raw put + index read) and → another signed-in device (p95 < 1 s)',
  },
  {
    name: 'comment-fanout',
    file: './commentFanout.ts',
    about:
      "issue 48: a comment on a task with 300 earlier commenters vs one nobody hears of (PGlite): the write, another user's slowest request",
  },
  {
    name: 'backup',
    file: './backup.ts',
    about: 'issue 54: npm run backup of 100,000 items (< 30 s) and npm run restore into each engine (< 60 s)',
  },
  {
    name: 'plan-views',
    file: './planViews.ts',
    about:
      'issue 53: Calendar month and a campaign Timeline first paint at 100,000 vs 10,000 items (alternating, ≤ 1.3×); start timer → header (script < 16 ms); a timeline bar dragged (no frame over 16 ms of script)',
  },
  {
    name: 'list-screens',
    file: './listScreens.ts',
    about: 'every list screen, first row at 10,000 and 100,000 local items (alternating): ≤ 1.3×, < 400 ms',
  },
  {
    name: 'webhook-write',
    file: './webhookWrite.ts',
    about: 'issue 51: a title edit with three webhooks subscribed vs the same edit without (≤ 1.1×)',
  },
  {
    name: 'webhook-others',
    file: './webhookOthers.ts',
    about: "issue 62: a write with 100,000 other people's webhooks in the database vs none (≤ 1.1×; --pg)",
  },
  {
    name: 'email-notify',
    file: './emailNotify.ts',
    about: 'issue 65: a comment that notifies 50 people by mail vs the same with mail off (≤ 1.1×; --pg)',
  },
  {
    name: 'inbound-load',
    file: './inboundLoad.ts',
    about:
      "issue 65: 100 inbound mails a minute over SMTP (200 KB PDF each): another user's p99 (< 100 ms) vs no mail; --pg",
  },
  {
    name: 'webhook-delivery',
    file: './webhookDelivery.ts',
    about:
      'issue 51: change → delivery at a local receiver, 100 webhooks on a campaign, 10 writes a second: p95 < 500 ms (PostgreSQL, 2 instances)',
  },
  {
    name: 'attachments',
    file: './attachments.ts',
    about:
      "issue 64: a 10 MB upload vs a raw PUT (≤ 1.2×); ten parallel 25 MB uploads: memory growth (< 60 MB), another user's p99 (< 100 ms); a title edit during a 25 MB upload reaches the server (≤ 1 s)",
  },
  {
    name: 'bearer-read',
    file: './bearerRead.ts',
    about: 'issue 51: GET /api/items with a bearer token vs a cookie session (alternating): ≤ 1.05×',
  },
];

type Outcome = 'PASS' | 'FAIL' | 'ERROR' | 'not available yet' | 'ran';

interface Result {
  name: string;
  outcome: Outcome;
  seconds: number;
  note: string;
}

function isMissingModule(error: unknown, file: string): boolean {
  const e = error as { code?: string; message?: string };
  const base = file.replace(/^\.\//, '').replace(/\.ts$/, '');
  return (
    (e.code === 'ERR_MODULE_NOT_FOUND' || e.code === 'MODULE_NOT_FOUND') &&
    typeof e.message === 'string' &&
    e.message.includes(base)
  );
}

async function runOne(bench: Benchmark, args: string[]): Promise<Result> {
  const started = Date.now();
  const seconds = () => (Date.now() - started) / 1000;
  console.log(`\n######## ${bench.name}: ${bench.about}`);
  let mod: { run?: (args: string[]) => Promise<void> };
  try {
    mod = (await import(pathToFileURL(new URL(bench.file, import.meta.url).pathname).href)) as typeof mod;
  } catch (error) {
    if (isMissingModule(error, bench.file)) {
      console.log(`${bench.name}: not available yet (bench/${bench.file.slice(2)} does not exist)`);
      return { name: bench.name, outcome: 'not available yet', seconds: seconds(), note: '' };
    }
    console.error(error);
    return { name: bench.name, outcome: 'ERROR', seconds: seconds(), note: (error as Error).message };
  }
  if (typeof mod.run !== 'function') {
    console.log(`${bench.name}: bench/${bench.file.slice(2)} exports no run(args) function`);
    return { name: bench.name, outcome: 'ERROR', seconds: seconds(), note: 'no run(args) export' };
  }
  setCurrentBench(bench.name);
  const exitCodeBefore = process.exitCode;
  process.exitCode = undefined;
  try {
    await mod.run(args);
  } catch (error) {
    console.error(error);
    return { name: bench.name, outcome: 'ERROR', seconds: seconds(), note: (error as Error).message };
  }
  // A benchmark that does not use lib/report may still signal a failure through process.exitCode.
  const signalledFailure = process.exitCode !== undefined && process.exitCode !== 0;
  process.exitCode = exitCodeBefore;
  const mine = recordedFigures().filter((f) => f.bench === bench.name);
  const failed = mine.filter((f) => f.verdict === 'FAIL');
  const checked = mine.filter((f) => f.verdict === 'PASS' || f.verdict === 'FAIL');
  const skipped = mine.filter((f) => f.verdict === 'skip').map((f) => f.subject);
  const notes = [
    checked.length > 0 ? `${checked.length - failed.length}/${checked.length} budgets met` : '',
    skipped.length > 0 ? `skipped: ${skipped.join(', ')}` : '',
  ].filter(Boolean);
  const outcome: Outcome =
    failed.length > 0 || signalledFailure ? 'FAIL' : checked.length > 0 ? 'PASS' : 'ran';
  return { name: bench.name, outcome, seconds: seconds(), note: notes.join('; ') };
}

function figureRow(f: Figure): string[] {
  return [f.bench, f.verdict, f.subject, f.metric, f.value, f.budget];
}

async function main(): Promise<void> {
  const [name, ...rest] = process.argv.slice(2);
  const selected = name ? BENCHMARKS.filter((b) => b.name === name) : BENCHMARKS;
  if (name && selected.length === 0) {
    console.error(`Unknown benchmark "${name}". Known: ${BENCHMARKS.map((b) => b.name).join(', ')}`);
    process.exit(2);
  }
  const results: Result[] = [];
  for (const bench of selected) results.push(await runOne(bench, name ? rest : []));

  const figures = recordedFigures().filter((f) => f.verdict !== 'info' || f.metric === 'req/s');
  if (figures.length > 0) {
    console.log('\n======== Figures with budgets (and throughput)');
    console.log(table(['bench', 'verdict', 'subject', 'figure', 'value', 'budget'], figures.map(figureRow)));
  }
  console.log('\n======== Summary');
  console.log(
    table(
      ['benchmark', 'result', 'time', 'notes'],
      results.map((r) => [r.name, r.outcome, `${r.seconds.toFixed(0)} s`, r.note]),
    ),
  );
  if (results.some((r) => r.outcome === 'FAIL' || r.outcome === 'ERROR')) process.exitCode = 1;
}

await main();
// A benchmark may leave timers, sockets or databases behind; the summary is the end of the run.
process.exit();
