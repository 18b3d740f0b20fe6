/**
 * CalDAV's VTODO and an Outpost item, both ways (ARCHITECTURE §4 'CalDAV', SYNC.md V1–V6). Pure: the
 * server's /dav/ routes write an item with `writeVtodo` and read a client's PUT with `parseVtodo`;
 * `mergeVtodo` decides which fields of a PUT are the client's changes (the per-field merge).
 *
 * UID is the item's uuid (a client's UID that is no UUID is kept as written, and the item's uuid is
 * derived from it), SUMMARY the title, DESCRIPTION, DTSTART the start date, DUE the due date, PRIORITY
 * 1/5/9 for p1/p2/p3 (none for p4), STATUS and COMPLETED, CATEGORIES the labels, RRULE the repeat
 * rule and RELATED-TO;RELTYPE=PARENT a todo's task. Everything else a client sends (X- properties,
 * VALARM and other components, VTIMEZONEs) is kept as it came, folds and all, and written back.
 */

import ICAL from 'ical.js';
import { escapeText, foldLine } from './calendarFeed';
import type { ItemStatus } from './item';
import { labelKey } from './planning';
import { formatRecurrence, parseRecurrence } from './recurrenceRule';

/** What a VTODO says that Outpost keeps as item fields, as the mapping reads and writes them. */
export interface VtodoFields {
  uid: string;
  summary: string;
  description: string | null;
  /** DTSTART's day (YYYY-MM-DD), or null. */
  start: string | null;
  /** DUE's day (YYYY-MM-DD), or null. */
  due: string | null;
  /** Outpost's priority: 1–4, p1 the most urgent (PRIORITY 1/5/9, none for p4). */
  priority: 1 | 2 | 3 | 4;
  status: ItemStatus;
  labels: string[];
  /** The RRULE's value (no `RRULE:`), in Outpost's own spelling, or null. */
  rrule: string | null;
  /** The UID of the parent VTODO (RELATED-TO;RELTYPE=PARENT), or null. */
  parent: string | null;
}

/** A content line a client sent, kept as it came (its folds too), and the day it means. */
export interface KeptDate {
  line: string;
  date: string;
}

/** What Outpost does not read of a client's VCALENDAR, written back as it came. */
export interface VtodoKept {
  /** The VTODO's other properties and components (X-…, VALARM, ATTENDEE…), each its raw lines. */
  lines: string[];
  /** The calendar's VTIMEZONE components (and other parts beside the VTODO), raw. */
  calendar: string[];
  /** DUE and DTSTART as a DATE-TIME with its zone: written back while the item keeps that day. */
  due: KeptDate | null;
  start: KeptDate | null;
  /**
   * PERCENT-COMPLETE between 1 and 99 as it came (an app's progress bar): written back while the item
   * stays in progress. Absent on everything else (0 and 100 are the status itself).
   */
  percent?: string;
}

/** Nothing kept: an item no calendar app has written. */
export const EMPTY_KEPT: VtodoKept = { lines: [], calendar: [], due: null, start: null };

/** The most a VTODO's kept lines may weigh (UTF-16 units): a reminder or ten, never a file. */
export const KEPT_MAX_LENGTH = 64 * 1024;

export type ParsedVtodo = { ok: true; fields: VtodoFields; kept: VtodoKept } | { ok: false; message: string };

/** Properties the mapping reads (or writes itself, like DTSTAMP); anything else is kept. */
const READ = new Set([
  'UID',
  'SUMMARY',
  'DESCRIPTION',
  'DTSTART',
  'DUE',
  'DURATION',
  'PRIORITY',
  'STATUS',
  'COMPLETED',
  'PERCENT-COMPLETE',
  'CATEGORIES',
  'RRULE',
  'DTSTAMP',
  'CREATED',
  'LAST-MODIFIED',
]);
/** VCALENDAR properties the server writes itself. */
const CALENDAR_OWN = new Set(['VERSION', 'PRODID', 'CALSCALE', 'METHOD']);

