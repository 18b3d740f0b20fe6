import * as chrono from 'chrono-node/en';
import { addDays } from './dateOnly';
import { formatDuration, parseDuration } from './duration';
import {
  formatRecurrence,
  parseRecurrence,
  type RecurrenceRule,
  ruleDateAfter,
  WEEKDAY_CODES,
  type WeekdayCode,
} from './recurrenceRule';
import { recurrenceSummary } from './recurrenceText';
import { instantAt, offsetMinutesAt, wallClockOf } from './timeZone';

/**
 * Quick add reads what you mean (ARCHITECTURE §5): a title as typed becomes the title that is left
 * and the parts it names, each shown as a chip the person may remove (its words then stay in the
 * title). Dates and times are chrono-node's; repeats, priorities, #parent, @person and +label are
 * ours. Pure and synchronous, so it runs on every keystroke, offline and for guests.
 */

export const QUICK_ADD_KINDS = [
  'date',
  'repeat',
  'priority',
  'parent',
  'assignee',
  'label',
  'estimate',
] as const;
export type QuickAddKind = (typeof QUICK_ADD_KINDS)[number];

/** One part read from the text: where it stands, and what its chip says. */
export interface QuickAddPart {
  kind: QuickAddKind;
  /** Stable while the person types on: removing a chip dismisses this key. */
  key: string;
  start: number;
  end: number;
  /** The words as typed. */
  text: string;
  /** What the chip says ('Thu 26 Nov, 17:00', 'Every weekday', 'Priority 1', '#Home', '+errand'). */
  label: string;
  /**
   * An unsure reading ('24/7', 'at 7', '2h', '+1') the person has not turned on: its chip shows off,
   * its words stay in the title and it sets nothing until its key is in `accepted`.
   */
  off?: true;
}

export type Priority = 1 | 2 | 3 | 4;

export interface QuickAddReading {
  /** What is left of the text once the parts' words are taken out. */
  title: string;
  parts: QuickAddPart[];
  due_date: string | null;
  /** The first day of a span ('from mon to fri'); null unless one was read (then before due_date). */
  start_date: string | null;
  /** 'est 2h', '~30m': the estimate in minutes. */
  estimate_minutes: number | null;
  remind_at: string | null;
  recurrence: string | null;
  priority: Priority | null;
  /** The #name as typed (the caller finds the campaign or task whose title starts with it). */
  parent: string | null;
  /** The @name as typed (the caller finds the person among those it may assign). */
  assignee: string | null;
  labels: string[];
}

export interface QuickAddOptions {
  /** The moment 'today' and 'in 3 days' count from. */
  now: Date;
  /** The IANA zone whose calendar and clock the words mean. */
  timeZone: string;
  /** Keys of chips the person removed: their words stay in the title. */
  dismissed?: ReadonlySet<string>;
  /** Keys of unsure chips the person turned on: they are read as sure ones. */
  accepted?: ReadonlySet<string>;
}

const keyOf = (kind: QuickAddKind, text: string) => `${kind}:${text.toLowerCase().replace(/\s+/g, ' ')}`;

// Words that are dates only when something says so ('on sat', 'next march'): alone they are English.
const AMBIGUOUS_ALONE = new Set(['sun', 'sat', 'wed', 'mar', 'march', 'may', 'second', 'now']);

const WEEKDAY_WORDS: Record<string, WeekdayCode> = {};
for (const [index, names] of [
  ['mo', 'mon', 'monday', 'mondays'],
  ['tu', 'tue', 'tues', 'tuesday', 'tuesdays'],
  ['we', 'wed', 'wednesday', 'wednesdays'],
  ['th', 'thu', 'thur', 'thurs', 'thursday', 'thursdays'],
  ['fr', 'fri', 'friday', 'fridays'],
  ['sa', 'sat', 'saturday', 'saturdays'],
  ['su', 'sun', 'sunday', 'sundays'],
].entries())
  for (const name of names) WEEKDAY_WORDS[name] = WEEKDAY_CODES[index] as WeekdayCode;

const WEEKDAY = `(?:${Object.keys(WEEKDAY_WORDS)
  .filter((w) => w.length > 2)
  .sort((a, b) => b.length - a.length)
  .join('|')})`;
