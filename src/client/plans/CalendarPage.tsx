import {
  type Announcements,
  DndContext,
  type DragEndEvent,
  DragOverlay,
  type DragStartEvent,
  MouseSensor,
  pointerWithin,
  TouchSensor,
  useSensor,
  useSensors,
} from '@dnd-kit/core';
import { CalendarDays, ChevronLeft, ChevronRight } from 'lucide-react';
import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { addDays, dayHeading, daysBetween } from '../../shared/agenda';
import {
  addMonths,
  monthGrid,
  monthStartOf,
  type Occurrence,
  occurrencesIn,
  weekDays,
} from '../../shared/calendar';
import { Button } from '../components/ui/Button';
import { cn, focusRing } from '../components/ui/cn';
import { IconButton } from '../components/ui/IconButton';
import { ListEmpty, ListLoading, PageColumn, PageHeader } from '../components/ui/PageParts';
import { itemPageHref } from '../items/itemStyle';
import { useToday } from '../planner/queries';
import { CalendarChip, type ChipItem } from './CalendarChip';
import { WeekRow } from './CalendarWeekRow';
import { askedDates, changeForKey, planMove, spanWords } from './dateKeys';
import { useDateChange } from './mutations';
import { MOVE_HINT } from './planStyle';
import { type LocalItem, useCalendarItems } from './queries';

const VIEWS = ['month', 'week', 'list'] as const;
type View = (typeof VIEWS)[number];
const VIEW_LABEL: Record<View, string> = { month: 'Month', week: 'Week', list: 'List' };

const WEEKDAYS = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'];
const monthTitle = new Intl.DateTimeFormat('en-GB', { month: 'long', year: 'numeric', timeZone: 'UTC' });
const utc = (day: string) => new Date(`${day}T00:00:00Z`);
const isDay = (v: string | null): v is string => v !== null && /^\d{4}-\d{2}-\d{2}$/.test(v);

/** DESIGN: phones get the agenda list by default; a wider screen the month grid. */
const defaultView = (): View =>
  typeof window !== 'undefined' && window.matchMedia?.('(max-width: 767px)').matches ? 'list' : 'month';

/**
 * The drag library says nothing (its default reads 'Draggable item cal-12 was dropped over droppable
 * area 2026-12-03' into its live region): the page's own region says what a move did, in words.
 */
const SILENT_DRAG: Announcements = {
  onDragStart: () => undefined,
  onDragOver: () => undefined,
  onDragEnd: () => undefined,
  onDragCancel: () => undefined,
};

/** The days the list (the phone's agenda) shows at once, from its first day on: four weeks. */
const AGENDA_DAYS = 28;

/**
 * The days a view of `anchor` shows: the month's whole weeks, the week, or the agenda's four weeks
 * from `anchor` on (today, unless the person stepped on): an agenda that began on the 1st said
 * 'Nothing due this month' on 29 November with three items due the next week.
 */
function rangeOf(view: View, anchor: string): { from: string; through: string; weeks: string[][] } {
  if (view === 'week') {
    const days = weekDays(anchor);
    return { from: days[0]!, through: days[6]!, weeks: [days] };
  }
  if (view === 'list') return { from: anchor, through: addDays(anchor, AGENDA_DAYS - 1), weeks: [] };
  const weeks = monthGrid(anchor);
  return { from: weeks[0]![0]!, through: weeks.at(-1)![6]!, weeks };
}

const shortDay = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', timeZone: 'UTC' });

function rangeTitle(view: View, from: string, through: string, anchor: string): string {
  if (view === 'month') return monthTitle.format(utc(monthStartOf(anchor)));
  return `${shortDay.format(utc(from))} – ${shortDay.format(utc(through))} ${through.slice(0, 4)}`;
}

/**
 * /calendar (ARCHITECTURE §5 'Calendar and Timeline'): my open items on a month or week grid (a list
 * on phones), each on its due day or as one bar across its span, a repeating item also on its next
 * occurrences. From the device only, so offline and for guests. Dragging an item (mouse or touch) or
 * an arrow key on a focused one moves its dates through `items.update`: undoable, queued, announced.
 */