const fail = (message: string): ParsedVtodo => ({ ok: false, message });

/** The logical lines of a text (a fold — a line break and a space or tab — stays inside its line). */
export function rawLines(text: string): string[] {
  const normal = text.replace(/\r\n|\r|\n/g, '\r\n');
  return normal.split(/\r\n(?![ \t])/).filter((line) => line.trim() !== '');
}

const unfoldLine = (line: string) => line.replace(/\r\n[ \t]/g, '');
const nameOf = (line: string) => (/^([A-Za-z0-9-]+)/.exec(unfoldLine(line))?.[1] ?? '').toUpperCase();
const beginOf = (line: string) => /^BEGIN:([A-Za-z0-9-]+)\s*$/i.exec(unfoldLine(line))?.[1]?.toUpperCase();
const endOf = (line: string) => /^END:([A-Za-z0-9-]+)\s*$/i.exec(unfoldLine(line))?.[1]?.toUpperCase();

/** A content line's value: the text after the first colon outside a quoted parameter. */
function valueOfLine(line: string): string {
  const unfolded = unfoldLine(line);
  let quoted = false;
  for (let i = 0; i < unfolded.length; i++) {
    const ch = unfolded[i];
    if (ch === '"') quoted = !quoted;
    else if (ch === ':' && !quoted) return unfolded.slice(i + 1);
  }
  return '';
}

/** A TEXT list value (CATEGORIES) as its items, unescaped and trimmed (RFC 5545 §3.3.11). */
function splitTextList(line: string): string[] {
  const value = valueOfLine(line);
  const items: string[] = [];
  let current = '';
  for (let i = 0; i < value.length; i++) {
    const ch = value[i]!;
    if (ch === '\\' && i + 1 < value.length) {
      const next = value[++i]!;
      current += next === 'n' || next === 'N' ? '\n' : next;
    } else if (ch === ',') {
      items.push(current.trim());
      current = '';
    } else current += ch;
  }
  items.push(current.trim());
  return items;
}

/** A RELATED-TO line that names a parent: RELTYPE=PARENT, or no RELTYPE (RFC 5545's default). */
function namesParent(line: string): boolean {
  const unfolded = unfoldLine(line);
  const params = unfolded.slice(0, unfolded.indexOf(':') === -1 ? undefined : unfolded.indexOf(':'));
  const reltype = /;RELTYPE=("?)([^;:"]*)\1/i.exec(params)?.[2];
  return reltype === undefined || reltype.toUpperCase() === 'PARENT';
}

/** The parts of the text: the VTODO's raw lines and what lies beside it in the VCALENDAR. */
function splitCalendar(
  text: string,
): { ok: true; todo: string[]; calendar: string[] } | { ok: false; message: string } {
  const lines = rawLines(text);
  if (lines.length === 0 || beginOf(lines[0]!) !== 'VCALENDAR')
    return { ok: false, message: 'The body must be one VCALENDAR holding one VTODO.' };
  let todo: string[] | null = null;
  const calendar: string[] = [];
  let depth = 0;
  let block: string[] = [];
  let blockName = '';
  let todos = 0;
  for (const line of lines.slice(1)) {
    const begin = beginOf(line);
    const end = endOf(line);
    if (depth === 0) {
      if (end === 'VCALENDAR') break;
      if (begin) {
        depth = 1;
        block = [line];
        blockName = begin;
        continue;
      }
      // A calendar property the server writes itself is dropped; any other is kept beside the VTODO.
      if (!CALENDAR_OWN.has(nameOf(line))) calendar.push(line);
      continue;
    }
    block.push(line);
    if (begin) depth++;
    if (end) depth--;
    if (depth === 0) {
      if (blockName === 'VTODO') {
        todos++;
        todo = block;
      } else if (blockName === 'VTIMEZONE') calendar.push(block.join('\r\n'));
      else
        return {
          ok: false,
          message: `Outpost keeps tasks and todos (VTODO) only; this calendar holds a ${blockName}.`,
        };
    }
  }
  if (todos !== 1 || todo === null)
    return {
      ok: false,
      message:
        todos === 0
          ? 'The body holds no VTODO.'
          : 'Outpost keeps one VTODO per item: changes to a single occurrence (RECURRENCE-ID) are not supported.',
    };
  return { ok: true, todo, calendar };
}

