// What the first screen shows of time (the header's running clock, a row's spent time), apart from
// the time entries' rules (timeEntries.ts re-exports it): those only the timer's writes need.

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

/**
 * X13: whole minutes of a span, rounded to the nearest, except that a span of any length under a
 * minute counts as 1 (a 22-second timer was work, not nothing); an empty span is 0. A running entry
 * counts up to `now`. The one rounding of the entry's `minutes`, the server's `spent_minutes`, the
 * device's roll-up, the report and its CSV.
 */
export function minutesOf(startedAt: string, endedAt: string | null, now = Date.now()): number {
  const end = endedAt === null ? now : Date.parse(endedAt);
  const ms = end - Date.parse(startedAt);
  if (!(ms > 0)) return 0;
  return Math.max(1, Math.round(ms / 60_000));
}

/** 'spent' or 'spent / estimate' as the rows and pages show it: `1 h 20 m / 3 h`. */
export function formatMinutes(minutes: number): string {
  const h = Math.floor(minutes / 60);
  const m = Math.round(minutes % 60);
  if (h === 0) return `${m} m`;
  return m === 0 ? `${h} h` : `${h} h ${m} m`;
}
