import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { chromiumAvailable, chromiumPath } from './lib/chromium';
import { bin, repoRoot } from './lib/paths';

// npm test: typecheck, lint, boundaries, SYNC.md's rule ids, unit and integration tests, the data
// layer's store and read tests again on plain Dexie, then the browser suite, stopping at the first
// failure. The last line is always "N passed, N failed" over the test counts; a step that fails without reporting tests (tsc,
// biome, a crashed runner) counts as one failure.

const reportDir = path.join(repoRoot, '.tmp', 'test-reports');
const vitestReport = path.join(reportDir, 'vitest.json');
const plainDexieReport = path.join(reportDir, 'vitest-plain-dexie.json');
const playwrightReport = path.join(reportDir, 'playwright.json');

type Counts = { passed: number; failed: number };
const total: Counts = { passed: 0, failed: 0 };

function run(command: string, args: string[], env: NodeJS.ProcessEnv = {}): Promise<number> {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd: repoRoot, env: { ...process.env, ...env }, stdio: 'inherit' });
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

function vitestCounts(file = vitestReport): Counts | undefined {
  const report = vitestJson.safeParse(readJson(file));
  if (!report.success) return undefined;
  return { passed: report.data.numPassedTests, failed: report.data.numFailedTests };
}

function playwrightCounts(): Counts | undefined {
  const report = playwrightJson.safeParse(readJson(playwrightReport));
  if (!report.success) return undefined;
  const { expected, unexpected, flaky } = report.data.stats;
  // A flaky test passed on a retry and Playwright lists it as flaky itself.
  return { passed: expected + flaky, failed: unexpected };
}

function finish(code: number): never {
  console.log(`\n${total.passed} passed, ${total.failed} failed`);
  process.exit(code);
}

/** Runs one step; a non-zero exit ends `npm test` with the summary. */
async function step(name: string, command: string, args: string[], options: StepOptions = {}) {
  console.log(`\n▶ ${name}`);
  const code = await run(command, args, options.env);
  const counts = options.counts?.();
  if (counts) {
    total.passed += counts.passed;
    total.failed += counts.failed;
  }
  if (code === 0) return;
  if (!counts || counts.failed === 0) total.failed += 1;
  console.error(`\n✖ ${name} failed (exit code ${code}).`);
  finish(code);
}
type StepOptions = { env?: NodeJS.ProcessEnv; counts?: () => Counts | undefined };

rmSync(reportDir, { recursive: true, force: true });
mkdirSync(reportDir, { recursive: true });

await step('typecheck: tsc --noEmit -p tsconfig.json', bin('tsc'), ['--noEmit', '-p', 'tsconfig.json']);
await step('lint: biome check .', bin('biome'), ['check', '.']);
await step('boundaries: scripts/checkBoundaries.ts', bin('tsx'), ['scripts/checkBoundaries.ts']);
await step('sync ids: scripts/checkSyncIds.ts', bin('tsx'), ['scripts/checkSyncIds.ts']);
await step(
  'unit and integration: vitest run',
  bin('vitest'),
  ['run', '--reporter=default', '--reporter=json', `--outputFile.json=${vitestReport}`],
  { counts: () => vitestCounts() },
);
// The data layer's store, writes, items and reads tests once more with every faster write and read
// route off (SYNC.md I13): what they prove must hold on plain Dexie too, as on a Dexie whose internals
// moved. These folders hold every faster route and the tests that compare it with Dexie's own; the
// sync, comments and other folders above them write through the same routes, and ran in full above.
const plainDexieFolders = ['store', 'changes', 'items', 'reads'].map((folder) => `src/client/data/${folder}`);
await step(
  `client data on plain Dexie: OUTPOST_PLAIN_DEXIE=1 vitest run ${plainDexieFolders.join(' ')}`,
  bin('vitest'),
  [
    'run',
    ...plainDexieFolders,
    '--reporter=default',
    '--reporter=json',
    `--outputFile.json=${plainDexieReport}`,
  ],
  { env: { OUTPOST_PLAIN_DEXIE: '1' }, counts: () => vitestCounts(plainDexieReport) },
);

if (chromiumAvailable()) {
  await step('browser: playwright', bin('tsx'), ['scripts/e2e.ts'], {
    env: { E2E_JSON_REPORT: playwrightReport },
    counts: playwrightCounts,
  });
} else if (process.env.E2E === '1') {
  console.error(`\n✖ browser: no Chromium at ${chromiumPath}, and E2E=1 requires the browser suite.`);
  total.failed += 1;
  finish(1);
} else {
  console.log(`\nBrowser suite skipped: no Chromium at ${chromiumPath} (set CHROMIUM_PATH to run it).`);
}

finish(0);
