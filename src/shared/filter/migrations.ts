import { FILTER_GRAMMAR, migrateQuery } from './index';

/**
 * Saved queries from before grammar 1. Grammar 0 was the first saved views' spelling, before the
 * filter language had words for its comparisons: `label:x` for `+x`, `due<DATE` and `due>DATE` for
 * `due before: DATE` and `due after: DATE`, `priority:N` for `pN`. It had no `search:`, so a rewrite
 * never meets free words; quoted values are copied as they are.
 */

/** The grammar of views saved before the filter language's first version. */
export const FILTER_GRAMMAR_LEGACY = 0;

// A term starts at the beginning or after an operator or "(" (spaces allowed between).
const TERM_START = String.raw`(?<=^|[&|(!])(\s*)`;
const GRAMMAR_0_RULES: ReadonlyArray<[RegExp, (space: string, arg: string) => string]> = [
  [new RegExp(`${TERM_START}label\\s*:\\s*`, 'gi'), (space) => `${space}+`],
  [new RegExp(`${TERM_START}due\\s*<\\s*`, 'gi'), (space) => `${space}due before: `],
  [new RegExp(`${TERM_START}due\\s*>\\s*`, 'gi'), (space) => `${space}due after: `],
  [new RegExp(`${TERM_START}priority\\s*:\\s*([1-4])`, 'gi'), (space, n) => `${space}p${n}`],
];

/** `text` with every quoted value's characters replaced, so rules see only the query's own words. */
function masked(text: string): string {
  return text.replace(/"(?:[^"\\]|\\.)*"?/g, (quote) => '\u0001'.repeat(quote.length));
}

/** A grammar 0 query in grammar 1's words. */
export function fromGrammar0(query: string): string {
  let out = query;
  for (const [pattern, replace] of GRAMMAR_0_RULES) {
    const view = masked(out);
    let next = '';
    let from = 0;
    for (const match of view.matchAll(pattern)) {
      const at = match.index;
      next += out.slice(from, at) + replace(match[1] ?? '', match[2] ?? '');
      from = at + match[0].length;
    }
    out = next + out.slice(from);
  }
  return out;
}

/**
 * A saved query brought from the grammar it was saved under to FILTER_GRAMMAR: grammar 0 here, then
 * the filter language's own steps (migrateQuery). A grammar newer than this build's passes as is
 * (its parse then tells what this build cannot read).
 */
export function migrateSavedQuery(query: string, grammar: number): string {
  const step = grammar <= FILTER_GRAMMAR_LEGACY ? fromGrammar0(query) : query;
  return grammar >= FILTER_GRAMMAR ? query : migrateQuery(step, Math.max(grammar, 1));
}
