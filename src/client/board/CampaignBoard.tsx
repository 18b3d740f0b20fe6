import {
  type Announcements,
  type CollisionDetection,
  closestCorners,
  DndContext,
  type DragEndEvent,
  DragOverlay,
  type DragStartEvent,
  type UniqueIdentifier,
  useDroppable,
} from '@dnd-kit/core';
import { SortableContext, useSortable, verticalListSortingStrategy } from '@dnd-kit/sortable';
import { CSS } from '@dnd-kit/utilities';
import { LayoutGrid } from 'lucide-react';
import { memo, useMemo, useState } from 'react';
import { Link } from 'react-router';
import type { ItemStatus } from '../../shared/item';
import { cn, focusRing } from '../components/ui/cn';
import { ListEmpty, ListLoading } from '../components/ui/PageParts';
import { useWindowedList } from '../components/ui/useWindowedList';
import { formatDay, itemHref, TYPE_DOT, TYPE_LABEL } from '../items/itemStyle';
import { useOrderMutations } from '../items/orderMutations';
import { rowKeyOf } from '../items/rowKey';
import { DragHandle, useOrderSensors } from '../items/SortableItems';
import { BOARD_COLUMNS, type BoardColumns, columnsOf, type LocalItem, useBoardItems } from './queries';

/**
 * A campaign's board (ARCHITECTURE §5 'Board'): its tasks and todos in Queue, Active and Done. A card
 * dropped in another column takes that status (with the roll-up, which the undo toast names), and its
 * place in the column; within a column, only its place. Each column is in manual order. On a phone
 * the columns scroll sideways and snap, one at a time.
 *
 * dnd-kit knows each card by its uuid (rowKeyOf), as React keys it: the server's answer to a card's
 * create swaps its id, maybe mid-drag, and a card keyed by id would remount and drop the drag.
 */

const COLUMN_ID = (status: ItemStatus) => `column:${status}`;

/**
 * A column of more cards than this renders only those near the viewport (useWindowedList): every
 * rendered card is a sortable that renders again whenever a drag moves over another place, and a
 * column of 500 took hundreds of milliseconds a frame (npm run bench -- board-drag).
 */
const WINDOW_FROM = 60;
/** A windowed column's card and the gap under it, in pixels (h-14 + pb-2): every card is this tall. */
const CARD_PITCH = 64;
const TITLE_OF: Record<ItemStatus, string> = { pending: 'Queue', in_progress: 'Active', completed: 'Done' };
/**
 * A windowed column renders its cards in runs of this many, so scrolling (a drag's auto-scroll too)
 * mounts and unmounts cards once a run instead of once a card: each time the cards change, dnd-kit
 * measures every droppable again, each with a walk up its ancestors' computed styles.
 */
const RUN = 6;
/** The sortable context of a column: a card's column is read from its droppable's data. */
const CONTEXT_ID = (status: ItemStatus) => `cards:${status}`;

/**
 * closestCorners over the column the dragged card's middle is in (its own droppable and its cards)
 * rather than over every card on the board: each rectangle read walks scroll offsets.
 */
const inColumn: CollisionDetection = (args) => {
  const { collisionRect, droppableContainers, droppableRects } = args;
  const middle = collisionRect.left + collisionRect.width / 2;
  let column: string | null = null;
  for (const { status } of BOARD_COLUMNS) {
    const rect = droppableRects.get(COLUMN_ID(status));
    if (rect && middle >= rect.left && middle <= rect.right) column = status;
  }
  if (column === null) return closestCorners(args);
  const mine = droppableContainers.filter((c) => {
    if (c.id === COLUMN_ID(column as ItemStatus)) return true;
    const sortable = (c.data.current as { sortable?: { containerId?: string } } | undefined)?.sortable;
    return sortable?.containerId === CONTEXT_ID(column as ItemStatus);
  });
  return closestCorners({ ...args, droppableContainers: mine });
};

/**
 * What an empty column says: that it is empty, and (when the board can be changed) that a card can be
 * dropped there and what that does, since an empty column gives no other sign that it takes a card.
 */
const EMPTY_TEXT: Record<ItemStatus, { empty: string; drop: string }> = {
  pending: { empty: 'Nothing queued.', drop: 'Drop a card here.' },
  in_progress: { empty: 'Nothing in progress.', drop: 'Drop a card here to start it.' },
  completed: { empty: 'Nothing done yet.', drop: 'Drop a card here to complete it.' },
};

