import { GanttChart } from 'lucide-react';
import { useLayoutEffect, useMemo, useRef, useState } from 'react';
import { Link, useParams } from 'react-router';
import { daysBetween } from '../../shared/agenda';
import {
  spanOf,
  TIMELINE_SCALES,
  type TimelineScale,
  timelineAxis,
  timelineRange,
  timelineTicks,
  xOfDay,
} from '../../shared/calendar';
import { cn, focusRing } from '../components/ui/cn';
import { ListEmpty, ListLoading, PageColumn, PageHeader } from '../components/ui/PageParts';
import { TYPE_DOT } from '../items/itemStyle';
import { useToday } from '../planner/queries';
import { roleOf } from '../sharing/queries';
import { useDateChange } from './mutations';
import { type LocalItem, useTimelineGroups } from './queries';
import { TimelineBar } from './TimelineBar';

const SCALES = Object.keys(TIMELINE_SCALES) as TimelineScale[];
const SCALE_LABEL: Record<TimelineScale, string> = { day: 'Day', week: 'Week', month: 'Month' };
const ROW = 36;

/**
 * /timeline and /campaigns/{id}/timeline (ARCHITECTURE §5 'Calendar and Timeline'): one row per task,
 * a bar from its start to its due date (a diamond when it has only a due date), grouped by campaign,
 * on a day, week or month scale with today's line. A bar drags to move, its ends to resize, and the
 * keyboard does the same (TimelineBar). From the device only: offline and for guests.
 */
