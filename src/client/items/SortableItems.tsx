import {
  type Announcements,
  type Collision,
  type CollisionDetection,
  closestCenter,
  DndContext,
  type DragEndEvent,
  type KeyboardCoordinateGetter,
  KeyboardSensor,
  MouseSensor,
  type ScreenReaderInstructions,
  TouchSensor,
  type UniqueIdentifier,
  useDndMonitor,
  useDroppable,
  useSensor,
  useSensors,
} from '@dnd-kit/core';
import {
  SortableContext,
  sortableKeyboardCoordinates,
  useSortable,
  verticalListSortingStrategy,
} from '@dnd-kit/sortable';
import { CSS } from '@dnd-kit/utilities';
import { CornerDownRight, GripVertical } from 'lucide-react';
import { type ReactNode, useMemo, useRef, useState } from 'react';
import type { ItemType } from '../../shared/item';
import { canDropInto } from '../../shared/order';
import { cn, focusRing } from '../components/ui/cn';
import { useOrderMutations } from './orderMutations';
import { rowKeyOf } from './rowKey';

/**
 * Manual order by drag and drop (ARCHITECTURE §5 'Order'), over @dnd-kit: each row has a handle a
 * pointer or a finger drags (the page scrolls near the edges), and the keyboard lifts with Space,
 * moves with the arrows, drops with Space and cancels with Escape. Screen readers hear each step in
 * plain words with the row's title. The list says where a row went (`onMove`); the write is the page's.
 *
 * A row dropped onto the middle of a row that can hold it (a todo onto a task, SYNC.md O7) goes into
 * that item instead (`into`): the row lights up while the drag is over it, and with the keyboard → over
 * it says 'into' (← or another arrow takes that back).
 *
 * dnd-kit knows each row by its uuid (`sortKeyOf`), not its id: a row created on the device has a
 * temporary id until the server answers its create, and the swap (tempIds.ts) may land mid-drag. A row
 * keyed by id would remount under the drag, and dnd-kit would drop the drag and the focus with it. The
 * ids the callbacks get are the rows' ids as they are at that moment.
 */

export interface SortableRow {
  id: number;
  /** Stable for the row's life (its id is not): what React and dnd-kit know it by. */
  uuid?: string | null;
  title: string;
}

/** What React keys a row by and dnd-kit knows it as (rowKey.ts: its uuid, which outlives its id). */
const sortKeyOf = rowKeyOf;

/** The row dnd-kit knows as `key`, among `rows` as they are now. */
const rowByKey = <T extends SortableRow>(rows: readonly T[], key: UniqueIdentifier): T | undefined =>
  rows.find((r) => sortKeyOf(r) === String(key));

const INSTRUCTIONS: ScreenReaderInstructions = {
  draggable:
    'To move this item, press Space. Use the up and down arrow keys to choose its new place, Space again to drop it there, or Escape to cancel.',
};

const INTO_INSTRUCTIONS: ScreenReaderInstructions = {
  draggable:
    'To move this item, press Space. Use the up and down arrow keys to choose its new place, the right arrow over a task or campaign to move it into that item, Space again to drop it there, or Escape to cancel.',
};

/** Dropping rows into other rows (SYNC.md O7): which may go where, and the move. */
export interface IntoRule {
  /** Whether row `id` dropped onto row `target` goes into it (ids as the rows have them now). */
  accepts: (id: number, target: number) => boolean;
  onMoveInto: (id: number, target: number) => void;
}

/** Each row that can hold others has a second drop zone, its middle, under this id. */
const INTO = 'into:';
const intoId = (key: string) => `${INTO}${key}`;
/** The row (its sortKeyOf) a drop zone id puts things into; null for a place between rows. */
export function intoTargetOf(id: UniqueIdentifier | null | undefined): string | null {
  return typeof id === 'string' && id.startsWith(INTO) ? id.slice(INTO.length) : null;
}

/** A pointer within the middle half of a row's height goes into it; nearer an edge, beside it. */
const INTO_BAND = 0.25;
/** How far a row lifted by keyboard moves right when → puts it into the row under it. */
const INDENT = 24;

/**
 * What a drop at place `toIndex` would change besides the place ('now p2' on Today), said with the
 * place; null when nothing else changes.
 */
