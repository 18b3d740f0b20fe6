// The header's running clock, apart from the time entries' schemas and CSV (timeEntries.ts): the
// header is in the first screen's chunk, and those bring zod, papaparse and the import rules with them.

/** After this long a running timer notifies its person once (§5 'Time tracking'). */
export const TIMER_ALERT_MS = 8 * 60 * 60 * 1000;

/** The running timer's elapsed time as a clock: `0:04:09`, `12:00:00`. */
export function formatElapsed(ms: number): string {
  const total = Math.max(0, Math.floor(ms / 1000));
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  return `${h}:${String(m).padStart(2, '0')}:${String(s).padStart(2, '0')}`;
}
