import * as chrono from 'chrono-node/en';
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

export const QUICK_ADD_KINDS = ['date', 'repeat', 'priority', 'parent', 'assignee', 'label'] as const;
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
}

export type Priority = 1 | 2 | 3 | 4;

export interface QuickAddReading {
  /** What is left of the text once the parts' words are taken out. */
  title: string;
  parts: QuickAddPart[];
  due_date: string | null;
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

/** The repeat grammar, tried in order at a word boundary after 'every' (or the adverbs). */
const REPEATS: { pattern: RegExp; read: (m: RegExpExecArray) => RecurrenceRule | null }[] = [
  { pattern: /^(?:daily|every\s+day)\b/i, read: () => rule('DAILY') },
  { pattern: /^(?:weekly|every\s+week)\b/i, read: () => rule('WEEKLY') },
  { pattern: /^(?:monthly|every\s+month)\b(?!\s+on)/i, read: () => rule('MONTHLY') },
  { pattern: /^(?:yearly|annually|every\s+year)\b/i, read: () => rule('YEARLY') },
  {
    pattern: /^every\s+weekday\b/i,
    read: () =>
      rule('WEEKLY', { byDay: (['MO', 'TU', 'WE', 'TH', 'FR'] as const).map((day) => ({ day, n: null })) }),
  },
  {
    pattern: /^every\s+weekend\b/i,
    read: () => rule('WEEKLY', { byDay: (['SA', 'SU'] as const).map((day) => ({ day, n: null })) }),
  },
  {
    // every other week, every 2 weeks on mon and thu, every 3 days
    pattern: new RegExp(
      `^every\\s+(other|\\d{1,3})\\s+(days?|weeks?|months?|years?)(?:\\s+on\\s+(${DAY_LIST}))?\\b`,
      'i',
    ),
    read: (m) => {
      const interval = m[1]!.toLowerCase() === 'other' ? 2 : Number(m[1]);
      const freq = UNITS[m[2]!.toLowerCase()]!;
      if (interval < 1 || interval > 999) return null;
      const days = m[3] ? weekdaysIn(m[3]) : [];
      if (days.length > 0 && freq !== 'WEEKLY') return null;
      return rule(freq, { interval, byDay: days.map((day) => ({ day, n: null })) });
    },
  },
  {
    // every month on the 15th, every 15th
    pattern: /^every\s+(?:month\s+on\s+the\s+|month\s+on\s+)?(\d{1,2})(?:st|nd|rd|th)\b/i,
    read: (m) => {
      const day = Number(m[1]);
      return day >= 1 && day <= 31 ? rule('MONTHLY', { byMonthDay: [day] }) : null;
    },
  },
  {
    // every last friday, every first monday (of the month)
    pattern: new RegExp(`^every\\s+(first|1st|second|2nd|third|3rd|fourth|4th|last)\\s+(${WEEKDAY})\\b`, 'i'),
    read: (m) =>
      rule('MONTHLY', {
        byDay: [{ day: WEEKDAY_WORDS[m[2]!.toLowerCase()]!, n: ORDINAL_WORDS[m[1]!.toLowerCase()]! }],
      }),
  },
  {
    // every monday, every mon, wed and fri
    pattern: new RegExp(`^every\\s+(${DAY_LIST})\\b`, 'i'),
    read: (m) => rule('WEEKLY', { byDay: weekdaysIn(m[1]!).map((day) => ({ day, n: null })) }),
  },
];

interface Found {
  kind: QuickAddKind;
  start: number;
  end: number;
  text: string;
}

/** The repeat phrases of `text`, at word starts. */
function findRepeats(text: string): (Found & { rule: RecurrenceRule })[] {
  const out: (Found & { rule: RecurrenceRule })[] = [];
  const starts = /(?:^|\s)(?=every\b|daily\b|weekly\b|monthly\b|yearly\b|annually\b)/gi;
  for (let m = starts.exec(text); m; m = starts.exec(text)) {
    const start = m.index + m[0].length;
    const rest = text.slice(start);
    // 'Weekly review', 'Daily standup': an adverb that opens a longer title names the thing, not
    // its repeat (at the end, 'Water the plants weekly', it is the repeat).
    if (text.slice(0, start).trim() === '' && /^(?:daily|weekly|monthly|yearly|annually)\s+\S/i.test(rest)) {
      if (starts.lastIndex === m.index) starts.lastIndex++;
      continue;
    }
    for (const { pattern, read } of REPEATS) {
      const hit = pattern.exec(rest);
      if (!hit) continue;
      const read1 = read(hit);
      if (read1) out.push({ kind: 'repeat', start, end: start + hit[0].length, text: hit[0], rule: read1 });
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

/** Reads a quick-add title: the title that is left and every part it names (see the module's note). */
export function readQuickAdd(text: string, options: QuickAddOptions): QuickAddReading {
  const { now, timeZone } = options;
  const dismissed = options.dismissed ?? new Set<string>();
  const taken: Found[] = [];
  const overlaps = (start: number, end: number) => taken.some((t) => start < t.end && end > t.start);
  const keep = (found: Found) => {
    if (dismissed.has(keyOf(found.kind, found.text)) || overlaps(found.start, found.end)) return false;
    taken.push(found);
    return true;
  };

  const reading: QuickAddReading = {
    title: '',
    parts: [],
    due_date: null,
    remind_at: null,
    recurrence: null,
    priority: null,
    parent: null,
    assignee: null,
    labels: [],
  };
  const labels: Record<number, string> = {};

  let repeat: RecurrenceRule | null = null;
  for (const found of findRepeats(text)) {
    if (repeat) break;
    if (keep(found)) {
      repeat = found.rule;
      labels[found.start] = recurrenceSummary(formatRecurrence(found.rule)) ?? found.text;
    }
  }

  for (const { kind, pattern } of TOKENS) {
    for (const m of text.matchAll(pattern)) {
      const found = { kind, start: m.index, end: m.index + m[0].length, text: m[0] };
      const value = m[1]!;
      if (kind === 'priority') {
        if (reading.priority !== null || !keep(found)) continue;
        reading.priority = Number(value) as Priority;
        labels[found.start] = `Priority ${value}`;
      } else if (kind === 'parent') {
        if (reading.parent !== null || !keep(found)) continue;
        reading.parent = value;
        labels[found.start] = `#${value}`;
      } else if (kind === 'assignee') {
        if (reading.assignee !== null || !keep(found)) continue;
        reading.assignee = value;
        labels[found.start] = `@${value}`;
      } else {
        if (reading.labels.some((l) => l.toLowerCase() === value.toLowerCase()) || !keep(found)) continue;
        reading.labels.push(value);
        labels[found.start] = `+${value}`;
      }
    }
  }

  // Dates and times: chrono reads the text with what is taken blanked out (positions stay put).
  const nowIso = now.toISOString();
  const today = wallClockOf(nowIso, timeZone).slice(0, 10);
  let blanked = text;
  for (const t of taken)
    blanked = blanked.slice(0, t.start) + ' '.repeat(t.end - t.start) + blanked.slice(t.end);
  let time: { hour: number; minute: number } | null = null;
  // Whether the words name a day ('tomorrow', 'next fri', 'dec 24'), not a time alone ('at 9am').
  let dayGiven = false;
  for (const result of chrono.casual.parse(
    blanked,
    { instant: now, timezone: offsetMinutesAt(nowIso, timeZone) },
    { forwardDate: true },
  )) {
    const found = {
      kind: 'date' as const,
      start: result.index,
      end: result.index + result.text.length,
      text: result.text,
    };
    const after = text.slice(found.end, found.end + 2);
    // 'Read Tomorrow's paper': a possessive belongs to the title.
    if (/^['’]s/i.test(after)) continue;
    if (AMBIGUOUS_ALONE.has(found.text.toLowerCase())) continue;
    if (!keep(found)) continue;
    const { start } = result;
    const date = `${start.get('year')}-${pad(start.get('month') ?? 1)}-${pad(start.get('day') ?? 1)}`;
    const timed = start.isCertain('hour');
    dayGiven = start.isCertain('day') || start.isCertain('weekday');
    reading.due_date = date;
    if (timed) time = { hour: start.get('hour') ?? 0, minute: start.get('minute') ?? 0 };
    labels[found.start] =
      `${SHORT_DATE.format(new Date(`${date}T00:00:00Z`))}${timed ? `, ${pad(time!.hour)}:${pad(time!.minute)}` : ''}`;
    break;
  }

  if (repeat) {
    // A repeat needs a due date: the one given, else the rule's first date from today on.
    // The first date ignores INTERVAL ('every 2 weeks on mon' starts this coming Monday); a time
    // already past today starts it at the next date.
    if (!dayGiven) {
      const once = { ...repeat, interval: 1 };
      const yesterday = new Date(Date.parse(`${today}T00:00:00Z`) - 86_400_000).toISOString().slice(0, 10);
      // A rule that names no days repeats its first date's: that is today.
      const plain = repeat.byDay.length === 0 && repeat.byMonthDay.length === 0;
      let first = plain ? today : ruleDateAfter(once, yesterday);
      if (first && time && Date.parse(instantAt(first, time.hour, time.minute, timeZone)) <= now.getTime())
        first = ruleDateAfter(once, first);
      reading.due_date = first;
    }
    reading.recurrence = formatRecurrence(repeat);
  }
  if (time && reading.due_date)
    reading.remind_at = instantAt(reading.due_date, time.hour, time.minute, timeZone);

  taken.sort((a, b) => a.start - b.start);
  reading.parts = taken.map((t) => ({ ...t, key: keyOf(t.kind, t.text), label: labels[t.start] ?? t.text }));
  let title = '';
  let at = 0;
  for (const t of taken) {
    title += text.slice(at, t.start);
    at = t.end;
  }
  title += text.slice(at);
  reading.title = title.replace(/\s+/g, ' ').trim();
  return reading;
}