export default function CalendarPage() {
  const today = useToday();
  const navigate = useNavigate();
  const [params, setParams] = useSearchParams();
  const [fallbackView] = useState(defaultView);
  const view: View = (VIEWS as readonly string[]).includes(params.get('view') ?? '')
    ? (params.get('view') as View)
    : fallbackView;
  const anchor = isDay(params.get('date')) ? (params.get('date') as string) : today;
  const go = useCallback(
    (next: { view?: View; date?: string }) =>
      setParams(
        (prev) => {
          const copy = new URLSearchParams(prev);
          if (next.view) copy.set('view', next.view);
          if (next.date) copy.set('date', next.date);
          return copy;
        },
        { replace: true },
      ),
    [setParams],
  );
  const { from, through, weeks } = rangeOf(view, anchor);
  const items = useCalendarItems(from, through);
  const occurrences = useMemo(
    () => (items ? occurrencesIn(items, from, through) : []),
    [items, from, through],
  );
  const { change, announcement } = useDateChange();

  // The item a key moved keeps the focus in its new place (its element is a new one there).
  const [focusId, setFocusId] = useState<number | null>(null);
  const gridRef = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (focusId === null) return;
    const el = gridRef.current?.querySelector<HTMLElement>(`[data-item-id="${focusId}"][data-own="true"]`);
    if (el) {
      el.focus();
      setFocusId(null);
    }
  });

  const apply = useCallback(
    async (item: LocalItem, planned: { patch: { due_date?: string }; words: string }, keepFocus: boolean) => {
      const ok = await change({ id: item.id, title: item.title, ...planned });
      if (!ok) return false;
      const due = planned.patch.due_date;
      // A key that moves the item out of the shown days takes the view along, so the focus can follow
      // (the agenda just far enough that the day is its first or last).
      if (keepFocus && due && (due < from || due > through))
        go({ date: view === 'list' && due > through ? addDays(due, -(AGENDA_DAYS - 1)) : due });
      if (keepFocus) setFocusId(item.id);
      return true;
    },
    [change, from, through, go, view],
  );

  // Keys build on the dates the last key asked for while its write is out (a held arrow, askedDates).
  const [asked] = useState(askedDates);
  const shown = useRef(items);
  shown.current = items;
  const storedOf = useCallback((id: number) => shown.current?.find((i) => i.id === id), []);
  useLayoutEffect(() => {
    if (items) for (const id of asked.ids()) asked.settle(id, storedOf(id));
  }, [items, asked, storedOf]);

  const onKey = useCallback(
    (item: LocalItem, event: React.KeyboardEvent) => {
      const at = asked.from(item);
      const planned = changeForKey(at, event.key, event.shiftKey, view !== 'list');
      if (planned === null) return;
      event.preventDefault();
      if (planned === 'ignore') return;
      asked.ask(at, planned.patch);
      void apply(at, planned, true).then((ok) => {
        asked.done(item.id, ok);
        asked.settle(item.id, storedOf(item.id));
      });
    },
    [apply, view, asked, storedOf],
  );

  const dragged = useRef(false);
  const open = useCallback(
    (item: ChipItem) => {
      if (dragged.current) return;
      navigate(itemPageHref(item));
    },
    [navigate],
  );

  const sensors = useSensors(
    useSensor(MouseSensor, { activationConstraint: { distance: 5 } }),
    useSensor(TouchSensor, { activationConstraint: { delay: 200, tolerance: 6 } }),
  );
  const [lifted, setLifted] = useState<{ occ: Occurrence<LocalItem>; day: string } | null>(null);
  const onDragStart = useCallback((event: DragStartEvent) => {
    dragged.current = true;
    const occ = event.active.data.current?.occ as Occurrence<LocalItem> | undefined;
    const start = event.activatorEvent as MouseEvent | TouchEvent;
    const point = 'touches' in start ? start.touches[0] : start;
    // The day the pointer took the item on: a bar across days moves by how far that day goes.
    const cell = point
      ? document
          .elementsFromPoint(point.clientX, point.clientY)
          .find((el): el is HTMLElement => el instanceof HTMLElement && el.dataset.day !== undefined)
      : undefined;
    if (occ) setLifted({ occ, day: cell?.dataset.day ?? occ.start });
  }, []);
  const onDragEnd = useCallback(
    (event: DragEndEvent) => {
      setTimeout(() => {
        dragged.current = false;
      }, 0);
      const was = lifted;
      setLifted(null);
      const over = event.over?.id;
      if (!was || typeof over !== 'string') return;
      const planned = planMove(was.occ.item, daysBetween(was.day, over));
      if (planned) void apply(was.occ.item, planned, false);
    },
    [lifted, apply],
  );

  const step = (n: number) =>
    go({
      date:
        view === 'week'
          ? addDays(anchor, 7 * n)
          : view === 'list'
            ? addDays(anchor, AGENDA_DAYS * n)
            : addMonths(anchor, n),
    });
  const title = rangeTitle(view, from, through, anchor);
  const unit = view === 'week' ? 'week' : view === 'list' ? '4 weeks' : 'month';
  const nothing =
    view !== 'list'
      ? `Nothing due this ${unit}`
      : from === today
        ? 'Nothing due in the next 4 weeks'
        : `Nothing due from ${shortDay.format(utc(from))} to ${shortDay.format(utc(through))}`;

  return (
    <PageColumn>
      <PageHeader
        title="Calendar"
        subtitle="Your open items by day; drag one, or focus it and use the arrow keys"
      />
      <div className="mb-4 flex flex-wrap items-center gap-2">
        <div className="flex items-center gap-1">
          <IconButton
            label={`Previous ${unit}`}
            size="sm"
            variant="outline"
            icon={<ChevronLeft aria-hidden />}
            onClick={() => step(-1)}
          />
          <IconButton
            label={`Next ${unit}`}
            size="sm"
            variant="outline"
            icon={<ChevronRight aria-hidden />}
            onClick={() => step(1)}
          />
          <Button variant="outline" size="sm" onClick={() => go({ date: today })}>
            Today
          </Button>
        </div>
        <h2
          className="order-first w-full min-w-0 truncate text-lg font-semibold text-zinc-900 sm:order-none sm:w-auto sm:flex-1 dark:text-zinc-50"
          aria-live="polite"
        >
          {title}
        </h2>
        <fieldset className="flex rounded-lg bg-zinc-100 p-1 dark:bg-zinc-900 dark:ring-1 dark:ring-zinc-800">
          <legend className="sr-only">View</legend>
          {VIEWS.map((v) => (
            <button
              key={v}
              type="button"
              aria-pressed={view === v}
              onClick={() => go({ view: v })}
              className={cn(
                'h-8 rounded-md px-3 text-sm font-medium text-zinc-600 hover:text-zinc-900 aria-pressed:bg-white aria-pressed:text-zinc-900 aria-pressed:shadow-sm dark:text-zinc-400 dark:hover:text-zinc-100 dark:aria-pressed:bg-zinc-800 dark:aria-pressed:text-zinc-50',
                focusRing,
              )}
            >
              {VIEW_LABEL[v]}
            </button>
          ))}
        </fieldset>
      </div>
      <p className="sr-only" aria-live="polite" data-testid="calendar-announcement">
        {announcement}
      </p>
      {items === undefined ? (
        <ListLoading label="Loading the calendar..." rows={5} />
      ) : view === 'list' ? (
        <div ref={gridRef}>
          <AgendaDays
            occurrences={occurrences}
            from={from}
            through={through}
            today={today}
            onKey={onKey}
            onOpen={open}
          />
        </div>
      ) : (
        <DndContext
          sensors={sensors}
          collisionDetection={pointerWithin}
          onDragStart={onDragStart}
          onDragEnd={onDragEnd}
          onDragCancel={() => {
            dragged.current = false;
            setLifted(null);
          }}
          accessibility={{ announcements: SILENT_DRAG, screenReaderInstructions: { draggable: MOVE_HINT } }}
        >
          <div
            ref={gridRef}
            className="overflow-hidden rounded-xl border border-zinc-200 bg-white dark:border-zinc-800 dark:bg-zinc-900"
          >
            <div
              className="grid grid-cols-7 border-b border-zinc-200 bg-zinc-50 dark:border-zinc-800 dark:bg-zinc-950/40"
              aria-hidden
            >
              {WEEKDAYS.map((d) => (
                <div key={d} className="px-2 py-1.5 text-xs font-medium text-zinc-600 dark:text-zinc-400">
                  {d}
                </div>
              ))}
            </div>
            {weeks.map((days) => (
              <WeekRow
                key={days[0]}
                days={days}
                occurrences={occurrences}
                today={today}
                month={view === 'month' ? anchor.slice(0, 7) : null}
                maxLanes={view === 'month' ? 3 : Number.POSITIVE_INFINITY}
                onKey={onKey}
                onOpen={open}
                onMore={(day) => go({ view: 'week', date: day })}
              />
            ))}
          </div>
          <DragOverlay dropAnimation={null}>
            {lifted ? <CalendarChip occ={lifted.occ} overlay /> : null}
          </DragOverlay>
        </DndContext>
      )}
      {items !== undefined && occurrences.length === 0 ? (
        <div className="mt-6">
          <ListEmpty
            icon={<CalendarDays className="size-6" aria-hidden />}
            title={nothing}
            hint="Items with a due date show here; give one a start date to see it across its days."
          />
        </div>
      ) : null}
    </PageColumn>
  );
}

