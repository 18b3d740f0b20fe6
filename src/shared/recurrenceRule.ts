/**
 * Recurrence rules as text: the RFC 5545 RRULE subset Outpost accepts (ARCHITECTURE §5), read,
 * checked, stepped and summarised without the `rrule` library. Stepping is ours because rrule walks
 * empty months up to the year 9999 before it gives up (a second of blocked event loop for a rule
 * such as the 53rd Monday of a month); ours stops after one 400-year Gregorian cycle, after which
 * the calendar repeats, so a rule that has no date there has none at all. It gives rrule's dates
 * (recurrence.test.ts holds it to that). ./recurrence builds the next occurrence from it.
 */

export const RECURRENCE_MAX_LENGTH = 255;
export const RECURRENCE_FREQS = ['DAILY', 'WEEKLY', 'MONTHLY', 'YEARLY'] as const;
export type RecurrenceFreq = (typeof RECURRENCE_FREQS)[number];
/** RFC 5545 weekday codes, Monday first (the order a summary lists them in). */
export const WEEKDAY_CODES = ['MO', 'TU', 'WE', 'TH', 'FR', 'SA', 'SU'] as const;
export type WeekdayCode = (typeof WEEKDAY_CODES)[number];
export const WEEKDAY_SHORT: Record<WeekdayCode, string> = {
  MO: 'Mon',
  TU: 'Tue',
  WE: 'Wed',
  TH: 'Thu',
  FR: 'Fri',
  SA: 'Sat',
  SU: 'Sun',
};
/** Most steps one INTERVAL may take; beyond it a typo, not a plan. */
export const RECURRENCE_MAX_INTERVAL = 999;
export const RECURRENCE_MAX_COUNT = 1000;

export interface ByDay {
  /** The nth weekday of the month or year (negative from the end); null for every such weekday. */
  n: number | null;
  day: WeekdayCode;
}

/** A rule read into parts; `until` is the last allowed date as YYYY-MM-DD. */
export interface RecurrenceRule {
  freq: RecurrenceFreq;
  interval: number;
  byDay: ByDay[];
  byMonthDay: number[];
  count: number | null;
  until: string | null;
  /** The day weeks start on, which decides the weeks INTERVAL skips; null for Monday, RFC 5545's default. */
  wkst: WeekdayCode | null;
  /**
   * The series' reminder time (BYHOUR, BYMINUTE), carried only by an occurrence whose reminder the
   * clocks skipped, so the next one goes back to it (SYNC.md N11); absent otherwise.
   */
  at?: { hour: number; minute: number } | null;
}

export type ParsedRule = { ok: true; rule: RecurrenceRule } | { ok: false; message: string };

const INVALID = 'The repeat rule is not a valid RRULE (for example FREQ=WEEKLY;BYDAY=MO).';
const KNOWN_PARTS = [
  'FREQ',
  'INTERVAL',
  'BYDAY',
  'BYMONTHDAY',
  'COUNT',
  'UNTIL',
  'WKST',
  'BYHOUR',
  'BYMINUTE',
] as const;

const fail = (message: string): ParsedRule => ({ ok: false, message });

function wholeNumber(value: string, min: number, max: number): number | null {
  if (!/^[+-]?\d{1,4}$/.test(value)) return null;
  const n = Number(value);
  return n >= min && n <= max ? n : null;
}

function untilDate(value: string): string | null {
  const match = /^(\d{4})(\d{2})(\d{2})(?:T\d{6}Z?)?$/.exec(value);
  if (!match) return null;
  const day = `${match[1]}-${match[2]}-${match[3]}`;
  const at = Date.parse(`${day}T00:00:00Z`);
  // Date.parse rolls 2026-02-30 over to March: a round trip catches it.
  return Number.isNaN(at) || new Date(at).toISOString().slice(0, 10) !== day ? null : day;
}

