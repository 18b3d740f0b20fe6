import fc from 'fast-check';
import {
  FILTER_MAX_DEPTH,
  type FilterAst,
  type FilterTerm,
  HAS_WHAT,
  START_OPS,
  TRACKED_OPS,
  type Who,
} from '../src/shared/filter/ast';
import { print } from '../src/shared/filter/print';

/**
 * Generated filter queries, for the round-trip property here and the server's agreement test
 * (server/items/filterSql.test.ts). `vocabulary` draws names, labels, words and dates from the lists
 * the generated items use, so a query there matches some items and not others; without it, any text.
 */
export interface Vocabulary {
  labels: readonly string[];
  campaigns: readonly string[];
  people: readonly string[];
  words: readonly string[];
  /** Dates in words to draw from; quick add's usual words when left out. */
  dates?: readonly string[];
}

/** Dates in words the grammar reads (quick add's), folded as the parser keeps them. */
const DATE_WORDS = [
  'today',
  'tomorrow',
  'yesterday',
  'next friday',
  'dec 3',
  '2026-12-03',
  'in 3 days',
  '3 days ago',
  'jan 5 2027',
] as const;

// Any text but control characters, which the parser refuses.
const anyText = fc
  .string({ minLength: 1, maxLength: 12, unit: 'grapheme-ascii' })
  .filter((s) => [...s].every((c) => c >= ' ' && c !== '\x7f'));

/** A generated term, from `vocabulary` when given. */
function filterTerm(vocabulary?: Vocabulary): fc.Arbitrary<FilterTerm> {
  const pick = (list: readonly string[] | undefined) =>
    list ? fc.constantFrom(...list) : anyText.filter((s) => s.trim() !== '');
  const name = pick(vocabulary?.people);
  const who: fc.Arbitrary<Who> = fc.oneof(
    fc.constant({ kind: 'me' } as const),
    fc.constant({ kind: 'none' } as const),
    name.map((n) => ({ kind: 'name', name: n }) as const),
  );
  const date = fc.constantFrom(...(vocabulary?.dates ?? DATE_WORDS));
  return fc.oneof(
    fc.constant({ kind: 'today' } as const),
    fc.constant({ kind: 'overdue' } as const),
    fc.constant({ kind: 'noDate' } as const),
    fc.record({
      kind: fc.constant('due' as const),
      op: fc.constantFrom('before' as const, 'after' as const),
      date,
    }),
    fc.record({ kind: fc.constant('start' as const), op: fc.constantFrom(...START_OPS), date }),
    fc.record({
      kind: fc.constant('priority' as const),
      value: fc.constantFrom(1 as const, 2 as const, 3 as const, 4 as const),
    }),
    fc.record({ kind: fc.constant('label' as const), name: pick(vocabulary?.labels) }),
    fc.record({ kind: fc.constant('campaign' as const), name: pick(vocabulary?.campaigns) }),
    fc.record({ kind: fc.constant('assigned' as const), who }),
    fc.record({
      kind: fc.constant('status' as const),
      value: fc.constantFrom('pending' as const, 'in_progress' as const, 'completed' as const),
    }),
    fc.record({
      kind: fc.constant('type' as const),
      value: fc.constantFrom('campaign' as const, 'task' as const, 'todo' as const),
    }),
    fc.record({
      kind: fc.constant('createdBy' as const),
      who: who.filter((w): w is Exclude<Who, { kind: 'none' }> => w.kind !== 'none'),
    }),
    fc.record({ kind: fc.constant('has' as const), what: fc.constantFrom(...HAS_WHAT) }),
    fc.record({
      kind: fc.constant('tracked' as const),
      op: fc.constantFrom(...TRACKED_OPS),
      minutes: fc.integer({ min: 0, max: 600 }),
    }),
    fc.record({ kind: fc.constant('search' as const), words: pick(vocabulary?.words) }),
  );
}

/** A generated query: terms under `!`, `&` and `|`, a few levels deep. */
export function filterAst(vocabulary?: Vocabulary): fc.Arbitrary<FilterAst> {
  const { tree } = fc.letrec<{ tree: FilterAst }>((tie) => ({
    tree: fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      filterTerm(vocabulary),
      fc.record({ kind: fc.constant('not' as const), term: tie('tree') }),
      fc.record({ kind: fc.constant('and' as const), left: tie('tree'), right: tie('tree') }),
      fc.record({ kind: fc.constant('or' as const), left: tie('tree'), right: tie('tree') }),
    ),
  }));
  // Printing may add parentheses: keep well inside the nesting the grammar takes.
  return tree.filter((ast) => nesting(ast) <= FILTER_MAX_DEPTH / 2 && print(ast).length <= 500);
}

function nesting(ast: FilterAst): number {
  if (ast.kind === 'not') return 1 + nesting(ast.term);
  if (ast.kind === 'and' || ast.kind === 'or') return 1 + Math.max(nesting(ast.left), nesting(ast.right));
  return 0;
}
