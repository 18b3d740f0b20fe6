import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { funnelProblems } from './lib/funnel';
import { repoRoot } from './lib/paths';

// The module boundaries of ARCHITECTURE.md §1 and §6, checked on every `npm test`: each rule names the
// files it governs and the imports they may not make. An import is the resolved path of a relative
// specifier (from the repository root) or a package name.

interface Rule {
  name: string;
  /** Files (paths from the root) the rule governs. */
  applies: (file: string) => boolean;
  /** True for an import the governed file may not make. */
  forbids: (target: string) => boolean;
  /** Only imports that load code with the file count (not `import type`, not `import()`). */
  eagerOnly?: boolean;
  /** `import type` does not count (a type says nothing about who loads what). */
  typesAllowed?: boolean;
}

const isTest = (file: string) => /\.test\.tsx?$/.test(file);
const under = (dir: string) => (file: string) => file.startsWith(`${dir}/`);

/** The one door to the data for screens (ARCHITECTURE §6 'One door'): the only client code outside
 * src/client/data and src/client/stores that may reach Dexie, the API client or the sync engine. */
const DOOR = new Set(['src/client/app/door.tsx', 'src/client/app/queryClient.ts']);

/** Test support that builds real clients on fake-indexeddb (component tests use it). */
const isTestSupport = (file: string) => isTest(file) || file.endsWith('/testUtils.tsx');

/** What screens may not import: Dexie, and the data layer's database, API client, sync engine and client. */
const DATA_INTERNALS = ['net/apiClient', 'store/db', 'client'].map((m) => `src/client/data/${m}`);
const isDataInternal = (target: string) =>
  target === 'dexie' ||
  target === 'dexie-react-hooks' ||
  DATA_INTERNALS.some((m) => target === m || target === `${m}.ts`) ||
  target.startsWith('src/client/data/sync/');

/** Packages src/shared may use: framework-free helpers only. */
const SHARED_PACKAGES = new Set(['zod', 'date-fns', 'libphonenumber-js', 'papaparse', 'rrule', 'uuid']);

export const RULES: Rule[] = [
  {
    name: 'src/shared is framework-free: no client, server or test code, no framework packages',
    applies: (file) => under('src/shared')(file) && !isTest(file),
    forbids: (target) =>
      target.startsWith('src/client/') ||
      target.startsWith('src/server/') ||
      target.startsWith('testkit/') ||
      (!target.startsWith('src/') &&
        !target.startsWith('node:') &&
        !SHARED_PACKAGES.has(packageName(target))),
  },
  {
    name: 'the client never imports server code (its tests may start a server)',
    applies: (file) => under('src/client')(file) && !isTest(file),
    forbids: (target) => target.startsWith('src/server/'),
  },
  {
    name: 'the server never imports client code',
    applies: (file) => under('src/server')(file) && !isTest(file),
    forbids: (target) => target.startsWith('src/client/'),
  },
  {
    name: 'one door: screens reach the data only through src/client/app/door (send, useCommand) and data/store/live (useLive), never Dexie, the API client, the database, the sync engine or the client',
    applies: (file) =>
      under('src/client')(file) &&
      !under('src/client/data')(file) &&
      !under('src/client/stores')(file) &&
      !DOOR.has(file) &&
      !isTestSupport(file),
    forbids: isDataInternal,
    typesAllowed: true,
  },
  {
    name: 'components/items builds on items, never the reverse (no items <-> components/items cycle)',
    applies: under('src/client/items'),
    forbids: (target) => target.startsWith('src/client/components/items/'),
  },
  {
    name: 'test tooling (testkit/) is for tests and benchmarks only',
    applies: (file) => under('src')(file) && !isTest(file),
    forbids: (target) => target.startsWith('testkit/'),
  },
  {
    name: 'the data layer loads zod on demand: src/shared/schemas only through import() or import type (first-screen budget)',
    applies: (file) =>
      (under('src/client/data')(file) || under('src/client/app')(file) || under('src/client/stores')(file)) &&
      !isTestSupport(file),
    forbids: (target) => target === 'src/shared/schemas' || target === 'zod',
    eagerOnly: true,
  },
];

function packageName(specifier: string): string {
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : (parts[0] ?? specifier);
}

function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(path.join(repoRoot, dir), { withFileTypes: true })) {
    const rel = `${dir}/${entry.name}`;
    if (entry.isDirectory()) out.push(...sourceFiles(rel));
    else if (/\.tsx?$/.test(entry.name)) out.push(rel);
  }
  return out;
}

const IMPORT =
  /(?:^|[\s;])(?:import|export)\s(type\s)?(?:[^'";]*?\sfrom\s)?['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g;

/**
 * The imports of a file: relative ones resolved to paths from the root, packages as written; `eager`
 * when the import loads the module's code with the file (not type-only, not a dynamic import()).
 */
export function importsOf(
  file: string,
  text: string,
): { target: string; eager: boolean; typeOnly: boolean }[] {
  const out: { target: string; eager: boolean; typeOnly: boolean }[] = [];
  for (const match of text.matchAll(IMPORT)) {
    const specifier = match[2] ?? match[3];
    if (!specifier) continue;
    const target = specifier.startsWith('.')
      ? path.posix.normalize(path.posix.join(path.posix.dirname(file), specifier))
      : specifier;
    out.push({
      target,
      eager: match[2] !== undefined && match[1] === undefined,
      typeOnly: match[1] !== undefined,
    });
  }
  return out;
}

const problems: string[] = [];
for (const file of sourceFiles('src/client')) {
  problems.push(...funnelProblems(file, readFileSync(path.join(repoRoot, file), 'utf8')));
}
for (const file of [...sourceFiles('src'), ...sourceFiles('testkit')]) {
  const rules = RULES.filter((rule) => rule.applies(file));
  if (rules.length === 0) continue;
  for (const { target, eager, typeOnly } of importsOf(
    file,
    readFileSync(path.join(repoRoot, file), 'utf8'),
  )) {
    for (const rule of rules) {
      if (rule.eagerOnly && !eager) continue;
      if (rule.typesAllowed && typeOnly) continue;
      if (rule.forbids(target)) problems.push(`${file} imports ${target}: ${rule.name}`);
    }
  }
}

if (problems.length > 0) {
  console.error(problems.join('\n'));
  console.error(`\n${problems.length} import${problems.length === 1 ? '' : 's'} cross a boundary.`);
  process.exit(1);
}
console.log(`Module boundaries hold (${RULES.length} rules).`);