const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;

/** Whether YYYY-MM-DD names a real day. */
function realDay(date: string): boolean {
  const match = DAY.exec(date);
  if (!match) return false;
  const at = Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3]));
  const back = new Date(at);
  return (
    back.getUTCFullYear() === Number(match[1]) &&
    back.getUTCMonth() === Number(match[2]) - 1 &&
    back.getUTCDate() === Number(match[3])
  );
}

/** The day in `timeZone` of a UTC instant (YYYY-MM-DDTHH:MM:SSZ), via Intl; UTC when the zone is unknown. */
function dayIn(instant: string, timeZone: string): string {
  const at = new Date(instant);
  try {
    const parts = new Intl.DateTimeFormat('en-CA', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
    }).formatToParts(at);
    const get = (type: string) => parts.find((p) => p.type === type)?.value ?? '';
    return `${get('year')}-${get('month')}-${get('day')}`;
  } catch {
    return at.toISOString().slice(0, 10);
  }
}

/**
 * The day a DATE or DATE-TIME value (jCal text: `2026-12-01`, `2026-12-01T09:00:00`, `…Z`) falls on:
 * its own date for a DATE, a floating or zoned time (TZID: the wall clock there), and the item's
 * time zone's day for a UTC instant. Null when it is no real date.
 */
function dayOf(value: unknown, timeZone: string): { date: string; dateTime: boolean } | null {
  if (typeof value !== 'string') return null;
  const match = /^(\d{4}-\d{2}-\d{2})(T\d{2}:\d{2}:\d{2}(Z)?)?$/.exec(value);
  if (!match || !realDay(match[1]!)) return null;
  if (match[3]) return { date: dayIn(value, timeZone), dateTime: true };
  return { date: match[1]!, dateTime: match[2] !== undefined };
}

/** RFC 5545 PRIORITY (0–9) as Outpost's p1–p4: 1–4 high, 5 medium, 6–9 low, 0 or none undefined. */
export function priorityFromIcal(value: number | null): 1 | 2 | 3 | 4 {
  if (value === null || !Number.isInteger(value) || value <= 0 || value > 9) return 4;
  if (value <= 4) return 1;
  if (value === 5) return 2;
  return 3;
}

/** Outpost's p1–p4 as PRIORITY: 1, 5, 9, or none (null) for p4. */
export function priorityToIcal(priority: number): number | null {
  return priority === 1 ? 1 : priority === 2 ? 5 : priority === 3 ? 9 : null;
}

/** A VTODO's STATUS (and COMPLETED, PERCENT-COMPLETE when it has none) as an item status. */
function statusOf(status: string | null, completed: boolean, percent: number | null): ItemStatus {
  switch (status?.toUpperCase()) {
    case 'COMPLETED':
    case 'CANCELLED':
      return 'completed';
    case 'IN-PROCESS':
      return 'in_progress';
    case 'NEEDS-ACTION':
      return 'pending';
  }
  if (completed || percent === 100) return 'completed';
  if (percent !== null && percent > 0) return 'in_progress';
  return 'pending';
}

/** A rule as Outpost spells it (formatRecurrence), without a reminder time, or the reason it is refused. */
export function canonicalRule(text: string): { ok: true; rule: string } | { ok: false; message: string } {
  const parsed = parseRecurrence(text);
  if (!parsed.ok) return parsed;
  return { ok: true, rule: formatRecurrence({ ...parsed.rule, at: null }) };
}

const firstText = (todo: ICAL.Component, name: string): string | null => {
  const value = todo.getFirstPropertyValue(name);
  return typeof value === 'string' ? value : null;
};

