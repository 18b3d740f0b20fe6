import {
  type Announcements,
  closestCenter,
  DndContext,
  type DragEndEvent,
  KeyboardSensor,
  MouseSensor,
  type ScreenReaderInstructions,
  TouchSensor,
  type UniqueIdentifier,
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
import { GripVertical } from 'lucide-react';
import { type ReactNode, useMemo } from 'react';
import { cn, focusRing } from '../components/ui/cn';

/**
 * Manual order by drag and drop (ARCHITECTURE §5 'Order'), over @dnd-kit: each row has a handle a
 * pointer or a finger drags (the page scrolls near the edges), and the keyboard lifts with Space,
 * moves with the arrows, drops with Space and cancels with Escape. Screen readers hear each step in
 * plain words with the row's title. The list says where a row went (`onMove`); the write is the page's.
 */

export interface SortableRow {
  id: number;
  title: string;
}

const INSTRUCTIONS: ScreenReaderInstructions = {
  draggable:
    'To move this item, press Space. Use the up and down arrow keys to choose its new place, Space again to drop it there, or Escape to cancel.',
};

/**
 * What a drop at place `toIndex` would change besides the place ('now p2' on Today), said with the
 * place; null when nothing else changes.
 */
export type DropNote = (id: number, toIndex: number) => string | null;

/** The announcements of a drag in plain words: '“Hotel” moved to 2 of 5.' */
export function orderAnnouncements(rows: readonly SortableRow[], note?: DropNote): Announcements {
  const title = (id: UniqueIdentifier) => {
    const row = rows.find((r) => r.id === Number(id));
    return row ? `“${row.title}”` : 'The item';
  };
  const place = (id: UniqueIdentifier | undefined) => {
    const at = rows.findIndex((r) => r.id === Number(id));
    return `${at + 1} of ${rows.length}`;
  };
  const noted = (active: UniqueIdentifier, over: UniqueIdentifier, words: (note: string) => string) => {
    const said = note?.(
      Number(active),
      rows.findIndex((r) => r.id === Number(over)),
    );
    return said ? words(said) : '';
  };
  return {
    onDragStart: ({ active }) => `Picked up ${title(active.id)}, at ${place(active.id)}.`,
    onDragOver: ({ active, over }) =>
      over
        ? `${title(active.id)} is over place ${place(over.id)}${noted(active.id, over.id, (n) => `, and would be ${n}`)}.`
        : `${title(active.id)} is outside the list.`,
    onDragEnd: ({ active, over }) =>
      over
        ? `${title(active.id)} dropped at ${place(over.id)}${noted(active.id, over.id, (n) => `, now ${n}`)}.`
        : `${title(active.id)} put back where it was.`,
    onDragCancel: ({ active }) => `Move cancelled. ${title(active.id)} is back at ${place(active.id)}.`,
  };
}

/** The sensors every manual-order surface uses: mouse, touch (a short press first) and keyboard. */
export function useOrderSensors() {
  return useSensors(
    useSensor(MouseSensor, { activationConstraint: { distance: 4 } }),
    useSensor(TouchSensor, { activationConstraint: { delay: 120, tolerance: 6 } }),
    useSensor(KeyboardSensor, { coordinateGetter: sortableKeyboardCoordinates }),
  );
}

export interface SortableItemsProps {
  rows: readonly SortableRow[];
  /** The row `id` dropped so that it takes place `toIndex` of the list (as arrayMove counts). */
  onMove: (id: number, toIndex: number) => void;
  /** What a drop would change besides the place, for the announcements. */
  note?: DropNote;
  children: ReactNode;
}

/** A vertical list whose rows (SortableLi) are reordered by drag and drop. */
export function SortableItems({ rows, onMove, note, children }: SortableItemsProps) {
  const sensors = useOrderSensors();
  const ids = useMemo(() => rows.map((r) => r.id), [rows]);
  const announcements = useMemo(() => orderAnnouncements(rows, note), [rows, note]);
  const onDragEnd = ({ active, over }: DragEndEvent) => {
    if (!over || active.id === over.id) return;
    const to = ids.indexOf(Number(over.id));
    if (to >= 0) onMove(Number(active.id), to);
  };
  return (
    <DndContext
      sensors={sensors}
      collisionDetection={closestCenter}
      onDragEnd={onDragEnd}
      accessibility={{ announcements, screenReaderInstructions: INSTRUCTIONS }}
      autoScroll
    >
      <SortableContext items={ids} strategy={verticalListSortingStrategy}>
        {children}
      </SortableContext>
    </DndContext>
  );
}

/** One row of a SortableItems list: the handle, then the row. */
export function SortableLi({
  id,
  title,
  index,
  disabled = false,
  children,
}: {
  id: number;
  title: string;
  index: number;
  /** A row this user may not move (a viewer's): no handle, and others pass it by. */
  disabled?: boolean;
  children: ReactNode;
}) {
  const { attributes, listeners, setNodeRef, setActivatorNodeRef, transform, transition, isDragging } =
    useSortable({ id, disabled });
  return (
    <li
      ref={setNodeRef}
      data-index={index}
      data-dragging={isDragging ? 'true' : undefined}
      className={cn(
        'relative flex list-none items-stretch bg-white dark:bg-zinc-900',
        isDragging && 'z-10 shadow-lg ring-2 ring-indigo-500/60',
      )}
      style={{ transform: CSS.Translate.toString(transform), transition }}
    >
      {disabled ? (
        <span className="w-8 shrink-0 border-b border-zinc-100 dark:border-zinc-800" aria-hidden />
      ) : (
        <DragHandle title={title} ref={setActivatorNodeRef} {...attributes} {...listeners} />
      )}
      <div className="min-w-0 flex-1 [&>div]:border-l-0">{children}</div>
    </li>
  );
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
  return (
    <SortableItems rows={all} onMove={onMove} note={note}>
      {children(
        visible.map((item, i) => (
          <SortableLi
            key={item.id}
            id={item.id}
            title={item.title}
            index={start + i}
            disabled={fixed?.(item) ?? false}
          >
            {renderRow(item)}
          </SortableLi>
        )),
      )}
    </SortableItems>
  );
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