export type DropNote = (id: number, toIndex: number) => string | null;

/** The announcements of a drag in plain words: '“Hotel” moved to 2 of 5.' */
export function orderAnnouncements(rows: readonly SortableRow[], note?: DropNote): Announcements {
  const title = (key: UniqueIdentifier) => {
    const row = rowByKey(rows, key);
    return row ? `“${row.title}”` : 'The item';
  };
  const place = (key: UniqueIdentifier | undefined) => {
    const at = rows.findIndex((r) => sortKeyOf(r) === String(key));
    return `${at + 1} of ${rows.length}`;
  };
  const noted = (active: UniqueIdentifier, over: UniqueIdentifier, words: (note: string) => string) => {
    const row = rowByKey(rows, active);
    const said =
      row &&
      note?.(
        row.id,
        rows.findIndex((r) => sortKeyOf(r) === String(over)),
      );
    return said ? words(said) : '';
  };
  return {
    onDragStart: ({ active }) => `Picked up ${title(active.id)}, at ${place(active.id)}.`,
    onDragOver: ({ active, over }) => {
      const into = intoTargetOf(over?.id);
      if (into !== null) return `Move into ${title(into)}: drop to put ${title(active.id)} there.`;
      return over
        ? `${title(active.id)} is over place ${place(over.id)}${noted(active.id, over.id, (n) => `, and would be ${n}`)}.`
        : `${title(active.id)} is outside the list.`;
    },
    onDragEnd: ({ active, over }) => {
      const into = intoTargetOf(over?.id);
      if (into !== null) return `${title(active.id)} moved into ${title(into)}.`;
      return over
        ? `${title(active.id)} dropped at ${place(over.id)}${noted(active.id, over.id, (n) => `, now ${n}`)}.`
        : `${title(active.id)} put back where it was.`;
    },
    onDragCancel: ({ active }) => `Move cancelled. ${title(active.id)} is back at ${place(active.id)}.`,
  };
}

/** The sensors every manual-order surface uses: mouse, touch (a short press first) and keyboard. */
export function useOrderSensors(coordinateGetter: KeyboardCoordinateGetter = sortableKeyboardCoordinates) {
  return useSensors(
    useSensor(MouseSensor, { activationConstraint: { distance: 4 } }),
    useSensor(TouchSensor, { activationConstraint: { delay: 120, tolerance: 6 } }),
    useSensor(KeyboardSensor, { coordinateGetter }),
  );
}

type DroppableContainers = Parameters<KeyboardCoordinateGetter>[1]['context']['droppableContainers'];

/** The list's places only, without the rows' middles: the arrows step from place to place. */
function placesOnly(containers: DroppableContainers): DroppableContainers {
  // Only what sortableKeyboardCoordinates reads: a Map's own methods need the Map itself as `this`.
  return {
    getEnabled: () => containers.getEnabled().filter((c) => intoTargetOf(c.id) === null),
    get: (id: UniqueIdentifier | null | undefined) => containers.get(id),
  } as unknown as DroppableContainers;
}

/**
 * The drop-into parts of a list (SYNC.md O7): which zone is under the pointer (a row's middle when that
 * row takes the dragged one, else the nearest place), and the keyboard's → and ←. `keyboardInto` is the
 * row a keyboard drag was put into, until the next arrow.
 */