/**
 * A client's VCALENDAR as the item fields it sets and the lines Outpost keeps. `timeZone` (the item's,
 * IANA) gives the day of a DUE or DTSTART written as a UTC instant. Says what is wrong with a body it
 * cannot take: not iCalendar, no VTODO, another component, a SUMMARY missing, a date that is none, a
 * rule Outpost cannot repeat by, two parents.
 */
export function parseVtodo(text: string, timeZone = 'UTC'): ParsedVtodo {
  try {
    return readVtodo(text, timeZone);
  } catch (error) {
    // ical.js reads a property's value when asked for it: a malformed one (an RRULE, a DURATION) throws then.
    return fail(`The VTODO is not valid iCalendar: ${(error as Error).message}`);
  }
}

function readVtodo(text: string, timeZone: string): ParsedVtodo {
  const parts = splitCalendar(text);
  if (!parts.ok) return fail(parts.message);
  let calendar: ICAL.Component;
  try {
    calendar = new ICAL.Component(ICAL.parse(text));
  } catch (error) {
    return fail(`The body is not valid iCalendar: ${(error as Error).message}`);
  }
  const todo = calendar.getFirstSubcomponent('vtodo');
  if (!todo) return fail('The body holds no VTODO.');
  const uid = firstText(todo, 'uid')?.trim() ?? '';
  if (uid === '') return fail('A VTODO needs a UID.');
  const summary = firstText(todo, 'summary');
  if (summary === null || summary.trim() === '')
    return fail('A VTODO needs a SUMMARY: Outpost calls it the title.');
  const description = firstText(todo, 'description');

  const kept: VtodoKept = { lines: [], calendar: parts.calendar, due: null, start: null };
  let parent: string | null = null;
  const dates: Record<'DUE' | 'DTSTART', string | null> = { DUE: null, DTSTART: null };
  const categoryLines: string[] = [];
  // Walk the VTODO's own lines (between its BEGIN and END): nested components are kept whole.
  const body = parts.todo.slice(1, -1);
  for (let i = 0; i < body.length; i++) {
    const line = body[i]!;
    const begin = beginOf(line);
    if (begin) {
      let depth = 0;
      const block: string[] = [];
      for (; i < body.length; i++) {
        const inner = body[i]!;
        block.push(inner);
        if (beginOf(inner)) depth++;
        if (endOf(inner)) depth--;
        if (depth === 0) break;
      }
      kept.lines.push(block.join('\r\n'));
      continue;
    }
    const name = nameOf(line);
    if (name === 'RELATED-TO' && namesParent(line)) {
      if (parent !== null) return fail('A VTODO can have one parent (RELATED-TO;RELTYPE=PARENT).');
      parent = valueOfLine(line).trim();
      if (parent === '') return fail('RELATED-TO names no parent.');
      continue;
    }
    if (name === 'DUE' || name === 'DTSTART') dates[name] = line;
    if (name === 'CATEGORIES') categoryLines.push(line);
    if (!READ.has(name)) kept.lines.push(line);
  }

  const readDate = (name: 'due' | 'dtstart'): { date: string; dateTime: boolean } | null | 'bad' => {
    const property = todo.getFirstProperty(name);
    if (!property) return null;
    return dayOf(property.jCal[3], timeZone) ?? 'bad';
  };
  const due = readDate('due');
  const start = readDate('dtstart');
  if (due === 'bad') return fail('DUE is not a valid date.');
  if (start === 'bad') return fail('DTSTART is not a valid date.');
  let dueDate = due?.date ?? null;
  if (due === null && start !== null) {
    // DURATION instead of DUE (RFC 5545 allows either): the due day is the start plus its whole days.
    const duration = todo.getFirstPropertyValue('duration');
    if (duration instanceof ICAL.Duration && !duration.isNegative) {
      const days = Math.floor(duration.toSeconds() / 86_400);
      const at = new Date(`${start.date}T00:00:00Z`);
      at.setUTCDate(at.getUTCDate() + days);
      dueDate = at.toISOString().slice(0, 10);
    }
  }
  if (due?.dateTime && dates.DUE) kept.due = { line: dates.DUE, date: due.date };
  if (start?.dateTime && dates.DTSTART) kept.start = { line: dates.DTSTART, date: start.date };

  const priorityValue = todo.getFirstPropertyValue('priority');
  const percentValue = todo.getFirstPropertyValue('percent-complete');
  const status = statusOf(
    firstText(todo, 'status'),
    todo.getFirstProperty('completed') !== null,
    typeof percentValue === 'number' ? percentValue : null,
  );
  if (
    status === 'in_progress' &&
    typeof percentValue === 'number' &&
    percentValue > 0 &&
    percentValue < 100
  ) {
    const line = body.find((candidate) => nameOf(candidate) === 'PERCENT-COMPLETE');
    if (line !== undefined) kept.percent = line;
  }
  // Read from the lines themselves: ical.js takes the comma of `\\,` (a backslash, then a separator) as escaped.
  // Labels compare without case (shared/planning.ts): the first spelling of each is kept.
  const seenLabels = new Set<string>();
  const labels = categoryLines
    .flatMap(splitTextList)
    .filter((value) => value !== '')
    .filter((value) => {
      const key = labelKey(value);
      if (seenLabels.has(key)) return false;
      seenLabels.add(key);
      return true;
    });
  let rrule: string | null = null;
  const rules = todo.getAllProperties('rrule');
  if (rules.length > 1) return fail('A VTODO can repeat by one RRULE.');
  if (rules.length === 1) {
    const canonical = canonicalRule(String(rules[0]!.getFirstValue()));
    if (!canonical.ok) return fail(canonical.message);
    rrule = canonical.rule;
  }
  if (kept.lines.join('').length + kept.calendar.join('').length > KEPT_MAX_LENGTH)
    return fail(
      `The VTODO's properties that Outpost does not read are over ${KEPT_MAX_LENGTH / 1024} KB: too much to keep.`,
    );
  return {
    ok: true,
    fields: {
      uid,
      summary,
      description: description === null || description === '' ? null : description,
      start: start?.date ?? null,
      due: dueDate,
      priority: priorityFromIcal(typeof priorityValue === 'number' ? priorityValue : null),
      status,
      labels,
      rrule,
      parent,
    },
    kept,
  };
}

