import type { ItemStatus, ItemType } from '../item';
import type { FilterAst, FilterTerm, StartOp, TrackedOp, Who } from './ast';
import { personMatches, readFilterDate, searchWords } from './words';

/**
 * The filter language's meaning over one item record (a synced item's fields), the rules the server's
 * SQL (server/items/filterSql.ts) writes again: a deleted item never matches; a term on a missing
 * value (no due date, no start, no estimate) is false, and its `!` true.
 */

/** The fields of an item the filter reads. */
export interface FilterItem {
  id: number;
  type: ItemType;
  status: ItemStatus;
  title: string;
  description: string | null;
  due_date: string | null;
  start_date: string | null;
  priority: number;
  labels: readonly string[];
  assigned_to: number | null;
  user_id: number;
  parent_id: number | null;
  deleted_at: string | null;
  comments_count?: number;
  estimate_minutes: number | null;
  spent_minutes?: number;
  /** How many live files the item has (absent: none). */
  files_count?: number;
  /** The bodies of the item's live comments, for `search:` (absent: none). */
  commentText?: string;
}

/** A person the filter may name. */
export interface FilterPerson {
  id: number;
  name: string;
}

/** What the filter counts from: the viewer's day and id, the people names may mean, campaigns. */
export interface FilterContext {
  /** The viewer's calendar day, YYYY-MM-DD: 'today', 'overdue' and dates in words count from it. */
  today: string;
  viewerId: number;
  people: readonly FilterPerson[];
  /** The campaign an item lies in (the item itself when it is one), or null outside any. */
  campaignOf: (item: FilterItem) => { id: number; title: string } | null;
}

/** The ids of the people a name means (whole name or first name, without case). */
export function peopleNamed(people: readonly FilterPerson[], name: string): number[] {
  return people.filter((p) => personMatches(p.name, name)).map((p) => p.id);
}

function compare(a: string | number, op: StartOp | TrackedOp, b: string | number): boolean {
  switch (op) {
    case '<':
      return a < b;
    case '<=':
      return a <= b;
    case '>':
      return a > b;
    case '>=':
      return a >= b;
    case '=':
      return a === b;
  }
}

function isWho(who: Who, id: number | null, context: FilterContext): boolean {
  if (who.kind === 'none') return id === null;
  if (id === null) return false;
  if (who.kind === 'me') return id === context.viewerId;
  return peopleNamed(context.people, who.name).includes(id);
}

function term(t: FilterTerm, item: FilterItem, context: FilterContext): boolean {
  switch (t.kind) {
    case 'today':
      return item.due_date === context.today;
    case 'overdue':
      return item.due_date !== null && item.due_date < context.today && item.status !== 'completed';
    case 'noDate':
      return item.due_date === null;
    case 'due': {
      const day = readFilterDate(t.date, context.today);
      if (day === null || item.due_date === null) return false;
      return t.op === 'before' ? item.due_date < day : item.due_date > day;
    }
    case 'start': {
      const day = readFilterDate(t.date, context.today);
      if (day === null || item.start_date === null) return false;
      return compare(item.start_date, t.op, day);
    }
    case 'priority':
      return item.priority === t.value;
    case 'label': {
      const name = t.name.toLowerCase();
      return item.labels.some((l) => l.toLowerCase() === name);
    }
    case 'campaign': {
      const campaign = context.campaignOf(item);
      return campaign !== null && campaign.title.toLowerCase() === t.name.toLowerCase();
    }
    case 'assigned':
      return isWho(t.who, item.assigned_to, context);
    case 'createdBy':
      return isWho(t.who, item.user_id, context);
    case 'status':
      return item.status === t.value;
    case 'type':
      return item.type === t.value;
    case 'has':
      if (t.what === 'files') return (item.files_count ?? 0) > 0;
      if (t.what === 'comments') return (item.comments_count ?? 0) > 0;
      if (t.what === 'estimate') return item.estimate_minutes !== null;
      return (item.spent_minutes ?? 0) > 0;
    case 'tracked':
      return compare(item.spent_minutes ?? 0, t.op, t.minutes);
    case 'search': {
      const haystacks = [item.title, item.description ?? '', item.commentText ?? ''].map((h) =>
        h.toLowerCase(),
      );
      return searchWords(t.words).every((w) => haystacks.some((h) => h.includes(w)));
    }
  }
}

function node(ast: FilterAst, item: FilterItem, context: FilterContext): boolean {
  switch (ast.kind) {
    case 'not':
      return !node(ast.term, item, context);
    case 'and':
      return node(ast.left, item, context) && node(ast.right, item, context);
    case 'or':
      return node(ast.left, item, context) || node(ast.right, item, context);
    default:
      return term(ast, item, context);
  }
}

/** Whether `item` matches the query `ast`, seen by `context`'s viewer on `context.today`. */
export function evaluate(ast: FilterAst, item: FilterItem, context: FilterContext): boolean {
  return item.deleted_at === null && node(ast, item, context);
}

/** The campaign lookup of a list of items (by parent chain, at most three deep), for FilterContext. */
export function campaignLookup(
  items: Iterable<Pick<FilterItem, 'id' | 'type' | 'title' | 'parent_id'>>,
): FilterContext['campaignOf'] {
  const byId = new Map<number, Pick<FilterItem, 'id' | 'type' | 'title' | 'parent_id'>>();
  for (const item of items) byId.set(item.id, item);
  return (item) => {
    let at: Pick<FilterItem, 'id' | 'type' | 'title' | 'parent_id'> | undefined = item;
    for (let hops = 0; at && hops < 3; hops++) {
      if (at.type === 'campaign') return { id: at.id, title: at.title };
      at = at.parent_id === null ? undefined : byId.get(at.parent_id);
    }
    return null;
  };
}
