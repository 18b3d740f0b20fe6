import { CalendarCheck2, ChevronRight } from 'lucide-react';
import { Link } from 'react-router';
import { cn, focusRing } from '../components/ui/cn';
import { useToday, useTodayCounts } from './queries';

/** '2 overdue · 3 today', 'Nothing due today'. */
export function countsText(counts: { overdue: number; today: number }): string {
  const parts = [
    counts.overdue > 0 ? `${counts.overdue} overdue` : null,
    counts.today > 0 ? `${counts.today} today` : null,
  ].filter((p) => p !== null);
  return parts.length > 0 ? parts.join(' · ') : 'Nothing due today';
}

/**
 * Home's way to Today (the phone's bottom bar keeps the spec's five links): how many of my open items
 * are overdue and due today, from the due-day index, as one link. Its height is fixed, so the counts
 * arriving move nothing below it.
 */
export function TodayCard({ className }: { className?: string }) {
  const today = useToday();
  const counts = useTodayCounts(today);
  const late = (counts?.overdue ?? 0) > 0;
  return (
    <Link
      to="/today"
      className={cn(
        'group flex h-14 items-center gap-3 rounded-xl border border-zinc-200 bg-white px-3 transition-colors duration-150 hover:bg-zinc-50 motion-reduce:transition-none dark:border-zinc-800 dark:bg-zinc-900/40 dark:hover:bg-zinc-900',
        focusRing,
        className,
      )}
    >
      <span
        aria-hidden
        className="flex size-8 shrink-0 items-center justify-center rounded-lg bg-indigo-50 text-indigo-700 dark:bg-indigo-950 dark:text-indigo-300"
      >
        <CalendarCheck2 className="size-4" />
      </span>
      <span className="flex min-w-0 flex-1 flex-col">
        <span className="text-sm font-semibold text-zinc-900 dark:text-zinc-100">Today</span>
        <span
          className={cn(
            'truncate text-xs',
            late ? 'font-medium text-red-700 dark:text-red-400' : 'text-zinc-600 dark:text-zinc-400',
          )}
        >
          {counts === undefined ? '\u00a0' : countsText(counts)}
        </span>
      </span>
      <ChevronRight
        className="size-4 shrink-0 text-zinc-400 group-hover:text-zinc-600 dark:group-hover:text-zinc-300"
        aria-hidden
      />
    </Link>
  );
}
