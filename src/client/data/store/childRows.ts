import Dexie, { type Collection, type Table } from 'dexie';
import type { LocalItem } from './types';

/**
 * The items index a parent's children are read by: one entry per row with a parent, by parent, scope
 * and created_at (db.ts LIST_INDEX.children). Since version 25 it is the only index over parent_id:
 * every put paid for a second, single-field one that only ever answered 'the children of these ids',
 * which a prefix of this one answers (issue 69 item 2).
 */
export const CHILDREN_INDEX = '[parent_id+_scope+created_at]';

/** The children index's range holding every child of `parentId`, whatever its scope (a key prefix). */
export function childrenRange(parentId: number): [lower: [number], upper: [number, unknown]] {
  return [[parentId], [parentId, Dexie.maxKey]];
}

/** Every stored child of `parentId`, marked deleted or not, in either scope: ordered by scope, then created_at. */
export function childrenWhere(
  items: Table<LocalItem, number>,
  parentId: number,
): Collection<LocalItem, number> {
  const [lower, upper] = childrenRange(parentId);
  return items.where(CHILDREN_INDEX).between(lower, upper, true, true);
}

/** Every stored child of any of `parentIds`, as childrenWhere reads one parent's. */
export function childrenOfAny(
  items: Table<LocalItem, number>,
  parentIds: readonly number[],
): Collection<LocalItem, number> {
  return items.where(CHILDREN_INDEX).inAnyRange(parentIds.map(childrenRange), { includeUppers: true });
}
