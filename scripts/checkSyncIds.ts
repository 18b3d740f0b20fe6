import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { repoRoot } from './lib/paths';
import { checkSyncIds, describeProblems, type SourceFile } from './lib/syncIds';

// SYNC.md and the tests that prove it, checked on every `npm test`: every rule id SYNC.md defines
// has a test whose title cites it, and every id a test title cites is defined there.

/** Files under `dir` (a path from the root) whose path from the root passes `keep`. */
function filesUnder(dir: string, keep: (file: string) => boolean): string[] {
  return readdirSync(path.join(repoRoot, dir), { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) =>
      path.relative(repoRoot, path.join(entry.parentPath, entry.name)).split(path.sep).join('/'),
    )
    .filter((file) => !file.includes('/node_modules/') && keep(file))
    .sort();
}

const testFiles = [
  ...filesUnder('src', (file) => /\.test\.tsx?$/.test(file)),
  ...filesUnder('testkit', (file) => /\.tsx?$/.test(file)),
  ...filesUnder('e2e', (file) => file.endsWith('.spec.ts')),
];
const read = (file: string) => readFileSync(path.join(repoRoot, file), 'utf8');
const tests: SourceFile[] = testFiles.map((file) => ({ path: file, source: read(file) }));
const problems = describeProblems(checkSyncIds(read('SYNC.md'), tests));

if (problems.length > 0) {
  console.error(`SYNC.md and the tests disagree:\n${problems.map((line) => `  ${line}`).join('\n')}`);
  process.exit(1);
}
console.log(
  `SYNC.md: every rule id is cited by a test, and every cited id is defined (${testFiles.length} files).`,
);
