/** The board's reads (ARCHITECTURE §5 'Board'): a campaign's tasks and todos, live, through the door. */
import { useMemo } from 'react';
import type { ItemStatus } from '../../shared/item';
import { inManualOrder } from '../../shared/manualOrder';
import { type LiveQuery, type LocalItem, useLive } from '../data/live';

export type { LocalItem };

/** The board's columns: the spec's three statuses, in their order. */
export const BOARD_COLUMNS = [
  { status: 'pending', title: 'Queue' },
  { status: 'in_progress', title: 'Active' },
  { status: 'completed', title: 'Done' },
] as const satisfies readonly { status: ItemStatus; title: string }[];

export type BoardColumns = Record<ItemStatus, LocalItem[]>;

// Each query starts its reads at once, so the live query observes every one (data/reads/live.ts): a
// change to any card re-reads the board.
const childrenQuery: LiveQuery<number, LocalItem[] | undefined> = (reads, parentId) =>
  parentId === 0 ? undefined : reads.children(parentId);
const childrenOfEach: LiveQuery<number[], LocalItem[][]> = (reads, ids) =>
  Promise.all(ids.map((id) => reads.children(id)));

/** Splits cards into the three columns, each in manual order (sort_key, then uuid). */
export function columnsOf(items: readonly LocalItem[]): BoardColumns {
  const out: BoardColumns = { pending: [], in_progress: [], completed: [] };
  for (const item of items) out[item.status]?.push(item);
  for (const key of Object.keys(out) as ItemStatus[]) out[key] = inManualOrder(out[key]);
  return out;
}

/** A campaign's tasks and todos (its tasks' todos too), live; undefined while loading. */
export function useBoardItems(campaignId: number): LocalItem[] | undefined {
  const top = useLive(childrenQuery, campaignId);
  const taskIds = useMemo(() => (top ?? []).filter((i) => i.type === 'task').map((i) => i.id), [top]);
  const nested = useLive(childrenOfEach, taskIds);
  return useMemo(
    () =>
      top === undefined || nested === undefined
        ? undefined
        : [...top, ...nested.flat()].filter((i) => i.type !== 'campaign'),
    [top, nested],
  );
}