export default function TimelinePage() {
  const params = useParams();
  const campaignId = params.id === undefined ? null : Number(params.id);
  const groups = useTimelineGroups(campaignId !== null && Number.isInteger(campaignId) ? campaignId : null);
  const today = useToday();
  const [scale, setScale] = useState<TimelineScale>('week');
  const { change, announcement } = useDateChange();

  const spans = useMemo(
    () =>
      (groups ?? [])
        .flatMap((g) => g.tasks.map(spanOf))
        .filter((s): s is { start: string; end: string } => !!s),
    [groups],
  );
  const range = useMemo(() => timelineRange(spans, today, scale), [spans, today, scale]);
  const axis = useMemo(() => timelineAxis(range.from, scale), [range.from, scale]);
  const ticks = useMemo(() => timelineTicks(range.from, range.through, scale), [range, scale]);
  const width = xOfDay(axis, range.through) + axis.dayWidth;
  const todayX = xOfDay(axis, today) + axis.dayWidth / 2;

  const scroller = useRef<HTMLDivElement>(null);
  // Today in view when the page opens or the scale changes, a little in from the left.
  // biome-ignore lint/correctness/useExhaustiveDependencies: only on a new scale or the first rows
  useLayoutEffect(() => {
    const el = scroller.current;
    if (el) el.scrollLeft = Math.max(0, todayX - 3 * axis.dayWidth * (scale === 'day' ? 4 : 2));
  }, [scale, groups === undefined]);

  const single = campaignId !== null;
  const campaign = single ? groups?.[0]?.campaign : undefined;
  // Weekends shaded on the day and week scales: one background, a week long, that starts on a Monday.
  const weekend =
    scale === 'month'
      ? undefined
      : {
          backgroundImage: `linear-gradient(to right, transparent ${5 * axis.dayWidth}px, var(--tl-weekend) ${5 * axis.dayWidth}px)`,
          backgroundSize: `${7 * axis.dayWidth}px 100%`,
          backgroundPositionX: `${-(((daysBetween('2024-01-01', range.from) % 7) + 7) % 7) * axis.dayWidth}px`,
        };

  return (
    <PageColumn>
      <PageHeader
        title={campaign ? `${campaign.title}: Timeline` : 'Timeline'}
        subtitle={
          single ? (
            <Link
              to={`/campaigns/${campaignId}`}
              className="text-indigo-700 hover:underline dark:text-indigo-300"
            >
              Back to the campaign
            </Link>
          ) : (
            'Every task from start to due date, by campaign'
          )
        }
      />
      <div className="mb-3 flex flex-wrap items-center justify-between gap-2">
        <p id="timeline-keys" className="text-sm text-zinc-600 dark:text-zinc-400">
          Drag a bar or its ends; or focus one: arrows move it, Shift+arrows its end, Alt+Shift+arrows its
          start.
        </p>
        <fieldset className="flex rounded-lg bg-zinc-100 p-1 dark:bg-zinc-900 dark:ring-1 dark:ring-zinc-800">
          <legend className="sr-only">Scale</legend>
          {SCALES.map((s) => (
            <button
              key={s}
              type="button"
              aria-pressed={scale === s}
              onClick={() => setScale(s)}
              className={cn(
                'h-8 rounded-md px-3 text-sm font-medium text-zinc-600 hover:text-zinc-900 aria-pressed:bg-white aria-pressed:text-zinc-900 aria-pressed:shadow-sm dark:text-zinc-400 dark:hover:text-zinc-100 dark:aria-pressed:bg-zinc-800 dark:aria-pressed:text-zinc-50',
                focusRing,
              )}
            >
              {SCALE_LABEL[s]}
            </button>
          ))}
        </fieldset>
      </div>
      <p className="sr-only" aria-live="polite" data-testid="timeline-announcement">
        {announcement}
      </p>
      {groups === undefined ? (
        <ListLoading label="Loading the timeline..." rows={5} />
      ) : groups.length === 0 || groups.every((g) => g.tasks.length === 0) ? (
        <ListEmpty
          icon={<GanttChart className="size-6" aria-hidden />}
          title={single ? 'No tasks in this campaign yet' : 'No tasks yet'}
          hint="Tasks show here as bars from their start to their due date."
        />
      ) : (
        <section
          ref={scroller}
          aria-label="Timeline"
          // biome-ignore lint/a11y/noNoninteractiveTabindex: the chart scrolls sideways; a keyboard must reach it
          tabIndex={0}
          className={cn(
            'relative max-h-[70vh] overflow-auto rounded-xl border border-zinc-200 bg-white [--tl-weekend:rgb(244_244_245/0.8)] dark:border-zinc-800 dark:bg-zinc-900 dark:[--tl-weekend:rgb(9_9_11/0.35)]',
            focusRing,
          )}
        >
          {/* Task names take 240 px on a wider screen (DESIGN), 128 on a phone. */}
          <div
            className="grid [--tl-label:128px] md:[--tl-label:240px]"
            style={{ gridTemplateColumns: `var(--tl-label) ${width}px` }}
          >
            <div className="sticky top-0 left-0 z-30 flex h-9 items-center border-b border-r border-zinc-200 bg-zinc-50 px-3 text-xs font-medium text-zinc-600 dark:border-zinc-800 dark:bg-zinc-950 dark:text-zinc-400">
              Task
            </div>
            <div
              className="sticky top-0 z-20 h-9 border-b border-zinc-200 bg-zinc-50 dark:border-zinc-800 dark:bg-zinc-950"
              aria-hidden
            >
              {ticks.map((t) => (
                <span
                  key={t.day}
                  className={cn(
                    'absolute top-0 flex h-9 items-center border-l pl-1 text-xs tabular-nums',
                    t.major
                      ? 'border-zinc-300 font-medium text-zinc-800 dark:border-zinc-700 dark:text-zinc-200'
                      : 'border-zinc-200 text-zinc-600 dark:border-zinc-800 dark:text-zinc-400',
                    t.day === today && 'text-indigo-700 dark:text-indigo-300',
                  )}
                  style={{ left: xOfDay(axis, t.day) }}
                >
                  {t.label}
                </span>
              ))}
            </div>
            {groups.map((g) => (
              <Group
                key={g.campaign?.id ?? 'none'}
                campaign={g.campaign}
                tasks={g.tasks}
                linkCampaign={!single}
                width={width}
                todayX={todayX}
                weekend={weekend}
              >
                {(task) => (
                  <TimelineBar
                    task={task}
                    axis={axis}
                    readOnly={g.campaign !== null && roleOf(g.campaign) === 'viewer'}
                    onChange={(planned) => change({ id: task.id, title: task.title, ...planned })}
                  />
                )}
              </Group>
            ))}
          </div>
        </section>
      )}
    </PageColumn>
  );
}

