/**
 * Estimates as people write them (ARCHITECTURE §4 'Start dates, estimates and time'): '1h 30m',
 * '90m', '1.5h', '2 h', '1:30', a bare number of minutes. One parser for the item's page, the Create
 * dialog and quick add, so '~2h' and '2h' in a field mean the same.
 */

/** Told when an estimate field's text is not a duration. */
export const ESTIMATE_HELP = 'Write a duration such as 45m, 2h or 1h 30m (at most 100,000 minutes).';

/** The largest estimate an item holds, in minutes (about 69 days of work). */
export const ESTIMATE_MAX_MINUTES = 100_000;

const UNIT_MINUTES: Record<string, number> = {
  d: 8 * 60,
  day: 8 * 60,
  days: 8 * 60,
  h: 60,
  hr: 60,
  hrs: 60,
  hour: 60,
  hours: 60,
  m: 1,
  min: 1,
  mins: 1,
  minute: 1,
  minutes: 1,
};

/**
 * Minutes from a written duration, or null when the text is not one or is past ESTIMATE_MAX_MINUTES.
 * A day ('1d') is a working day of 8 hours; fractions round to the nearest minute.
 */
export function parseDuration(text: string): number | null {
  const value = text.trim().toLowerCase();
  if (value === '') return null;
  let minutes: number;
  const clock = /^(\d{1,4}):([0-5]\d)$/.exec(value);
  if (clock) minutes = Number(clock[1]) * 60 + Number(clock[2]);
  else if (/^\d{1,6}$/.test(value)) minutes = Number(value);
  else {
    const part = /(\d+(?:\.\d+)?|\.\d+)\s*([a-z]+)\s*/gy;
    minutes = 0;
    let seen = 0;
    let end = 0;
    const units = new Set<number>();
    for (let m = part.exec(value); m !== null; m = part.exec(value)) {
      const unit = UNIT_MINUTES[m[2] as string];
      if (unit === undefined || units.has(unit)) return null;
      units.add(unit);
      minutes += Number(m[1]) * unit;
      seen += 1;
      end = part.lastIndex;
    }
    if (seen === 0 || end !== value.length) return null;
  }
  const rounded = Math.round(minutes);
  return Number.isFinite(rounded) && rounded >= 0 && rounded <= ESTIMATE_MAX_MINUTES ? rounded : null;
}

/** '1 h 30 m', '45 m', '3 h', '0 m': how an estimate reads on a page, a chip and an activity line. */
export function formatDuration(minutes: number): string {
  const hours = Math.floor(minutes / 60);
  const rest = minutes % 60;
  if (hours === 0) return `${rest} m`;
  return rest === 0 ? `${hours} h` : `${hours} h ${rest} m`;
}

/** What an estimate field shows for editing: '1h 30m', '45m', '' for none (parseDuration reads it back). */
export function durationInput(minutes: number | null | undefined): string {
  if (minutes === null || minutes === undefined) return '';
  return formatDuration(minutes).replaceAll(' h', 'h').replaceAll(' m', 'm');
}
