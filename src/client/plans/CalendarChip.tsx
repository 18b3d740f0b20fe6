import { useDraggable } from '@dnd-kit/core';
import { Repeat } from 'lucide-react';
import { type KeyboardEvent, memo } from 'react';
import type { Occurrence } from '../../shared/calendar';
import type { ItemType } from '../../shared/item';
import { cn, focusRing } from '../components/ui/cn';
import { TYPE_LABEL } from '../items/itemStyle';
import { spanWords } from './dateKeys';
import { BAR_TONE } from './planStyle';
import type { LocalItem } from './queries';

export interface ChipItem {
  id: number;
  type: ItemType;
  title: string;
}

interface ChipProps {
  occ: Occurrence<LocalItem>;
  /** The copy under the pointer while dragging. */
  overlay?: boolean;
  /** A list row rather than a bar in a grid. */
  wide?: boolean;
  /** Dates shown after the title (the list view's spans). */
  detail?: string;
  continuesBefore?: boolean;
  continuesAfter?: boolean;
  onKey?: (item: LocalItem, event: KeyboardEvent) => void;
  onOpen?: (item: ChipItem) => void;
  drag?: ReturnType<typeof useDraggable>;
}

/** What a screen reader hears for an appearance: its title, type, dates and whether it is a next occurrence. */
export function chipLabel(occ: Occurrence<LocalItem>): string {
  const dates = spanWords({ start_date: occ.start, due_date: occ.end });
  const next = occ.index > 0 ? ', next occurrence' : occ.item.recurrence ? ', repeats' : '';
  return `${occ.item.title}, ${TYPE_LABEL[occ.item.type].toLowerCase()}, ${dates}${next}`;
}

/**
 * One item on the calendar: a bar in its type's colour. The item's own dates take keys and drags; a
 * next occurrence only opens the item (it is where completing it would bring it, not a row to move).
 */
export const CalendarChip = memo(function CalendarChip({
  occ,
  overlay,
  wide,
  detail,
  continuesBefore,
  continuesAfter,
  onKey,
  onOpen,
  drag,
}: ChipProps) {
  const own = occ.index === 0;
  return (
    <button
      ref={drag?.setNodeRef}
      type="button"
      data-item-id={occ.item.id}
      data-own={own ? 'true' : 'false'}
      {...(drag ? drag.attributes : {})}
      {...(drag ? drag.listeners : {})}
      aria-label={chipLabel(occ)}
      onKeyDown={own && onKey ? (e) => onKey(occ.item, e) : undefined}
      onClick={onOpen ? () => onOpen(occ.item) : undefined}
      className={cn(
        'flex w-full min-w-0 items-center gap-1 border-l-2 px-1.5 text-left text-xs font-medium',
        wide ? 'h-9 rounded-md text-sm' : 'h-5 rounded',
        BAR_TONE[occ.item.type],
        continuesBefore && 'rounded-l-none border-l-0',
        continuesAfter && 'rounded-r-none',
        !own && 'border-dashed opacity-75',
        drag?.isDragging && 'opacity-40',
        overlay && 'w-40 cursor-grabbing shadow-lg',
        own && !overlay && 'cursor-grab touch-manipulation',
        focusRing,
        'focus-visible:ring-offset-1',
      )}
    >
      {occ.item.recurrence ? <Repeat className="size-3 shrink-0 opacity-70" aria-hidden /> : null}
      <span className="min-w-0 flex-1 truncate">{occ.item.title}</span>
      {detail ? <span className="shrink-0 text-xs font-normal opacity-80">{detail}</span> : null}
    </button>
  );
});

/** A chip the pointer or a finger can carry to another day (dnd-kit; the page handles the drop). */
export function DraggableChip(props: Omit<ChipProps, 'drag'> & { dragId: string }) {
  const { dragId, ...rest } = props;
  const drag = useDraggable({ id: dragId, data: { occ: rest.occ } });
  return <CalendarChip {...rest} drag={drag} />;
}
