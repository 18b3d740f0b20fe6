import type { ReactNode } from 'react';
import { cn } from '../ui/cn';
import { ITEM_ROW_HEIGHT, ItemRow, type RowItem } from './ItemRow';
import { useWindowedList } from './useWindowedList';

/** Below this many rows everything renders: windowing only pays off for long lists. */
const WINDOW_FROM = 60;

export interface ItemListProps<T extends RowItem> {
  items: readonly T[];
  /** Accessible name of the list, e.g. 'Queue: todos'. */
  label: string;
  /** The parent's title per id, for 'in {parent}' on rows whose parent is known locally. */
  parentTitles?: ReadonlyMap<number, string>;
  showParent?: boolean;
  className?: string;
  footer?: ReactNode;
}

/** A bordered list of item rows; long lists render only the rows near the viewport. */
export function ItemList<T extends RowItem>({
  items,
  label,
  parentTitles,
  showParent = true,
  className,
  footer,
}: ItemListProps<T>) {
  const windowed = items.length > WINDOW_FROM;
  const { containerRef, start, end, totalHeight, offsetTop } = useWindowedList({
    count: windowed ? items.length : 0,
    rowHeight: ITEM_ROW_HEIGHT,
  });
  const visible = windowed ? items.slice(start, end) : items;
  const rows = visible.map((item) => (
    <li key={item.id} className="list-none">
      <ItemRow
        item={item}
        showParent={showParent}
        parentTitle={item.parent_id !== null ? (parentTitles?.get(item.parent_id) ?? null) : null}
      />
    </li>
  ));

  return (
    <div
      className={cn(
        'overflow-hidden rounded-xl border border-zinc-200 bg-white dark:border-zinc-800 dark:bg-zinc-900/40',
        // The last row's own border would double the card's.
        '[&_li:last-child>div]:border-b-0',
        className,
      )}
    >
      {windowed ? (
        <div ref={containerRef} style={{ height: totalHeight, position: 'relative' }}>
          <ul
            aria-label={label}
            className="absolute inset-x-0 top-0 m-0 p-0"
            style={{ transform: `translateY(${offsetTop}px)` }}
          >
            {rows}
          </ul>
        </div>
      ) : (
        <ul aria-label={label} className="m-0 p-0">
          {rows}
        </ul>
      )}
      {footer}
    </div>
  );
}
