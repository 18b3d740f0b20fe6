/**
 * The sync model test at soak size: `npm run bench -- sync-soak [runs]` (default 1,000) drives two
 * simulated devices of one user through random offline edits, lost answers, repeated deliveries and
 * server restarts against the real server on PGlite, and counts what was lost, doubled or different.
 * Both devices also complete a repeating todo's occurrences (O2): a second next occurrence counts as doubled.
 */

import fc from 'fast-check';
import { startClientTestServer } from '../testkit/client/server';
import { caseArb, runModelCase } from '../testkit/client/syncModel';
import { check, fmt, heading, info } from './lib/report';

/** Runs the soak and prints each figure beside its budget (0 lost, 0 duplicated, 0 diverged). */
export async function run(args: string[]): Promise<void> {
  const runs = Number(args[0] ?? 1000);
  const seed = Number(args[1] ?? Date.now() % 2_147_483_647);
  const server = await startClientTestServer();
  heading(`Sync soak: ${runs} random two-device cases (seed ${seed})`);
  const cases = fc.sample(caseArb, { numRuns: runs, seed });
  let lost = 0;
  let duplicated = 0;
  let diverged = 0;
  let executed = 0;
  const totals = { serverItems: 0, conflicts: 0, toasts: 0, occurrences: 0 };
  const failures: string[] = [];
  const started = performance.now();
  try {
    for (const [index, c] of cases.entries()) {
      const outcome = await runModelCase(server, c);
      executed++;
      lost += outcome.lost.length;
      duplicated += outcome.duplicated.length;
      diverged += outcome.mismatched.length > 0 ? 1 : 0;
      totals.serverItems += outcome.stats.serverItems;
      totals.conflicts += outcome.stats.conflicts;
      totals.toasts += outcome.stats.toasts;
      totals.occurrences += outcome.stats.occurrences;
      if (
        outcome.lost.length + outcome.duplicated.length + outcome.mismatched.length > 0 &&
        failures.length < 3
      ) {
        failures.push(`case ${index}: ${JSON.stringify(c)}\n${outcome.mismatched.join('\n').slice(0, 1500)}`);
      }
      if ((index + 1) % 100 === 0) console.log(`  … ${index + 1} cases`);
    }
  } finally {
    await server.close();
  }
  const seconds = (performance.now() - started) / 1000;
  check({
    subject: 'sync-soak',
    metric: 'cases run',
    value: String(executed),
    budget: `= ${runs}`,
    ok: executed === runs,
  });
  check({ subject: 'sync-soak', metric: 'items lost', value: String(lost), budget: '= 0', ok: lost === 0 });
  check({
    subject: 'sync-soak',
    metric: 'items duplicated',
    value: String(duplicated),
    budget: '= 0',
    ok: duplicated === 0,
  });
  check({
    subject: 'sync-soak',
    metric: 'cases diverged',
    value: String(diverged),
    budget: '= 0',
    ok: diverged === 0,
  });
  info('sync-soak', 'items on the server', String(totals.serverItems));
  info('sync-soak', 'conflicts resolved', String(totals.conflicts));
  info('sync-soak', 'drop toasts shown', String(totals.toasts));
  info('sync-soak', 'next occurrences made (one per completed occurrence)', String(totals.occurrences));
  info('sync-soak', 'time', fmt.ms(seconds * 1000));
  for (const f of failures) console.log(f);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await run(process.argv.slice(2));
}
