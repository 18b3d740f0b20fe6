/**
 * Date-only arithmetic, held once (issue 63): days are 'YYYY-MM-DD' keys and every step between them
 * is taken at midnight UTC, so a daylight-saving change (a 23- or 25-hour local day) never skips or
 * repeats a day. Years 0000–9999 read and write as four digits: `Date.UTC` would read 0050 as 1950,
 * and `toISOString` writes a year past 9999 as +010000. Framework-free: the client, the server and
 * the tests share it; ./agenda.ts re-exports the two steps for its many users.
 */

const DAY_MS = 86_400_000;
const pad = (n: number, width: number) => String(n).padStart(width, '0');

/**
 * Midnight UTC of a day key, in milliseconds. Only the key's first ten characters count (a stored
 * due date's time part is ignored), and a day past its month's end rolls on as Date's does
 * (2026-02-30 is 2026-03-02).
 */
export function dayStart(day: string): number {
  const at = new Date(0);
  // setUTCFullYear, not Date.UTC: the latter maps years 0–99 to 1900–1999.
  at.setUTCFullYear(Number(day.slice(0, 4)), Number(day.slice(5, 7)) - 1, Number(day.slice(8, 10)));
  return at.getTime();
}

/** The day key (YYYY-MM-DD) of an instant in milliseconds, read in UTC. */
function keyOfUtc(ms: number): string {
  const at = new Date(ms);
  return `${pad(at.getUTCFullYear(), 4)}-${pad(at.getUTCMonth() + 1, 2)}-${pad(at.getUTCDate(), 2)}`;
}

/** The day `n` days after `day` (before, for a negative `n`), as YYYY-MM-DD. */
export function addDays(day: string, n: number): string {
  return keyOfUtc(dayStart(day) + n * DAY_MS);
}

/** Whole days from `from` to `to` (positive when `to` is later): addDays(from, daysBetween(from, to)) is `to`. */
export function daysBetween(from: string, to: string): number {
  return Math.round((dayStart(to) - dayStart(from)) / DAY_MS);
}