const ORDINAL_WORDS: Record<string, number> = {
  first: 1,
  '1st': 1,
  second: 2,
  '2nd': 2,
  third: 3,
  '3rd': 3,
  fourth: 4,
  '4th': 4,
  fifth: 5,
  '5th': 5,
  last: -1,
};
const UNITS: Record<string, RecurrenceRule['freq']> = {
  day: 'DAILY',
  days: 'DAILY',
  week: 'WEEKLY',
  weeks: 'WEEKLY',
  month: 'MONTHLY',
  months: 'MONTHLY',
  year: 'YEARLY',
  years: 'YEARLY',
};

const MONTH_NAME =
  '(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)';
const WEEKDAYS = (['MO', 'TU', 'WE', 'TH', 'FR'] as const).map((day) => ({ day, n: null }));

const rule = (freq: RecurrenceRule['freq'], extra: Partial<RecurrenceRule> = {}): RecurrenceRule => {
  const parsed = parseRecurrence(`FREQ=${freq}`);
  if (!parsed.ok) throw new Error(parsed.message);
  return { ...parsed.rule, ...extra };
};

const weekdaysIn = (list: string): WeekdayCode[] =>
  [
    ...new Set(
      list
        .toLowerCase()
        .split(/\s*(?:,|\band\b|&)\s*|\s+/)
        .filter(Boolean),
    ),
  ].map((w) => WEEKDAY_WORDS[w] as WeekdayCode);

const DAY_LIST = `${WEEKDAY}(?:(?:\\s*,\\s*|\\s+and\\s+|\\s*&\\s*|\\s+)${WEEKDAY})*`;

/** A repeat read from words; `time` when the words name the hour too ('every morning'). */
interface RepeatRead {
  rule: RecurrenceRule;
  time?: { hour: number; minute: number };
}

/**
 * The week start a rule may name after its days ('…, week starts sunday', '… (week starts sunday)'):
 * WKST, in the first group, or the second when in parentheses (both of which are then taken).
 */
const WEEK_STARTS = `(?:the\\s+)?weeks?\\s+starts?\\s+(?:on\\s+)?(${WEEKDAY})`;
const WKST_TAIL = `(?:\\s*,?\\s*${WEEK_STARTS}|\\s*\\(\\s*${WEEK_STARTS}\\s*\\))?`;
const INTERVAL = '(other|\\d{1,3})';
const intervalOf = (word: string) => (word.toLowerCase() === 'other' ? 2 : Number(word));
const MONTH_DAY = '(?:the\\s+)?(\\d{1,2})(?:st|nd|rd|th)|(?:the\\s+)?last\\s+day(?:\\s+of\\s+the\\s+month)?';