/** Which column and place a drop over `overId` (a card's rowKeyOf or a column) means. */
function dropTarget(
  columns: BoardColumns,
  overId: UniqueIdentifier,
): { status: ItemStatus; index: number } | null {
  const id = String(overId);
  if (id.startsWith('column:')) {
    const status = id.slice('column:'.length) as ItemStatus;
    return columns[status] ? { status, index: columns[status].length } : null;
  }
  for (const { status } of BOARD_COLUMNS) {
    const index = columns[status].findIndex((c) => rowKeyOf(c) === id);
    if (index >= 0) return { status, index };
  }
  return null;
}

/** The card dnd-kit knows as `key`, as it is now. */
const cardOf = (items: readonly LocalItem[], key: UniqueIdentifier | null) =>
  key === null ? undefined : items.find((i) => rowKeyOf(i) === String(key));

function boardAnnouncements(items: readonly LocalItem[], columns: BoardColumns): Announcements {
  const title = (id: UniqueIdentifier) => {
    const item = cardOf(items, id);
    return item ? `“${item.title}”` : 'The card';
  };
  const where = (id: UniqueIdentifier | undefined) => {
    if (id === undefined) return 'outside the board';
    const target = dropTarget(columns, id);
    if (!target) return 'outside the board';
    return `${TITLE_OF[target.status]}, place ${target.index + 1} of ${Math.max(columns[target.status].length, target.index + 1)}`;
  };
  return {
    onDragStart: ({ active }) => `Picked up ${title(active.id)} in ${where(active.id)}.`,
    onDragOver: ({ active, over }) => `${title(active.id)} is over ${where(over?.id)}.`,
    onDragEnd: ({ active, over }) =>
      over
        ? `${title(active.id)} dropped in ${where(over.id)}.`
        : `${title(active.id)} put back where it was.`,
    onDragCancel: ({ active }) => `Move cancelled. ${title(active.id)} is back in ${where(active.id)}.`,
  };
}

const INSTRUCTIONS = {
  draggable:
    'To move this card, press Space. Use the arrow keys to choose a place, left and right for another column, Space again to drop it there, or Escape to cancel.',
};

export default function CampaignBoard({
  campaignId,
  readOnly = false,
}: {
  campaignId: number;
  readOnly?: boolean;
}) {
  const items = useBoardItems(campaignId);
  const columns = useMemo(() => columnsOf(items ?? []), [items]);
  const order = useOrderMutations();
  const sensors = useOrderSensors();
  const [activeKey, setActiveKey] = useState<UniqueIdentifier | null>(null);
  const announcements = useMemo(() => boardAnnouncements(items ?? [], columns), [items, columns]);

  if (items === undefined) return <ListLoading label="Loading board..." rows={3} />;
  if (items.length === 0)
    return <ListEmpty icon={<LayoutGrid aria-hidden />} title="No tasks or todos to put on the board yet." />;

  // The lifted card as it is now (its id may change under the drag).
  const active = cardOf(items, activeKey);
  const onDragStart = ({ active: a }: DragStartEvent) => setActiveKey(a.id);
  const onDragEnd = ({ active: a, over }: DragEndEvent) => {
    setActiveKey(null);
    const item = cardOf(items, a.id);
    if (!item || !over) return;
    const target = dropTarget(columns, over.id);
    if (!target) return;
    const column = columns[target.status];
    if (target.status === item.status) {
      const to = Math.min(target.index, column.length - 1);
      void order.move(column, item, to);
    } else {
      void order.moveToStatus(column, item, target.index, target.status, TITLE_OF[target.status]);
    }
  };

  return (
    <DndContext
      sensors={sensors}
      collisionDetection={inColumn}
      onDragStart={onDragStart}
      onDragEnd={onDragEnd}
      onDragCancel={() => setActiveKey(null)}
      accessibility={{ announcements, screenReaderInstructions: INSTRUCTIONS }}
      autoScroll
    >
      <section
        aria-label="Board"
        className="-mx-4 flex snap-x snap-mandatory scroll-px-4 gap-3 overflow-x-auto px-4 pb-2 sm:mx-0 sm:grid sm:snap-none sm:grid-cols-3 sm:overflow-visible sm:px-0"
      >
        {BOARD_COLUMNS.map(({ status, title }) => (
          <BoardColumn
            key={status}
            status={status}
            title={title}
            cards={columns[status]}
            readOnly={readOnly}
          />
        ))}
      </section>
      {/* No drop animation: it measured the card's new place and scrolled to it, ~8 ms at the drop. */}
      <DragOverlay dropAnimation={null}>{active ? <CardBody item={active} lifted /> : null}</DragOverlay>
    </DndContext>
  );
}

