import { Tag } from 'lucide-react';
import { useMemo } from 'react';
import { countLabels } from '../../shared/labels';
import { labelKey } from '../../shared/planning';
import { cn, focusRing } from '../components/ui/cn';

/**
 * Chips for the labels that occur in a list's rows (those the list has read from the device: a page
 * at a time, more with 'Show more'), with how many carry each; pressing one filters the list to it
 * (compared without case), pressing it again shows everything. A chosen label stays as a chip after
 * its last item leaves the list, so it can always be cleared. Nothing shows while no row has a label.
 */
export function LabelFilter({
  items,
  value,
  onChange,
  className,
}: {
  items: readonly { labels?: readonly string[] }[];
  value: string | null;
  onChange: (label: string | null) => void;
  className?: string;
}) {
  const labels = useMemo(() => countLabels(items), [items]);
  const chips =
    value !== null && !labels.some((l) => labelKey(l.name) === labelKey(value))
      ? [{ name: value, count: 0 }, ...labels]
      : labels;
  if (chips.length === 0) return null;
  return (
    <fieldset className={cn('m-0 flex min-w-0 flex-wrap items-center gap-1.5 border-0 p-0', className)}>
      <legend className="sr-only">Filter by label</legend>
      <Tag className="size-3.5 shrink-0 text-zinc-500 dark:text-zinc-400" aria-hidden />
      {chips.map(({ name, count }) => {
        const on = value !== null && labelKey(value) === labelKey(name);
        return (
          <button
            key={labelKey(name)}
            type="button"
            aria-pressed={on}
            aria-label={`${name}, ${count} ${count === 1 ? 'item' : 'items'}`}
            onClick={() => onChange(on ? null : name)}
            className={cn(
              'inline-flex h-7 max-w-48 items-center gap-1 rounded-full border px-2.5 text-xs font-medium transition-colors motion-reduce:transition-none',
              on
                ? 'border-indigo-600 bg-indigo-600 text-white hover:bg-indigo-700 dark:border-indigo-400 dark:bg-indigo-400 dark:text-zinc-950 dark:hover:bg-indigo-300'
                : 'border-zinc-200 bg-white text-zinc-700 hover:bg-zinc-100 dark:border-zinc-700 dark:bg-zinc-900 dark:text-zinc-300 dark:hover:bg-zinc-800',
              focusRing,
            )}
          >
            <span className="truncate">{name}</span>
            <span
              aria-hidden
              className={cn('tabular-nums', on ? 'opacity-80' : 'text-zinc-500 dark:text-zinc-400')}
            >
              {count}
            </span>
          </button>
        );
      })}
    </fieldset>
  );
}
