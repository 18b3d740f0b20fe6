/**
 * The quick-add reader as a form uses it (ARCHITECTURE §5 'Quick add reads what you mean'): the shared
 * parser's reading, with #parent and @person found among the device's items and people, and the parts
 * this form cannot save for this type left in the title. Loaded with import() on the field's first
 * focus or keystroke (useTitleReader.ts): chrono-node is not part of the first screen.
 */

import { daysBetween } from '../../shared/dateOnly';
import { ALLOWED_PARENT_TYPES } from '../../shared/hierarchy';
import type { ItemStatus, ItemType } from '../../shared/item';
import { LABELS_MAX, type Priority } from '../../shared/planning';
import { type QuickAddKind, type QuickAddPart, readQuickAdd } from '../../shared/quickAdd';
import type { ItemCreateInput } from '../../shared/schemas';
import { deviceTimeZone, wallClockOf } from '../../shared/timeZone';
import { localToday } from './itemPayload';
import type { NewItemFormValues } from './useItemForm';

/** A campaign or task on the device that a #name may name. */
export interface ParentCandidate {
  id: number;
  type: ItemType;
  title: string;
  status: ItemStatus;
}

/** A person the form may assign (the pickers' options: yourself, mutual contacts, samples). */
export interface PersonCandidate {
  id: number;
  name: string;
}

/** What the form around the field can save. */
export interface ReadContext {
  type: ItemType;
  /** The field a date fills: a campaign in the Create dialog has an end date instead of a due date. */
  dateField: 'due_date' | 'end_date';
  /** Whether the form saves an assignee for this type. */
  assignee: boolean;
  parents: readonly ParentCandidate[];
  people: readonly PersonCandidate[];
  /** For tests and the bench; now otherwise. */
  now?: Date;
  timeZone?: string;
}

/** One chip under the field. */
export interface QuickAddChip {
  key: string;
  kind: QuickAddKind;
  /** The words as typed ('tomorrow at 5pm', '#Home'). */
  text: string;
  /** What the chip says ('Tomorrow, 17:00', 'Every weekday', 'Home launch'). */
  label: string;
  /** What the part sets, for the remove button's name ('due date', 'reminder', 'parent'). */
  noun: string;
  /** For a parent, its type (the chip's dot); for a priority, its number (the flag's colour). */
  parentType?: ItemType;
  priority?: number;
  /** An unsure reading ('2h', '24/7', 'at 7') shown off: it sets nothing until the person turns it on. */
  off?: true;
}

/** The reading with the people and parents found, as the form saves it. */
export interface ReadTitle {
  /** The title that is left. */
  title: string;
  chips: QuickAddChip[];
  date: string | null;
  /** The first day of a span the words named ('from mon to fri'), before `date`. */
  start_date: string | null;
  estimate_minutes: number | null;
  remind_at: string | null;
  recurrence: string | null;
  parent_id: number | null;
  assigned_to: number | null;
  priority: number | null;
  labels: string[];
  /** Start and end of each part's words in the text as typed, for tinting them in the field. */
  spans: [number, number][];
}

const fold = (s: string) => s.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
/** Letters and digits only: '#spring_launch' and '#SpringLaunch' both name 'Spring launch'. */
const squash = (s: string) => fold(s).replace(/[^\p{L}\p{N}]+/gu, '');

/** The campaign or task whose title starts with `name`: an exact title first, then open ones, shorter first. */
export function findParent(
  name: string,
  type: ItemType,
  candidates: readonly ParentCandidate[],
): ParentCandidate | null {
  const allowed: readonly ItemType[] = ALLOWED_PARENT_TYPES[type];
  const wanted = squash(name);
  if (wanted === '' || allowed.length === 0) return null;
  const rank = (c: ParentCandidate) => [
    squash(c.title) === wanted ? 0 : 1,
    c.status === 'completed' ? 1 : 0,
    c.title.length,
    c.type === 'campaign' ? 0 : 1,
  ];
  const before = (a: number[], b: number[]) => {
    const at = a.findIndex((v, i) => v !== b[i]);
    return at !== -1 && a[at]! < b[at]!;
  };
  let best: { candidate: ParentCandidate; rank: number[] } | null = null;
  for (const c of candidates) {
    if (!allowed.includes(c.type) || !squash(c.title).startsWith(wanted)) continue;
    const r = rank(c);
    if (best === null || before(r, best.rank)) best = { candidate: c, rank: r };
  }
  return best?.candidate ?? null;
}

/**
 * The person `@name` names: '@me' is yourself; otherwise the first whose name, or one of its words,
 * starts with it (the pickers' order: yourself, mutual contacts, then samples).
 */
