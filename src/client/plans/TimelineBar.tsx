import { type KeyboardEvent, type PointerEvent, useLayoutEffect, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { addDays, daysBetween } from '../../shared/agenda';
import { daysForDx, spanOf, type TimelineAxis, xOfDay } from '../../shared/calendar';
import { cn, focusRing } from '../components/ui/cn';
import {
  askedDates,
  changeForKey,
  type PlannedChange,
  planEnd,
  planMove,
  planStart,
  spanWords,
} from './dateKeys';
import { BAR_TONE } from './planStyle';
import type { LocalItem } from './queries';

type Mode = 'move' | 'start' | 'end';

interface Drag {
  mode: Mode;
  x0: number;
  days: number;
  moved: boolean;
}

const BAR = 24;
const ROW = 36;

/**
 * One task on the timeline: a bar from its start to its due date, or a diamond on its due date when
 * it has no start. The pointer (mouse, pen or finger) drags it, or one of its ends, a whole day at a
 * time; while it moves only its own style changes (a transform and a width), so no frame re-renders
 * anything. The drop, an arrow key (a day), Shift+arrow (its end) or Alt+Shift+arrow (its start)
 * writes the new dates through `items.update`.
 */
export function TimelineBar({
  task,
  axis,
  readOnly,
  onChange,
}: {
  task: LocalItem;
  axis: TimelineAxis;
  readOnly: boolean;
  onChange: (planned: PlannedChange) => Promise<boolean>;
}) {
  const navigate = useNavigate();
  const span = spanOf(task)!;
  const milestone = !task.start_date;
  const length = daysBetween(span.start, span.end);
  const left = xOfDay(axis, span.start);
  const width = (length + 1) * axis.dayWidth;
  const box = useRef<HTMLDivElement>(null);
  const tip = useRef<HTMLSpanElement>(null);
  const drag = useRef<Drag | null>(null);
  const suppressClick = useRef(false);

  const resetPreview = () => {
    const el = box.current;
    if (!el) return;
    // Back to what this render drew (the style prop's width: React sets it again only when it changes).
    el.style.transform = '';
    el.style.width = `${milestone ? BAR : width}px`;
    if (tip.current) tip.current.hidden = true;
  };
  // The new dates arrive through the live read: the preview stays until they do, so nothing jumps back.
  // biome-ignore lint/correctness/useExhaustiveDependencies: reset when the stored dates change
  useLayoutEffect(resetPreview, [left, width]);

  const planFor = (mode: Mode, days: number): PlannedChange | null =>
    mode === 'move'
      ? planMove(task, days)
      : mode === 'end'
        ? planEnd(task, addDays(span.end, days))
        : planStart(task, addDays(span.start, days));

  const down = (mode: Mode) => (event: PointerEvent<HTMLElement>) => {
    if (readOnly || event.button !== 0) return;
    event.stopPropagation();
    event.currentTarget.setPointerCapture(event.pointerId);
    drag.current = { mode, x0: event.clientX, days: 0, moved: false };
  };
  const move = (event: PointerEvent<HTMLElement>) => {
    const d = drag.current;
    const el = box.current;
    if (!d || !el) return;
    if (Math.abs(event.clientX - d.x0) > 3) d.moved = true;
    let days = daysForDx(axis, event.clientX - d.x0);
    // An end never passes the other (D10): the bar keeps at least its one day.
    if (d.mode === 'end') days = Math.max(days, -length);
    if (d.mode === 'start') days = Math.min(days, length);
    if (days === d.days) return;
    d.days = days;
    const dx = days * axis.dayWidth;
    if (d.mode === 'move') el.style.transform = `translateX(${dx}px)`;
    else if (d.mode === 'end') el.style.width = `${width + dx}px`;
    else {
      el.style.transform = `translateX(${dx}px)`;
      el.style.width = `${width - dx}px`;
    }
    const planned = planFor(d.mode, days);
    if (tip.current) {
      tip.current.hidden = false;
      tip.current.textContent = planned ? spanWords(task, planned.patch) : spanWords(task);
    }
  };
  const up = (event: PointerEvent<HTMLElement>) => {
    const d = drag.current;
    drag.current = null;
    if (!d) return;
    event.currentTarget.releasePointerCapture?.(event.pointerId);
    if (d.moved) suppressClick.current = true;
    const planned = d.days === 0 ? null : planFor(d.mode, d.days);
    if (!planned) {
      resetPreview();
      return;
    }
    void onChange(planned).then((ok) => {
      if (!ok) resetPreview();
    });
  };
  const cancel = () => {
    drag.current = null;
    resetPreview();
  };

  // Keys build on the dates the last key asked for while its write is out (a held arrow, askedDates).
  const [asked] = useState(askedDates);
  const stored = useRef(task);
  stored.current = task;
  // biome-ignore lint/correctness/useExhaustiveDependencies: checked when the stored dates change
  useLayoutEffect(() => asked.settle(task.id, stored.current), [task.start_date, task.due_date]);

  const onKeyDown = (event: KeyboardEvent) => {
    if (readOnly) return;
    const from = asked.from(task);
    const now = spanOf(from) ?? span;
    const step = event.key === 'ArrowRight' ? 1 : event.key === 'ArrowLeft' ? -1 : 0;
    const planned =
      event.altKey && event.shiftKey && step !== 0
        ? (planStart(from, addDays(now.start, step)) ?? 'ignore')
        : changeForKey(from, event.key, event.shiftKey, false);
    if (planned === null) return;
    event.preventDefault();
    if (planned === 'ignore') return;
    asked.ask(from, planned.patch);
    void onChange(planned).then((ok) => {
      asked.done(task.id, ok);
      asked.settle(task.id, stored.current);
    });
  };

  const label = `${task.title}, ${milestone ? 'due' : ''} ${spanWords(task)}`.replace(',  ', ', ');
  const fits = !milestone && width >= task.title.length * 6.5 + 20;
  const handle =
    'absolute inset-y-0 z-10 w-2 cursor-ew-resize touch-none opacity-0 transition-opacity group-hover:opacity-100 group-focus-within:opacity-100 motion-reduce:transition-none';
  return (
    <div
      ref={box}
      className="group absolute"
      style={{
        left: milestone ? left + axis.dayWidth / 2 - BAR / 2 : left,
        width: milestone ? BAR : width,
        top: (ROW - BAR) / 2,
        height: BAR,
      }}
    >
      <button
        type="button"
        data-bar={task.id}
        aria-label={label}
        aria-roledescription={readOnly ? undefined : milestone ? 'movable milestone' : 'movable bar'}
        aria-describedby="timeline-keys"
        onPointerDown={down('move')}
        onPointerMove={move}
        onPointerUp={up}
        onPointerCancel={cancel}
        onKeyDown={onKeyDown}
        onClick={() => {
          if (suppressClick.current) {
            suppressClick.current = false;
            return;
          }
          navigate(`/tasks/${task.id}`);
        }}
        className={cn(
          'absolute inset-0 flex items-center overflow-hidden text-left text-xs font-medium select-none',
          readOnly ? 'cursor-pointer' : 'cursor-grab touch-pan-y active:cursor-grabbing',
          milestone ? 'rotate-45 scale-[0.7] rounded-[3px] border-2' : 'rounded-full border-l-0 px-2.5',
          BAR_TONE.task,
          milestone && 'bg-green-500 dark:bg-green-400',
          task.status === 'completed' && 'opacity-60',
          focusRing,
          'focus-visible:ring-offset-1',
        )}
      >
        {fits ? <span className="truncate">{task.title}</span> : null}
      </button>
      {!milestone && !readOnly ? (
        <>
          <span
            aria-hidden
            data-handle="start"
            className={cn(handle, 'left-0 rounded-l-full bg-green-700/60 dark:bg-green-300/60')}
            onPointerDown={down('start')}
            onPointerMove={move}
            onPointerUp={up}
            onPointerCancel={cancel}
          />
          <span
            aria-hidden
            data-handle="end"
            className={cn(handle, 'right-0 rounded-r-full bg-green-700/60 dark:bg-green-300/60')}
            onPointerDown={down('end')}
            onPointerMove={move}
            onPointerUp={up}
            onPointerCancel={cancel}
          />
        </>
      ) : null}
      {fits ? null : (
        <span
          aria-hidden
          className="pointer-events-none absolute top-1/2 left-full ml-1.5 -translate-y-1/2 whitespace-nowrap text-xs text-zinc-700 dark:text-zinc-300"
        >
          {task.title}
        </span>
      )}
      <span
        ref={tip}
        hidden
        aria-hidden
        className="pointer-events-none absolute bottom-full left-0 z-30 mb-1 whitespace-nowrap rounded bg-zinc-900 px-1.5 py-0.5 text-xs text-white shadow dark:bg-zinc-100 dark:text-zinc-900"
      />
    </div>
  );
}
