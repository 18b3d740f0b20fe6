import { describe, expect, it } from 'vitest';
import {
  campaignLookup,
  evaluate,
  FILTER_GRAMMAR,
  type FilterAst,
  type FilterContext,
  type FilterItem,
  migrateQuery,
  parse,
  print,
  readFilterDate,
} from '.';

const TODAY = '2026-06-10'; // a Wednesday

const astOf = (text: string): FilterAst => {
  const parsed = parse(text);
  if (!parsed.ok) throw new Error(parsed.error.message);
  return parsed.ast;
};

let nextId = 1;
const item = (fields: Partial<FilterItem>): FilterItem => ({
  id: nextId++,
  type: 'task',
  status: 'pending',
  title: 'Untitled',
  description: null,
  due_date: null,
  start_date: null,
  priority: 4,
  labels: [],
  assigned_to: null,
  user_id: 1,
  parent_id: null,
  deleted_at: null,
  estimate_minutes: null,
  ...fields,
});

const launch = item({ type: 'campaign', title: 'Big launch' });
const posters = item({
  title: 'Posters',
  parent_id: launch.id,
  estimate_minutes: 60,
  start_date: '2026-06-11',
});
const printRun = item({
  type: 'todo',
  title: 'Print run',
  parent_id: posters.id,
  comments_count: 1,
  commentText: 'Needs glossy paper',
});
const groceries = item({
  title: 'Groceries',
  due_date: TODAY,
  priority: 1,
  labels: ['Errand'],
  assigned_to: 2,
});
const taxes = item({ title: 'Taxes', due_date: '2026-06-09', priority: 2, files_count: 1 });
const done = item({ type: 'todo', title: 'Old report', due_date: '2026-06-08', status: 'completed' });
const desk = item({
  type: 'todo',
  title: 'Tidy desk',
  description: 'Cables and paper',
  status: 'in_progress',
  spent_minutes: 150,
});
const fromBen = item({ type: 'todo', title: 'From Ben', user_id: 2, assigned_to: 1, due_date: '2026-06-20' });
const gone = item({
  title: 'Deleted errand',
  labels: ['errand'],
  due_date: TODAY,
  deleted_at: '2026-06-01T00:00:00Z',
});
const ITEMS = [launch, posters, printRun, groceries, taxes, done, desk, fromBen, gone];

const context: FilterContext = {
  today: TODAY,
  viewerId: 1,
  people: [
    { id: 1, name: 'Ann Archer' },
    { id: 2, name: 'Ben Carter' },
    { id: 3, name: 'Benedict Rowe' },
  ],
  campaignOf: campaignLookup(ITEMS),
};

const titles = (query: string) =>
  ITEMS.filter((i) => evaluate(astOf(query), i, context))
    .map((i) => i.title)
    .sort();

describe('the filter evaluator', () => {
  it('reads each term as §4 says', () => {
    expect(titles('today')).toEqual(['Groceries']);
    // A completed item is never overdue.
    expect(titles('overdue')).toEqual(['Taxes']);
    expect(titles('no date')).toEqual(['Big launch', 'Posters', 'Print run', 'Tidy desk']);
    expect(titles('due before: today')).toEqual(['Old report', 'Taxes']);
    expect(titles('due after: next friday')).toEqual(['From Ben']);
    expect(titles('start <= tomorrow')).toEqual(['Posters']);
    expect(titles('start > tomorrow')).toEqual([]);
    expect(titles('p1')).toEqual(['Groceries']);
    expect(titles('+ERRAND')).toEqual(['Groceries']);
    expect(titles('@ben')).toEqual(['Groceries']);
    expect(titles('assigned: me')).toEqual(['From Ben']);
    expect(titles('created by: Ben Carter')).toEqual(['From Ben']);
    expect(titles('status: in progress')).toEqual(['Tidy desk']);
    expect(titles('type: campaign')).toEqual(['Big launch']);
    expect(titles('has: files')).toEqual(['Taxes']);
    expect(titles('has: comments')).toEqual(['Print run']);
    expect(titles('has: estimate')).toEqual(['Posters']);
    expect(titles('has: time')).toEqual(['Tidy desk']);
    expect(titles('tracked > 2h')).toEqual(['Tidy desk']);
    expect(titles('tracked <= 2h')).toContain('Groceries');
  });

  it('counts #Campaign as the campaign itself and everything under it', () => {
    expect(titles('#"big LAUNCH"')).toEqual(['Big launch', 'Posters', 'Print run']);
    expect(titles('#"Big launch" & !type: campaign')).toEqual(['Posters', 'Print run']);
    expect(titles('#Nowhere')).toEqual([]);
  });

  it('finds search words in titles, descriptions and comments, every word somewhere', () => {
    expect(titles('search: paper')).toEqual(['Print run', 'Tidy desk']);
    expect(titles('search: glossy PAPER')).toEqual(['Print run']);
    expect(titles('search: "desk cables"')).toEqual(['Tidy desk']);
    expect(titles('search: glossy cables')).toEqual([]);
  });

  it('names people by their whole name or first word, without case', () => {
    // 'Ben' is Ben Carter's first word, not a prefix of Benedict's.
    expect(titles('@BEN')).toEqual(['Groceries']);
    expect(titles('assigned: "ben carter"')).toEqual(['Groceries']);
    expect(titles('assigned: Carter')).toEqual([]);
    expect(titles('assigned: Dora')).toEqual([]);
  });

  it('never matches a deleted item, not even under !', () => {
    expect(titles('+errand')).not.toContain('Deleted errand');
    expect(titles('!p1')).not.toContain('Deleted errand');
  });

  it('holds a term on a missing value false and its ! true', () => {
    expect(titles('!due before: next month')).toContain('Tidy desk');
    expect(titles('!start < 2030-01-01')).toContain('Taxes');
  });

  it('binds ! before & before |, with parentheses to group', () => {
    expect(titles('p1 | p2 & overdue')).toEqual(['Groceries', 'Taxes']);
    expect(titles('(p1 | p2) & overdue')).toEqual(['Taxes']);
    expect(titles('!p4 & !overdue')).toEqual(['Groceries']);
    expect(astOf('a: x'.length ? 'p1 | p2 & p3' : '')).toEqual({
      kind: 'or',
      left: { kind: 'priority', value: 1 },
      right: { kind: 'and', left: { kind: 'priority', value: 2 }, right: { kind: 'priority', value: 3 } },
    });
  });

  it('keeps dates as the words written, read against the day it evaluates on', () => {
    expect(astOf('due before: Next Friday')).toEqual({ kind: 'due', op: 'before', date: 'next friday' });
    const tomorrow = astOf('due before: tomorrow');
    const due = item({ due_date: '2026-06-10' });
    expect(evaluate(tomorrow, due, context)).toBe(true);
    expect(evaluate(tomorrow, due, { ...context, today: '2026-06-09' })).toBe(false);
  });
});

