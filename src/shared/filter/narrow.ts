import { ITEM_STATUSES, ITEM_TYPES, type ItemStatus, type ItemType } from '../item';
import type { FilterAst } from './ast';

/**
 * What an index can read of a query before the evaluator judges each row (ARCHITECTURE §4: the device
 * evaluates over IndexedDB with indexes where they help): the statuses, or the types, every matching
 * item has. A necessary condition only: the evaluator still decides, so a narrowing may admit more
 * than matches, never less (the property test holds it to that).
 */
export type Narrowing =
  | { field: 'status'; values: readonly ItemStatus[] }
  | { field: 'type'; values: readonly ItemType[] };

const OPEN: readonly ItemStatus[] = ['pending', 'in_progress'];

const except = <T>(all: readonly T[], value: T): T[] => all.filter((v) => v !== value);

/** The values both narrowings allow, or the narrower one when they narrow different fields. */
function both(a: Narrowing | null, b: Narrowing | null): Narrowing | null {
  if (!a) return b;
  if (!b) return a;
  if (a.field === 'status' && b.field === 'status')
    return { field: 'status', values: a.values.filter((v) => b.values.includes(v)) };
  if (a.field === 'type' && b.field === 'type')
    return { field: 'type', values: a.values.filter((v) => b.values.includes(v)) };
  // Two fields: the one that leaves fewer of its values (a status when even).
  const share = (n: Narrowing) =>
    n.values.length / (n.field === 'status' ? ITEM_STATUSES : ITEM_TYPES).length;
  return share(b) < share(a) ? b : a;
}

/** The values either narrowing allows; nothing is narrowed when they narrow different fields. */
function either(a: Narrowing | null, b: Narrowing | null): Narrowing | null {
  if (!a || !b) return null;
  if (a.field === 'status' && b.field === 'status')
    return { field: 'status', values: [...new Set([...a.values, ...b.values])] };
  if (a.field === 'type' && b.field === 'type')
    return { field: 'type', values: [...new Set([...a.values, ...b.values])] };
  return null;
}

/** The narrowing of `ast`: statuses or types a match must have, or null when any item may match. */
export function narrowing(ast: FilterAst): Narrowing | null {
  switch (ast.kind) {
    case 'status':
      return { field: 'status', values: [ast.value] };
    case 'type':
      return { field: 'type', values: [ast.value] };
    // The evaluator's `overdue` is an open item's (evaluate.ts).
    case 'overdue':
      return { field: 'status', values: OPEN };
    case 'not':
      if (ast.term.kind === 'status')
        return { field: 'status', values: except(ITEM_STATUSES, ast.term.value) };
      if (ast.term.kind === 'type') return { field: 'type', values: except(ITEM_TYPES, ast.term.value) };
      if (ast.term.kind === 'not') return narrowing(ast.term.term);
      return null;
    case 'and':
      return both(narrowing(ast.left), narrowing(ast.right));
    case 'or':
      return either(narrowing(ast.left), narrowing(ast.right));
    default:
      return null;
  }
}

/** Whether an item of `status` and `type` is one `narrowed` lets through (every item when null). */
export function admits(narrowed: Narrowing | null, item: { status: ItemStatus; type: ItemType }): boolean {
  if (!narrowed) return true;
  return narrowed.field === 'status'
    ? narrowed.values.includes(item.status)
    : narrowed.values.includes(item.type);
}
