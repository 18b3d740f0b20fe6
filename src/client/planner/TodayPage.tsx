import { CalendarCheck2, ChevronRight } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'react-router';
import { dayHeading, dayLabel, dueDay } from '../../shared/agenda';
import { cn, focusRing } from '../components/ui/cn';
import { EmptyState } from '../components/ui/EmptyState';
import { ListLoading, PageColumn, PageHeader } from '../components/ui/PageParts';
import { preloadSortable } from '../items/sortableModule';
import { AgendaList } from './AgendaList';
import { AgendaSection } from './AgendaSection';
import { shareRows, useFirstDrawRows } from './firstDraw';
import {
  type LocalItem,
  type TodayLimits,
  type UpcomingGroup,
  useToday,
  useTodayPage,
  useUpcoming,
} from './queries';
import { countsText } from './TodayCard';

// Today's 'Today' group is reordered by hand: drag and drop loads with this page's chunk, so it is
// there when the rows are read and they are drawn once (sortableModule.ts).
void preloadSortable();

/** Rows each group shows at first, and how many more each 'Show more' reads. */
const PAGE = 30;

/**
 * /today: my open items overdue or due today, from the device (offline and as a guest too), overdue
 * first with how late each is, then by priority and due date; each row completes and reschedules.
 * The items due today are in priority, then manual order, and are reordered right there (SYNC.md
 * O6); the overdue ones stay in order of lateness, with no drag.
 */
export default function TodayPage() {
  const today = useToday();
  const [limits, setLimits] = useState<TodayLimits>({ overdue: PAGE, today: PAGE });
  const page = useTodayPage(today, limits);
  const more = (group: keyof TodayLimits) => () => setLimits((l) => ({ ...l, [group]: l[group] + PAGE }));
  const empty = page !== undefined && page.overdue.count === 0 && page.today.count === 0;
  // A screenful of rows first, the rest a frame later (firstDraw.ts).
  const firstDraw = useFirstDrawRows(page !== undefined);
  const late = page !== undefined && page.overdue.count > 0;
  const shared = shareRows(
    page === undefined ? [] : [...(late ? [page.overdue.items.length] : []), page.today.items.length],
    firstDraw,
  );
  const [overdueRows, todayRows] = late ? shared : [0, shared[0]];
  return (
    <PageColumn>
      <PageHeader
        title="Today"
        subtitle={
          page === undefined || empty
            ? dayLabel(today)
            : `${dayLabel(today)} · ${countsText({ overdue: page.overdue.count, today: page.today.count })}`
        }
      />
      {page === undefined ? (
        <ListLoading label="Loading today's items..." rows={4} />
      ) : empty ? (
        <NothingToday today={today} />
      ) : (
        <div className="flex flex-col gap-6">
          {late ? (
            <AgendaSection id="overdue" heading="Overdue" tone="late" count={page.overdue.count}>
              <AgendaList
                items={page.overdue.items}
                total={page.overdue.count}
                onMore={more('overdue')}
                label="Overdue"
                today={today}
                drawn={overdueRows ?? 0}
              />
            </AgendaSection>
          ) : null}
          {todayRows === null || todayRows === undefined ? null : (
            // 'Due today': the page is 'Today' and its subtitle the date (issue 50: 'Today' three times on
            // a phone, with the header's).
            <AgendaSection id="today" heading="Due today" count={page.today.count}>
              {page.today.count > 0 ? (
                <AgendaList
                  items={page.today.items}
                  total={page.today.count}
                  onMore={more('today')}
                  label="Due today"
                  today={today}
                  reorder
                  drawn={todayRows}
                />
              ) : (
                <p className="px-1 text-sm text-zinc-600 dark:text-zinc-400">
                  Nothing else is due today. Clear the overdue ones, or move them to another day.
                </p>
              )}
            </AgendaSection>
          )}
        </div>
      )}
    </PageColumn>
  );
}

/** The first item due after today (within Upcoming's days), for the empty state. */
function nextDue(buckets: readonly UpcomingGroup[] | undefined, today: string): LocalItem | null {
  for (const b of buckets ?? [])
    if (b.day !== null && b.day > today && b.items.length > 0) return b.items[0]!;
  return null;
}

function NothingToday({ today }: { today: string }) {
  // One row a day is enough to name the next one.
  const next = nextDue(useUpcoming(today, 1), today);
  const nextDay = next ? dueDay(next) : null;
  return (
    <EmptyState
      icon={<CalendarCheck2 aria-hidden />}
      title="Nothing due today"
      description={
        next && nextDay
          ? `A clear day. Next up: “${next.title}”, ${dayHeading(nextDay, today).toLowerCase() === 'tomorrow' ? 'tomorrow' : dayLabel(nextDay)}.`
          : 'A clear day: nothing overdue and nothing due. Plan ahead on Upcoming.'
      }
      action={
        <Link
          to="/upcoming"
          className={cn(
            'inline-flex items-center gap-1 rounded-md px-2 py-1 text-sm font-medium text-indigo-700 hover:underline dark:text-indigo-300',
            focusRing,
          )}
        >
          See Upcoming
          <ChevronRight className="size-4" aria-hidden />
        </Link>
      }
    />
  );
}
