/** Joins class names, skipping falsy ones, so variants can be composed with `cond && 'class'`. */
export function cn(...parts: Array<string | false | null | undefined>): string {
  return parts.filter(Boolean).join(' ');
}

/** The one focus ring of the app (indigo, offset so it shows on any surface). */
export const focusRing =
  'outline-none focus-visible:ring-2 focus-visible:ring-indigo-500 focus-visible:ring-offset-2 focus-visible:ring-offset-white dark:focus-visible:ring-indigo-400 dark:focus-visible:ring-offset-zinc-950';