/** Reads an RRULE string (an optional `RRULE:` prefix, any letter case) into its parts, or says what is wrong. */
export function parseRecurrence(text: string): ParsedRule {
  if (text.length > RECURRENCE_MAX_LENGTH)
    return fail(`The repeat rule must be ${RECURRENCE_MAX_LENGTH} characters or less.`);
  const body = text.trim().replace(/^RRULE:/i, '');
  if (body === '') return fail(INVALID);
  const parts = new Map<string, string>();
  for (const part of body.split(';')) {
    const eq = part.indexOf('=');
    if (eq <= 0) return fail(INVALID);
    const key = part.slice(0, eq).toUpperCase();
    const value = part.slice(eq + 1).toUpperCase();
    if (!(KNOWN_PARTS as readonly string[]).includes(key))
      return fail(
        `The repeat rule cannot use ${key}; use FREQ, INTERVAL, BYDAY, BYMONTHDAY, COUNT, UNTIL, WKST, BYHOUR or BYMINUTE.`,
      );
    if (parts.has(key) || value === '') return fail(INVALID);
    parts.set(key, value);
  }
  const freq = parts.get('FREQ');
  if (!freq || !(RECURRENCE_FREQS as readonly string[]).includes(freq))
    return fail('The repeat rule needs FREQ=DAILY, WEEKLY, MONTHLY or YEARLY.');
  const intervalText = parts.get('INTERVAL');
  const interval = intervalText === undefined ? 1 : wholeNumber(intervalText, 1, RECURRENCE_MAX_INTERVAL);
  if (interval === null) return fail(`INTERVAL must be a whole number from 1 to ${RECURRENCE_MAX_INTERVAL}.`);
  const byDay: ByDay[] = [];
  for (const entry of parts.get('BYDAY')?.split(',') ?? []) {
    const match = /^([+-]?\d{1,2})?(MO|TU|WE|TH|FR|SA|SU)$/.exec(entry);
    const n = match?.[1] === undefined ? null : Number(match[1]);
    if (!match || n === 0 || (n !== null && Math.abs(n) > 53))
      return fail('BYDAY must list weekdays such as MO,TH.');
    if (n !== null && freq !== 'MONTHLY' && freq !== 'YEARLY')
      return fail('A numbered BYDAY (such as 1MO) needs FREQ=MONTHLY or YEARLY.');
    if (n !== null && freq === 'MONTHLY' && Math.abs(n) > 5)
      return fail(
        'In a monthly rule a numbered BYDAY counts from 1 to 5 (or -1 to -5 from the end): no month has more.',
      );
    byDay.push({ n, day: match[2] as WeekdayCode });
  }
  // RFC 5545 reads MO,1FR as either day; rrule (whose dates the stepping below gives) as both at
  // once, which no day is. Refusing beats silently picking one reading.
  if (byDay.some((d) => d.n === null) && byDay.some((d) => d.n !== null))
    return fail('BYDAY may list plain weekdays (MO,TH) or numbered ones (1MO,-1FR), not both.');
  const byMonthDay: number[] = [];
  for (const entry of parts.get('BYMONTHDAY')?.split(',') ?? []) {
    const day = wholeNumber(entry, -31, 31);
    if (day === null || day === 0) return fail('BYMONTHDAY must list days of the month from 1 to 31.');
    byMonthDay.push(day);
  }
  const countText = parts.get('COUNT');
  const count = countText === undefined ? null : wholeNumber(countText, -9999, 9999);
  if (countText !== undefined && count === null) return fail('COUNT must be a whole number.');
  if (count !== null && count < 1)
    return fail('COUNT must be at least 1: this series has no occurrences left.');
  if (count !== null && count > RECURRENCE_MAX_COUNT)
    return fail(`COUNT must be at most ${RECURRENCE_MAX_COUNT}.`);
  const untilText = parts.get('UNTIL');
  const until = untilText === undefined ? null : untilDate(untilText);
  if (untilText !== undefined && until === null) return fail('UNTIL must be a date such as 20270131.');
  if (count !== null && until !== null) return fail('A repeat rule may end by COUNT or by UNTIL, not both.');
  const wkstText = parts.get('WKST');
  if (wkstText !== undefined && !(WEEKDAY_CODES as readonly string[]).includes(wkstText))
    return fail('WKST must be a weekday: MO, TU, WE, TH, FR, SA or SU.');
  const wkst = wkstText === undefined || wkstText === 'MO' ? null : (wkstText as WeekdayCode);
  const hourText = parts.get('BYHOUR');
  const minuteText = parts.get('BYMINUTE');
  let at: RecurrenceRule['at'] = null;
  if (hourText !== undefined || minuteText !== undefined) {
    const hour = wholeNumber(hourText ?? '', 0, 23);
    const minute = minuteText === undefined ? 0 : wholeNumber(minuteText, 0, 59);
    if (hour === null || minute === null)
      return fail('BYHOUR must be one hour from 0 to 23, and BYMINUTE one minute from 0 to 59 beside it.');
    at = { hour, minute };
  }
  const rule: RecurrenceRule = {
    freq: freq as RecurrenceFreq,
    interval,
    byDay,
    byMonthDay,
    count,
    until,
    wkst,
    ...(at ? { at } : {}),
  };
  // Whether the weekdays and month days ever meet is the same question on any start date when the
  // rule steps by one: one cycle of the calendar from any day answers it.
  if (
    (byDay.length > 0 || byMonthDay.length > 0) &&
    ruleDateAfter({ ...rule, interval: 1, until: null, wkst: null }, '2001-01-01') === null
  )
    return fail('This repeat rule never gives a date: no day is both its BYDAY and its BYMONTHDAY.');
  return { ok: true, rule };
}

