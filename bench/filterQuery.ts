/**
 * `npm run bench -- filter-query [--rounds N] [--items N]`: issue 66's budget for `GET /api/items?filter=`
 * on PostgreSQL (TEST_DATABASE_URL, else the local default; skipped when unreachable). One throwaway
 * database is seeded with one account of 100,000 items (bench/lib/seed.ts seedScaleAccount: campaigns,
 * tasks, todos, a third completed); the real app answers in-process (app.inject), its read cache
 * emptied before every request so each one runs its query.
 *
 * For every term of the language (and two compound queries), N requests alternate with the reference,
 * the same page of the same account with no filter (A B A B …): the term's p95 against the budget
 * (< 300 ms), its median, and the median of the per-pair ratios with their spread.
 */
import { loadavg } from 'node:os';
import { buildApp } from '../src/server/app';
import { sql } from '../src/server/db/client';
import { tempDiskStore } from '../testkit/files';
import { openTestDatabase } from '../testkit/server';
import { benchConfig } from './lib/benchConfig';
import { injectSignIn } from './lib/injectSession';
import { numberArg } from './lib/pageApi';
import { ms, ratioText, times } from './lib/pairs';
import { pgReachable, pgUrl } from './lib/pg';
import { check, heading, info, printAlternatingSummary, skip } from './lib/report';
import { seedScaleAccount } from './lib/seed';
import { median, percentile as quantileOf } from './lib/stats';

const P95_BUDGET_MS = 300;

/** Every term of ARCHITECTURE §4's list, as a person writes it, and two joined queries. */
const TERMS = [
  'today',
  'overdue',
  'no date',
  'due before: next friday',
  'due after: today',
  'start <= today',
  'p1',
  '+paint',
  '#"Campaign 1 fence"',
  '@me',
  'assigned: none',
  'status: in progress',
  'type: task',
  'created by: me',
  'has: files',
  'has: comments',
  'has: estimate',
  'has: time',
  'tracked > 2h',
  'search: fence tape',
  '!status: completed & (p1 | +paint)',
  'type: todo & !overdue & search: budget',
] as const;

const p95 = (values: readonly number[]) => quantileOf(values, 0.95);

export async function run(args: string[] = []): Promise<void> {
  const url = pgUrl();
  const problem = await pgReachable(url);
  if (problem) {
    skip('filter-query', `PostgreSQL at ${url} is unreachable (${problem}); set TEST_DATABASE_URL`);
    return;
  }
  process.env.TEST_DATABASE_URL = url;
  const rounds = Math.max(5, numberArg(args, '--rounds', 20));
  const size = Math.max(10_000, numberArg(args, '--items', 100_000));
  const started = Date.now();
  const load0 = loadavg();
  const database = await openTestDatabase('pg');
  const files = await tempDiskStore();
  const app = await buildApp({ database, config: benchConfig(), files: files.store });
  const rows: string[][] = [];
  try {
    await app.ready();
    heading(`filter-query: GET /api/items?filter= over ${size.toLocaleString('en-US')} items on PostgreSQL`);
    const seeded = await seedScaleAccount(database.db, {
      phone: '+15555550142',
      name: 'Filter Bench',
      items: size,
    });
    // The seed plans nothing: priorities, labels, dates, estimates and assignees spread over the
    // items, so each planning term matches some of them and not others.
    await database.db.execute(sql`UPDATE items SET priority = 1 + (id % 4),
        labels = CASE WHEN id % 7 = 0 THEN ARRAY['paint'] WHEN id % 11 = 0 THEN ARRAY['errand', 'paint'] ELSE '{}' END,
        due_date = CASE WHEN id % 3 = 0 THEN NULL ELSE current_date + ((id % 61) - 30) END,
        start_date = CASE WHEN id % 3 = 0 OR id % 2 = 0 THEN NULL ELSE current_date + ((id % 61) - 35) END,
        estimate_minutes = CASE WHEN id % 5 = 0 THEN 30 END,
        assigned_to = CASE WHEN id % 4 = 0 THEN user_id END
      WHERE user_id = ${seeded.user.id}`);
    await database.db.execute('ANALYZE');
    info('setup', 'items seeded', seeded.total.toLocaleString('en-US'));
    const session = await injectSignIn(app, '+15555550142', 'Filter Bench');
    const get = async (filter: string | null): Promise<{ ms: number; count: number }> => {
      app.readCache.reset();
      const query = filter === null ? '' : `?filter=${encodeURIComponent(filter)}`;
      const t0 = performance.now();
      const res = await app.inject({
        method: 'GET',
        url: `/api/items${query}`,
        headers: { cookie: session.cookie },
      });
      const took = performance.now() - t0;
      if (res.statusCode !== 200) throw new Error(`${filter}: ${res.statusCode} ${res.body}`);
      return { ms: took, count: (res.json() as { total: number }).total };
    };
    // Two unrecorded requests each: the first plans and the first reads warm the caches.
    for (let i = 0; i < 2; i++) await get(null);
    for (const term of TERMS) {
      for (let i = 0; i < 2; i++) await get(term);
      const ref: number[] = [];
      const app: number[] = [];
      const ratios: number[] = [];
      let count = 0;
      for (let i = 0; i < rounds; i++) {
        const r = await get(null);
        const a = await get(term);
        count = a.count;
        ref.push(r.ms);
        app.push(a.ms);
        ratios.push(a.ms / r.ms);
      }
      const tail = p95(app);
      const ok = check({
        subject: term,
        metric: `p95 of ${rounds} (${count.toLocaleString('en-US')} match)`,
        value: ms(tail),
        budget: `< ${P95_BUDGET_MS} ms`,
        ok: tail < P95_BUDGET_MS,
      });
      const pairs = { ref, app, ratios };
      rows.push([
        term,
        ms(median(app)),
        ms(median(ref)),
        ratioText(pairs),
        `p95 ${ms(tail)} < ${P95_BUDGET_MS} ms`,
        ok ? 'PASS' : 'FAIL',
      ]);
    }
    info(
      'all terms',
      'largest ratio median',
      times(Math.max(...rows.map((r) => Number.parseFloat(r[3] ?? '0')))),
    );
  } finally {
    await app.close();
    await database.close();
    await files.close();
  }
  printAlternatingSummary(
    'filter-query, medians (no filter and the term alternated; ratio = median of per-pair term/no filter, min–max)',
    rows,
    load0,
    started,
  );
}