/** An item as the mapping reads it (the API's item has these and more). */
export interface VtodoItem {
  uuid: string | null;
  title: string;
  description: string | null;
  start_date?: string | null;
  due_date: string | null;
  priority?: number;
  status: ItemStatus;
  labels?: readonly string[];
  recurrence?: string | null;
}

/**
 * The fields an item's VTODO shows (V2): its uuid as UID unless the client gave another (`uid`), no
 * RRULE on a completed occurrence (its next one carries the rule, as the calendar feed does, F3), and
 * the parent's UID when the parent is a VTODO of the same calendar.
 */
export function vtodoFieldsOf(item: VtodoItem, parentUid: string | null, uid: string | null): VtodoFields {
  const rule = item.recurrence && item.status !== 'completed' ? canonicalRule(item.recurrence) : null;
  return {
    uid: uid ?? item.uuid ?? '',
    summary: item.title,
    description: item.description === '' ? null : item.description,
    start: item.start_date ?? null,
    due: item.due_date,
    priority: priorityFromIcal(priorityToIcal(item.priority ?? 4)),
    status: item.status,
    labels: [...(item.labels ?? [])],
    rrule: rule?.ok ? rule.rule : null,
    parent: parentUid,
  };
}

const compactDate = (date: string) => date.replaceAll('-', '');
const compactInstant = (iso: string) => `${iso.slice(0, 19).replace(/[-:]/g, '')}Z`;
const STATUS_TEXT: Record<ItemStatus, string> = {
  pending: 'NEEDS-ACTION',
  in_progress: 'IN-PROCESS',
  completed: 'COMPLETED',
};