describe('dates in words', () => {
  it('reads them as quick add does, from the given today', () => {
    expect(readFilterDate('tomorrow', TODAY)).toBe('2026-06-11');
    // Quick add's 'next friday' is the one in next week.
    expect(readFilterDate('next friday', TODAY)).toBe('2026-06-19');
    expect(readFilterDate('dec 3', TODAY)).toBe('2026-12-03');
    expect(readFilterDate('2026-12-03', TODAY)).toBe('2026-12-03');
    expect(readFilterDate('someday', TODAY)).toBeNull();
    expect(readFilterDate('tomorrow and more', TODAY)).toBeNull();
    expect(readFilterDate('every monday', TODAY)).toBeNull();
  });
});

describe('the filter parser', () => {
  it('reads terms without case and spaces where they fall', () => {
    expect(print(astOf('TODAY&P1|  !No   Date'))).toBe('today & p1 | !no date');
    expect(print(astOf('Status:In Progress & TYPE : Todo'))).toBe('status: in progress & type: todo');
    expect(print(astOf('@me | @"Ann Archer" | assigned: NONE'))).toBe(
      'assigned: me | assigned: Ann Archer | assigned: none',
    );
    expect(print(astOf('created by:"me"'))).toBe('created by: "me"');
    expect(print(astOf('start>=dec 3 & tracked<90'))).toBe('start >= dec 3 & tracked < 1h 30m');
    expect(print(astOf('has: file | has: Comment'))).toBe('has: files | has: comments');
  });

  it('tells where a query goes wrong and what was expected there', () => {
    const error = (text: string) => {
      const parsed = parse(text);
      return parsed.ok ? null : parsed.error;
    };
    expect(error('p1 & due before:')).toEqual({
      column: 17,
      expected: 'a date after "due before:"',
      message: 'Expected a date after "due before:" at 17',
    });
    expect(error('due after: someday')?.message).toBe('Expected a date after "due after:" at 12');
    expect(error('start tomorrow')?.message).toBe('Expected "<=", ">=", "<", ">", "=" after "start" at 7');
    expect(error('type: thing')?.message).toBe('Expected campaign, task or todo after "type:" at 7');
    expect(error('has: money')?.message).toBe('Expected files, comments, estimate or time after "has:" at 6');
    expect(error('assigned:')?.message).toBe('Expected me, none or a name after "assigned:" at 10');
    expect(error('search:  ')?.message).toBe('Expected words after "search:" at 10');
    expect(error('#')?.message).toBe('Expected a campaign after "#" at 2');
    expect(error('@ & p1')?.message).toBe('Expected a person after "@" at 2');
    expect(error('p1 &')?.message).toBe('Expected a term such as today, p1, +label or status: at 5');
    expect(error('p1)')?.message).toBe('Expected no ")" without its "(" at 3');
    expect(error('status in progress')?.message).toBe('Expected ":" after "status" at 8');
    expect(error('search: "open')?.message).toBe('Expected a closing quote for the one at 9 at 14');
    expect(error('')?.message).toBe('Expected a term such as today, p1, +label or status: at 1');
  });

  it('takes at most 500 characters and 20 levels of nesting', () => {
    expect(parse(`${'p1 | '.repeat(99)}p1`).ok).toBe(true);
    expect(parse(`${'p1 | '.repeat(100)}p1`).ok).toBe(false);
    expect(parse(`${'('.repeat(20)}p1${')'.repeat(20)}`).ok).toBe(true);
    expect(parse(`${'!'.repeat(21)}p1`).ok).toBe(false);
  });
});

describe('the grammar version', () => {
  it('is 1, and a version 1 query migrates unchanged', () => {
    expect(FILTER_GRAMMAR).toBe(1);
    expect(migrateQuery('p1 & today', 1)).toBe('p1 & today');
  });
});
