import type { ItemStatus, ItemType } from '../item';

/**
 * The filter language's syntax tree (ARCHITECTURE §4 'Saved views and the filter language'). Dates
 * stay as the words written ('next friday'), read against the evaluator's `today`, so a saved view
 * keeps meaning what it says on later days.
 */

/** The comparisons `start` takes. */
export const START_OPS = ['<=', '>=', '<', '>', '='] as const;
export type StartOp = (typeof START_OPS)[number];

/** The comparisons `tracked` takes. */
export const TRACKED_OPS = ['<=', '>=', '<', '>'] as const;
export type TrackedOp = (typeof TRACKED_OPS)[number];

/** What `has:` asks about. */
export const HAS_WHAT = ['files', 'comments', 'estimate', 'time'] as const;
export type HasWhat = (typeof HAS_WHAT)[number];

/** A person as a term names them: the viewer, nobody (assignee only), or by name. */
export type Who = { kind: 'me' } | { kind: 'none' } | { kind: 'name'; name: string };

export type FilterTerm =
  | { kind: 'today' }
  | { kind: 'overdue' }
  | { kind: 'noDate' }
  | { kind: 'due'; op: 'before' | 'after'; date: string }
  | { kind: 'start'; op: StartOp; date: string }
  | { kind: 'priority'; value: 1 | 2 | 3 | 4 }
  | { kind: 'label'; name: string }
  | { kind: 'campaign'; name: string }
  | { kind: 'assigned'; who: Who }
  | { kind: 'status'; value: ItemStatus }
  | { kind: 'type'; value: ItemType }
  | { kind: 'createdBy'; who: Exclude<Who, { kind: 'none' }> }
  | { kind: 'has'; what: HasWhat }
  | { kind: 'tracked'; op: TrackedOp; minutes: number }
  | { kind: 'search'; words: string };

export type FilterAst =
  | FilterTerm
  | { kind: 'not'; term: FilterAst }
  | { kind: 'and'; left: FilterAst; right: FilterAst }
  | { kind: 'or'; left: FilterAst; right: FilterAst };

/** Why a query does not parse: where (1-based column), what was expected there, and both in words. */
export interface FilterError {
  column: number;
  expected: string;
  message: string;
}

export type ParseResult = { ok: true; ast: FilterAst } | { ok: false; error: FilterError };

/** The longest query the grammar takes, in characters. */
export const FILTER_MAX_LENGTH = 500;

/** How deep `(` and `!` may nest. */
export const FILTER_MAX_DEPTH = 20;
