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

/** `date` (YYYY-MM-DD) moved `days` days on (back when negative). */
export function shiftDay(date: string, days: number): string {
  const at = new Date(`${date}T00:00:00Z`);
  at.setUTCDate(at.getUTCDate() + days);
  return at.toISOString().slice(0, 10);
}

/** Whole days from `from` to `to` (both YYYY-MM-DD); negative when `to` is earlier. */
export function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000);
}