function useInto(rule: IntoRule | undefined, rows: readonly SortableRow[]) {
  const ruleRef = useRef(rule);
  ruleRef.current = rule;
  const rowsRef = useRef(rows);
  rowsRef.current = rows;
  const keyboardInto = useRef<string | null>(null);
  return useMemo(() => {
    /** Whether the row known as `key` may go into the one known as `target`, by their ids now. */
    const takes = (key: UniqueIdentifier, target: string) => {
      const accepts = ruleRef.current?.accepts;
      const row = rowByKey(rowsRef.current, key);
      const into = rowByKey(rowsRef.current, target);
      return Boolean(accepts && row && into && accepts(row.id, into.id));
    };
    const collisionDetection: CollisionDetection = (args) => {
      const { active, pointerCoordinates, droppableRects, droppableContainers } = args;
      const places = droppableContainers.filter((c) => intoTargetOf(c.id) === null);
      if (!ruleRef.current) return closestCenter({ ...args, droppableContainers: places });
      const zone = (target: string): Collision[] | null => {
        const container = droppableContainers.find((c) => c.id === intoId(target));
        return container && takes(active.id, target)
          ? [{ id: container.id, data: { droppableContainer: container, value: 0 } }]
          : null;
      };
      if (pointerCoordinates) {
        const { x, y } = pointerCoordinates;
        for (const container of droppableContainers) {
          const target = intoTargetOf(container.id);
          const rect = droppableRects.get(container.id);
          if (target === null || !rect) continue;
          // The handle sits left of the row's middle zone: a pointer dragging by it counts as on the row.
          const across = x >= rect.left - 2 * INDENT && x <= rect.right;
          const band = rect.height * INTO_BAND;
          if (across && y >= rect.top + band && y <= rect.bottom - band) {
            const hit = zone(target);
            if (hit) return hit;
          }
        }
      } else if (keyboardInto.current !== null) {
        const hit = zone(keyboardInto.current);
        if (hit) return hit;
      }
      return closestCenter({ ...args, droppableContainers: places });
    };
    const coordinateGetter: KeyboardCoordinateGetter = (event, args) => {
      const { context, currentCoordinates } = args;
      const wasInto = keyboardInto.current;
      if (event.code === 'ArrowRight' || event.code === 'ArrowLeft') event.preventDefault();
      if (event.code === 'ArrowRight') {
        const over = context.over?.id;
        const active = context.active?.id;
        if (over == null || active == null || wasInto !== null) return undefined;
        if (!takes(active, String(over))) return undefined;
        keyboardInto.current = String(over);
        return { x: currentCoordinates.x + INDENT, y: currentCoordinates.y };
      }
      keyboardInto.current = null;
      if (event.code === 'ArrowLeft')
        return wasInto === null ? undefined : { x: currentCoordinates.x - INDENT, y: currentCoordinates.y };
      return sortableKeyboardCoordinates(event, {
        ...args,
        context: { ...context, droppableContainers: placesOnly(context.droppableContainers) },
      });
    };
    const reset = () => {
      keyboardInto.current = null;
    };
    return { collisionDetection, coordinateGetter, reset, takes };
  }, []);
}

export interface SortableItemsProps {
  rows: readonly SortableRow[];
  /** The row `id` dropped so that it takes place `toIndex` of the list (as arrayMove counts). */
  onMove: (id: number, toIndex: number) => void;
  /** What a drop would change besides the place, for the announcements. */
  note?: DropNote;
  /** Rows dropped onto other rows go into them (SYNC.md O7); their SortableLi say `holds`. */
  into?: IntoRule;
  children: ReactNode;
}

/** A vertical list whose rows (SortableLi) are reordered by drag and drop. */
export function SortableItems({ rows, onMove, note, into, children }: SortableItemsProps) {
  const { collisionDetection, coordinateGetter, reset, takes } = useInto(into, rows);
  const sensors = useOrderSensors(coordinateGetter);
  const keys = useMemo(() => rows.map(sortKeyOf), [rows]);
  const announcements = useMemo(() => orderAnnouncements(rows, note), [rows, note]);
  const onDragEnd = ({ active, over }: DragEndEvent) => {
    reset();
    if (!over || active.id === over.id) return;
    // The row's id as it is now: the server may have answered its create during the drag.
    const row = rowByKey(rows, active.id);
    if (!row) return;
    const target = intoTargetOf(over.id);
    if (target !== null) {
      const holder = rowByKey(rows, target);
      if (into && holder && takes(active.id, target)) into.onMoveInto(row.id, holder.id);
      return;
    }
    const to = keys.indexOf(String(over.id));
    if (to >= 0) onMove(row.id, to);
  };
  return (
    <DndContext
      sensors={sensors}
      collisionDetection={collisionDetection}
      onDragStart={reset}
      onDragEnd={onDragEnd}
      onDragCancel={reset}
      accessibility={{ announcements, screenReaderInstructions: into ? INTO_INSTRUCTIONS : INSTRUCTIONS }}
      autoScroll
    >
      <SortableContext items={keys} strategy={verticalListSortingStrategy}>
        {children}
      </SortableContext>
    </DndContext>
  );
}

