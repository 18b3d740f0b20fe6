import { mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { chromiumAvailable, chromiumPath } from './lib/chromium';
import { bin, repoRoot } from './lib/paths';
import {
  countFailure,
  finish,
  playwrightCounts,
  staticChecksAndVitest,
  step,
  vitestCounts,
} from './lib/steps';

// npm test: typecheck, lint, boundaries, SYNC.md's rule ids, unit and integration tests, the data
// layer's store and read tests again on plain Dexie, then the browser suite, stopping at the first
// failure (scripts/lib/steps.ts). `npm run check` is the inner loop: the same first steps, without
// PostgreSQL, plain Dexie or the browser.

const reportDir = path.join(repoRoot, '.tmp', 'test-reports');
const vitestReport = path.join(reportDir, 'vitest.json');
const plainDexieReport = path.join(reportDir, 'vitest-plain-dexie.json');
const playwrightReport = path.join(reportDir, 'playwright.json');

rmSync(reportDir, { recursive: true, force: true });
mkdirSync(reportDir, { recursive: true });

await staticChecksAndVitest(vitestReport);
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
    counts: () => playwrightCounts(playwrightReport),
  });
} else if (process.env.E2E === '1') {
  console.error(`\n✖ browser: no Chromium at ${chromiumPath}, and E2E=1 requires the browser suite.`);
  countFailure();
  finish(1);
} else {
  console.log(`\nBrowser suite skipped: no Chromium at ${chromiumPath} (set CHROMIUM_PATH to run it).`);
}

finish(0);
