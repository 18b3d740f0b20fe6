import type { ReactNode } from 'react';
import { useSearchParams } from 'react-router';
import { Button } from './Button';
import { cn } from './cn';
import { EmptyState } from './EmptyState';
import { SkeletonRows } from './Skeleton';

/** The page's one h1 and its subtitle. */
export function PageHeader({
  title,
  subtitle,
  actions,
  className,
}: {
  title: ReactNode;
  subtitle?: ReactNode;
  actions?: ReactNode;
  className?: string;
}) {
  return (
    <header className={cn('mb-5 flex items-start justify-between gap-4', className)}>
      <div className="min-w-0">
        <h1 className="text-2xl font-semibold tracking-tight text-zinc-900 dark:text-zinc-50">{title}</h1>
        {subtitle ? <p className="mt-1 text-sm text-zinc-600 dark:text-zinc-400">{subtitle}</p> : null}
      </div>
      {actions}
    </header>
  );
}

/** A feature page's root; the shell's <main> already gives the column width and gutters. */
export function PageColumn({ children, className }: { children: ReactNode; className?: string }) {
  return <div className={cn('flex flex-col', className)}>{children}</div>;
}

/** Skeleton rows the size of item rows, with the spec's loading text for screen readers. */
export function ListLoading({ label, rows = 6 }: { label: string; rows?: number }) {
  return <SkeletonRows count={rows} label={label} />;
}

export function ListEmpty({ icon, title, hint }: { icon: ReactNode; title: string; hint?: string }) {
  return <EmptyState icon={icon} title={title} description={hint} />;
}

/** A tab kept in the URL (?tab=…), so Back and reloads return to it. */
export function useTabParam<T extends string>(
  allowed: readonly T[],
  fallback: T,
): [T, (next: string) => void] {
  const [params, setParams] = useSearchParams();
  const raw = params.get('tab');
  const value = (allowed as readonly string[]).includes(raw ?? '') ? (raw as T) : fallback;
  const set = (next: string) => {
    setParams(
      (prev) => {
        const copy = new URLSearchParams(prev);
        if (next === fallback) copy.delete('tab');
        else copy.set('tab', next);
        return copy;
      },
      { replace: true },
    );
  };
  return [value, set];
}

/**
 * The footer of a list read a page at a time: 'Show more' loads the next page (nothing when the whole
 * list is shown). `total` names how many there are when the screen knows it without loading them.
 */
export function ShowMore({
  more,
  onMore,
  shown,
  total,
}: {
  more: boolean;
  onMore: () => void;
  shown: number;
  total?: number;
}) {
  if (!more) return null;
  return (
    <div className="flex justify-center border-t border-zinc-200 p-2 dark:border-zinc-800">
      <Button variant="ghost" size="sm" onClick={onMore}>
        Show more
        <span className="sr-only">
          {total === undefined ? ` (${shown} shown)` : ` (${shown} of ${total} shown)`}
        </span>
      </Button>
    </div>
  );
}
