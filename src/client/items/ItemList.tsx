import {
  type FocusEvent,
  type KeyboardEvent,
  type ReactNode,
  useCallback,
  useLayoutEffect,
  useRef,
  useState,
} from 'react';
import { cn } from '../components/ui/cn';
import { useWindowedList } from '../components/ui/useWindowedList';
import { useParentTitles, useRowProgress, useSharedParents } from '../data/live';
import { ITEM_ROW_HEIGHT, ItemRow, type RowItem } from './ItemRow';
import { rowKeyOf } from './rowKey';
import { useSortableModule } from './sortableModule';

/** Below this many rows everything renders: windowing only pays off for long lists. */
const WINDOW_FROM = 60;

export interface ItemListProps<T extends RowItem> {
  items: readonly T[];
  /** Accessible name of the list, e.g. 'Queue: todos'. */
  label: string;
  showParent?: boolean;
  className?: string;
  footer?: ReactNode;
  /**
   * Manual order (ARCHITECTURE §5 'Order'): rows get a drag handle and Alt+↑/↓, and a move calls this
   * with the row and the place it takes (as arrayMove counts). Absent: the list keeps its given order.
   */
  onMove?: (item: T, toIndex: number) => void;
}

/** The row element at a list index, if it is rendered. */
function rowAt(list: HTMLElement | null, index: number): HTMLElement | null {
  return list?.querySelector<HTMLElement>(`li[data-index="${index}"] [data-item-id]`) ?? null;
}

/** The page's quick-add title field (where the list's items come from), if one is on screen. */
function quickAddTitle(): HTMLElement | null {
  const fields = document.querySelectorAll<HTMLElement>('main [data-quick-add-title]');
  return [...fields].find((f) => f.getClientRects().length > 0) ?? null;
}

function typesText(el: HTMLElement): boolean {
  return el.isContentEditable || el.closest('input, textarea, select') !== null;
}

/**
 * A bordered list of item rows; long lists render only the rows near the viewport. Each row is one
 * tab stop (a roving tabindex): arrow keys or j/k move between rows, Home and End to the ends; the
 * row's own keys open it and its actions (ItemRow). When the focused row goes away (deleted), focus
 * moves to the row that took its place, the one before it, or the page's quick add.
 */