// Memoised, as the cards are: a drag re-renders the board on every lift and drop, and a column of
// 500 cards rendered again each time took hundreds of milliseconds (npm run bench -- board-drag).
const BoardColumn = memo(function BoardColumn({
  status,
  title,
  cards,
  readOnly,
}: {
  status: ItemStatus;
  title: string;
  cards: LocalItem[];
  readOnly: boolean;
}) {
  const ids = useMemo(() => cards.map(rowKeyOf), [cards]);
  const windowed = cards.length > WINDOW_FROM;
  const { containerRef, start, end, totalHeight } = useWindowedList({
    count: windowed ? cards.length : 0,
    rowHeight: CARD_PITCH,
    overscan: 1,
  });
  // Whole runs of cards (RUN): the rendered cards change only when the view leaves a run.
  const from = Math.floor(start / RUN) * RUN;
  const to = Math.min(cards.length, Math.ceil(end / RUN) * RUN);
  const headingId = `board-${status}`;
  return (
    <ColumnDrop status={status} readOnly={readOnly}>
      <h3
        id={headingId}
        className="flex items-center justify-between px-1 pb-2 text-sm font-semibold text-zinc-800 dark:text-zinc-100"
      >
        <span>{title}</span>
        <span className="rounded-full bg-zinc-200 px-2 py-0.5 text-xs font-medium text-zinc-700 dark:bg-zinc-800 dark:text-zinc-300">
          {cards.length}
          <span className="sr-only">{cards.length === 1 ? ' card' : ' cards'}</span>
        </span>
      </h3>
      <SortableContext
        id={CONTEXT_ID(status)}
        items={ids}
        strategy={verticalListSortingStrategy}
        disabled={readOnly}
      >
        {cards.length === 0 ? (
          // The whole column is the drop target (useDroppable above); the dashed box shows where.
          <p
            data-empty-column={status}
            className="m-0 flex min-h-16 items-center justify-center rounded-lg border border-dashed border-zinc-300 px-3 py-2 text-center text-sm text-zinc-600 group-data-[over=true]/column:border-indigo-400 group-data-[over=true]/column:text-zinc-800 dark:border-zinc-700 dark:text-zinc-400 dark:group-data-[over=true]/column:border-indigo-500 dark:group-data-[over=true]/column:text-zinc-200"
          >
            {readOnly ? EMPTY_TEXT[status].empty : `${EMPTY_TEXT[status].empty} ${EMPTY_TEXT[status].drop}`}
          </p>
        ) : windowed ? (
          // The sortable context keeps every id (places count in the whole column); only the cards
          // near the viewport are rendered, moved down to where they sit.
          <div ref={containerRef} style={{ height: totalHeight, position: 'relative' }}>
            <ul
              aria-labelledby={headingId}
              className="absolute inset-x-0 top-0 m-0 p-0"
              style={{ transform: `translateY(${from * CARD_PITCH}px)` }}
            >
              {cards.slice(from, to).map((card) => (
                <BoardCard key={rowKeyOf(card)} item={card} readOnly={readOnly} pitched />
              ))}
            </ul>
          </div>
        ) : (
          <ul aria-labelledby={headingId} className="m-0 flex min-h-16 flex-col gap-2 p-0">
            {cards.map((card) => (
              <BoardCard key={rowKeyOf(card)} item={card} readOnly={readOnly} />
            ))}
          </ul>
        )}
      </SortableContext>
    </ColumnDrop>
  );
});

/**
 * The column as a drop target, outlined while a card is over it. The only part of a column that
 * dnd-kit's context renders again (a lift alone takes four passes, each re-rendering every consumer):
 * its contents come from BoardColumn, which does not, so React keeps them as they are.
 */
