import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { importProblem, importsOf, layerOf } from './lib/boundaries';
import { dexiePrivateProblems } from './lib/dexiePrivates';
import { funnelProblems } from './lib/funnel';
import { repoRoot } from './lib/paths';
import { routesSqlProblems } from './lib/routesSql';
import { serverBoundaryProblems } from './lib/serverBoundaries';
import { syncChildrenProblems } from './lib/syncChildren';

// The module boundaries of ARCHITECTURE.md §1 and §6, checked on every `npm test`: the allow-list of
// who may import whom (scripts/lib/boundaries.ts), the first screen's bundle rule below, and the
// local-write funnel (scripts/lib/funnel.ts, SYNC.md W8), and Dexie's private internals named only in
// their one adapter (scripts/lib/dexiePrivates.ts), and no SQL in a server routes.ts (scripts/lib/routesSql.ts),
// and no child kind's store named in the client's sync/ (scripts/lib/syncChildren.ts).
// The server's layers (db < http < resources < app) and its want of import circles are
// scripts/lib/serverBoundaries.ts.

function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(path.join(repoRoot, dir), { withFileTypes: true })) {
    const rel = `${dir}/${entry.name}`;
    if (entry.isDirectory()) out.push(...sourceFiles(rel));
    else if (/\.tsx?$/.test(entry.name)) out.push(rel);
  }
  return out;
}

/** A relative import's file: the path with its extension, or its folder's index. */
function fileOf(resolved: string): string {
  for (const candidate of [
    `${resolved}.ts`,
    `${resolved}.tsx`,
    `${resolved}/index.ts`,
    `${resolved}/index.tsx`,
    resolved,
  ])
    if (existsSync(path.join(repoRoot, candidate))) return candidate;
  return resolved;
}

/**
 * The data layer, the shell and the stores load zod only through import() or import type: the first
 * screen's bundle budget (bench/bundle.ts) has no room for it.
 */
function zodProblem(file: string, target: string, eager: boolean): string | null {
  const layer = layerOf(file);
  if (!eager || !(layer.startsWith('data:') || layer === 'app' || layer === 'stores')) return null;
  return target === 'src/shared/schemas.ts' || target === 'zod'
    ? 'the data layer, the shell and the stores load zod on demand (import() or import type)'
    : null;
}

const problems: string[] = [];
const files = ['src', 'testkit', 'bench', 'e2e', 'scripts'].flatMap(sourceFiles);
for (const file of files) {
  const text = readFileSync(path.join(repoRoot, file), 'utf8');
  problems.push(...funnelProblems(file, text));
  problems.push(...dexiePrivateProblems(file, text));
  problems.push(...routesSqlProblems(file, text));
  problems.push(...syncChildrenProblems(file, text));
  for (const { specifier, resolved, typeOnly, eager } of importsOf(file, text)) {
    const target = specifier.startsWith('.') ? fileOf(resolved) : resolved;
    const problem = importProblem(file, { target, typeOnly }) ?? zodProblem(file, target, eager);
    if (problem) problems.push(`${file} imports ${specifier}: ${problem}`);
  }
}

problems.push(
  ...serverBoundaryProblems(files, (file) => readFileSync(path.join(repoRoot, file), 'utf8'), fileOf),
);

if (problems.length > 0) {
  console.error(problems.join('\n'));
  console.error(`\n${problems.length} problem${problems.length === 1 ? '' : 's'} at a boundary.`);
  process.exit(1);
}
console.log(`Module boundaries hold (${files.length} files against the allow-list).`);
