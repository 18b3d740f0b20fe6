/**
 * An item's span (ARCHITECTURE §4 'Start dates, estimates and time', SYNC.md D10): its start date is
 * never after its due date. The server answers a write that breaks it with a 422 naming `start_date`,
 * the device refuses the same write before storing it, and an import leaves such a start out.
 */

/** What is wrong with a start and due date pair, or null when they fit (either may be none). */
export function spanProblem(start: string | null | undefined, due: string | null | undefined): string | null {
  if (!start || !due || start <= due) return null;
  return 'The start date must be on or before the due date.';
}