/** The repeat grammar, tried in order at a word boundary after 'every' (or the adverbs). */
const REPEATS: { pattern: RegExp; read: (m: RegExpExecArray) => RepeatRead | null }[] = [
  { pattern: /^(?:daily|everyday|every\s+day)\b/i, read: () => ({ rule: rule('DAILY') }) },
  // Todoist's words for a daily hour: morning is 09:00, evening 19:00.
  {
    pattern: /^every\s+morning\b/i,
    read: () => ({ rule: rule('DAILY'), time: { hour: 9, minute: 0 } }),
  },
  {
    pattern: /^every\s+evening\b/i,
    read: () => ({ rule: rule('DAILY'), time: { hour: 19, minute: 0 } }),
  },
  { pattern: /^(?:weekly|every\s+week)\b(?!\s+on)/i, read: () => ({ rule: rule('WEEKLY') }) },
  { pattern: /^every\s+quarter\b/i, read: () => ({ rule: rule('MONTHLY', { interval: 3 }) }) },
  {
    // every month on the 15th, monthly on the 6th, every 2 months on the last day, every 15th, every last day
    pattern: new RegExp(
      `^(?:every\\s+(?:(?:${INTERVAL}\\s+)?months?\\s+on\\s+)?|monthly\\s+on\\s+)(?:${MONTH_DAY})(?!\\s+(?:of\\s+)?(?:${WEEKDAY}|${MONTH_NAME})\\b)\\b`,
      'i',
    ),
    read: (m) => {
      const interval = m[1] ? intervalOf(m[1]) : 1;
      const day = m[2] ? Number(m[2]) : -1;
      if (interval < 1 || interval > 999 || day === 0 || day > 31) return null;
      return { rule: rule('MONTHLY', { interval, byMonthDay: [day] }) };
    },
  },
  {
    // every last friday, every first monday, every month on the 2nd tuesday
    pattern: new RegExp(
      `^every\\s+(?:(?:${INTERVAL}\\s+)?months?\\s+on\\s+(?:the\\s+)?)?(first|1st|second|2nd|third|3rd|fourth|4th|fifth|5th|last)\\s+(${WEEKDAY})\\b(?:\\s+of\\s+the\\s+month\\b)?`,
      'i',
    ),
    read: (m) => {
      const interval = m[1] ? intervalOf(m[1]) : 1;
      if (interval < 1 || interval > 999) return null;
      return {
        rule: rule('MONTHLY', {
          interval,
          byDay: [{ day: WEEKDAY_WORDS[m[3]!.toLowerCase()]!, n: ORDINAL_WORDS[m[2]!.toLowerCase()]! }],
        }),
      };
    },
  },
  { pattern: /^(?:monthly|every\s+month)\b(?!\s+on)/i, read: () => ({ rule: rule('MONTHLY') }) },
  { pattern: /^(?:yearly|annually|every\s+year)\b(?!\s+on\s+the)/i, read: () => ({ rule: rule('YEARLY') }) },
  {
    // every dec 24, every 24th december: 'every' makes the date yearly; the date is chrono's.
    pattern: new RegExp(
      `^every(?=\\s+(?:${MONTH_NAME}\\s+\\d{1,2}(?:st|nd|rd|th)?|\\d{1,2}(?:st|nd|rd|th)?\\s+(?:of\\s+)?${MONTH_NAME})\\b)`,
      'i',
    ),
    read: () => ({ rule: rule('YEARLY') }),
  },
  {
    pattern: /^every\s+(?:weekday|workday|work\s+day)\b/i,
    read: () => ({ rule: rule('WEEKLY', { byDay: WEEKDAYS }) }),
  },
  {
    pattern: /^every\s+weekend\b/i,
    read: () => ({
      rule: rule('WEEKLY', { byDay: (['SA', 'SU'] as const).map((day) => ({ day, n: null })) }),
    }),
  },
  {
    // every other week, every 2 weeks on mon and thu (week starts sunday), every 3 days
    pattern: new RegExp(
      `^every\\s+${INTERVAL}\\s+(days?|weeks?|months?|years?)(?:\\s+on\\s+(${DAY_LIST})${WKST_TAIL})?(?:\\b|(?<=\\)))`,
      'i',
    ),
    read: (m) => {
      const interval = intervalOf(m[1]!);
      const freq = UNITS[m[2]!.toLowerCase()]!;
      if (interval < 1 || interval > 999) return null;
      const days = m[3] ? weekdaysIn(m[3]) : [];
      if (days.length > 0 && freq !== 'WEEKLY') return null;
      const named = m[4] ?? m[5];
      const wkst = named ? WEEKDAY_WORDS[named.toLowerCase()]! : null;
      return {
        rule: rule(freq, {
          interval,
          byDay: days.map((day) => ({ day, n: null })),
          wkst: wkst === 'MO' ? null : wkst,
        }),
      };
    },
  },
  {
    // every monday, every mon, wed and fri, every week on tue, weekly on tue
    pattern: new RegExp(`^(?:every\\s+(?:week\\s+on\\s+)?|weekly\\s+on\\s+)(${DAY_LIST})\\b`, 'i'),
    read: (m) => ({ rule: rule('WEEKLY', { byDay: weekdaysIn(m[1]!).map((day) => ({ day, n: null })) }) }),
  },
];

// 'every 8 hours', 'every 30 minutes': no rule Outpost keeps, and no date either: the words stay.
const NOT_A_REPEAT = /(?:^|\s)every\s+(?:\d{1,3}\s+|other\s+)?(?:hours?|minutes?|mins?|seconds?)\b/gi;

interface Found {
  kind: QuickAddKind;
  start: number;
  end: number;
  text: string;
}

/** The repeat phrases of `text`, at word starts. */
function findRepeats(text: string): (Found & RepeatRead)[] {
  const out: (Found & RepeatRead)[] = [];
  const starts = /(?:^|\s)(?=every\b|everyday\b|daily\b|weekly\b|monthly\b|yearly\b|annually\b)/gi;
  for (let m = starts.exec(text); m; m = starts.exec(text)) {
    const start = m.index + m[0].length;
    const rest = text.slice(start);
    // 'Weekly review', 'Daily standup', 'Everyday carry': an adverb that opens a longer title names
    // the thing, not its repeat (at the end, 'Water the plants weekly', it is the repeat).
    if (
      text.slice(0, start).trim() === '' &&
      /^(?:daily|everyday|weekly|monthly|yearly|annually)\s+\S/i.test(rest)
    ) {
      if (starts.lastIndex === m.index) starts.lastIndex++;
      continue;
    }
    for (const { pattern, read } of REPEATS) {
      const hit = pattern.exec(rest);
      if (!hit) continue;
      const read1 = read(hit);
      if (read1) out.push({ kind: 'repeat', start, end: start + hit[0].length, text: hit[0], ...read1 });
      break;
    }
    if (starts.lastIndex === m.index) starts.lastIndex++;
  }
  return out;
}

