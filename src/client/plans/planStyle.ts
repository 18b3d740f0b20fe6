import type { ItemType } from '../../shared/item';

/** DESIGN 'Calendar': a span as one bar in the item's type colour at low opacity, its type on the left edge. */
export const BAR_TONE: Record<ItemType, string> = {
  campaign:
    'border-cyan-600 bg-cyan-500/15 text-cyan-950 dark:border-cyan-400 dark:bg-cyan-400/20 dark:text-cyan-50',
  task: 'border-green-600 bg-green-500/15 text-green-950 dark:border-green-400 dark:bg-green-400/20 dark:text-green-50',
  todo: 'border-amber-600 bg-amber-500/15 text-amber-950 dark:border-amber-400 dark:bg-amber-400/20 dark:text-amber-50',
};

/** What the keyboard does to a focused item on either view (read by screen readers as its description). */
export const MOVE_HINT =
  'Left and right arrows move it a day, up and down a week; Shift with left or right changes its end. Enter opens it.';
