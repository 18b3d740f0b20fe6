import { type HierarchyNode, hierarchyError } from './hierarchy';
import type { ItemType } from './item';
import { inManualOrder } from './manualOrder';
import { keyBetween, keysAfter, placeInList, type RandomBit } from './sortKey';

/**
 * Manual order as the screens use it (ARCHITECTURE §5 'Order', SYNC.md O1–O5): a list is its items
 * sorted by `(sort_key, uuid)`, and every move (a drop, Alt+↑/↓, a move to another parent) is one new
 * key for the moved item between its new neighbours. Only when that key would pass the length cap,
 * or a neighbour holds a key stored before the field existed (''), does the whole list get fresh keys:
 * a rare write of many rows. Pure and seedable, so tests and the convergence proof draw the same keys.
 */

/** What a list row needs for its place: its id, its key and the uuid that breaks ties. */
export interface Ordered {
  id: number;
  sort_key: string;
  uuid: string | null;
}

/** One key to write: the moved item's, or (a re-key) every item of the list's. */
export interface KeyWrite {
  id: number;
  sort_key: string;
}

/** A seeded random bit for the keys' jitter: the same seed draws the same keys (tests, the proof). */
export function seededRandom(seed: number): RandomBit {
  let state = seed >>> 0 || 1;
  return () => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return (state >>> 0) % 2 === 0;
  };
}

/** The key for the end of a list whose greatest key is `last` (null: an empty list). */
export function keyForLast(last: string | null, random?: RandomBit): string {
  try {
    return keyBetween(last || null, null, random);
  } catch {
    // A key no fractional index can follow (stored before the field's checks): the list's first key.
    return keyBetween(null, null, random);
  }
}

/** The greatest key among `items` (null when none has one). */
export function lastKeyOf(items: readonly { sort_key?: string | null }[]): string | null {
  let last: string | null = null;
  for (const item of items)
    if (item.sort_key && (last === null || item.sort_key > last)) last = item.sort_key;
  return last;
}

/**
 * The writes that put item `id` at `index` of `list` (the target list in manual order, without the
 * item: the item may come from another list). One write normally; every row's when a re-key is needed.
 */
export function placeAt(list: readonly Ordered[], id: number, index: number, random?: RandomBit): KeyWrite[] {
  const others = list.filter((i) => i.id !== id);
  const at = Math.max(0, Math.min(index, others.length));
  const keys = others.map((i) => i.sort_key);
  try {
    if (keys.every(Boolean)) {
      const placed = placeInList(keys, at, random);
      if ('key' in placed) return [{ id, sort_key: placed.key }];
    }
  } catch {
    // A neighbour's key is no fractional index: the list gets fresh keys below.
  }
  const ids = others.map((i) => i.id);
  ids.splice(at, 0, id);
  // Fresh, short keys in this order, without jitter: the order is the point.
  const fresh = keysAfter(null, ids.length);
  return ids.map((rowId, i) => ({ id: rowId, sort_key: fresh[i] as string }));
}

/**
 * The writes that move item `id` of `list` (in manual order, with the item) to `toIndex`, the place it
 * takes in the list after the move (as dnd-kit's arrayMove counts). None when it stays where it is.
 */
export function moveTo(
  list: readonly Ordered[],
  id: number,
  toIndex: number,
  random?: RandomBit,
): KeyWrite[] {
  const from = list.findIndex((i) => i.id === id);
  if (from < 0) return placeAt(list, id, toIndex, random);
  const to = Math.max(0, Math.min(toIndex, list.length - 1));
  if (to === from) return [];
  return placeAt(list, id, to, random);
}

/** Alt+↑ (-1) or Alt+↓ (+1) on item `id`: the writes that swap it past its neighbour; none at an end. */
export function moveByStep(
  list: readonly Ordered[],
  id: number,
  step: -1 | 1,
  random?: RandomBit,
): KeyWrite[] {
  const from = list.findIndex((i) => i.id === id);
  if (from < 0) return [];
  return moveTo(list, id, from + step, random);
}

/** Where `id` sits in `list` after `writes` (1-based), for the announcement ('moved to 3 of 7'). */
export function positionAfter(list: readonly Ordered[], id: number, writes: readonly KeyWrite[]): number {
  const keys = new Map(writes.map((w) => [w.id, w.sort_key]));
  const next = list.some((i) => i.id === id) ? list : [...list, { id, sort_key: '', uuid: null }];
  const ordered = inManualOrder(next.map((i) => ({ ...i, sort_key: keys.get(i.id) ?? i.sort_key })));
  return ordered.findIndex((i) => i.id === id) + 1;
}

/** A row as a drop target or a dragged row: what the hierarchy needs, and whether it is the user's. */
export interface DropRow {
  id: number;
  type: ItemType;
  parent_id: number | null;
  /** A row this user may not change (a viewer's): it neither moves nor takes children. */
  locked?: boolean;
}

/**
 * Whether dropping `item` onto the row `target` moves it into `target` (SYNC.md O7): the hierarchy
 * allows it (a task into a campaign, a todo into a task or a campaign, never a campaign), it is not
 * the item itself nor its parent already (a drop there is a reorder), neither row is locked, and
 * `ancestorsOfTarget` (nearest first, when known) do not hold the item, so no cycle is made.
 */
export function canDropInto(
  item: DropRow,
  target: DropRow,
  ancestorsOfTarget: readonly HierarchyNode[] = [],
): boolean {
  if (item.locked || target.locked) return false;
  if (item.id === target.id || item.parent_id === target.id) return false;
  return hierarchyError(item, target, ancestorsOfTarget) === null;
}
