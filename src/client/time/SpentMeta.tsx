import { Clock } from 'lucide-react';
import { spentProgress } from '../../shared/timeRollup';
import { formatMinutes } from '../../shared/timerClock';
import { cn } from '../components/ui/cn';
import { useSpentOn } from './timerStore';

/** 'spent / estimate' as rows and pages show it: `1 h 20 m / 3 h`, or the spent alone without an estimate. */
export function spentText(spent: number, estimate: number | null | undefined): string {
  return estimate ? `${formatMinutes(spent)} / ${formatMinutes(estimate)}` : formatMinutes(spent);
}

/** The bar under 'spent / estimate': full at the estimate, amber past it. */
export function SpentBar({
  spent,
  estimate,
  className,
}: {
  spent: number;
  estimate: number | null | undefined;
  className?: string;
}) {
  const progress = spentProgress(spent, estimate);
  if (!progress) return null;
  return (
    <span
      className={cn('inline-block h-1 overflow-hidden rounded-full bg-zinc-200 dark:bg-zinc-800', className)}
      aria-hidden
      data-over-estimate={progress.over ? 'true' : undefined}
    >
      <span
        className={cn(
          'block h-full rounded-full',
          progress.over ? 'bg-amber-500 dark:bg-amber-400' : 'bg-emerald-500 dark:bg-emerald-400',
        )}
        style={{ width: `${Math.max(4, progress.share * 100)}%` }}
      />
    </span>
  );
}

/** A row's meta: the time spent on the item (rolled up, X11) against its estimate; nothing when neither. */
export function SpentMeta({ itemId, estimate }: { itemId: number; estimate: number | null | undefined }) {
  const spent = useSpentOn(itemId);
  if (spent === 0 && !estimate) return null;
  const over = !!estimate && spent > estimate;
  return (
    <span
      className={cn('inline-flex shrink-0 items-center gap-1', over && 'text-amber-700 dark:text-amber-400')}
      data-row-spent
    >
      <Clock className="size-3" aria-hidden />
      <span className="sr-only">Time spent </span>
      {spentText(spent, estimate)}
      <SpentBar spent={spent} estimate={estimate} className="w-10" />
    </span>
  );
}
