import { useDroppable } from '@dnd-kit/core';
import { type KeyboardEvent, memo, useMemo } from 'react';
import { dayLabel } from '../../shared/agenda';
import { type Occurrence, weekLanes } from '../../shared/calendar';
import { cn, focusRing } from '../components/ui/cn';
import { CalendarChip, type ChipItem, DraggableChip } from './CalendarChip';
import type { LocalItem } from './queries';

/** Pixels of one lane (a 20 px bar and its gap) and of the day number's row. */
const LANE = 22;

interface WeekRowProps {
  days: string[];
  occurrences: Occurrence<LocalItem>[];
  today: string;
  /** The month shown (YYYY-MM): other months' days are muted; null on the week view. */
  month: string | null;
  /** Lanes shown before '+N more' (three a day on the month grid, DESIGN). */
  maxLanes: number;
  onKey: (item: LocalItem, event: KeyboardEvent) => void;
  onOpen: (item: ChipItem) => void;
  onMore: (day: string) => void;
}

/**
 * One week of the grid: seven drop targets under the week's bars, each bar on the lane weekLanes gives
 * it (shared/calendar.ts), so a span is one bar across its days. Days hidden lanes leave out say how
 * many with '+N more', which opens that week.
 */
export const WeekRow = memo(function WeekRow({
  days,
  occurrences,
  today,
  month,
  maxLanes,
  onKey,
  onOpen,
  onMore,
}: WeekRowProps) {
  const segments = useMemo(() => weekLanes(occurrences, days), [occurrences, days]);
  const lanes = segments.reduce((n, s) => Math.max(n, s.lane + 1), 0);
  const shownLanes = Math.min(lanes, maxLanes);
  const hidden = days.map(
    (_, col) => segments.filter((s) => s.lane >= maxLanes && s.startCol <= col && s.endCol >= col).length,
  );
  const moreRow = hidden.some((n) => n > 0) ? 1 : 0;
  const week = month === null;
  return (
    <div
      className="relative grid grid-cols-7 border-b border-zinc-200 last:border-b-0 dark:border-zinc-800"
      style={{
        gridTemplateRows: `28px repeat(${shownLanes + moreRow}, ${LANE}px) 1fr`,
        minHeight: week ? 360 : 112,
      }}
    >
      {days.map((day, col) => (
        <DayCell
          key={day}
          day={day}
          col={col}
          today={today}
          muted={month !== null && day.slice(0, 7) !== month}
        />
      ))}
      {segments
        .filter((s) => s.lane < maxLanes)
        .map((s) => (
          <div
            key={`${s.item.id}:${s.index}`}
            className="relative z-10 min-w-0 px-0.5"
            style={{ gridColumn: `${s.startCol + 1} / ${s.endCol + 2}`, gridRow: s.lane + 2 }}
          >
            {s.index === 0 ? (
              <DraggableChip
                dragId={`${s.item.id}:${days[0]}`}
                occ={s}
                continuesBefore={s.continuesBefore}
                continuesAfter={s.continuesAfter}
                onKey={onKey}
                onOpen={onOpen}
              />
            ) : (
              <CalendarChip
                occ={s}
                continuesBefore={s.continuesBefore}
                continuesAfter={s.continuesAfter}
                onOpen={onOpen}
              />
            )}
          </div>
        ))}
      {hidden.map((n, col) =>
        n > 0 ? (
          <div
            key={days[col]}
            className="relative z-10 px-1"
            style={{ gridColumn: col + 1, gridRow: shownLanes + 2 }}
          >
            <button
              type="button"
              onClick={() => onMore(days[col]!)}
              aria-label={`${n} more on ${dayLabel(days[col]!)}`}
              className={cn(
                'h-5 rounded px-1 text-xs font-medium text-zinc-600 hover:bg-zinc-100 hover:text-zinc-900 dark:text-zinc-400 dark:hover:bg-zinc-800 dark:hover:text-zinc-100',
                focusRing,
              )}
            >
              +{n} more
            </button>
          </div>
        ) : null,
      )}
    </div>
  );
});

/** A day: its number top-left (today's in an accent circle) and the drop target under the bars. */
function DayCell({ day, col, today, muted }: { day: string; col: number; today: string; muted: boolean }) {
  const { setNodeRef, isOver } = useDroppable({ id: day });
  const isToday = day === today;
  const weekend = col >= 5;
  return (
    <div
      ref={setNodeRef}
      data-day={day}
      className={cn(
        'border-zinc-200 dark:border-zinc-800',
        col > 0 && 'border-l',
        weekend && 'bg-zinc-50/70 dark:bg-zinc-950/30',
        isOver && 'bg-indigo-50 ring-2 ring-inset ring-indigo-500 dark:bg-indigo-950/40 dark:ring-indigo-400',
      )}
      style={{ gridColumn: col + 1, gridRow: '1 / -1' }}
    >
      <div className="px-1.5 pt-1" aria-current={isToday ? 'date' : undefined}>
        <span
          aria-hidden
          className={cn(
            'inline-flex size-6 items-center justify-center rounded-full text-xs tabular-nums',
            isToday
              ? 'bg-indigo-600 font-semibold text-white dark:bg-indigo-500'
              : muted
                ? 'text-zinc-500 dark:text-zinc-400'
                : 'text-zinc-800 dark:text-zinc-200',
          )}
        >
          {Number(day.slice(8, 10))}
        </span>
        <span className="sr-only">{isToday ? `Today, ${dayLabel(day)}` : dayLabel(day)}</span>
      </div>
    </div>
  );
}
