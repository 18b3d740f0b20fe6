import { TITLE_MAX_LENGTH } from '../../../shared/item';
import { cn } from './cn';

/** The title's character counter inside its field (the spec: from 200 characters, red over 255). */
export function TitleCounter({ length, tooLong }: { length: number; tooLong: boolean }) {
  return (
    <span
      aria-live="polite"
      className={cn(
        'absolute top-1/2 right-3 -translate-y-1/2 text-xs tabular-nums',
        tooLong ? 'text-red-600 dark:text-red-400' : 'text-zinc-500 dark:text-zinc-400',
      )}
    >
      {length}/{TITLE_MAX_LENGTH}
      <span className="sr-only"> characters</span>
    </span>
  );
}
