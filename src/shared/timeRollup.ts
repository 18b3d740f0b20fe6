import { minutesOf } from './timerClock';

/**
 * Spent time from time entries (ARCHITECTURE §5 'Time tracking', SYNC.md X11): rolled up from an
 * item to its task and campaign on the device from its own entries (so an entry made offline counts
 * at once); the time report sums them (timeReport.ts). Framework-free.
 */

/** What the roll-up and the report read of an entry. */
export interface SpentEntry {
  item_id: number;
  user_id: number;
  user_name: string;
  started_at: string;
  ended_at: string | null;
  note: string;
}

/** Minutes of one entry: a running one counts up to `now`. */
export const entryMinutes = (e: Pick<SpentEntry, 'started_at' | 'ended_at'>, now: number): number =>
  minutesOf(e.started_at, e.ended_at, now);

/**
 * X11: minutes spent per item, each entry counted on its item and on every ancestor `parentOf` knows
 * (a todo's task and campaign); an item with none is absent. A cycle in `parentOf` stops at the first repeat.
 */
export function rollupSpent(
  entries: readonly Pick<SpentEntry, 'item_id' | 'started_at' | 'ended_at'>[],
  parentOf: (id: number) => number | null | undefined,
  now: number,
): Map<number, number> {
  const spent = new Map<number, number>();
  for (const entry of entries) {
    const minutes = entryMinutes(entry, now);
    const seen = new Set<number>();
    for (let id: number | null | undefined = entry.item_id; id != null && !seen.has(id); id = parentOf(id)) {
      seen.add(id);
      spent.set(id, (spent.get(id) ?? 0) + minutes);
    }
  }
  return spent;
}

/** How far spent is along the estimate, for the bar: its share (0–1) and whether it went past. */
export function spentProgress(
  spent: number,
  estimate: number | null | undefined,
): { share: number; over: boolean } | null {
  if (estimate == null || estimate <= 0) return null;
  return { share: Math.min(1, spent / estimate), over: spent > estimate };
}

/** What the estimate roll-up reads of an item. */
export interface EstimateNode {
  id: number;
  type: 'campaign' | 'task' | 'todo';
  parent_id: number | null;
  estimate_minutes?: number | null | undefined;
}

/**
 * X14: `estimate_total_minutes` of each task and campaign among `items` (§4): its own estimate, else
 * the sum of its children's totals (a todo's total is its own estimate), null when neither it nor
 * anything under it has one. `items` are the live items of the families asked about.
 */
export function rollupEstimates(items: readonly EstimateNode[]): Map<number, number | null> {
  const children = new Map<number, EstimateNode[]>();
  for (const item of items)
    if (item.parent_id !== null)
      children.set(item.parent_id, [...(children.get(item.parent_id) ?? []), item]);
  const totals = new Map<number, number | null>();
  const totalOf = (item: EstimateNode, seen: Set<number>): number | null => {
    if (item.estimate_minutes != null) return item.estimate_minutes;
    if (item.type === 'todo' || seen.has(item.id)) return null;
    seen.add(item.id);
    let sum: number | null = null;
    for (const child of children.get(item.id) ?? []) {
      const part = totalOf(child, seen);
      if (part !== null) sum = (sum ?? 0) + part;
    }
    return sum;
  };
  for (const item of items) if (item.type !== 'todo') totals.set(item.id, totalOf(item, new Set()));
  return totals;
}
