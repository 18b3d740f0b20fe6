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

/** Whole minutes of a span, rounded; a running entry counts up to `now`. */
export function minutesOf(startedAt: string, endedAt: string | null, now = Date.now()): number {
  const end = endedAt === null ? now : Date.parse(endedAt);
  return Math.max(0, Math.round((end - Date.parse(startedAt)) / 60_000));
}

/** 'spent' or 'spent / estimate' as the rows and pages show it: `1 h 20 m / 3 h`. */
export function formatMinutes(minutes: number): string {
  const h = Math.floor(minutes / 60);
  const m = Math.round(minutes % 60);
  if (h === 0) return `${m} m`;
  return m === 0 ? `${h} h` : `${h} h ${m} m`;
}