export function findPerson(name: string, people: readonly PersonCandidate[]): PersonCandidate | null {
  const wanted = squash(name);
  if (wanted === '') return null;
  const plain = (p: PersonCandidate) => p.name.replace(/ \(you\)$/, '');
  if (wanted === 'me') return people.find((p) => p.name.endsWith(' (you)')) ?? null;
  return (
    people.find((p) => squash(plain(p)).startsWith(wanted)) ??
    people.find((p) =>
      fold(plain(p))
        .split(/\s+/)
        .some((word) => squash(word).startsWith(wanted)),
    ) ??
    null
  );
}

const DAY_WORDS = new Intl.DateTimeFormat('en-GB', {
  weekday: 'short',
  day: 'numeric',
  month: 'short',
  timeZone: 'UTC',
});

/** 'Today', 'Tomorrow', else 'Thu 26 Nov' (with the year when it is not this year's). */
function dayWords(date: string, today: string): string {
  const days = daysBetween(today, date);
  if (days === 0) return 'Today';
  if (days === 1) return 'Tomorrow';
  const words = DAY_WORDS.format(new Date(`${date}T00:00:00Z`));
  return date.slice(0, 4) === today.slice(0, 4) ? words : `${words} ${date.slice(0, 4)}`;
}

/** Whether the form can save this part for this type; a part it cannot save stays in the title. */
function usable(part: QuickAddPart, ctx: ReadContext): boolean {
  // The part's own name, so an unsure '#42' is offered only when a campaign or task starts with it.
  const name = part.text.slice(1);
  if (part.kind === 'repeat') return ctx.type !== 'campaign';
  if (part.kind === 'parent') return findParent(name, ctx.type, ctx.parents) !== null;
  if (part.kind === 'assignee') return ctx.assignee && findPerson(name, ctx.people) !== null;
  return true;
}

/**
 * Reads `text` for a form: the shared reader's parts, less those the person removed (`dismissed`) and
 * those this form cannot save (a repeat on a campaign, a #name no campaign or task starts with, an
 * @name nobody on the device has), whose words stay in the title as if their chips were removed.
 */
export function readTitle(
  text: string,
  dismissed: ReadonlySet<string>,
  ctx: ReadContext,
  /** Keys of unsure chips the person turned on. */
  accepted: ReadonlySet<string> = new Set(),
): ReadTitle {
  const now = ctx.now ?? new Date();
  const timeZone = ctx.timeZone ?? deviceTimeZone();
  const skipped = new Set(dismissed);
  let reading = readQuickAdd(text, { now, timeZone, dismissed: skipped, accepted });
  // Each round leaves one more part in the title; the reader takes one part of a kind, so a dropped
  // '#Nobody' lets a later '#Home' be read.
  for (let round = 0; round < 16; round++) {
    // Labels past the field's limit stay in the title, the last typed first.
    const drop =
      reading.parts.find((p) => !usable(p, ctx)) ??
      (reading.labels.length > LABELS_MAX ? reading.parts.findLast((p) => p.kind === 'label') : undefined);
    if (!drop) break;
    skipped.add(drop.key);
    reading = readQuickAdd(text, { now, timeZone, dismissed: skipped, accepted });
  }

  const parent = reading.parent === null ? null : findParent(reading.parent, ctx.type, ctx.parents);
  const person = reading.assignee === null || !ctx.assignee ? null : findPerson(reading.assignee, ctx.people);
  const today = wallClockOf(now.toISOString(), timeZone).slice(0, 10);
  const time = reading.remind_at === null ? null : wallClockOf(reading.remind_at, timeZone).slice(11, 16);

  const chips = reading.parts.map((part): QuickAddChip => {
    const base = { key: part.key, kind: part.kind, text: part.text };
    if (part.off) {
      // Nothing is set from it: the chip says what it would set, as the date chip says it when on.
      if (part.kind !== 'date')
        return { ...base, label: part.label.replace(/^\+/, ''), noun: part.kind, off: true };
      const on = readQuickAdd(text, {
        now,
        timeZone,
        dismissed: skipped,
        accepted: new Set(accepted).add(part.key),
      });
      const at = on.remind_at === null ? null : wallClockOf(on.remind_at, timeZone).slice(11, 16);
      const day = on.due_date === null ? null : dayWords(on.due_date, today);
      const label = [day, at].filter(Boolean).join(', ') || part.label;
      const dateNoun = ctx.dateField === 'end_date' ? 'end date' : 'due date';
      return { ...base, label, noun: at ? `${dateNoun} and reminder` : dateNoun, off: true };
    }
    switch (part.kind) {
      case 'date': {
        const dateNoun = ctx.dateField === 'end_date' ? 'end date' : 'due date';
        if (reading.start_date !== null) return { ...base, label: part.label, noun: `start and ${dateNoun}` };
        // A time alone ('at 9am') with a repeat names no day of its own: the chip says the time.
        const named = reading.due_date !== null;
        return {
          ...base,
          label: named
            ? `${dayWords(reading.due_date!, today)}${time ? `, ${time}` : ''}`
            : (time ?? part.label),
          noun: time ? `${dateNoun} and reminder` : dateNoun,
        };
      }
      case 'repeat':
        return { ...base, label: part.label, noun: 'repeat' };
      case 'estimate':
        return { ...base, label: part.label, noun: 'estimate' };
      case 'priority':
        return { ...base, label: part.label, noun: 'priority', priority: reading.priority ?? 4 };
      case 'parent':
        return {
          ...base,
          label: parent?.title ?? part.label,
          noun: 'parent',
          parentType: parent?.type ?? 'campaign',
        };
      case 'assignee':
        return { ...base, label: person?.name.replace(/ \(you\)$/, '') ?? part.label, noun: 'assignee' };
      default:
        return { ...base, label: part.label.replace(/^\+/, ''), noun: 'label' };
    }
  });

  return {
    title: reading.title,
    chips,
    date: reading.due_date,
    start_date: reading.start_date,
    estimate_minutes: reading.estimate_minutes,
    remind_at: reading.remind_at,
    recurrence: ctx.type === 'campaign' ? null : reading.recurrence,
    parent_id: parent?.id ?? null,
    assigned_to: person?.id ?? null,
    priority: reading.priority,
    labels: reading.labels,
    spans: reading.parts.filter((p) => !p.off).map((p) => [p.start, p.end]),
  };
}

