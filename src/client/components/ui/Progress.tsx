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
