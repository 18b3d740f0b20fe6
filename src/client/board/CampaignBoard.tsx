import {
  type Announcements,
  type ClientRect,
  type Collision,
  type CollisionDetection,
  DndContext,
  type DragEndEvent,
  type DragMoveEvent,
  DragOverlay,
  type KeyboardCoordinateGetter,
  type MeasuringConfiguration,
  type UniqueIdentifier,
  useDndContext,
  useDraggable,
  useDroppable,
} from '@dnd-kit/core';
import { Flag, LayoutGrid } from 'lucide-react';
import { memo, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { Link } from 'react-router';
import { useStore } from 'zustand';
import { createStore, type StoreApi } from 'zustand/vanilla';
import type { ItemStatus } from '../../shared/item';
import { ConfirmDialog } from '../components/ui/AlertDialog';
import { cn, focusRing } from '../components/ui/cn';
import { ListEmpty, ListLoading } from '../components/ui/PageParts';
import { useWindowedList } from '../components/ui/useWindowedList';
import { AssigneeTag } from '../items/AssigneeTag';
import { assigneeName } from '../items/assignees';
import { formatDay, itemPageHref, PRIORITY_TEXT, TYPE_DOT, TYPE_LABEL } from '../items/itemStyle';
import { useAssigneeOptions } from '../items/mutations';
import { useOrderMutations } from '../items/orderMutations';
import { rowKeyOf } from '../items/rowKey';
import { DragHandle, useOrderSensors } from '../items/SortableItems';
import { CARD_PITCH, type ColumnPlace, placeInColumn } from './boardPlace';
import { BOARD_COLUMNS, type BoardColumns, columnsOf, type LocalItem, useBoardItems } from './queries';

/**
 * A campaign's board (ARCHITECTURE §5 'Board'): its tasks and todos in Queue, Active and Done. A card
 * dropped in another column takes that status (with the roll-up, which the undo toast names), and its
 * place in the column; within a column, only its place. Each column is in manual order. On a phone
 * the columns scroll sideways and snap, one at a time.
 *
 * A column is the only drop target, and the place in it is worked out from where the lifted card is
 * (boardPlace.ts): one sortable per card re-rendered and measured every card at the lift, over a frame
 * in a column of 500 (npm run bench -- board-drag). The column shows the place with a line.
 *
 * dnd-kit knows each card by its uuid (rowKeyOf), as React keys it: the server's answer to a card's
 * create swaps its id, maybe mid-drag, and a card keyed by id would remount and drop the drag.
 */

const COLUMN_ID = (status: ItemStatus) => `column:${status}`;
const statusOfColumn = (id: UniqueIdentifier) => String(id).slice('column:'.length) as ItemStatus;

/**
 * A column of more cards than this renders only those near the viewport (useWindowedList): the
 * column's list keeps every card's height, so places count in the whole column.
 */
const WINDOW_FROM = 60;
const TITLE_OF: Record<ItemStatus, string> = { pending: 'Queue', in_progress: 'Active', completed: 'Done' };
/**
 * A windowed column renders its cards in runs of this many, so scrolling (a drag's auto-scroll too)
 * mounts and unmounts cards once a run instead of once a card.
 */
const RUN = 6;

/** The column whose span holds `middle` (a horizontal position), else the nearest one. */
function columnAt(
  middle: number,
  containers: readonly { id: UniqueIdentifier }[],
  rects: Map<UniqueIdentifier, ClientRect>,
): UniqueIdentifier | null {
  let best: UniqueIdentifier | null = null;
  let distance = Number.POSITIVE_INFINITY;
  for (const { id } of containers) {
    const rect = rects.get(id);
    if (!rect) continue;
    const d = middle < rect.left ? rect.left - middle : middle > rect.right ? middle - rect.right : 0;
    if (d < distance) {
      best = id;
      distance = d;
    }
  }
  return best;
}

/** The column under the lifted card's middle: three rectangles to look at, whatever the board holds. */
const underCard: CollisionDetection = ({ collisionRect, droppableContainers, droppableRects }) => {
  const id = columnAt(collisionRect.left + collisionRect.width / 2, droppableContainers, droppableRects);
  const container = droppableContainers.find((c) => c.id === id);
  return container ? [{ id: container.id, data: { droppableContainer: container } } satisfies Collision] : [];
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

/** A place on the board: a column and the place in it. */
type BoardPlace = ColumnPlace & { status: ItemStatus };

const samePlace = (a: BoardPlace | null, b: BoardPlace | null) =>
  a === b || (a !== null && b !== null && a.status === b.status && a.index === b.index && a.of === b.of);

/**
 * The drag's place, held outside React: the drop and the announcements read it, and each column
 * listens for its own line. The board itself never renders during a drag, since rendering it renders
 * dnd-kit's whole context again (a lift of a 500-card column stayed over a frame with that).
 */
type PlaceStore = StoreApi<{ place: BoardPlace | null }>;

const createPlaceStore = (): PlaceStore => createStore(() => ({ place: null as BoardPlace | null }));

/** Moves the drag to `next`; the columns hear of it only when it is another place. */
function movePlace(store: PlaceStore, next: BoardPlace | null): void {
  if (!samePlace(store.getState().place, next)) store.setState({ place: next });
}

/** Each card by the key dnd-kit knows it by, with where it sits now. */
type CardIndex = ReadonlyMap<string, { item: LocalItem; place: BoardPlace }>;

/**
 * The board's cards by key, built once per read of the board: the lift, the drop and the lifted card
 * look a card up by key, and a search of a 500-card column each time was ~1 ms of the drop's frame.
 */
function indexCards(columns: BoardColumns): CardIndex {
  const index = new Map<string, { item: LocalItem; place: BoardPlace }>();
  for (const { status } of BOARD_COLUMNS) {
    const cards = columns[status];
    cards.forEach((item, i) => {
      index.set(rowKeyOf(item), { item, place: { status, index: i, gap: null, of: cards.length } });
    });
  }
  return index;
}

/** Where card `key` sits now, as a place. */
const placeOfCard = (cards: CardIndex, key: UniqueIdentifier) => cards.get(String(key))?.place ?? null;

/** The card dnd-kit knows as `key`, as it is now. */
const cardOf = (cards: CardIndex, key: UniqueIdentifier | null) =>
  key === null ? undefined : cards.get(String(key))?.item;

const placeText = (place: BoardPlace | null) =>
  place ? `${TITLE_OF[place.status]}, place ${place.index + 1} of ${place.of}` : 'outside the board';

/**
 * What a screen reader hears. A column is one drop target, so dnd-kit's 'over' changes only between
 * columns: each new place is said on the move that reaches it (`place` is the drag's latest).
 */
function boardAnnouncements(cards: CardIndex, store: PlaceStore): Announcements {
  const title = (id: UniqueIdentifier) => {
    const item = cardOf(cards, id);
    return item ? `“${item.title}”` : 'The card';
  };
  let said: BoardPlace | null = null;
  return {
    onDragStart: ({ active }) => {
      said = placeOfCard(cards, active.id);
      return `Picked up ${title(active.id)} in ${placeText(said)}.`;
    },
    onDragMove: ({ active }) => {
      const { place } = store.getState();
      if (samePlace(said, place)) return undefined;
      said = place;
      return `${title(active.id)} is over ${placeText(said)}.`;
    },
    onDragOver: () => undefined,
    // Said after the board let go of the place: the last one said is where it was dropped.
    onDragEnd: ({ active, over }) =>
      over && said && said.gap !== null
        ? `${title(active.id)} dropped in ${placeText(said)}.`
        : `${title(active.id)} put back where it was.`,
    onDragCancel: ({ active }) =>
      `Move cancelled. ${title(active.id)} is back in ${placeText(placeOfCard(cards, active.id))}.`,
  };
}

/** The lifted card's own compositor layer (see its DragOverlay). */
const LIFTED_LAYER = { willChange: 'transform' } as const;

/**
 * A rectangle as dnd-kit keeps it. Its default measure also reads each node's computed transform to
 * undo it, and no card, column or overlay on the board is transformed but by dnd-kit: each measure at
 * the lift (the card, the columns, the overlay) was a style read more in the frame the drag starts.
 */
function boxOf(node: HTMLElement): ClientRect {
  const { top, left, width, height, bottom, right } = node.getBoundingClientRect();
  return { top, left, width, height, bottom, right };
}

const MEASURING = {
  draggable: { measure: boxOf },
  droppable: { measure: boxOf },
  dragOverlay: { measure: boxOf },
} satisfies MeasuringConfiguration;

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
  const store = useMemo(createPlaceStore, []);
  const lists = useRef(new Map<ItemStatus, HTMLElement>());
  const setList = useCallback((status: ItemStatus, el: HTMLElement | null) => {
    if (el) lists.current.set(status, el);
    else lists.current.delete(status);
  }, []);

  /** The place in column `status` of a card whose top edge is at `top` (viewport pixels). */
  const placeAt = useCallback(
    (status: ItemStatus, top: number, key: UniqueIdentifier): BoardPlace => {
      const cards = columns[status];
      const list = lists.current.get(status);
      const offset = list && cards.length > 0 ? top - list.getBoundingClientRect().top : 0;
      const from = cards.findIndex((c) => rowKeyOf(c) === String(key));
      return { status, ...placeInColumn(offset, cards.length, from < 0 ? null : from) };
    },
    [columns],
  );

  // Arrows: up and down a card's height, left and right to the next column at the same height.
  const coordinateGetter = useCallback<KeyboardCoordinateGetter>(
    (event, { context, currentCoordinates }) => {
      const { collisionRect, droppableRects, droppableContainers, active } = context;
      const vertical = event.code === 'ArrowDown' ? 1 : event.code === 'ArrowUp' ? -1 : 0;
      const sideways = event.code === 'ArrowRight' ? 1 : event.code === 'ArrowLeft' ? -1 : 0;
      if (!collisionRect || !active || (vertical === 0 && sideways === 0)) return undefined;
      event.preventDefault();
      const enabled = droppableContainers.getEnabled();
      const here = columnAt(collisionRect.left + collisionRect.width / 2, enabled, droppableRects);
      if (here === null) return undefined;
      if (vertical !== 0) {
        // No further than the column's ends, so the way back is as many presses as the way there.
        const now = placeAt(statusOfColumn(here), collisionRect.top, active.id);
        const next = now.index + vertical;
        if (next < 0 || next >= now.of) return undefined;
        return { x: currentCoordinates.x, y: currentCoordinates.y + vertical * CARD_PITCH };
      }
      const columnIds = BOARD_COLUMNS.map(({ status }) => COLUMN_ID(status));
      const next = columnIds[columnIds.indexOf(String(here)) + sideways];
      const rect = next === undefined ? undefined : droppableRects.get(next);
      if (!rect) return undefined;
      return { x: rect.left + (rect.width - collisionRect.width) / 2, y: currentCoordinates.y };
    },
    [placeAt],
  );
  const sensors = useOrderSensors(coordinateGetter);
  const cards = useMemo(() => indexCards(columns), [columns]);
  const announcements = useMemo(() => boardAnnouncements(cards, store), [cards, store]);
  const board = useRef<HTMLElement>(null);
  /**
   * The card whose handle had focus at its drop: a card dropped in another column is drawn anew there,
   * and focus would fall to the page's body (issue 50); it goes to the card's handle once it is drawn,
   * as a list keeps it on the moved row. Not when focus went elsewhere in the meantime.
   */
  const refocus = useRef<{ key: string; status: ItemStatus } | null>(null);
  /** A task dropped on Done with open todos: asked first, as its page's Complete asks (issue 50). */
  const [asking, setAsking] = useState<{ item: LocalItem; target: BoardPlace; open: number } | null>(null);
  // biome-ignore lint/correctness/useExhaustiveDependencies: looks after each read of the board, where the moved card may be drawn
  useEffect(() => {
    const wanted = refocus.current;
    // While Done asks first the card has not moved yet; and a move that completes a task's todos first
    // redraws the board before the task arrives: only the card drawn in its new column takes focus.
    if (wanted === null || asking !== null) return;
    const column = board.current?.querySelector<HTMLElement>(`[data-column="${wanted.status}"]`);
    const card = [...(column?.querySelectorAll<HTMLElement>('[data-card-key]') ?? [])].find(
      (node) => node.dataset.cardKey === wanted.key,
    );
    const handle = card?.querySelector<HTMLElement>('[data-drag-handle]');
    if (!handle) return;
    // The card may land while the 'Complete N open items too?' dialog still holds focus on its way
    // out: wait for it to let go (a few frames), or the focus it hands back lands on the page's body.
    let frame = 0;
    let frames = 0;
    const place = () => {
      const active = document.activeElement;
      if (active?.closest('[role="alertdialog"]') && frames++ < 60) {
        frame = requestAnimationFrame(place);
        return;
      }
      refocus.current = null;
      if (!active || active === document.body || active === handle || !active.isConnected) handle.focus();
    };
    place();
    return () => cancelAnimationFrame(frame);
  }, [columns]);
  const moveToColumn = (item: LocalItem, target: BoardPlace, open = 0) =>
    void order.moveToStatus(
      columns[target.status],
      item,
      target.index,
      target.status,
      TITLE_OF[target.status],
      open,
    );

  if (items === undefined) return <ListLoading label="Loading board..." rows={3} />;
  if (items.length === 0)
    return <ListEmpty icon={<LayoutGrid aria-hidden />} title="No tasks or todos to put on the board yet." />;

  const onDragStart = () => {
    refocus.current = null;
    movePlace(store, null);
  };
  const onDragMove = ({ active: a, collisions }: DragMoveEvent) => {
    const over = collisions?.[0]?.id;
    const rect = a.rect.current.translated;
    const next = over === undefined || !rect ? null : placeAt(statusOfColumn(over), rect.top, a.id);
    // Only the columns whose line moves render again: the cards are not told.
    movePlace(store, next);
  };
  const onDragEnd = ({ active: a, over }: DragEndEvent) => {
    const item = cardOf(cards, a.id);
    const target = store.getState().place;
    movePlace(store, null);
    if (!item || !over || !target) return;
    const key = String(a.id);
    const focused = document.activeElement?.closest<HTMLElement>('[data-card-key]');
    if (focused?.dataset.cardKey === key) refocus.current = { key, status: target.status };
    if (target.status === item.status) {
      void order.move(columns[target.status], item, target.index);
      return;
    }
    // Completing a task completes its open todos: say so first (they are on this board, so counted here).
    const open =
      target.status === 'completed' && item.type === 'task'
        ? (items ?? []).filter((i) => i.parent_id === item.id && i.status !== 'completed').length
        : 0;
    if (open > 0) setAsking({ item, target, open });
    else moveToColumn(item, target);
  };
  const onDragCancel = () => movePlace(store, null);

  return (
    <DndContext
      sensors={sensors}
      collisionDetection={underCard}
      onDragStart={onDragStart}
      onDragMove={onDragMove}
      onDragEnd={onDragEnd}
      onDragCancel={onDragCancel}
      accessibility={{ announcements, screenReaderInstructions: INSTRUCTIONS }}
      measuring={MEASURING}
      autoScroll
    >
      <section
        ref={board}
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
            store={store}
            setList={setList}
          />
        ))}
      </section>
      {/* No drop animation: it measured the card's new place and scrolled to it, ~8 ms at the drop.
          A layer of its own: moving it is then the compositor's, where each move repainted the page
          under it (Paint and PrePaint were most of a move's frame in npm run bench -- board-drag). */}
      <DragOverlay dropAnimation={null} style={LIFTED_LAYER}>
        <LiftedCard cards={cards} />
      </DragOverlay>
      <ConfirmDialog
        open={asking !== null}
        onOpenChange={(open) => {
          if (!open) setAsking(null);
        }}
        title={asking ? `Complete ${asking.open} open ${asking.open === 1 ? 'item' : 'items'} too?` : ''}
        description={
          asking
            ? `Completing “${asking.item.title}” completes everything inside it. You can reopen it later.`
            : undefined
        }
        confirmLabel="Complete"
        onConfirm={() => {
          if (asking) moveToColumn(asking.item, asking.target, asking.open);
        }}
      />
    </DndContext>
  );
}