function ColumnDrop({
  status,
  readOnly,
  children,
}: {
  status: ItemStatus;
  readOnly: boolean;
  children: React.ReactNode;
}) {
  const { setNodeRef, isOver } = useDroppable({ id: COLUMN_ID(status), disabled: readOnly });
  return (
    <div
      ref={setNodeRef}
      data-column={status}
      data-over={isOver ? 'true' : undefined}
      className="group/column flex w-[82vw] max-w-sm shrink-0 snap-start flex-col rounded-xl border border-zinc-200 bg-zinc-50 p-2 data-[over=true]:border-indigo-400 sm:w-auto sm:max-w-none dark:border-zinc-800 dark:bg-zinc-900/60 dark:data-[over=true]:border-indigo-500"
    >
      {children}
    </div>
  );
}

/**
 * One card in its place. Every sortable card renders again whenever the drag moves over another place
 * (dnd-kit's context changes), so only its shifted wrapper does: the card's face is memoised on props
 * that stay the same through a drag.
 */
const BoardCard = memo(function BoardCard({
  item,
  readOnly,
  pitched = false,
}: {
  item: LocalItem;
  readOnly: boolean;
  /** In a windowed column: exactly CARD_PITCH tall, its gap included. */
  pitched?: boolean;
}) {
  const { attributes, listeners, setNodeRef, setActivatorNodeRef, transform, transition, isDragging } =
    useSortable({ id: rowKeyOf(item), disabled: readOnly });
  return (
    <li
      ref={setNodeRef}
      data-card-id={item.id}
      className={cn('list-none', pitched && 'h-16 pb-2', isDragging && 'opacity-40')}
      style={{ transform: CSS.Translate.toString(transform), transition }}
    >
      <CardFace
        item={item}
        readOnly={readOnly}
        pitched={pitched}
        attributes={attributes}
        listeners={listeners}
        activatorRef={setActivatorNodeRef}
      />
    </li>
  );
});

type Sortable = ReturnType<typeof useSortable>;

const CardFace = memo(function CardFace({
  item,
  readOnly,
  pitched,
  attributes,
  listeners,
  activatorRef,
}: {
  item: LocalItem;
  readOnly: boolean;
  pitched: boolean;
  attributes: Sortable['attributes'];
  listeners: Sortable['listeners'];
  activatorRef: Sortable['setActivatorNodeRef'];
}) {
  return (
    <CardBody
      item={item}
      className={pitched ? 'h-full' : undefined}
      handle={
        readOnly ? null : (
          <DragHandle
            title={item.title}
            ref={activatorRef}
            {...attributes}
            {...listeners}
            className="w-7 self-stretch rounded-l-lg border-b-0"
          />
        )
      }
    />
  );
});

function CardBody({
  item,
  handle,
  lifted = false,
  className,
}: {
  item: LocalItem;
  handle?: React.ReactNode;
  lifted?: boolean;
  className?: string;
}) {
  const href = itemHref(item);
  const due = formatDay(item.due_date);
  return (
    <div
      className={cn(
        'flex min-h-12 items-stretch rounded-lg border border-zinc-200 bg-white text-sm shadow-sm dark:border-zinc-700 dark:bg-zinc-900',
        lifted && 'rotate-1 shadow-lg ring-2 ring-indigo-500/60',
        className,
      )}
    >
      {handle ?? (lifted ? <span className="w-7" aria-hidden /> : null)}
      <div className="flex min-w-0 flex-1 flex-col justify-center gap-0.5 py-2 pr-3 pl-1">
        <span className="flex min-w-0 items-center gap-2">
          <span className={cn('size-2 shrink-0 rounded-full', TYPE_DOT[item.type])} aria-hidden />
          {href ? (
            <Link
              to={href}
              className={cn(
                'truncate font-medium text-zinc-900 hover:underline dark:text-zinc-100',
                focusRing,
              )}
            >
              {item.title}
            </Link>
          ) : (
            <span
              className={cn(
                'truncate font-medium text-zinc-900 dark:text-zinc-100',
                item.status === 'completed' && 'text-zinc-500 line-through dark:text-zinc-400',
              )}
            >
              {item.title}
            </span>
          )}
        </span>
        <span className="flex gap-2 pl-4 text-xs text-zinc-600 dark:text-zinc-400">
          <span>{TYPE_LABEL[item.type]}</span>
          {item.parent?.type === 'task' ? <span className="truncate">in {item.parent.title}</span> : null}
          {due ? <span>Due {due}</span> : null}
        </span>
      </div>
    </div>
  );
}
