/**
 * Recurrence rules as text: the RFC 5545 RRULE subset Outpost accepts (ARCHITECTURE §5), read,
 * checked and summarised without the `rrule` library, so the zod schemas and the first screen's
 * cards do not load it. Stepping a rule to its next date is ./recurrence (which does load it).
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
}

export type ParsedRule = { ok: true; rule: RecurrenceRule } | { ok: false; message: string };

const INVALID = 'The repeat rule is not a valid RRULE (for example FREQ=WEEKLY;BYDAY=MO).';
const KNOWN_PARTS = ['FREQ', 'INTERVAL', 'BYDAY', 'BYMONTHDAY', 'COUNT', 'UNTIL'] as const;

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
        `The repeat rule cannot use ${key}; use FREQ, INTERVAL, BYDAY, BYMONTHDAY, COUNT or UNTIL.`,
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
    byDay.push({ n, day: match[2] as WeekdayCode });
  }
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
  return { ok: true, rule: { freq: freq as RecurrenceFreq, interval, byDay, byMonthDay, count, until } };
}

/** The rule as Outpost stores it: upper case, parts in one order, no prefix, defaults left out. */
export function formatRecurrence(rule: RecurrenceRule): string {
  const parts = [`FREQ=${rule.freq}`];
  if (rule.interval !== 1) parts.push(`INTERVAL=${rule.interval}`);
  if (rule.byDay.length > 0) parts.push(`BYDAY=${rule.byDay.map((d) => `${d.n ?? ''}${d.day}`).join(',')}`);
  if (rule.byMonthDay.length > 0) parts.push(`BYMONTHDAY=${rule.byMonthDay.join(',')}`);
  if (rule.count !== null) parts.push(`COUNT=${rule.count}`);
  if (rule.until !== null) parts.push(`UNTIL=${rule.until.replaceAll('-', '')}`);
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
  const canonical = formatRecurrence(parsed.rule);
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
  });
}
