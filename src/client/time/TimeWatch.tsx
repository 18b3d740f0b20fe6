/**
 * The running timer in the header: drawn from the timer store alone, which TimerFeed.tsx feeds once the
 * data layer has loaded. The header loads this module only while a timer runs.
 */
import { Square, Timer } from 'lucide-react';
import { Link } from 'react-router';
import { formatElapsed } from '../../shared/timerClock';
import { cn, focusRing } from '../components/ui/cn';
import { pageOf, useElapsed } from './elapsed';
import { useTimer } from './mutations';
import { useRunningTimer } from './timerStore';

/** The running timer in the header on every screen (§5 'Time tracking'): its item, elapsed time and Stop. */
export function TimeWatch({ compact = false }: { compact?: boolean }) {
  const running = useRunningTimer();
  const clock = formatElapsed(useElapsed(running?.startedAt ?? null));
  const { stop } = useTimer();
  if (!running) return null;
  return (
    <div
      className="flex h-9 min-w-0 shrink items-center rounded-lg border border-emerald-200 bg-emerald-50 text-emerald-900 dark:border-emerald-900 dark:bg-emerald-950/60 dark:text-emerald-100"
      data-running-timer
    >
      <Link
        to={pageOf(running)}
        className={cn('flex min-w-0 items-center gap-1.5 rounded-l-lg py-1 pr-1 pl-2 text-sm', focusRing)}
        aria-label={`Timer running on ${running.title}: ${clock}. Open it`}
      >
        <Timer className="size-4 shrink-0 motion-safe:animate-pulse" aria-hidden />
        <span className="font-mono tabular-nums" aria-hidden>
          {clock}
        </span>
        {compact ? null : (
          <span className="hidden max-w-40 truncate 2xl:inline" aria-hidden>
            {running.title}
          </span>
        )}
      </Link>
      <button
        type="button"
        onClick={() => void stop(running.uuid)}
        className={cn(
          'flex h-full items-center rounded-r-lg border-l border-emerald-200 px-2 hover:bg-emerald-100 dark:border-emerald-900 dark:hover:bg-emerald-900/60',
          focusRing,
        )}
        aria-label={`Stop timer on ${running.title}`}
        title="Stop timer"
      >
        <Square className="size-3.5 fill-current" aria-hidden />
      </button>
    </div>
  );
}
