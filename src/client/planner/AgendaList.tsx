import { type KeyboardEvent, type ReactNode, useCallback, useLayoutEffect, useRef, useState } from 'react';
import { daysOverdue, dueDay, overdueText } from '../../shared/agenda';
import { planDayMove } from '../../shared/dayOrder';
import { ShowMore } from '../components/ui/PageParts';
import { useParentTitles, useRowProgress, useSharedParents } from '../data/live';
import { ItemRow } from '../items/ItemRow';
import { useOrderMutations } from '../items/orderMutations';
import { rowKeyOf } from '../items/rowKey';
import { useSortableModule } from '../items/sortableModule';
import { useReschedule } from './mutations';
import type { LocalItem } from './queries';
import { RescheduleMenu } from './RescheduleMenu';

/** A row this user may not write (a viewer's, in a shared campaign): it does not move. */
const fixed = (item: LocalItem) => item.my_role === 'viewer';

/**
 * A day's items as the lists' own rows (complete, rename, assign, delete, the actions menu), each
 * with how late it is and a Reschedule menu. Every control is in the tab order: these lists are short,
 * so they need no roving tab stop. With `reorder` (Today's 'Today' group, SYNC.md O6) each row also
 * has a grip (pointer, touch, keyboard) and Alt+↑/↓ from anywhere in it; a drop among another
 * priority's rows takes that priority, and says so.
 */
export function AgendaList({
  items,
  total,
  onMore,
  label,
  today,
  reorder = false,
  drawn = Infinity,
}: {
  /** The rows read so far (the screen reads a page at a time, data/reads/agendaQueries.ts). */
  items: readonly LocalItem[];
  /** How many the group holds: 'Show more' shows while fewer are read. */
  total: number;
  /** Reads the next page. */
  onMore: () => void;
  label: string;
  today: string;
  /** Manual order within the day: the rows are in the day's order (src/shared/agenda.ts). */
  reorder?: boolean;
  /** How many of the rows to draw now (the screen's first draw, firstDraw.ts); all by default. */
  drawn?: number;
}) {
  const visible = items;
  // Only the rows drawn are cut: the order, the moves and 'Show more' count every row read.
  const drawnRows = drawn < items.length ? items.slice(0, drawn) : items;
  const reschedule = useReschedule(today);
  const parentTitles = useParentTitles(visible);
  const sharedParents = useSharedParents(visible);
  const progress = useRowProgress(visible);
  const sortable = useSortableModule(reorder);
  const order = useOrderMutations();
  const [moved, setMoved] = useState('');
  // After Alt+↑/↓ the control that had focus keeps it once the list has re-read the row in its place.
  const refocus = useRef<HTMLElement | null>(null);

  const more = total > items.length;
  const move = (item: LocalItem, to: number) => void order.moveInDay(items, item, to, more);
  const note = useCallback(
    (id: number, to: number) => {
      const plan = planDayMove(items, id, to, undefined, more);
      return plan?.priority ? `p${plan.priority}` : null;
    },
    [items, more],
  );

  const moveByKey = (event: KeyboardEvent<HTMLUListElement>) => {
    if (!reorder || !event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
    if (event.key !== 'ArrowUp' && event.key !== 'ArrowDown') return;
    const target = event.target as HTMLElement;
    if (target.isContentEditable || target.closest('input, textarea, select')) return;
    const row = target.closest<HTMLElement>('li[data-index]');
    const index = Number(row?.dataset.index);
    const item = items[index];
    if (!row || !item || fixed(item)) return;
    // Ours, not the row's menu trigger's (Radix opens a menu on ArrowDown).
    event.preventDefault();
    event.stopPropagation();
    const to = index + (event.key === 'ArrowUp' ? -1 : 1);
    if (to < 0 || to >= items.length) return;
    refocus.current = target;
    const now = note(item.id, to);
    setMoved(`“${item.title}” moved to ${to + 1} of ${items.length}${now ? `, now ${now}` : ''}.`);
    move(item, to);
  };

  // biome-ignore lint/correctness/useExhaustiveDependencies: runs when the rows change
  useLayoutEffect(() => {
    const el = refocus.current;
    if (el?.isConnected && document.activeElement !== el) el.focus();
  }, [items]);

  const rowOf = (item: LocalItem) => {
    const late = daysOverdue(item, today);
    return (
      <ItemRow
        item={item}
        parentTitle={item.parent_id !== null ? (parentTitles.get(item.parent_id) ?? null) : null}
        inShared={item.parent_id !== null && sharedParents.has(item.parent_id)}
        progress={progress.get(item.id)}
        meta={
          late > 0 ? (
            <span className="shrink-0 font-medium text-red-600 dark:text-red-400">{overdueText(late)}</span>
          ) : null
        }
        actions={
          <RescheduleMenu
            title={item.title}
            due={dueDay(item)}
            today={today}
            onPick={(day) => void reschedule(item, day)}
          />
        }
      />
    );
  };

  const listOf = (rows: ReactNode) => (
    <div className="overflow-hidden rounded-xl border border-zinc-200 bg-white dark:border-zinc-800 dark:bg-zinc-900/40 [&_li:last-child>div]:border-b-0">
      <ul aria-label={label} className="m-0 p-0" onKeyDownCapture={reorder ? moveByKey : undefined}>
        {rows}
      </ul>
      <ShowMore more={more} onMore={onMore} shown={items.length} total={total} />
      {reorder ? (
        <p className="sr-only" aria-live="polite">
          {moved}
        </p>
      ) : null}
    </div>
  );

  if (!reorder)
    return listOf(
      drawnRows.map((item) => (
        <li key={rowKeyOf(item)} className="list-none">
          {rowOf(item)}
        </li>
      )),
    );
  // As ItemList: until drag and drop is here the card stays empty, so rows are never drawn twice.
  if (!sortable) return listOf(null);
  const SortableRows = sortable.default;
  return (
    <SortableRows
      all={visible}
      visible={drawnRows}
      start={0}
      onMove={(id, to) => {
        const item = items.find((i) => i.id === id);
        if (item) move(item, to);
      }}
      note={note}
      fixed={fixed}
      renderRow={rowOf}
    >
      {listOf}
    </SortableRows>
  );
}
