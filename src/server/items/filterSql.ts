import type { SQL } from 'drizzle-orm';
import type { FilterAst, FilterPerson, FilterTerm, Who } from '../../shared/filter';
import { peopleNamed, readFilterDate, searchWords } from '../../shared/filter';
import { sql } from '../db/client';
import { visibleTo } from './queries';

/**
 * The filter language (shared/filter) as a condition on the item row `i`, by the evaluator's rules
 * (shared/filter/evaluate.ts): every value a bound parameter, never text joined into the statement.
 * Written for the planner: plain comparisons on i's columns and set look-ups (`i.id IN (…)`), no
 * per-row function over the items table where a comparison does; every term is true or false, never
 * null, so `!` of a term on a missing value is true as on the device.
 */

/** What the SQL counts from: the viewer's day and id, and the people names may mean. */
export interface FilterSqlContext {
  today: string;
  viewerId: number;
  people: readonly FilterPerson[];
}

const FALSE = sql`false`;

/** `column IN (ids)` for a non-null column, false for none. */
const inIds = (column: SQL, ids: readonly number[]): SQL =>
  ids.length === 0
    ? FALSE
    : sql`(${column} IS NOT NULL AND ${column} IN (${sql.join(
        ids.map((id) => sql`${id}`),
        sql`, `,
      )}))`;

function who(w: Who, column: SQL, context: FilterSqlContext): SQL {
  if (w.kind === 'none') return sql`${column} IS NULL`;
  if (w.kind === 'me') return sql`(${column} IS NOT NULL AND ${column} = ${context.viewerId})`;
  return inIds(column, peopleNamed(context.people, w.name));
}

/** An ILIKE pattern that finds `word` anywhere, its wildcards escaped. */
const containing = (word: string) => `%${word.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

const OPS = { '<': sql`<`, '<=': sql`<=`, '>': sql`>`, '>=': sql`>=`, '=': sql`=` } as const;

function term(t: FilterTerm, context: FilterSqlContext): SQL {
  switch (t.kind) {
    case 'today':
      return sql`(i.due_date IS NOT NULL AND i.due_date = ${context.today}::date)`;
    case 'overdue':
      return sql`(i.due_date IS NOT NULL AND i.due_date < ${context.today}::date AND i.status <> 'completed')`;
    case 'noDate':
      return sql`i.due_date IS NULL`;
    case 'due': {
      const day = readFilterDate(t.date, context.today);
      if (day === null) return FALSE;
      return sql`(i.due_date IS NOT NULL AND i.due_date ${t.op === 'before' ? sql`<` : sql`>`} ${day}::date)`;
    }
    case 'start': {
      const day = readFilterDate(t.date, context.today);
      if (day === null) return FALSE;
      return sql`(i.start_date IS NOT NULL AND i.start_date ${OPS[t.op]} ${day}::date)`;
    }
    case 'priority':
      return sql`i.priority = ${t.value}`;
    case 'label':
      // Labels compare without case, as GET /api/items?label= does.
      return sql`EXISTS (SELECT 1 FROM unnest(i.labels) fl WHERE lower(fl) = lower(${t.name}))`;
    case 'campaign': {
      // The campaign itself and everything under it (at most two levels, §4): set look-ups, hashed once.
      // Only campaigns the viewer sees, as on the device, which knows no other's title (an item assigned
      // to them in a campaign they are no member of is in none they can name). The sub-query's own `i`
      // is the campaign row, for visibleTo.
      const campaigns = sql`SELECT i.id FROM items i WHERE i.type = 'campaign' AND lower(i.title) = lower(${t.name})
        AND ${visibleTo(context.viewerId)}`;
      return sql`(i.id IN (${campaigns})
        OR (i.parent_id IS NOT NULL AND (i.parent_id IN (${campaigns})
          OR i.parent_id IN (SELECT ft.id FROM items ft WHERE ft.parent_id IN (${campaigns})))))`;
    }
    case 'assigned':
      return who(t.who, sql`i.assigned_to`, context);
    case 'createdBy':
      return who(t.who, sql`i.user_id`, context);
    case 'status':
      return sql`i.status = ${t.value}`;
    case 'type':
      return sql`i.type = ${t.value}`;
    case 'has':
      if (t.what === 'files')
        return sql`i.id IN (SELECT fa.item_id FROM attachments fa WHERE fa.deleted_at IS NULL)`;
      if (t.what === 'comments') return sql`i.comments_count > 0`;
      if (t.what === 'estimate') return sql`i.estimate_minutes IS NOT NULL`;
      return sql`i.spent_minutes > 0`;
    case 'tracked':
      return sql`i.spent_minutes ${OPS[t.op]} ${t.minutes}`;
    case 'search': {
      const words = searchWords(t.words);
      if (words.length === 0) return sql`true`;
      return sql`(${sql.join(
        words.map((word) => {
          const pattern = containing(word);
          return sql`(i.title ILIKE ${pattern} OR (i.description IS NOT NULL AND i.description ILIKE ${pattern})
            OR i.id IN (SELECT fm.item_id FROM comments fm WHERE fm.deleted_at IS NULL AND fm.body ILIKE ${pattern}))`;
        }),
        sql` AND `,
      )})`;
    }
  }
}

/** The query `ast` as a condition on the item row `i` (the caller adds visibility and deletion). */
export function filterToSql(ast: FilterAst, context: FilterSqlContext): SQL {
  switch (ast.kind) {
    case 'not':
      return sql`(NOT ${filterToSql(ast.term, context)})`;
    case 'and':
      return sql`(${filterToSql(ast.left, context)} AND ${filterToSql(ast.right, context)})`;
    case 'or':
      return sql`(${filterToSql(ast.left, context)} OR ${filterToSql(ast.right, context)})`;
    default:
      return term(ast, context);
  }
}

/** Every name the query gives a person by (`@Ann`, `assigned: Ann`, `created by: Ann`). */
export function namesIn(ast: FilterAst): string[] {
  if (ast.kind === 'not') return namesIn(ast.term);
  if (ast.kind === 'and' || ast.kind === 'or') return [...namesIn(ast.left), ...namesIn(ast.right)];
  if ((ast.kind === 'assigned' || ast.kind === 'createdBy') && ast.who.kind === 'name') return [ast.who.name];
  return [];
}
