import { mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { repoRoot } from './lib/paths';
import { finish, staticChecksAndVitest } from './lib/steps';

// npm run check, the inner loop: types, lint, boundaries, SYNC.md's rule ids and every vitest test on
// the embedded database only (no PostgreSQL even when TEST_DATABASE_URL is set), without the plain
// Dexie pass or the browser suite, which `npm test` adds.

const reportDir = path.join(repoRoot, '.tmp', 'check-reports');
rmSync(reportDir, { recursive: true, force: true });
mkdirSync(reportDir, { recursive: true });

await staticChecksAndVitest(path.join(reportDir, 'vitest.json'), { TEST_DATABASE_URL: undefined });
finish(0);
