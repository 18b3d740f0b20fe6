/**
 * ARCHITECTURE §6 'One place chooses a write's route': Dexie's private internals are touched only in
 * one adapter, which checks Dexie's version and falls back to plain Dexie. A name of one of them
 * anywhere else in src/, testkit/, bench/ or e2e/ (tests too) is a problem.
 */
export const DEXIE_ADAPTER = 'src/client/data/store/dexieInternals.ts';

/** The private fields of Dexie 4 the adapter reads or sets. */
export const DEXIE_PRIVATES = ['mutatedParts', 'PSD', 'subscr', '_cache', '_deps', '_explicit'] as const;

// Preceded by '/', a name is a module path's (store/mutatedParts.ts reads the public storagemutated event).
const NAMED = new RegExp(`(?<![A-Za-z0-9_$/])(${DEXIE_PRIVATES.join('|')})(?![A-Za-z0-9_$])`, 'g');

/** The lines of `text` (a file at `file`) that name one of Dexie's private fields outside the adapter. */
export function dexiePrivateProblems(file: string, text: string): string[] {
  if (file === DEXIE_ADAPTER || !/^(src|testkit|bench|e2e)\//.test(file)) return [];
  const problems: string[] = [];
  for (const match of text.matchAll(NAMED)) {
    const line = text.slice(0, match.index).split('\n').length;
    problems.push(
      `${file}:${line} names Dexie's private ${match[1]}: only ${DEXIE_ADAPTER} touches Dexie's internals`,
    );
  }
  return problems;
}
