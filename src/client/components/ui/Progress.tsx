import { Progress as ProgressPrimitive } from 'radix-ui';
import { cn } from './cn';

export interface ProgressProps {
  /** 0 to 100. */
  value: number;
  label: string;
  className?: string;
  tone?: 'indigo' | 'green';
}

export function Progress({ value, label, className, tone = 'indigo' }: ProgressProps) {
  const clamped = Math.max(0, Math.min(100, value));
  return (
    <ProgressPrimitive.Root
      value={clamped}
      max={100}
      aria-label={label}
      className={cn(
        'relative h-1.5 w-full overflow-hidden rounded-full bg-zinc-200 dark:bg-zinc-800',
        className,
      )}
    >
      <ProgressPrimitive.Indicator
        className={cn(
          'h-full w-full rounded-full transition-transform duration-300 ease-out motion-reduce:transition-none',
          tone === 'green' ? 'bg-green-600 dark:bg-green-500' : 'bg-indigo-600 dark:bg-indigo-400',
        )}
        style={{ transform: `translateX(-${100 - clamped}%)` }}
      />
    </ProgressPrimitive.Root>
  );
}

/**
 * The compact progress of a row or card (DESIGN.md: a thin bar plus 'N of M done' and the
 * percentage); nothing when there is nothing to count.
 */
export function ProgressLine({
  total,
  completed,
  className,
}: {
  total: number;
  completed: number;
  className?: string;
}) {
  if (total <= 0) return null;
  const done = Math.min(Math.max(completed, 0), total);
  const percent = Math.round((done / total) * 100);
  return (
    <div
      className={cn('flex min-w-0 items-center gap-2 text-xs text-zinc-600 dark:text-zinc-400', className)}
    >
      <Progress
        value={percent}
        label={`${done} of ${total} done, ${percent}%`}
        tone={percent === 100 ? 'green' : 'indigo'}
        className="h-1 max-w-24 flex-1"
      />
      <span className="shrink-0 tabular-nums">
        {done} of {total} done · {percent}%
      </span>
    </div>
  );
}