// Memoised, as the cards are: a column renders again only when its cards or its line change.
const BoardColumn = memo(function BoardColumn({
  status,
  title,
  cards,
  readOnly,
  store,
  setList,
}: {
  status: ItemStatus;
  title: string;
  cards: LocalItem[];
  readOnly: boolean;
  store: PlaceStore;
  setList: (status: ItemStatus, el: HTMLElement | null) => void;
}) {
  // Where the lifted card would go in (a line before that card), or null.
  const gap = useStore(store, ({ place }) => (place?.status === status ? place.gap : null));
  const windowed = cards.length > WINDOW_FROM;
  const { containerRef, start, end } = useWindowedList({
    count: windowed ? cards.length : 0,
    rowHeight: CARD_PITCH,
    overscan: 1,
  });
  const listRef = useCallback(
    (el: HTMLDivElement | null) => {
      containerRef.current = el;
      setList(status, el);
    },
    [containerRef, setList, status],
  );
  // Whole runs of cards (RUN): the rendered cards change only when the view leaves a run.
  const from = windowed ? Math.floor(start / RUN) * RUN : 0;
  const to = windowed ? Math.min(cards.length, Math.ceil(end / RUN) * RUN) : cards.length;
  const headingId = `board-${status}`;
  const options = useAssigneeOptions();
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
      {cards.length === 0 ? (
        // The whole column is the drop target (useDroppable above); the dashed box shows where.
        <p
          data-empty-column={status}
          className="m-0 flex min-h-16 items-center justify-center rounded-lg border border-dashed border-zinc-300 px-3 py-2 text-center text-sm text-zinc-600 group-data-[over=true]/column:border-indigo-400 group-data-[over=true]/column:text-zinc-800 dark:border-zinc-700 dark:text-zinc-400 dark:group-data-[over=true]/column:border-indigo-500 dark:group-data-[over=true]/column:text-zinc-200"
        >
          {readOnly ? EMPTY_TEXT[status].empty : `${EMPTY_TEXT[status].empty} ${EMPTY_TEXT[status].drop}`}
        </p>
      ) : (
        // Every card is CARD_PITCH tall, so the list is as tall as all of them, rendered or not, and the
        // rendered ones are moved down to where they sit.
        <div ref={listRef} className="relative" style={{ height: cards.length * CARD_PITCH - 8 }}>
          <ul
            aria-labelledby={headingId}
            className="absolute inset-x-0 top-0 m-0 p-0"
            style={from > 0 ? { transform: `translateY(${from * CARD_PITCH}px)` } : undefined}
          >
            {cards.slice(from, to).map((card) => (
              <BoardCard
                key={rowKeyOf(card)}
                item={card}
                assignee={assigneeName(card.assigned_to, options, card.assignedUser)}
                readOnly={readOnly}
              />
            ))}
          </ul>
          {gap === null ? null : (
            // Above the lifted card (DragOverlay's z-index is 999), which is often right over the place.
            <div
              aria-hidden
              data-drop-line
              className="pointer-events-none absolute inset-x-1 top-0 z-[1000] h-1 rounded-full bg-indigo-500 will-change-transform dark:bg-indigo-400"
              style={{ transform: `translateY(${gap * CARD_PITCH - 6}px)` }}
            />
          )}
        </div>
      )}
    </ColumnDrop>
  );
});