function Group({
  campaign,
  tasks,
  linkCampaign,
  width,
  todayX,
  weekend,
  children,
}: {
  /** Null: the tasks in no campaign. */
  campaign: LocalItem | null;
  tasks: LocalItem[];
  linkCampaign: boolean;
  width: number;
  todayX: number;
  weekend: React.CSSProperties | undefined;
  children: (task: LocalItem) => React.ReactNode;
}) {
  const todayLine = (
    <span
      className="pointer-events-none absolute inset-y-0 w-px bg-indigo-500 dark:bg-indigo-400"
      style={{ left: todayX }}
    />
  );
  return (
    <>
      <div className="sticky left-0 z-20 flex h-8 items-center gap-2 border-b border-r border-zinc-200 bg-zinc-100 px-3 dark:border-zinc-800 dark:bg-zinc-950">
        {/* No dot where there is no campaign: 'No campaign' then fits a phone's 128 px column. */}
        {campaign ? (
          <span className={cn('size-2 shrink-0 rounded-full', TYPE_DOT.campaign)} aria-hidden />
        ) : null}
        {campaign === null ? (
          <span className="truncate text-sm font-semibold text-zinc-900 dark:text-zinc-50">No campaign</span>
        ) : linkCampaign ? (
          <Link
            to={`/campaigns/${campaign.id}/timeline`}
            className={cn(
              'truncate text-sm font-semibold text-zinc-900 hover:underline dark:text-zinc-50',
              focusRing,
            )}
          >
            {campaign.title}
          </Link>
        ) : (
          <span className="truncate text-sm font-semibold text-zinc-900 dark:text-zinc-50">
            {campaign.title}
          </span>
        )}
      </div>
      <div
        className="relative h-8 border-b border-zinc-200 bg-zinc-100 dark:border-zinc-800 dark:bg-zinc-950"
        style={{ width }}
      >
        {todayLine}
      </div>
      {tasks.length === 0 ? (
        <>
          <div
            className="sticky left-0 z-10 flex items-center border-b border-r border-zinc-200 bg-white px-3 text-sm text-zinc-600 dark:border-zinc-800 dark:bg-zinc-900 dark:text-zinc-400"
            style={{ height: ROW }}
          >
            No tasks
          </div>
          <div
            className="relative border-b border-zinc-200 dark:border-zinc-800"
            style={{ height: ROW, ...weekend }}
          >
            {todayLine}
          </div>
        </>
      ) : null}
      {tasks.map((task) => (
        <TaskRow key={task.id} task={task} todayLine={todayLine} todayX={todayX} weekend={weekend}>
          {children(task)}
        </TaskRow>
      ))}
    </>
  );
}

function TaskRow({
  task,
  todayLine,
  todayX,
  weekend,
  children,
}: {
  task: LocalItem;
  todayLine: React.ReactNode;
  todayX: number;
  weekend: React.CSSProperties | undefined;
  children: React.ReactNode;
}) {
  const dated = spanOf(task) !== null;
  return (
    <>
      <div
        className="sticky left-0 z-10 flex min-w-0 items-center gap-2 border-b border-r border-zinc-200 bg-white px-3 dark:border-zinc-800 dark:bg-zinc-900"
        style={{ height: ROW }}
      >
        <span className={cn('size-2 shrink-0 rounded-full', TYPE_DOT.task)} aria-hidden />
        <Link
          to={`/tasks/${task.id}`}
          className={cn(
            'min-w-0 truncate text-sm text-zinc-800 hover:underline dark:text-zinc-200',
            task.status === 'completed' && 'text-zinc-500 line-through dark:text-zinc-400',
            focusRing,
          )}
        >
          {task.title}
        </Link>
      </div>
      <div
        className="relative border-b border-zinc-200 dark:border-zinc-800"
        style={{ height: ROW, ...weekend }}
      >
        {todayLine}
        {dated ? (
          children
        ) : (
          <span
            className="absolute inset-y-0 inline-flex items-center pl-2 text-xs whitespace-nowrap text-zinc-600 dark:text-zinc-400"
            style={{ left: todayX }}
          >
            No due date
          </span>
        )}
      </div>
    </>
  );
}