// Days are counted from 1970-01-01 (day 0, a Thursday) in the proleptic Gregorian calendar, the
// arithmetic of H. Hinnant's 'chrono-compatible low-level date algorithms', so stepping makes no Date.
function dayNumber(y: number, m: number, d: number): number {
  const year = m <= 2 ? y - 1 : y;
  const era = Math.floor(year / 400);
  const yoe = year - era * 400;
  const doy = Math.floor((153 * (m > 2 ? m - 3 : m + 9) + 2) / 5) + d - 1;
  return era * 146097 + yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy - 719468;
}

function civilDate(day: number): { y: number; m: number; d: number } {
  const z = day + 719468;
  const era = Math.floor(z / 146097);
  const doe = z - era * 146097;
  const yoe = Math.floor(
    (doe - Math.floor(doe / 1460) + Math.floor(doe / 36524) - Math.floor(doe / 146096)) / 365,
  );
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const m = mp < 10 ? mp + 3 : mp - 9;
  return { y: yoe + era * 400 + (m <= 2 ? 1 : 0), m, d: doy - Math.floor((153 * mp + 2) / 5) + 1 };
}

/** Monday 0 … Sunday 6, the order of WEEKDAY_CODES. */
const weekdayIndex = (day: number) => (((day + 3) % 7) + 7) % 7;
const monthStart = (y: number, m: number) => (m > 12 ? dayNumber(y + 1, m - 12, 1) : dayNumber(y, m, 1));
const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/** One Gregorian cycle (400 years: 146,097 days, 20,871 weeks, 4,800 months) in each step's unit. */
const CYCLE: Record<RecurrenceFreq, number> = { DAILY: 146097, WEEKLY: 20871, MONTHLY: 4800, YEARLY: 400 };
/** rrule's last year, and the last a YYYY-MM-DD can spell. */
const LAST_YEAR = 9999;

/**
 * The rule's first date strictly after `due` (YYYY-MM-DD) on or before its UNTIL, or null when it has
 * none (COUNT is the caller's). As rrule reads a rule: steps of INTERVAL days, weeks (from WKST),
 * months or years from the one holding `due`; a rule with neither BYDAY nor BYMONTHDAY repeats
 * `due`'s weekday (weekly), day (monthly) or day and month (yearly); a numbered BYDAY counts in the
 * month (monthly) or the year (yearly); every BY part must hold. Looks at most one calendar cycle of
 * steps, a few milliseconds at worst, and never past the year 9999.
 */