/** The lifted card as it is now (its id may change under the drag), drawn under the pointer. */
function LiftedCard({ cards }: { cards: CardIndex }) {
  const { active } = useDndContext();
  const card = cardOf(cards, active?.id ?? null);
  const options = useAssigneeOptions();
  return card ? (
    <CardBody item={card} assignee={assigneeName(card.assigned_to, options, card.assignedUser)} lifted />
  ) : null;
}

/** The column as the drop target, outlined while a card is over it. */
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

/** What a card shows of its item: a card whose item differs in nothing else renders nothing new. */
const sameFace = (a: LocalItem, b: LocalItem) =>
  a === b ||
  (a.id === b.id &&
    rowKeyOf(a) === rowKeyOf(b) &&
    a.title === b.title &&
    a.type === b.type &&
    a.status === b.status &&
    a.due_date === b.due_date &&
    a.priority === b.priority &&
    (a.labels ?? []).join('\n') === (b.labels ?? []).join('\n') &&
    a.parent?.type === b.parent?.type &&
    a.parent?.title === b.parent?.title);

type CardProps = { item: LocalItem; assignee: string | null; readOnly: boolean };

/**
 * One card in its place, exactly CARD_PITCH tall with its gap. Every card renders again when a drag
 * starts or ends (dnd-kit's context changes), so only its wrapper does: the face is memoised on props
 * that stay the same through a drag. After a drop the board reads its items again, every one a new
 * object: a card renders again only when what it shows changed (sameFace), so the drop renders the
 * moved card, not the column's.
 */
