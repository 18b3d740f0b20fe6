import type { ReactNode } from 'react';
import { cn } from '../components/ui/cn';

/**
 * One group of Today or Upcoming under its heading ('Overdue', 'Today · Wed 25 Nov', 'Tomorrow'): an
 * h2 that stays at the top while its group scrolls by, named for screen readers with its date.
 */
export function AgendaSection({
  id,
  heading,
  sub,
  count,
  tone,
  empty,
  action,
  children,
}: {
  id: string;
  heading: string;
  sub?: string;
  count?: number;
  tone?: 'late';
  /** Said beside the heading of an empty group ('Nothing planned'), which then takes one line. */
  empty?: string;
  action?: ReactNode;
  children: ReactNode;
}) {
  const headingId = `agenda-${id}`;
  return (
    <section aria-labelledby={headingId} className={cn('flex flex-col', empty ? 'gap-0' : 'gap-2')}>
      <div className="sticky top-[calc(3.5rem+1px+env(safe-area-inset-top))] z-10 -mx-1 flex min-h-10 items-center gap-2 bg-white/95 px-1 py-1 backdrop-blur-sm md:top-[calc(4rem+1px+env(safe-area-inset-top))] dark:bg-zinc-950/95">
        <h2
          id={headingId}
          className={cn(
            'flex min-w-0 items-baseline gap-1.5 text-sm font-semibold',
            tone === 'late' ? 'text-red-700 dark:text-red-400' : 'text-zinc-900 dark:text-zinc-100',
          )}
        >
          <span>{heading}</span>
          {sub ? (
            <span className="truncate font-normal text-zinc-500 dark:text-zinc-400">
              <span aria-hidden>· </span>
              <span className="sr-only">, </span>
              {sub}
            </span>
          ) : null}
        </h2>
        {count !== undefined && count > 0 ? (
          <span className="text-xs tabular-nums text-zinc-500 dark:text-zinc-400">
            {count}
            <span className="sr-only">{count === 1 ? ' item' : ' items'}</span>
          </span>
        ) : null}
        {empty ? <span className="truncate text-sm text-zinc-500 dark:text-zinc-400">{empty}</span> : null}
        {action ? <div className="ml-auto">{action}</div> : null}
      </div>
      {children}
    </section>
  );
}