export function ruleDateAfter(rule: RecurrenceRule, due: string): string | null {
  const dueYear = Number(due.slice(0, 4));
  const dueMonth = Number(due.slice(5, 7));
  const dueDate = Number(due.slice(8, 10));
  const start = dayNumber(dueYear, dueMonth, dueDate);
  const last = Math.min(
    rule.until === null
      ? Number.POSITIVE_INFINITY
      : dayNumber(
          Number(rule.until.slice(0, 4)),
          Number(rule.until.slice(5, 7)),
          Number(rule.until.slice(8, 10)),
        ),
    dayNumber(LAST_YEAR, 12, 31),
  );
  const bare = rule.byDay.length === 0 && rule.byMonthDay.length === 0;
  const plain = new Set(rule.byDay.filter((d) => d.n === null).map((d) => WEEKDAY_CODES.indexOf(d.day)));
  if (bare && rule.freq === 'WEEKLY') plain.add(weekdayIndex(start));
  const numbered = rule.byDay.flatMap((d) =>
    d.n === null ? [] : [{ n: d.n, day: WEEKDAY_CODES.indexOf(d.day) }],
  );
  const monthDays = bare && (rule.freq === 'MONTHLY' || rule.freq === 'YEARLY') ? [dueDate] : rule.byMonthDay;
  const onlyMonth = bare && rule.freq === 'YEARLY' ? dueMonth : null;

  /** Whether `day` (y-m-d, in a month that starts on `monthFirst`) is one of the rule's days. */
  const matches = (day: number, y: number, m: number, d: number, monthFirst: number, monthLength: number) => {
    const weekday = weekdayIndex(day);
    if (plain.size > 0 && !plain.has(weekday)) return false;
    if (onlyMonth !== null && m !== onlyMonth) return false;
    if (monthDays.length > 0 && !monthDays.some((md) => (md > 0 ? md === d : monthLength + md + 1 === d)))
      return false;
    if (numbered.length > 0) {
      // The nth such weekday counted in the month (monthly) or the year (yearly), from either end.
      const from = rule.freq === 'MONTHLY' ? monthFirst : dayNumber(y, 1, 1);
      const to = rule.freq === 'MONTHLY' ? monthFirst + monthLength : dayNumber(y + 1, 1, 1);
      const forward = Math.floor((day - from) / 7) + 1;
      const backward = -(Math.floor((to - 1 - day) / 7) + 1);
      if (!numbered.some((x) => x.day === weekday && (x.n === forward || x.n === backward))) return false;
    }
    return true;
  };

  const weekStart = start - ((weekdayIndex(start) - WEEKDAY_CODES.indexOf(rule.wkst ?? 'MO') + 7) % 7);
  for (let k = 0; k <= CYCLE[rule.freq]; k += 1) {
    const step = k * rule.interval;
    let from: number;
    let to: number;
    if (rule.freq === 'DAILY') {
      from = start + step;
      to = from + 1;
    } else if (rule.freq === 'WEEKLY') {
      from = weekStart + 7 * step;
      to = from + 7;
    } else if (rule.freq === 'MONTHLY') {
      const month = dueYear * 12 + dueMonth - 1 + step;
      from = dayNumber(Math.floor(month / 12), (month % 12) + 1, 1);
      to = monthStart(Math.floor(month / 12), (month % 12) + 2);
    } else {
      from = dayNumber(dueYear + step, 1, 1);
      to = dayNumber(dueYear + step + 1, 1, 1);
    }
    if (from > last) return null;
    let day = Math.max(from, start + 1);
    if (day >= to) continue;
    // The calendar date walks along with the day number: one conversion a step, not one a day.
    let { y, m, d } = civilDate(day);
    let monthFirst = day - d + 1;
    let monthLength = monthStart(y, m + 1) - monthFirst;
    for (; day < to; day += 1, d += 1) {
      if (d > monthLength) {
        d = 1;
        m = m === 12 ? 1 : m + 1;
        if (m === 1) y += 1;
        monthFirst = day;
        monthLength = monthStart(y, m + 1) - monthFirst;
      }
      if (day > last) return null;
      if (matches(day, y, m, d, monthFirst, monthLength)) return `${pad(y, 4)}-${pad(m)}-${pad(d)}`;
    }
  }
  return null;
}

