import { cn } from '../components/ui/cn';

/** The Outpost mark: a tent-like peak on an indigo tile. */
export function BrandMark({ className }: { className?: string }) {
  return (
    <svg aria-hidden="true" viewBox="0 0 32 32" className={cn('size-7 shrink-0', className)}>
      <rect width="32" height="32" rx="8" className="fill-indigo-600 dark:fill-indigo-500" />
      <path d="M16 6 7 24h18L16 6Zm0 6.5 4.6 9.5h-9.2L16 12.5Z" className="fill-white" />
    </svg>
  );
}