/** When the item was made, last changed and completed (ISO instants), for CREATED, LAST-MODIFIED and COMPLETED. */
export interface VtodoTimes {
  created: string;
  updated: string;
  completed: string | null;
}

/**
 * The VCALENDAR of one VTODO (V1), lines folded at 75 octets and ending in CRLF. A kept DUE or
 * DTSTART is written back as it came while the item keeps its day (and the other, if any, is kept
 * too: RFC 5545 wants both of one value type); otherwise both are DATEs.
 */
export function writeVtodo(fields: VtodoFields, kept: VtodoKept, times: VtodoTimes): string {
  const lines: string[] = [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    'PRODID:-//Outpost//CalDAV//EN',
    'CALSCALE:GREGORIAN',
  ];
  const raw: string[] = [];
  lines.push(...kept.calendar.map((block) => `\u0000${block}`));
  lines.push('BEGIN:VTODO', `UID:${escapeText(fields.uid)}`);
  lines.push(`DTSTAMP:${compactInstant(times.updated)}`);
  lines.push(`CREATED:${compactInstant(times.created)}`);
  lines.push(`LAST-MODIFIED:${compactInstant(times.updated)}`);
  lines.push(`SUMMARY:${escapeText(fields.summary)}`);
  if (fields.description !== null) lines.push(`DESCRIPTION:${escapeText(fields.description)}`);
  const dueKept = kept.due !== null && kept.due.date === fields.due;
  const startKept = kept.start !== null && kept.start.date === fields.start;
  const keepDates = (fields.due === null || dueKept) && (fields.start === null || startKept);
  if (fields.start !== null)
    lines.push(
      keepDates && kept.start
        ? `\u0000${kept.start.line}`
        : `DTSTART;VALUE=DATE:${compactDate(fields.start)}`,
    );
  if (fields.due !== null)
    lines.push(
      keepDates && kept.due ? `\u0000${kept.due.line}` : `DUE;VALUE=DATE:${compactDate(fields.due)}`,
    );
  const priority = priorityToIcal(fields.priority);
  if (priority !== null) lines.push(`PRIORITY:${priority}`);
  lines.push(`STATUS:${STATUS_TEXT[fields.status]}`);
  if (fields.status === 'completed') {
    lines.push(`COMPLETED:${compactInstant(times.completed ?? times.updated)}`, 'PERCENT-COMPLETE:100');
  } else if (fields.status === 'in_progress' && kept.percent !== undefined) {
    lines.push(`\u0000${kept.percent}`);
  }
  if (fields.labels.length > 0) lines.push(`CATEGORIES:${fields.labels.map(escapeText).join(',')}`);
  if (fields.rrule !== null) lines.push(`RRULE:${fields.rrule.replace(/[^\x21-\x7E]/g, '')}`);
  if (fields.parent !== null) lines.push(`RELATED-TO;RELTYPE=PARENT:${escapeText(fields.parent)}`);
  lines.push(...kept.lines.map((line) => `\u0000${line}`));
  lines.push('END:VTODO', 'END:VCALENDAR');
  // Kept lines (marked with a NUL, which no text line can hold: escapeText strips it) go out as they came.
  for (const line of lines) raw.push(line.startsWith('\u0000') ? line.slice(1) : foldLine(line));
  return `${raw.join('\r\n')}\r\n`;
}

/** The fields a PUT's per-field merge compares, each hashed into the ETag (V3). */
export const MERGED_FIELDS = [
  'summary',
  'description',
  'start',
  'due',
  'priority',
  'status',
  'labels',
  'rrule',
  'parent',
  'kept',
] as const;
export type MergedField = (typeof MERGED_FIELDS)[number];

/** The fields a merge compares: the mapped ones and the kept lines. */
export type MergeState = Omit<VtodoFields, 'uid'> & { kept: VtodoKept };

/** Two 32-bit halves of cyrb53's mixing of a text: quick, and spread well enough to tell values apart. */
function mix(text: string): [number, number] {
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ ch, 2654435761);
    h2 = Math.imul(h2 ^ ch, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return [h1 >>> 0, h2 >>> 0];
}

