/**
 * Time zones by IANA name (ARCHITECTURE §4 'Planning fields'): which names an item may carry, and the
 * wall-clock arithmetic a repeating reminder needs (§5 'Recurrence', SYNC.md N5), with Intl alone so
 * that the client and the server compute the same instant without a time zone library.
 */

/** The zone of an item that never named one (items from before the field existed). */
export const DEFAULT_TIME_ZONE = 'UTC';
/** Longer than any IANA name (the longest is about 32 characters); the column's width. */
export const TIME_ZONE_MAX_LENGTH = 64;

// Region/City names, Etc/GMT+5, EST5EDT, UTC; never an offset such as '+05:00', which newer engines
// accept as a zone but which is not a place and has no daylight saving to follow.
const IANA_NAME = /^[A-Za-z][A-Za-z0-9_+-]*(?:\/[A-Za-z0-9_+-]+)*$/;

let known: Map<string, string> | null = null;

/** The engine's canonical names by lower case, for spelling a name as the engine does. */
function knownZones(): Map<string, string> {
  if (known) return known;
  known = new Map();
  const supported = typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : [];
  for (const name of [...supported, DEFAULT_TIME_ZONE]) known.set(name.toLowerCase(), name);
  return known;
}

const formatters = new Map<string, Intl.DateTimeFormat>();

/** One cached formatter per zone (building one costs far more than using it); throws on an unknown zone. */
function formatterFor(zone: string): Intl.DateTimeFormat {
  let format = formatters.get(zone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
      era: 'short',
    });
    formatters.set(zone, format);
  }
  return format;
}

/**
 * The IANA name as stored (the engine's spelling when it lists the name), or null when `name` is not
 * a time zone. Aliases the engine knows but does not list (Asia/Kolkata beside Asia/Calcutta in some
 * ICU versions) are kept as given: a device reports what its engine calls the zone.
 */
export function normalizeTimeZone(name: string): string | null {
  const trimmed = name.trim();
  if (trimmed.length === 0 || trimmed.length > TIME_ZONE_MAX_LENGTH || !IANA_NAME.test(trimmed)) return null;
  const listed = knownZones().get(trimmed.toLowerCase());
  if (listed) return listed;
  try {
    formatterFor(trimmed);
    return trimmed;
  } catch {
    return null;
  }
}

/** The time zone this device runs in (what a new item carries), or UTC when the engine does not say. */
export function deviceTimeZone(): string {
  try {
    const zone = new Intl.DateTimeFormat().resolvedOptions().timeZone;
    return (zone && normalizeTimeZone(zone)) || DEFAULT_TIME_ZONE;
  } catch {
    return DEFAULT_TIME_ZONE;
  }
}

/** The zone to compute with: an item's own, or UTC for none or one this engine does not know. */
function usableZone(zone: string | null | undefined): string {
  return (zone && normalizeTimeZone(zone)) || DEFAULT_TIME_ZONE;
}

/** The wall-clock time at `instant` (ms) in `zone`, as milliseconds of a UTC date with those fields. */
function wallClock(instant: number, zone: string): number {
  const fields: Record<string, number> = {};
  let bc = false;
  for (const part of formatterFor(zone).formatToParts(new Date(instant))) {
    if (part.type === 'era') bc = part.value.startsWith('B');
    else if (part.type !== 'literal') fields[part.type] = Number(part.value);
  }
  const year = bc ? 1 - (fields.year as number) : (fields.year as number);
  const at = new Date(0);
  at.setUTCFullYear(year, (fields.month as number) - 1, fields.day as number);
  at.setUTCHours(fields.hour as number, fields.minute as number, fields.second as number, 0);
  // Intl shows whole seconds; the instant's own milliseconds carry over unchanged.
  return at.getTime() + (((instant % 1000) + 1000) % 1000);
}

/** The zone's offset from UTC at `instant`, in ms (positive east of Greenwich). */
function offsetAt(instant: number, zone: string): number {
  return wallClock(instant, zone) - instant;
}

const DAY_MS = 86_400_000;

/**
 * The instant at which `zone`'s clocks show `local` (a wall-clock time as UTC-date milliseconds).
 * Of two such instants (clocks set back) the first; when the clocks skip it (set forward), the
 * first instant after the skipped hour, the moment the clocks jump.
 */
function instantOfWallClock(local: number, zone: string): number {
  // A zone changes its offset at most once in any two days, so the offsets a day either side are the
  // only ones that can apply.
  const before = offsetAt(local - DAY_MS, zone);
  const after = offsetAt(local + DAY_MS, zone);
  const candidates = [local - before, local - after].filter((t) => wallClock(t, zone) === local);
  if (candidates.length > 0) return Math.min(...candidates);
  // In the gap: the change lies between these two instants; find it to the millisecond.
  let lo = Math.min(local - before, local - after);
  let hi = Math.max(local - before, local - after);
  const loOffset = offsetAt(lo, zone);
  while (hi - lo > 1) {
    const mid = Math.floor((lo + hi) / 2);
    if (offsetAt(mid, zone) === loOffset) lo = mid;
    else hi = mid;
  }
  return hi;
}

/**
 * `instant` (ISO 8601) moved `days` calendar days on in `zone`, at the same wall-clock time there
 * (ARCHITECTURE §5: 09:00 in New York stays 09:00 across a daylight-saving change), as ISO 8601 UTC.
 */
export function shiftWallClock(instant: string, days: number, zone: string | null | undefined): string {
  const usable = usableZone(zone);
  const local = wallClock(Date.parse(instant), usable);
  return new Date(instantOfWallClock(local + days * DAY_MS, usable)).toISOString();
}

/** The wall-clock time of `instant` (ISO 8601) in `zone` as `YYYY-MM-DDTHH:MM:SS.sss` (no offset). */
export function wallClockOf(instant: string, zone: string | null | undefined): string {
  return new Date(wallClock(Date.parse(instant), usableZone(zone))).toISOString().slice(0, 23);
}

/**
 * The instant (ISO 8601 UTC) at which `zone`'s clocks show `date` (YYYY-MM-DD) at `hour`:`minute`;
 * a skipped time gives the moment the clocks jump, a repeated one the first of the two.
 */
export function instantAt(
  date: string,
  hour: number,
  minute: number,
  zone: string | null | undefined,
): string {
  const local = Date.parse(`${date}T00:00:00Z`) + (hour * 60 + minute) * 60_000;
  return new Date(instantOfWallClock(local, usableZone(zone))).toISOString();
}

/** The zone's offset from UTC at `instant` (ISO 8601), in minutes (positive east of Greenwich). */
export function offsetMinutesAt(instant: string, zone: string | null | undefined): number {
  return Math.round(offsetAt(Date.parse(instant), usableZone(zone)) / 60_000);
}
