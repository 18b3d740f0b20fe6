import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { filterAst } from '../../../testkit/filterQueries';
import { ITEM_STATUSES, ITEM_TYPES } from '../item';
import type { FilterAst } from './ast';
import { evaluate, type FilterContext, type FilterItem } from './evaluate';
import { admits, narrowing } from './narrow';
import { parse } from './parse';

const astOf = (text: string): FilterAst => {
  const parsed = parse(text);
  if (!parsed.ok) throw new Error(parsed.error.message);
  return parsed.ast;
};

const TODAY = '2026-06-10';
const context: FilterContext = {
  today: TODAY,
  viewerId: 1,
  people: [
    { id: 1, name: 'Me Myself' },
    { id: 2, name: 'Ada' },
  ],
  campaignOf: (item) => (item.parent_id === 100 ? { id: 100, title: 'Launch' } : null),
};

const generatedItem: fc.Arbitrary<FilterItem> = fc.record({
  id: fc.integer({ min: 1, max: 1000 }),
  type: fc.constantFrom(...ITEM_TYPES),
  status: fc.constantFrom(...ITEM_STATUSES),
  title: fc.constantFrom('Launch', 'Posters', 'Ferry'),
  description: fc.constantFrom(null, 'glossy paper'),
  due_date: fc.constantFrom(null, '2026-06-01', TODAY, '2026-06-20'),
  start_date: fc.constantFrom(null, '2026-06-05', '2026-06-15'),
  priority: fc.integer({ min: 1, max: 4 }),
  labels: fc.subarray(['errand', 'print']),
  assigned_to: fc.constantFrom(null, 1, 2),
  user_id: fc.constantFrom(1, 2),
  parent_id: fc.constantFrom(null, 100),
  deleted_at: fc.constant(null),
  estimate_minutes: fc.constantFrom(null, 30),
  spent_minutes: fc.constantFrom(0, 90),
  comments_count: fc.constantFrom(0, 2),
  files_count: fc.constantFrom(0, 1),
  commentText: fc.constantFrom('', 'quince boat'),
});

const vocabulary = {
  labels: ['errand', 'print'],
  campaigns: ['Launch', 'Elsewhere'],
  people: ['Ada', 'Me'],
  words: ['launch', 'glossy', 'quince'],
  dates: ['today', 'tomorrow', '2026-06-03', 'in 3 days'],
};

describe('narrowing a query to what an index reads', () => {
  it('admits every item the query matches (generated queries × generated items)', () => {
    fc.assert(
      fc.property(filterAst(vocabulary), fc.array(generatedItem, { maxLength: 30 }), (ast, items) => {
        const narrowed = narrowing(ast);
        for (const item of items) if (evaluate(ast, item, context)) expect(admits(narrowed, item)).toBe(true);
      }),
      { numRuns: 500 },
    );
  });

  it('reads statuses and types where the query pins them, through !, & and |', () => {
    expect(narrowing(astOf('status: completed'))).toEqual({ field: 'status', values: ['completed'] });
    expect(narrowing(astOf('p1 & !status: completed'))).toEqual({
      field: 'status',
      values: ['pending', 'in_progress'],
    });
    expect(narrowing(astOf('overdue & type: todo'))).toEqual({ field: 'type', values: ['todo'] });
    expect(narrowing(astOf('type: task | type: todo'))).toEqual({ field: 'type', values: ['task', 'todo'] });
    expect(narrowing(astOf('status: pending & status: completed'))).toEqual({ field: 'status', values: [] });
  });

  it('narrows nothing where any item may match', () => {
    expect(narrowing(astOf('p1'))).toBeNull();
    expect(narrowing(astOf('status: pending | p1'))).toBeNull();
    expect(narrowing(astOf('status: pending | type: task'))).toBeNull();
    expect(narrowing(astOf('!(status: pending & p1)'))).toBeNull();
  });
});