const TOKENS: { kind: QuickAddKind; pattern: RegExp }[] = [
  { kind: 'priority', pattern: /(?<=^|\s)p([1-4])(?=$|\s)/gi },
  { kind: 'parent', pattern: /(?<=^|\s)#([^\s#@+,]{1,100})(?=$|\s)/g },
  { kind: 'assignee', pattern: /(?<=^|\s)@([^\s#@+,]{1,100})(?=$|\s)/g },
  { kind: 'label', pattern: /(?<=^|\s)\+([^\s#@+,]{1,40})(?=$|\s)/g },
];

const pad = (n: number) => String(n).padStart(2, '0');
const SHORT_DATE = new Intl.DateTimeFormat('en-GB', {
  weekday: 'short',
  day: 'numeric',
  month: 'short',
  timeZone: 'UTC',
});
const dayLabel = (date: string) => SHORT_DATE.format(new Date(`${date}T00:00:00Z`));

// The calendar day chrono's own parsers below count from: set by readQuickAdd before each parse
// (synchronous, so no other reading sees it), in the person's zone rather than the machine's.
let parsingToday = '1970-01-01';
const partsOf = (date: string) => ({
  year: Number(date.slice(0, 4)),
  month: Number(date.slice(5, 7)),
  day: Number(date.slice(8, 10)),
});

/** chrono-node's casual English, plus the phrases it reads wrong or not at all. */
const dates = chrono.casual.clone();
dates.parsers.push(
  {
    // chrono reads only 'the day after tomorrow'; without 'the' it took 'tomorrow' alone.
    pattern: () => /\b(?:the\s+)?day\s+after\s+tomorrow\b/i,
    extract: () => partsOf(addDays(parsingToday, 2)),
  },
  {
    // 'on the 15th': the next such day from today on (a month without one is skipped).
    pattern: () => /\bon\s+the\s+(\d{1,2})(?:st|nd|rd|th)\b(?!\s+(?:of\b|[a-z]{3,}day\b))/i,
    extract: (_context, match) => {
      const day = Number(match[1]);
      if (day < 1 || day > 31) return null;
      let { year, month } = partsOf(parsingToday);
      if (partsOf(parsingToday).day > day) month += 1;
      for (let i = 0; i < 12; i++, month++) {
        if (month > 12) {
          month = 1;
          year += 1;
        }
        if (new Date(Date.UTC(year, month - 1, day)).getUTCDate() === day) return { year, month, day };
      }
      return null;
    },
  },
);
// 'from 3 dec to 9 dec': a bare number before a month name is its day, not an hour ('from 3' took
// the place of '3 dec' and the range was lost). Dropped before chrono keeps the longer of two overlaps.
const HOUR_BEFORE_MONTH = new RegExp(`^\\s*(?:of\\s+)?${MONTH_NAME}\\b`, 'i');
dates.refiners.unshift({
  refine: (context, results) =>
    results.filter(
      (r) =>
        !(
          r.start.isCertain('hour') &&
          !r.start.isCertain('day') &&
          !/[:.]|[ap]\.?m\b|o'?\s*clock/i.test(r.text) &&
          HOUR_BEFORE_MONTH.test(context.text.slice(r.index + r.text.length))
        ),
    ),
});

// Words before a date that belong to it: taken with it, so the title keeps none of them. 'next' and
// 'in' only before a month alone ('next march', 'in april': 'Check in tomorrow' keeps its 'in');
// 'starting', 'from' (a repeat's first date) and 'until' (its last) only after a repeat.
const BEFORE_DATE =
  /(?:^|\s|\()(at|on|in|next|starting(?:\s+on|\s+from)?|beginning(?:\s+on)?|from|until|till|through|ending(?:\s+on)?)\s+$/i;
const MONTH_ALONE = new RegExp(`^${MONTH_NAME}(?:\\s+of)?$`, 'i');
const CAPITALISED = /^[A-Z][a-z]*(?:\s+[A-Z][a-z]*)*$/;
// A date's words that are only part of a name or a phrase: 'a second opinion', 'Noon prayer',
// 'Employee of the month', 'Plan the week' (chrono reads 'the week' as a week from today).
const NOT_ALONE = /^(?:a\s+second|a\s+sec|second|noon|midnight|now|the\s+(?:day|week|month|year))$/i;

// A number is a date or time only with a date word or a clear form (ARCHITECTURE §5): otherwise its
// chip is offered off ('Workshop 2h', 'Pay 1/2 the bill', 'Dinner at 7').
/** A length alone ('2h', '30 min', '24 hours'): a reminder only after 'in' ('in 2h'). */
const LENGTH_ALONE =
  /^(?:for\s+)?(?:\d+|an?)\s*(?:h|hrs?|hours?|m|mins?|minutes?|d|days?|w|wks?|weeks?|mo|months?|y|yrs?|years?)$/i;
const MERIDIEM = /\d\s*[ap]\.?m\b\.?/i;
/** A word that names a day or a moment ('tomorrow', 'dec', 'fri', 'in', 'ago'), not a clock's unit. */
const DATE_WORD = /\b(?!(?:at|on|for|h|hrs?|hours?|m|mins?|minutes?|o|clock|oclock|st|nd|rd|th)\b)[a-z]{2,}/i;
const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;
const CLOCK = /^(?:at\s+)?\d{1,2}:\d{2}$/i;
const SLASH_DATE = /^(?:on\s+)?(\d{1,2})[/.](\d{1,2})(?:[/.]\d{2,4})?$/i;
// A digit, letter or joining mark right against a number makes it part of a word ('7-Eleven', 'Q3').
const JOINED_BEFORE = /[\p{L}\p{N}_+\-/.:#@]$/u;
const JOINED_AFTER = /^[\p{L}\p{N}_\-/+]/u;

/**
 * Whether the words chrono read as a date are sure: a date word, or a clear form (a month-first date
 * at the end of the title or after 'on', '2027-01-05', '17:00', '5pm'); never a length alone ('2h')
 * or a fraction ('1/2', '3/4').
 */
function isSure(words: string, month: number, atEnd: boolean, connector: string | null): boolean {
  if (LENGTH_ALONE.test(words)) return false;
  if (!/\d/.test(words) || MERIDIEM.test(words)) return true;
  if (DATE_WORD.test(words)) return true;
  if (ISO_DATE.test(words) || CLOCK.test(words)) return true;
  const slash = SLASH_DATE.exec(words);
  if (!slash) return false;
  const [a, b] = [Number(slash[1]), Number(slash[2])];
  const fraction = a < b && b <= 4;
  return a === month && b <= 31 && !fraction && (atEnd || connector === 'on');
}
/** A #name, @name or +label of digits alone ('+1 555…', '#42') is a number, not a name. */
const DIGITS_ALONE = /^\d+$/;

/** 'est 2h', 'est. 45m', '~30m', '~1h 30m', '~1:30': an estimate (its words after the mark). */
const ESTIMATE =
  /(?<=^|\s)(?:est\.?\s+|~\s?)(\d+(?:\.\d+)?\s?(?:h|hrs?|hours?|m|mins?|minutes?|d|days?)(?:\s?\d+\s?(?:m|mins?|minutes?))?|\d{1,2}:\d{2})(?=$|\s|[,.;!?](?:$|\s))/gi;

// What a taken part becomes for chrono (a private-use character): no letter, digit or space, so no
// date reads across or into it.
const BLANK = '\uE000';
const BLANKS_ONLY = /^[\s\uE000]*$/;
/** 'week starts', 'the week starts on': the day after them is the week's first, not a due date. */
const WEEK_STARTS_BEFORE = /\bweeks?\s+starts?\s+(?:on\s+)?$/i;

/** The last day of a range chrono read, when it names one (YYYY-MM-DD). */
function spanLast(result: chrono.ParsedResult): string | null {
  const e = result.end;
  if (!e || !(e.isCertain('day') || e.isCertain('weekday') || e.isCertain('month'))) return null;
  return `${e.get('year')}-${pad(e.get('month') ?? 1)}-${pad(e.get('day') ?? 1)}`;
}

/** Reads a quick-add title: the title that is left and every part it names (see the module's note). */
export function readQuickAdd(text: string, options: QuickAddOptions): QuickAddReading {
  const { now, timeZone } = options;
  const dismissed = options.dismissed ?? new Set<string>();
  const accepted = options.accepted ?? new Set<string>();
  const taken: Found[] = [];
  // Unsure parts not turned on, with their chips' labels: shown, never taken.
  const offered: (Found & { label: string })[] = [];
  const overlaps = (start: number, end: number) => taken.some((t) => start < t.end && end > t.start);
  const keep = (found: Found, unsure?: { label: string }) => {
    const key = keyOf(found.kind, found.text);
    if (dismissed.has(key) || overlaps(found.start, found.end)) return false;
    if (unsure && !accepted.has(key)) {
      if (!offered.some((o) => found.start < o.end && found.end > o.start))
        offered.push({ ...found, label: unsure.label });
      return false;
    }
    taken.push(found);
    return true;
  };

  const reading: QuickAddReading = {
    title: '',
    parts: [],
    due_date: null,
    start_date: null,
    estimate_minutes: null,
    remind_at: null,
    recurrence: null,
    priority: null,
    parent: null,
    assignee: null,
    labels: [],
  };
  const labels: Record<number, string> = {};

  let repeat: RecurrenceRule | null = null;
  let repeatAt: (Found & RepeatRead) | null = null;
  let time: { hour: number; minute: number } | null = null;
  for (const found of findRepeats(text)) {
    if (repeat) break;
    if (keep(found)) {
      repeat = found.rule;
      repeatAt = found;
      if (found.time) time = found.time;
    }
  }

  for (const { kind, pattern } of TOKENS) {
    for (const m of text.matchAll(pattern)) {
      const found = { kind, start: m.index, end: m.index + m[0].length, text: m[0] };
      const value = m[1]!;
      const unsure = kind !== 'priority' && DIGITS_ALONE.test(value) ? { label: m[0] } : undefined;
      if (kind === 'priority') {
        if (reading.priority !== null || !keep(found)) continue;
        reading.priority = Number(value) as Priority;
        labels[found.start] = `Priority ${value}`;
      } else if (kind === 'parent') {
        if (reading.parent !== null || !keep(found, unsure)) continue;
        reading.parent = value;
        labels[found.start] = `#${value}`;
      } else if (kind === 'assignee') {
        if (reading.assignee !== null || !keep(found, unsure)) continue;
        reading.assignee = value;
        labels[found.start] = `@${value}`;
      } else {
        if (reading.labels.some((l) => l.toLowerCase() === value.toLowerCase()) || !keep(found, unsure))
          continue;
        reading.labels.push(value);
        labels[found.start] = `+${value}`;
      }
    }
  }

  // 'est 2h', '~1h 30m': an estimate, read before the dates so '2h' is no length of time for chrono.
  for (const m of text.matchAll(ESTIMATE)) {
    const minutes = parseDuration(m[1]!);
    const found = { kind: 'estimate' as const, start: m.index, end: m.index + m[0].length, text: m[0] };
    if (minutes === null || reading.estimate_minutes !== null || !keep(found)) continue;
    reading.estimate_minutes = minutes;
    labels[found.start] = `Estimate ${formatDuration(minutes)}`;
  }

  // Dates and times: chrono reads the text with what is taken blanked out (positions stay put). A
  // taken part becomes a mark chrono does not read as a space: 'dec 2 p2' must not read as 'dec 2'
  // and the blanks after it ('3 dec p1' lost its day to a longer 'dec   '), and 'dec 2 p1 at 5pm'
  // reads as a day and a time beside it rather than one date across the priority.
  const nowIso = now.toISOString();
  const today = wallClockOf(nowIso, timeZone).slice(0, 10);
  let blanked = text;
  const blank = (start: number, end: number) => {
    blanked = blanked.slice(0, start) + BLANK.repeat(end - start) + blanked.slice(end);
  };
  for (const t of taken) blank(t.start, t.end);
  for (const m of text.matchAll(NOT_A_REPEAT)) blank(m.index, m.index + m[0].length);
  // Whether the words name a day ('tomorrow', 'next fri', 'dec 24'), not a time alone ('at 9am').
  let dayGiven = false;
  let until: string | null = null;
  // Where the last date part ended: a day and a time read apart only because a part stood between
  // them ('dec 2 p1 at 5pm') are one date.
  let dateStart = -1;
  let dateEnd = -1;
  parsingToday = today;
  const results = dates.parse(
    blanked,
    { instant: now, timezone: offsetMinutesAt(nowIso, timeZone) },
    { forwardDate: true },
  );
  for (const result of results) {
    // chrono's words may carry the blanks after them and a weekday's comma or bracket ('sunday)').
    const inner = result.text.replace(/^[\s,(（]+/, '');
    let start = result.index + result.text.length - inner.length;
    const end = start + inner.replace(/[\s,)）]+$/, '').length;
    if (end <= start) continue;
    const words = text.slice(start, end);
    const before = BEFORE_DATE.exec(blanked.slice(Math.max(0, start - 24), start));
    const connector = before?.[1]?.toLowerCase().replace(/\s+/g, ' ') ?? null;
    const after = text.slice(end, end + 2);
    // 'Read Tomorrow's paper': a possessive belongs to the title.
    if (/^['’]s/i.test(after)) continue;
    // 'Coffee at 7-Eleven', 'Q3 report': a number joined to a word is part of it.
    if (/\d/.test(words)) {
      const first = start + words.search(/\d/);
      if (JOINED_BEFORE.test(text.slice(0, first)) || JOINED_AFTER.test(text.slice(end))) continue;
    }
    // 'Rota (week starts sunday)': the day a week starts on is no date.
    if (WEEK_STARTS_BEFORE.test(text.slice(0, start))) continue;
    if (AMBIGUOUS_ALONE.has(words.toLowerCase()) && connector !== 'on' && connector !== 'next') continue;
    // 'Call April', 'March of the penguins': a month alone is a date only after 'in' or 'next'.
    const linked = connector !== null && connector !== 'at' && connector !== 'on';
    if (MONTH_ALONE.test(words) && !linked) continue;
    // 'Noon prayer', 'The Midnight Library', 'a second opinion': only with 'at' or a day.
    if (NOT_ALONE.test(words) && connector !== 'at') continue;
    // 'Watch Friday Night Lights', 'Read The Day After Tomorrow': words of a name (capitalised
    // words before another, or three capitalised words in a row) are the title's.
    if (CAPITALISED.test(words) && /^\s+[A-Z]/.test(text.slice(end))) continue;
    if (start > 0 && /^(?:[A-Z][a-z]*\s+){2,}[A-Z][a-z]*$/.test(words)) continue;
    const isUntil = connector === 'until' || connector === 'till' || connector === 'through';
    const isFrom = connector !== null && /^(?:starting|beginning|from|ending)/.test(connector);
    // 'from mon to fri', 'dec 3 to dec 9': a span of days sets the start too (D10: never after the due).
    const spanEnd =
      result.end && !repeat && (connector === null || connector === 'from') ? spanLast(result) : null;
    if ((isUntil || (isFrom && spanEnd === null)) && !repeat) continue;
    if (isUntil && (until !== null || connector === null)) continue;
    const s = result.start;
    const timed = s.isCertain('hour');
    const named = s.isCertain('day') || s.isCertain('weekday') || s.isCertain('month');
    // A time beside a day read just before it ('dec 2 p1 at 5pm'), or a day beside a time ('at 5pm
    // +work dec 2'), completes that date; any other second date is left in the title.
    const lead = before ? before[0].replace(/^[\s(]+/, '').length : 0;
    const beside = dateEnd >= 0 && BLANKS_ONLY.test(blanked.slice(dateEnd, start - lead));
    let completes: 'time' | 'day' | null = null;
    if (!isUntil && reading.due_date !== null) {
      if (beside && timed && !named && dayGiven && time === null && reading.start_date === null)
        completes = 'time';
      else if (beside && named && !timed && !dayGiven && time !== null && spanEnd === null) completes = 'day';
      else continue;
    }
    const month = MONTH_ALONE.test(words);
    if (before && (month || (connector !== 'in' && connector !== 'next'))) start -= lead;
    // 'Dentist (friday)', 'Dentist (on dec 2)': the brackets around a date go with it.
    let last = end;
    const open = /\(\s*$/.exec(text.slice(0, start));
    const close = /^\s*\)/.exec(text.slice(end));
    if (open && close) {
      start = open.index;
      last = end + close[0].length;
    }
    const found: Found = {
      kind: isUntil ? 'repeat' : 'date',
      start,
      end: last,
      text: text.slice(start, last),
    };
    const date = `${s.get('year')}-${pad(s.get('month') ?? 1)}-${pad(s.get('day') ?? 1)}`;
    const at = timed ? { hour: s.get('hour') ?? 0, minute: s.get('minute') ?? 0 } : null;
    const label = isUntil
      ? `Until ${dayLabel(date)}`
      : completes === 'time' && at
        ? `${pad(at.hour)}:${pad(at.minute)}`
        : spanEnd !== null && spanEnd > date
          ? `${dayLabel(date)} → ${dayLabel(spanEnd)}`
          : `${dayLabel(date)}${at ? `, ${pad(at.hour)}:${pad(at.minute)}` : ''}`;
    // 'Mon-Fri stretch', 'Dec 3-9 trip': a span joined by a dash that opens a longer title names the
    // thing, as an adverb there does ('Weekly review'); it is offered, not taken.
    const opensTitle =
      spanEnd !== null &&
      /[-–]/.test(words) &&
      text.slice(0, start).trim() === '' &&
      /\S/.test(text.slice(last).replace(/[#@+]\S*/g, ''));
    // A time alone beside a repeat ('every day 7:30') has the repeat's words for its date.
    const sure =
      !opensTitle &&
      (isSure(words, s.get('month') ?? 0, BLANKS_ONLY.test(blanked.slice(last)), connector) ||
        (repeat !== null && !LENGTH_ALONE.test(words) && !SLASH_DATE.test(words)));
    if (!keep(found, sure ? undefined : { label })) continue;
    labels[found.start] = label;
    // The time read first now has this day: its chip says the time alone.
    if (completes === 'day' && time) labels[dateStart] = `${pad(time.hour)}:${pad(time.minute)}`;
    dateStart = found.start;
    dateEnd = found.end;
    if (isUntil) {
      until = date;
      continue;
    }
    if (completes === 'time') {
      time = at;
      continue;
    }
    dayGiven = named;
    if (spanEnd !== null && spanEnd > date) {
      reading.start_date = date;
      reading.due_date = spanEnd;
      continue;
    }
    reading.due_date = date;
    if (at) time = at;
  }

  if (repeat) {
    if (until !== null) repeat = { ...repeat, until };
    // A repeat needs a due date: the one given, else the rule's first date from today on.
    // The first date ignores INTERVAL ('every 2 weeks on mon' starts this coming Monday); a time
    // already past today starts it at the next date.
    if (!dayGiven) {
      const once = { ...repeat, interval: 1, until: null };
      // A rule that names no days repeats its first date's: that is today.
      const plain = repeat.byDay.length === 0 && repeat.byMonthDay.length === 0;
      let first = plain ? today : ruleDateAfter(once, addDays(today, -1));
      if (first && time && Date.parse(instantAt(first, time.hour, time.minute, timeZone)) <= now.getTime())
        first = ruleDateAfter(once, first);
      reading.due_date = first;
    }
    reading.recurrence = formatRecurrence(repeat);
    if (repeatAt) {
      // 'every morning' names its hour: the chip says it, as no date chip will.
      const hour = repeatAt.time ? `, ${pad(repeatAt.time.hour)}:${pad(repeatAt.time.minute)}` : '';
      // Its last day has a chip of its own ('Until Thu 31 Dec').
      const summary = recurrenceSummary(formatRecurrence({ ...repeat, until: null }));
      labels[repeatAt.start] = `${summary ?? repeatAt.text}${hour}`;
    }
  }
  if (time && reading.due_date)
    reading.remind_at = instantAt(reading.due_date, time.hour, time.minute, timeZone);

  taken.sort((a, b) => a.start - b.start);
  reading.parts = taken.map((t) => ({ ...t, key: keyOf(t.kind, t.text), label: labels[t.start] ?? t.text }));
  // An unsure part is offered only where nothing sure of its kind was read ('Pay 1/2 the bill tomorrow').
  const has = (kind: QuickAddKind) => taken.some((t) => t.kind === kind);
  for (const o of offered) {
    if (overlaps(o.start, o.end)) continue;
    if ((o.kind === 'date' || o.kind === 'parent' || o.kind === 'assignee') && has(o.kind)) continue;
    reading.parts.push({ ...o, key: keyOf(o.kind, o.text), off: true });
  }
  reading.parts.sort((a, b) => a.start - b.start);
  // The commas that stood after taken words go with them ('Gift dec 24, p1' is 'Gift'), and one
  // before the title's next words joins the word before ('Call mom tomorrow, then dad').
  let title = '';
  let at = 0;
  for (const [i, t] of [...taken, null].entries()) {
    let piece = text.slice(at, t ? t.start : text.length);
    if (i > 0) {
      if (/^[\s,;]*$/.test(piece)) piece = ' ';
      else if (/^\s*,/.test(piece)) {
        title = title.trimEnd();
        piece = title === '' ? piece.replace(/^\s*,\s*/, '') : piece.trimStart();
      }
    }
    title += piece;
    if (t) at = t.end;
  }
  title = title.replace(/\s+/g, ' ').trim();
  if (!/[,;]\s*$/.test(text)) title = title.replace(/\s*[,;]$/, '');
  reading.title = title;
  return reading;
}