const BoardCard = memo(
  function BoardCard({ item, assignee, readOnly }: CardProps) {
    const { attributes, listeners, setNodeRef, setActivatorNodeRef, isDragging } = useDraggable({
      id: rowKeyOf(item),
      disabled: readOnly,
    });
    return (
      <li
        ref={setNodeRef}
        data-card-id={item.id}
        data-card-key={rowKeyOf(item)}
        className={cn('h-16 list-none pb-2', isDragging && 'opacity-40')}
      >
        <CardFace
          item={item}
          assignee={assignee}
          readOnly={readOnly}
          attributes={attributes}
          listeners={listeners}
          activatorRef={setActivatorNodeRef}
        />
      </li>
    );
  },
  (a: CardProps, b: CardProps) =>
    a.readOnly === b.readOnly && a.assignee === b.assignee && sameFace(a.item, b.item),
);

type Draggable = ReturnType<typeof useDraggable>;

const CardFace = memo(function CardFace({
  item,
  assignee,
  readOnly,
  attributes,
  listeners,
  activatorRef,
}: {
  item: LocalItem;
  assignee: string | null;
  readOnly: boolean;
  attributes: Draggable['attributes'];
  listeners: Draggable['listeners'];
  activatorRef: Draggable['setActivatorNodeRef'];
}) {
  return (
    <CardBody
      item={item}
      assignee={assignee}
      className="h-full"
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

/**
 * A card's face: its title (a link to its page, a todo's too, struck through when done), then its type,
 * priority flag, assignee, due day and labels, as a list row shows them (issue 50), on one line that
 * gives way from the end.
 */
function CardBody({
  item,
  assignee,
  handle,
  lifted = false,
  className,
}: {
  item: LocalItem;
  assignee: string | null;
  handle?: React.ReactNode;
  lifted?: boolean;
  className?: string;
}) {
  const due = formatDay(item.due_date);
  const done = item.status === 'completed';
  const flag = item.priority ? PRIORITY_TEXT[item.priority] : undefined;
  const labels = item.labels ?? [];
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
          <Link
            to={itemPageHref(item)}
            className={cn(
              'truncate rounded-sm font-medium hover:underline',
              done
                ? 'text-zinc-500 line-through decoration-zinc-400 dark:text-zinc-400'
                : 'text-zinc-900 dark:text-zinc-100',
              focusRing,
            )}
          >
            {item.title}
          </Link>
        </span>
        <span className="flex min-w-0 items-center gap-2 overflow-hidden pl-4 text-xs whitespace-nowrap text-zinc-600 dark:text-zinc-400">
          <span className="shrink-0">{TYPE_LABEL[item.type]}</span>
          {flag ? (
            <span className={cn('inline-flex shrink-0 items-center gap-0.5 font-medium', flag)}>
              <Flag className="size-3" aria-hidden />
              <span className="sr-only">Priority </span>p{item.priority}
            </span>
          ) : null}
          {assignee ? <AssigneeTag name={assignee} /> : null}
          {item.parent?.type === 'task' ? (
            <span className="min-w-0 shrink truncate">in {item.parent.title}</span>
          ) : null}
          {due ? <span className="shrink-0">Due {due}</span> : null}
          {labels.length > 0 ? (
            <span className="inline-flex min-w-0 shrink items-center gap-1 overflow-hidden">
              <span className="sr-only">Labels:</span>
              {labels.map((label) => (
                <span
                  key={label}
                  className="shrink-0 rounded bg-zinc-100 px-1.5 leading-4 text-zinc-600 dark:bg-zinc-800 dark:text-zinc-300"
                >
                  {label}
                </span>
              ))}
            </span>
          ) : null}
        </span>
      </div>
    </div>
  );
}