/** One row of a SortableItems list: the handle, then the row. */
export function SortableLi({
  sortKey,
  title,
  index,
  disabled = false,
  holds = false,
  children,
}: {
  /** The row's sortKeyOf. */
  sortKey: string;
  title: string;
  index: number;
  /** A row this user may not move (a viewer's): no handle, and others pass it by. */
  disabled?: boolean;
  /** A row others may be dropped into (a task, a campaign): its middle is a drop zone (O7). */
  holds?: boolean;
  children: ReactNode;
}) {
  const { attributes, listeners, setNodeRef, setActivatorNodeRef, transform, transition, isDragging } =
    useSortable({ id: sortKey, disabled });
  const zone = useDroppable({ id: intoId(sortKey), disabled: !holds });
  const dropInto = zone.isOver;
  const carried = useCarried(isDragging);
  return (
    <li
      ref={setNodeRef}
      data-index={index}
      data-dragging={isDragging ? 'true' : undefined}
      data-drop-into={dropInto ? 'true' : undefined}
      className={cn(
        'relative flex list-none items-stretch bg-white dark:bg-zinc-900',
        isDragging && 'z-10 shadow-lg ring-2 ring-indigo-500/60',
        carried && 'opacity-95',
      )}
      style={{
        transform: CSS.Translate.toString(carried ?? transform),
        transition: carried ? undefined : transition,
      }}
    >
      {disabled ? (
        <span className="w-8 shrink-0 border-b border-zinc-100 dark:border-zinc-800" aria-hidden />
      ) : (
        <DragHandle title={title} ref={setActivatorNodeRef} {...attributes} {...listeners} />
      )}
      <div ref={zone.setNodeRef} className="min-w-0 flex-1 [&>div]:border-l-0">
        {children}
      </div>
      {dropInto ? (
        // Over the row's own background: the row it goes into lights up, tinted and outlined.
        <span
          aria-hidden
          className="pointer-events-none absolute inset-0 bg-indigo-500/10 outline-2 outline-indigo-500 -outline-offset-2 dark:bg-indigo-400/15 dark:outline-indigo-400"
        />
      ) : null}
      {carried ? (
        // In from the right as far as the row is nested (NEST.x): the list's card clips what passes it.
        <span
          aria-hidden
          className="pointer-events-none absolute top-1/2 right-11 inline-flex -translate-y-1/2 items-center gap-1 rounded-full bg-indigo-600 px-2 py-0.5 text-xs font-medium text-white shadow-sm dark:bg-indigo-500"
        >
          <CornerDownRight className="size-3.5" aria-hidden />
          Move into
        </span>
      ) : null}
    </li>
  );
}

/**
 * Where the dragged row lies nested below the row it would go into, in from the left and down half
 * way, so that row’s title stays in sight.
 */
const NEST = { x: 32, y: 28 };

/**
 * Where the dragged row is carried while over another row's middle: dnd-kit's sortable moves the
 * dragged row only while it is over a place (a drop into a row is none), so the drag's own offset
 * (nested, NEST) keeps it by the pointer. Null otherwise, and for every other row.
 */
const nested = (delta: { x: number; y: number }) => ({
  x: delta.x + NEST.x,
  y: delta.y + NEST.y,
  scaleX: 1,
  scaleY: 1,
});

function useCarried(isDragging: boolean) {
  const [carried, setCarried] = useState<{ x: number; y: number; scaleX: number; scaleY: number } | null>(
    null,
  );
  const dragging = useRef(isDragging);
  dragging.current = isDragging;
  useDndMonitor({
    onDragMove: ({ delta, over }) => {
      if (!dragging.current) return;
      const into = intoTargetOf(over?.id) !== null;
      setCarried((was) => (into ? nested(delta) : was === null ? was : null));
    },
    onDragOver: ({ delta, over }) => {
      if (!dragging.current) return;
      setCarried(intoTargetOf(over?.id) !== null ? nested(delta) : null);
    },
    onDragEnd: () => setCarried(null),
    onDragCancel: () => setCarried(null),
  });
  return isDragging ? carried : null;
}