const BASE64URL = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

/** A 48-bit hash of a text, as 8 base64url characters: a field's mark in an ETag. */
export function fieldMark(text: string): string {
  let out = '';
  // The top 24 bits of each half.
  for (const half of mix(text)) {
    for (let shift = 26; shift >= 8; shift -= 6) out += BASE64URL[(half >>> shift) & 63];
  }
  return out;
}

const valueText = (field: MergedField, state: MergeState): string =>
  field === 'kept'
    ? // A kept progress joins the mark only when there is one: every other object keeps its ETag.
      JSON.stringify([
        state.kept.lines,
        state.kept.calendar,
        state.kept.due,
        state.kept.start,
        ...(state.kept.percent === undefined ? [] : [state.kept.percent]),
      ])
    : JSON.stringify(state[field]);

/**
 * The strong ETag of a VTODO (V3): the item's version, then one mark per merged field, so a later
 * PUT naming it says what the client saw of each field without the server keeping a copy.
 */
export function vtodoEtag(version: number, state: MergeState): string {
  return `"${version}-${MERGED_FIELDS.map((field) => fieldMark(valueText(field, state))).join('')}"`;
}

/** An ETag vtodoEtag wrote: its version and its marks; null for anything else. */
export function readVtodoEtag(etag: string): { version: number; marks: Record<MergedField, string> } | null {
  const match = /^\s*"(\d{1,9})-([A-Za-z0-9_-]+)"\s*$/.exec(etag);
  if (!match || match[2]!.length !== MERGED_FIELDS.length * 8) return null;
  const marks = Object.fromEntries(
    MERGED_FIELDS.map((field, i) => [field, match[2]!.slice(i * 8, i * 8 + 8)]),
  ) as Record<MergedField, string>;
  return { version: Number(match[1]), marks };
}

export type MergeResult = { ok: true; changed: MergedField[] } | { ok: false; conflicts: MergedField[] };

/**
 * Which fields of a PUT are the client's changes (V4): those it sent otherwise than the copy its
 * ETag names (`base`, the marks of vtodoEtag; null for a PUT without If-Match, which takes every
 * field it sends). A field changed since on the server too, to another value, is a conflict (the
 * PUT answers 412); a field only the server changed keeps the server's value.
 */
export function mergeVtodo(
  base: Record<MergedField, string> | null,
  client: MergeState,
  server: MergeState,
): MergeResult {
  const changed: MergedField[] = [];
  const conflicts: MergedField[] = [];
  for (const field of MERGED_FIELDS) {
    const mine = valueText(field, client);
    const theirs = valueText(field, server);
    if (mine === theirs) continue;
    if (base === null) {
      changed.push(field);
      continue;
    }
    const baseMark = base[field];
    if (fieldMark(mine) === baseMark) continue;
    if (fieldMark(theirs) !== baseMark) conflicts.push(field);
    else changed.push(field);
  }
  return conflicts.length > 0 ? { ok: false, conflicts } : { ok: true, changed };
}

/** A UID as an item uuid (V5): a UUID as it is (lower case); any other text, a UUID derived from it. */
export function uuidOfUid(uid: string): string {
  const trimmed = uid.trim();
  if (/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(trimmed))
    return trimmed.toLowerCase();
  // Two mixes of the text salted apart: 128 bits, of which a UUID's shape keeps 122.
  const digits = [0, 1]
    .flatMap((salt) => mix(`${salt}:${trimmed}`))
    .map((word) => word.toString(16).padStart(8, '0'))
    .join('')
    .split('');
  digits[12] = '8';
  digits[16] = ['8', '9', 'a', 'b'][Number.parseInt(digits[16]!, 16) & 3]!;
  const d = digits.join('');
  return `${d.slice(0, 8)}-${d.slice(8, 12)}-${d.slice(12, 16)}-${d.slice(16, 20)}-${d.slice(20, 32)}`;
}