/**
 * The list view (phones' default, the agenda): each day of its four weeks that has items, each item
 * once, on its first day shown (a span begun before them on their first day).
 */
function AgendaDays({
  occurrences,
  from,
  through,
  today,
  onKey,
  onOpen,
}: {
  occurrences: Occurrence<LocalItem>[];
  from: string;
  through: string;
  today: string;
  onKey: (item: LocalItem, event: React.KeyboardEvent) => void;
  onOpen: (item: ChipItem) => void;
}) {
  const byDay = new Map<string, Occurrence<LocalItem>[]>();
  for (const occ of occurrences) {
    const day = occ.start < from ? from : occ.start;
    if (day > through) continue;
    byDay.set(day, [...(byDay.get(day) ?? []), occ]);
  }
  const days = [...byDay.keys()].sort();
  return (
    <div className="flex flex-col gap-4">
      {days.map((day) => (
        <section key={day} aria-label={dayHeading(day, today)}>
          <h3
            className={cn(
              'mb-1.5 text-sm font-semibold',
              day === today ? 'text-indigo-700 dark:text-indigo-300' : 'text-zinc-700 dark:text-zinc-300',
            )}
          >
            {dayHeading(day, today)}
          </h3>
          <ul className="flex flex-col gap-1.5">
            {byDay.get(day)!.map((occ) => (
              <li key={`${occ.item.id}:${occ.index}`}>
                <CalendarChip
                  occ={occ}
                  wide
                  detail={
                    occ.start === occ.end
                      ? undefined
                      : spanWords({ start_date: occ.start, due_date: occ.end })
                  }
                  onKey={onKey}
                  onOpen={onOpen}
                />
              </li>
            ))}
          </ul>
        </section>
      ))}
    </div>
  );
}