/** The rule as Outpost stores it: upper case, parts in one order, no prefix, defaults left out. */
export function formatRecurrence(rule: RecurrenceRule): string {
  const parts = [`FREQ=${rule.freq}`];
  if (rule.interval !== 1) parts.push(`INTERVAL=${rule.interval}`);
  if (rule.byDay.length > 0) parts.push(`BYDAY=${rule.byDay.map((d) => `${d.n ?? ''}${d.day}`).join(',')}`);
  if (rule.byMonthDay.length > 0) parts.push(`BYMONTHDAY=${rule.byMonthDay.join(',')}`);
  if (rule.count !== null) parts.push(`COUNT=${rule.count}`);
  if (rule.until !== null) parts.push(`UNTIL=${rule.until.replaceAll('-', '')}`);
  if (rule.wkst !== null && rule.wkst !== 'MO') parts.push(`WKST=${rule.wkst}`);
  if (rule.at) parts.push(`BYHOUR=${rule.at.hour}`, `BYMINUTE=${rule.at.minute}`);
  return parts.join(';');
}

/**
 * What is wrong with a rule on an item (null when nothing): the rule itself, an end already past on
 * `today` (YYYY-MM-DD), a campaign, or no due date to count from. The server and the client's
 * repository both run it on the item as it will be after the write.
 */
export function recurrenceProblem(
  item: { type: string; due_date: string | null; recurrence: string | null },
  today: string,
): string | null {
  if (item.recurrence === null) return null;
  const parsed = parseRecurrence(item.recurrence);
  if (!parsed.ok) return parsed.message;
  if (item.type === 'campaign') return 'Only tasks and todos can repeat.';
  if (item.due_date === null) return 'A repeating item needs a due date.';
  if (parsed.rule.until !== null && parsed.rule.until < today)
    return 'The repeat rule ends in the past (UNTIL).';
  // Every 12 months from a February never meets a 31st: only the due date tells.
  if (ruleDateAfter({ ...parsed.rule, until: null }, item.due_date) === null)
    return 'The repeat rule gives no date after the due date.';
  return null;
}

/** The preset choices of the Repeat control. */
export const REPEAT_PRESETS = ['none', 'daily', 'weekdays', 'weekly', 'monthly', 'yearly', 'custom'] as const;
export type RepeatPreset = (typeof REPEAT_PRESETS)[number];

/** The weekday code of a YYYY-MM-DD date. */
export function weekdayOf(date: string): WeekdayCode {
  const sundayFirst = new Date(`${date}T00:00:00Z`).getUTCDay();
  return WEEKDAY_CODES[(sundayFirst + 6) % 7]!;
}

/** The rule a preset stands for on an item due `due` (today when none yet). */
export function presetRule(preset: Exclude<RepeatPreset, 'none' | 'custom'>, due: string): string {
  switch (preset) {
    case 'daily':
      return 'FREQ=DAILY';
    case 'weekdays':
      return 'FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR';
    case 'weekly':
      return `FREQ=WEEKLY;BYDAY=${weekdayOf(due)}`;
    case 'monthly':
      return `FREQ=MONTHLY;BYMONTHDAY=${Number(due.slice(8, 10))}`;
    case 'yearly':
      return 'FREQ=YEARLY';
  }
}

/** Which preset a stored rule is on an item due `due` ('custom' for anything else, 'none' for null). */
export function presetOf(rule: string | null, due: string): RepeatPreset {
  if (rule === null) return 'none';
  const parsed = parseRecurrence(rule);
  if (!parsed.ok) return 'custom';
  // The time an occurrence in a skipped hour carries (N11) is no choice of the person's.
  const canonical = formatRecurrence({ ...parsed.rule, at: null });
  for (const preset of ['daily', 'weekdays', 'weekly', 'monthly', 'yearly'] as const)
    if (presetRule(preset, due) === canonical) return preset;
  return 'custom';
}

/** Custom repeat: every `interval` days, weeks (on `days`) or months. */
export function customRule(
  freq: 'DAILY' | 'WEEKLY' | 'MONTHLY',
  interval: number,
  days: readonly WeekdayCode[],
): string {
  return formatRecurrence({
    freq,
    interval: Math.min(RECURRENCE_MAX_INTERVAL, Math.max(1, Math.trunc(interval) || 1)),
    byDay:
      freq === 'WEEKLY' ? WEEKDAY_CODES.filter((d) => days.includes(d)).map((day) => ({ n: null, day })) : [],
    byMonthDay: [],
    count: null,
    until: null,
    wkst: null,
  });
}