/**
 * A create payload with what the title's words said (ARCHITECTURE §5 'Quick add reads what you
 * mean'): the title that is left, and each part the person kept as a chip. A part typed in the title
 * wins over the same field picked below it: its chip is what the person sees last. The reader has
 * already left in the title what the type cannot have (a repeat on a campaign, an unknown #name).
 */
export function withReading(
  payload: ItemCreateInput,
  reading: ReadTitle | null,
  /** The Create dialog gives a campaign an end date where the others have a due date. */
  dateField: 'due_date' | 'end_date' = 'due_date',
): ItemCreateInput {
  if (reading === null) return payload;
  const out: ItemCreateInput = { ...payload, title: reading.title.trim() };
  if (reading.date !== null) out[dateField] = reading.date;
  if (reading.start_date !== null) out.start_date = reading.start_date;
  if (reading.estimate_minutes !== null) out.estimate_minutes = reading.estimate_minutes;
  if (reading.remind_at !== null) out.remind_at = reading.remind_at;
  if (reading.recurrence !== null && payload.type !== 'campaign') {
    out.recurrence = reading.recurrence;
    // The reader gives a repeat its first date; a repeating item always has one.
    out.due_date = reading.date ?? payload.due_date ?? localToday();
  }
  if (reading.parent_id !== null) out.parent_id = reading.parent_id;
  if (reading.assigned_to !== null) out.assigned_to = reading.assigned_to;
  if (reading.priority !== null) out.priority = reading.priority as Priority;
  // The reader takes labels as the field allows them (no #, @ or comma, 40 characters, no two alike,
  // at most LABELS_MAX: readTitle leaves the rest in the title).
  if (reading.labels.length > 0) out.labels = reading.labels;
  return out;
}

/** The form fields a reading fills, and the chip kind that fills each. */
const FIELD_KINDS: Partial<Record<keyof NewItemFormValues, QuickAddKind>> = {
  dueDate: 'date',
  endDate: 'date',
  remindAt: 'date',
  repeat: 'repeat',
  assignee: 'assignee',
};

/** The chip that fills this form field, if one does (editing the field by hand removes it). */
export function chipFilling(field: string, reading: ReadTitle): QuickAddChip | null {
  const kind = FIELD_KINDS[field as keyof NewItemFormValues];
  return kind ? (reading.chips.find((c) => c.kind === kind && !c.off) ?? null) : null;
}

/**
 * The form's values as its fields show them: what the chips set, in the fields' own formats (the
 * reminder as this device's `datetime-local` text), over what was picked by hand. The fields then
 * never contradict the chips ('Does not repeat' beside 'Every weekday').
 */
export function shownValues<V extends NewItemFormValues>(
  values: V,
  reading: ReadTitle,
  dateField: 'due_date' | 'end_date' = 'due_date',
  timeZone = deviceTimeZone(),
): V {
  const out = { ...values };
  if (reading.date !== null) out[dateField === 'end_date' ? 'endDate' : 'dueDate'] = reading.date;
  if (reading.remind_at !== null) out.remindAt = wallClockOf(reading.remind_at, timeZone).slice(0, 16);
  if (reading.recurrence !== null) out.repeat = reading.recurrence;
  if (reading.assigned_to !== null) out.assignee = String(reading.assigned_to);
  return out;
}
