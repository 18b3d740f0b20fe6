import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { bin, repoRoot } from './paths';

// The step runner of `npm test` and `npm run check`: each step a command, stopping at the first
// failure; the last line is always "N passed, N failed" over the test counts, and a step that fails
// without reporting tests (tsc, biome, a crashed runner) counts as one failure.

/** `flaky`: of the passed, how many passed only on a retry (the browser suite retries once on CI). */
export type Counts = { passed: number; failed: number; flaky?: number };
const total = { passed: 0, failed: 0, flaky: 0 };
const startedAt = Date.now();

function run(command: string, args: string[], env: NodeJS.ProcessEnv = {}): Promise<number> {
  return new Promise((resolve) => {
    const merged: NodeJS.ProcessEnv = { ...process.env, ...env };
    // A step may ask for a variable to be unset (the check's vitest runs without PostgreSQL).
    for (const [key, value] of Object.entries(env)) if (value === undefined) delete merged[key];
    const child = spawn(command, args, { cwd: repoRoot, env: merged, stdio: 'inherit' });
    child.on('error', (error) => {
      console.error(error);
      resolve(1);
    });
    child.on('exit', (code) => resolve(code ?? 1));
  });
}

function readJson(file: string): unknown {
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return undefined;
  }
}

const vitestJson = z.object({ numPassedTests: z.number(), numFailedTests: z.number() });
const playwrightJson = z.object({
  stats: z.object({ expected: z.number(), unexpected: z.number(), flaky: z.number() }),
});

/** The counts of a vitest JSON report, or undefined when the run wrote none. */
export function vitestCounts(file: string): Counts | undefined {
  const report = vitestJson.safeParse(readJson(file));
  if (!report.success) return undefined;
  return { passed: report.data.numPassedTests, failed: report.data.numFailedTests };
}

/** The counts of a Playwright JSON report; a flaky test passed on a retry. */
export function playwrightCounts(file: string): Counts | undefined {
  const report = playwrightJson.safeParse(readJson(file));
  if (!report.success) return undefined;
  const { expected, unexpected, flaky } = report.data.stats;
  return { passed: expected + flaky, failed: unexpected, flaky };
}

/** Prints the summary line and exits. */
export function finish(code: number): never {
  const seconds = Math.round((Date.now() - startedAt) / 1000);
  console.log(`\nTook ${Math.floor(seconds / 60)} min ${seconds % 60} s.`);
  // Said on its own line, so a test that needed its retry is seen, not only counted as passed.
  if (total.flaky > 0)
    console.log(`\n${total.flaky} browser test(s) passed only on a retry: listed as flaky above.`);
  console.log(`\n${total.passed} passed, ${total.failed} failed`);
  process.exit(code);
}

export type StepOptions = { env?: NodeJS.ProcessEnv; counts?: () => Counts | undefined };

/** Runs one step; a non-zero exit ends the run with the summary. */
export async function step(name: string, command: string, args: string[], options: StepOptions = {}) {
  console.log(`\n▶ ${name}`);
  const code = await run(command, args, options.env);
  const counts = options.counts?.();
  if (counts) {
    total.passed += counts.passed;
    total.failed += counts.failed;
    total.flaky += counts.flaky ?? 0;
  }
  if (code === 0) return;
  if (!counts || counts.failed === 0) total.failed += 1;
  console.error(`\n✖ ${name} failed (exit code ${code}).`);
  finish(code);
}

/** Count one failure that no step reported (a missing browser). */
export function countFailure(): void {
  total.failed += 1;
}

/**
 * The steps `npm test` and `npm run check` share: types, lint, module boundaries, SYNC.md's rule ids,
 * then vitest (its JSON report into `vitestReport`, with `env` added to its environment).
 */
export async function staticChecksAndVitest(vitestReport: string, env: NodeJS.ProcessEnv = {}) {
  await step('typecheck: tsc --noEmit -p tsconfig.json', bin('tsc'), ['--noEmit', '-p', 'tsconfig.json']);
  await step('lint: biome check .', bin('biome'), ['check', '.']);
  await step('boundaries: scripts/checkBoundaries.ts', bin('tsx'), ['scripts/checkBoundaries.ts']);
  await step('sync ids: scripts/checkSyncIds.ts', bin('tsx'), ['scripts/checkSyncIds.ts']);
  await step(
    'unit and integration: vitest run',
    bin('vitest'),
    ['run', '--reporter=default', '--reporter=json', `--outputFile.json=${vitestReport}`],
    { env, counts: () => vitestCounts(vitestReport) },
  );
}