export function ItemList<T extends RowItem>({
  items,
  label,
  showParent = true,
  className,
  footer,
  onMove,
}: ItemListProps<T>) {
  const windowed = items.length > WINDOW_FROM;
  const { containerRef, start, end, totalHeight, offsetTop } = useWindowedList({
    count: windowed ? items.length : 0,
    rowHeight: ITEM_ROW_HEIGHT,
  });
  const visible = windowed ? items.slice(start, end) : items;
  const sortable = useSortableModule(Boolean(onMove));
  const listRef = useRef<HTMLUListElement>(null);
  // Rows are known by rowKeyOf (their uuid), not their id: the server's answer to a create swaps the
  // id under a focused or dragged row, and the row must stay the same row (rowKey.ts).
  const latestItems = useRef(items);
  latestItems.current = items;
  const keyOfId = useCallback((id: number): string | null => {
    const item = latestItems.current.find((i) => i.id === id);
    return item ? rowKeyOf(item) : null;
  }, []);
  const [activeKey, setActiveKey] = useState<string | null>(null);
  // The row focus was last in: restored to a neighbour if that row disappears while focused.
  const lastFocus = useRef<{ key: string; index: number } | null>(null);
  const tabStopKey = visible.some((i) => rowKeyOf(i) === activeKey)
    ? activeKey
    : visible[0]
      ? rowKeyOf(visible[0])
      : null;
  const onRowFocus = useCallback((id: number) => setActiveKey(keyOfId(id)), [keyOfId]);

  const focusIndex = (index: number, attempt = 0) => {
    const row = rowAt(listRef.current, index);
    if (row) {
      row.focus();
      return;
    }
    // A long list renders only rows near the viewport: scroll the row's place into view, then focus it.
    const container = containerRef.current;
    if (!container || attempt > 4) return;
    const top = container.getBoundingClientRect().top + window.scrollY + index * ITEM_ROW_HEIGHT;
    window.scrollTo({ top: Math.max(0, top - window.innerHeight / 2) });
    requestAnimationFrame(() => requestAnimationFrame(() => focusIndex(index, attempt + 1)));
  };

  // After Alt+↑/↓ the moved row keeps focus once the list has re-read it in its new place.
  const refocus = useRef<string | null>(null);
  const [moved, setMoved] = useState('');
  const moveByKey = (event: KeyboardEvent<HTMLUListElement>): boolean => {
    if (!onMove || !event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return false;
    if (event.key !== 'ArrowUp' && event.key !== 'ArrowDown') return false;
    const row = (event.target as HTMLElement).closest<HTMLElement>('[data-item-id]');
    if (!row || row !== event.target) return false;
    const index = items.findIndex((i) => i.id === Number(row.dataset.itemId));
    const to = index + (event.key === 'ArrowUp' ? -1 : 1);
    event.preventDefault();
    const item = items[index];
    if (!item || to < 0 || to >= items.length) return true;
    refocus.current = rowKeyOf(item);
    setMoved(`“${item.title}” moved to ${to + 1} of ${items.length}.`);
    onMove(item, to);
    return true;
  };

  const onKeyDown = (event: KeyboardEvent<HTMLUListElement>) => {
    if (moveByKey(event)) return;
    const target = event.target as HTMLElement;
    if (event.altKey || event.ctrlKey || event.metaKey || event.shiftKey || typesText(target)) return;
    const row = target.closest<HTMLElement>('[data-item-id]');
    if (!row || !event.currentTarget.contains(row)) return;
    const onRow = row === target;
    // On a control inside the row, the arrows stay the control's (a menu trigger opens on ArrowDown).
    const key = event.key;
    if (!onRow && key !== 'j' && key !== 'k') return;
    const index = Number(row.closest('li')?.dataset.index);
    let next: number | null = null;
    if (key === 'ArrowDown' || key === 'j') next = Math.min(items.length - 1, index + 1);
    else if (key === 'ArrowUp' || key === 'k') next = Math.max(0, index - 1);
    else if (key === 'Home') next = 0;
    else if (key === 'End') next = items.length - 1;
    if (next === null || Number.isNaN(index)) return;
    event.preventDefault();
    focusIndex(next);
  };

  const leaving = useRef(false);
  const onFocus = (event: FocusEvent<HTMLUListElement>) => {
    // Focus inside a row's portalled menu or dialog bubbles here too (the React tree): still ours.
    leaving.current = false;
    const row = (event.target as HTMLElement).closest<HTMLElement>('[data-item-id]');
    if (!row || !event.currentTarget.contains(row)) return;
    const key = keyOfId(Number(row.dataset.itemId));
    lastFocus.current = key === null ? null : { key, index: Number(row.closest('li')?.dataset.index) };
  };

  const onBlur = (event: FocusEvent<HTMLUListElement>) => {
    const next = event.relatedTarget as Node | null;
    if (!next || event.currentTarget.contains(next)) return;
    // Focus moved elsewhere on purpose (nothing to restore later), unless it went into a row's own
    // menu or dialog: their focus events reach onFocus above before this check runs.
    leaving.current = true;
    setTimeout(() => {
      if (leaving.current) lastFocus.current = null;
    }, 0);
  };

  // Runs when the rows change.
  useLayoutEffect(() => {
    const key = refocus.current;
    const id = key === null ? undefined : items.find((i) => rowKeyOf(i) === key)?.id;
    if (id === undefined) return;
    const row = listRef.current?.querySelector<HTMLElement>(`[data-item-id="${id}"]`);
    if (row && document.activeElement !== row) row.focus();
  }, [items]);

  // biome-ignore lint/correctness/useExhaustiveDependencies: runs when the rows change
  useLayoutEffect(() => {
    const last = lastFocus.current;
    if (!last || items.some((i) => rowKeyOf(i) === last.key)) return;
    const active = document.activeElement;
    if (active && active !== document.body) return;
    lastFocus.current = null;
    if (items.length > 0) focusIndex(Math.min(last.index, items.length - 1));
    else quickAddTitle()?.focus();
  }, [items]);

  // The list itself goes (its last row deleted, an empty state instead): focus goes to the quick add.
  useLayoutEffect(
    () => () => {
      if (!lastFocus.current) return;
      requestAnimationFrame(() => {
        const active = document.activeElement;
        if (!active || active === document.body) quickAddTitle()?.focus();
      });
    },
    [],
  );

  const progress = useRowProgress(visible);
  // 'in {parent}' for the rows on screen only: a list of thousands reads tens of parents, not all.
  const parentTitles = useParentTitles(showParent ? visible : []);
  // On a campaign's or task's own page the header says it is shared; the lists say it per row.
  const sharedParents = useSharedParents(showParent ? visible : []);
  const rowOf = (item: T) => (
    <ItemRow
      item={item}
      tabStop={rowKeyOf(item) === tabStopKey}
      onRowFocus={onRowFocus}
      showParent={showParent}
      parentTitle={item.parent_id !== null ? (parentTitles.get(item.parent_id) ?? null) : null}
      inShared={item.parent_id !== null && sharedParents.has(item.parent_id)}
      progress={progress.get(item.id)}
    />
  );
  const first = windowed ? start : 0;
  const rows = visible.map((item, i) => (
    <li key={rowKeyOf(item)} className="list-none" data-index={first + i}>
      {rowOf(item)}
    </li>
  ));
  const onDrop = (id: number, to: number) => {
    const item = items.find((i) => i.id === id);
    if (item && onMove) onMove(item, to);
  };

  const listOf = (rowNodes: ReactNode) => (
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
            ref={listRef}
            onKeyDown={onKeyDown}
            onFocus={onFocus}
            onBlur={onBlur}
            aria-label={label}
            className="absolute inset-x-0 top-0 m-0 p-0"
            style={{ transform: `translateY(${offsetTop}px)` }}
          >
            {rowNodes}
          </ul>
        </div>
      ) : (
        <ul
          ref={listRef}
          onKeyDown={onKeyDown}
          onFocus={onFocus}
          onBlur={onBlur}
          aria-label={label}
          className="m-0 p-0"
        >
          {rowNodes}
        </ul>
      )}
      {footer}
      {onMove ? (
        <p className="sr-only" aria-live="polite">
          {moved}
        </p>
      ) : null}
    </div>
  );
  if (!onMove) return listOf(rows);
  // Drag and drop loads with the first list that can be reordered, never with the first screen. Until
  // it is here the card stays empty rather than drawing rows that would be drawn again (SortableLi).
  if (!sortable) return listOf(null);
  const SortableRows = sortable.default;
  return (
    <SortableRows
      all={items}
      visible={visible}
      start={first}
      onMove={onDrop}
      renderRow={(item) => rowOf(item as T)}
    >
      {listOf}
    </SortableRows>
  );
}