/**
 * The rows of an ItemList in manual order (loaded with the first list that can be reordered, so the
 * drag and drop code stays off the first screen): `children` lays out the sortable rows it is given.
 */
export default function SortableRows<T extends SortableRow>({
  all,
  visible,
  start,
  onMove,
  note,
  fixed,
  renderRow,
  children,
}: {
  /** Every row of the list, in order (the ids the drop counts places in). */
  all: readonly T[];
  /** The rows rendered now (a windowed list renders some), the first at place `start`. */
  visible: readonly T[];
  start: number;
  onMove: (id: number, toIndex: number) => void;
  note?: DropNote;
  /** Rows this user may not move. */
  fixed?: (item: T) => boolean;
  renderRow: (item: T) => ReactNode;
  children: (rows: ReactNode[]) => ReactNode;
}) {
  const into = useIntoRows(all, fixed);
  return (
    <SortableItems rows={all} onMove={onMove} note={note} into={into}>
      {children(
        visible.map((item, i) => (
          <SortableLi
            key={sortKeyOf(item)}
            sortKey={sortKeyOf(item)}
            title={item.title}
            index={start + i}
            disabled={fixed?.(item) ?? false}
            holds={into !== undefined && holdsAny(item, fixed)}
          >
            {renderRow(item)}
          </SortableLi>
        )),
      )}
    </SortableItems>
  );
}

/** A row as the drop-into rule reads it: its kind and parent (ItemList's and Today's rows have them). */
type KindRow = SortableRow & { type?: ItemType; parent_id?: number | null };

const asDropRow = <T extends KindRow>(row: T, fixed?: (item: T) => boolean) =>
  row.type === undefined
    ? null
    : { id: row.id, type: row.type, parent_id: row.parent_id ?? null, locked: fixed?.(row) ?? false };

/** Whether some row could go into `row` (a task takes todos; a campaign, tasks and todos). */
function holdsAny<T extends KindRow>(row: T, fixed?: (item: T) => boolean): boolean {
  const target = asDropRow(row, fixed);
  return target !== null && canDropInto({ id: 0, type: 'todo', parent_id: null }, target);
}

/**
 * The drop-into rule of a list of item rows (SYNC.md O7): a row goes into another the hierarchy lets
 * it under, in one write of its parent with an undoable toast. None for rows without a kind.
 */
function useIntoRows<T extends KindRow>(
  all: readonly T[],
  fixed?: (item: T) => boolean,
): IntoRule | undefined {
  const order = useOrderMutations();
  const latest = useRef({ all, fixed });
  latest.current = { all, fixed };
  const kinded = all.length > 0 && all.every((r) => r.type !== undefined);
  return useMemo(() => {
    if (!kinded) return undefined;
    const rowOf = (id: number) => {
      const { all: rows, fixed: isFixed } = latest.current;
      const row = rows.find((r) => r.id === id);
      return row ? { row, drop: asDropRow(row, isFixed) } : null;
    };
    return {
      accepts: (id, target) => {
        const item = rowOf(id)?.drop;
        const into = rowOf(target)?.drop;
        return Boolean(item && into && canDropInto(item, into));
      },
      onMoveInto: (id, target) => {
        const item = rowOf(id)?.row;
        const into = rowOf(target)?.row;
        if (item?.type && into) void order.moveInto({ ...item, type: item.type }, into);
      },
    };
  }, [kinded, order]);
}

type HandleProps = React.ComponentPropsWithRef<'button'> & { title: string };

/** The grip a row is dragged by; a button, so Tab reaches it and Space lifts the row. */
export function DragHandle({ title, className, ref, ...rest }: HandleProps) {
  return (
    <button
      type="button"
      ref={ref}
      {...rest}
      aria-label={`Move “${title}”`}
      aria-roledescription="sortable"
      data-drag-handle
      className={cn(
        'flex w-8 shrink-0 cursor-grab touch-none items-center justify-center border-b border-zinc-100 text-zinc-400 hover:text-zinc-700 active:cursor-grabbing dark:border-zinc-800 dark:text-zinc-500 dark:hover:text-zinc-200',
        focusRing,
        className,
      )}
    >
      <GripVertical className="size-4" aria-hidden />
    </button>
  );
}
