/**
 * The route fuzzer at full size: `npm run bench -- fuzz [runsPerRoute] [seed] [pglite] [pg]`
 * (default 1,000 cases a route, PGlite and PostgreSQL when TEST_DATABASE_URL or the local cluster is
 * reachable). The same generator as the test in src/server/http/badInput.test.ts, on the real app
 * with app.inject, sign-in and write limits off (the anonymous write limit too) so random writes reach
 * the handlers instead of 429. Besides the random cases, a fixed sweep puts a NUL and a lone surrogate
 * of each half in every body field, query parameter and path parameter.
 * Budgets: 0 answers of 500 or more, 0 unhandled rejections, 0 errors without a message.
 */
import { buildApp } from '../src/server/app';
import { fuzzRoutes } from '../testkit/fuzz';
import { openTestDatabase } from '../testkit/server';
import { pgReachable } from './lib/pg';
import { check, fmt, heading, info, skip } from './lib/report';

type Engine = 'pglite' | 'pg';

export async function run(args: string[]): Promise<void> {
  const numbers = args.filter((a) => /^\d+$/.test(a)).map(Number);
  const runsPerRoute = numbers[0] ?? 1000;
  const seed = numbers[1] ?? Date.now() % 2_147_483_647;
  const wanted = args.filter((a): a is Engine => a === 'pglite' || a === 'pg');
  const engines: Engine[] = wanted.length > 0 ? wanted : ['pglite', 'pg'];

  // A rejection nobody awaits would not show in any answer; count them over the whole run.
  let unhandled = 0;
  const samples: string[] = [];
  const onUnhandled = (reason: unknown) => {
    unhandled++;
    if (samples.length < 5) samples.push(String((reason as Error)?.stack ?? reason));
  };
  process.on('unhandledRejection', onUnhandled);
  try {
    for (const engine of engines) {
      const label = engine === 'pg' ? 'PostgreSQL' : 'PGlite';
      if (engine === 'pg') {
        const problem = await pgReachable();
        if (problem) {
          skip(`fuzz ${label}`, problem);
          continue;
        }
      }
      heading(`Fuzz on ${label}: ${runsPerRoute} cases per route (seed ${seed})`);
      const database = await openTestDatabase(engine);
      const app = await buildApp({
        database,
        config: {
          seedSampleUsers: true,
          loginsPerMinute: 0,
          writesPerMinute: 0,
          anonymousWritesPerMinute: 0,
        },
      });
      await app.ready();
      const before = unhandled;
      const started = performance.now();
      try {
        const result = await fuzzRoutes(app, { runsPerRoute, seed });
        // Rejections surface on a later tick; give them one before counting.
        await new Promise((resolve) => setTimeout(resolve, 200));
        const seconds = (performance.now() - started) / 1000;
        const routes = result.perRoute.size;
        const subject = `fuzz ${label}`;
        check({
          subject,
          metric: 'routes covered',
          value: `${routes}/${app.routeTable.length}`,
          budget: '= all of app.routeTable',
          ok: routes === app.routeTable.length,
        });
        check({
          subject,
          metric: 'cases',
          value: fmt.count(result.cases),
          budget: `>= ${runsPerRoute} per route`,
          ok: [...result.perRoute.values()].every((n) => n >= runsPerRoute),
        });
        check({
          subject,
          metric: 'unstorable-text sweep',
          value: fmt.count(result.sweepCases),
          budget: '> 0 (NUL, lone surrogates)',
          ok: result.sweepCases > 0,
        });
        check({
          subject,
          metric: 'answers >= 500',
          value: fmt.count(result.serverErrors),
          budget: '= 0',
          ok: result.serverErrors === 0,
        });
        check({
          subject,
          metric: 'unhandled rejections',
          value: fmt.count(unhandled - before),
          budget: '= 0',
          ok: unhandled === before,
        });
        check({
          subject,
          metric: 'errors w/o message',
          value: fmt.count(result.missingMessage),
          budget: '= 0',
          ok: result.missingMessage === 0,
        });
        const statuses = [...result.statusCounts]
          .sort(([a], [b]) => a - b)
          .map(([s, n]) => `${s}×${n}`)
          .join(' ');
        info(subject, 'statuses', statuses);
        const sent = result.cases + result.sweepCases;
        info(subject, 'cases/s', `${Math.round(sent / seconds)} (${seconds.toFixed(1)} s)`);
        for (const f of result.failures)
          console.log(`  ${f.problem} ${f.status}: ${f.sent}\n    → ${f.answer}`);
      } finally {
        await app.close();
        await database.close();
      }
    }
  } finally {
    process.off('unhandledRejection', onUnhandled);
    for (const s of samples) console.log(`unhandled rejection: ${s}`);
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await run(process.argv.slice(2));
}
