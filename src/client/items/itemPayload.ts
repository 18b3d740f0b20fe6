import { ITEM_TYPES, type ItemType, TITLE_COUNTER_FROM, TITLE_MAX_LENGTH } from '../../shared/item';
import type { ItemCreateInput } from '../../shared/schemas';
import { isBlankTitle } from '../../shared/text';

export { ITEM_TYPES, TITLE_COUNTER_FROM, TITLE_MAX_LENGTH };

export const TITLE_TOO_LONG_TITLE = 'Title too long';
export const TITLE_TOO_LONG_MESSAGE = `Title must be ${TITLE_MAX_LENGTH} characters or less.`;

/** What the title field shows under it: the counter from 201 characters, red past the limit. */
export interface TitleState {
  length: number;
  showCounter: boolean;
  tooLong: boolean;
  /** 'Title too long: Title must be 255 characters or less.' when over the limit. */
  error: string | null;
}

export function titleState(title: string): TitleState {
  const length = title.length;
  const tooLong = length > TITLE_MAX_LENGTH;
  return {
    length,
    showCounter: length > TITLE_COUNTER_FROM,
    tooLong,
    error: tooLong ? `${TITLE_TOO_LONG_TITLE}: ${TITLE_TOO_LONG_MESSAGE}` : null,
  };
}

/**
 * Submit stays disabled while the title is blank (only white space or invisible characters, as the
 * server judges it) and, to spare a round trip, while it is too long.
 */
export function canSubmitTitle(title: string): boolean {
  const trimmed = title.trim();
  return !isBlankTitle(trimmed) && trimmed.length <= TITLE_MAX_LENGTH;
}

/** Which optional fields a type offers in the quick-add card. */
export function quickAddFields(type: ItemType): {
  description: boolean;
  dueDate: boolean;
  assignee: boolean;
} {
  return {
    description: type === 'campaign' || type === 'task',
    dueDate: type !== 'todo',
    assignee: type === 'task' || type === 'todo',
  };
}

export interface QuickAddValues {
  type: ItemType;
  title: string;
  description: string;
  dueDate: string;
  /** A user id as the picker's value: '' or '0' for nobody. */
  assignee: string;
  /** A `datetime-local` value in this device's time; '' or absent for no reminder. */
  remindAt?: string;
  parentId?: number | null;
  /** The Repeat control's rule; null or absent for none. */
  recurrence?: string | null;
  /** Today (YYYY-MM-DD, this device's zone): the due date of a repeating item given none. */
  today?: string;
}

/** Today in this device's time zone, as YYYY-MM-DD. */
export function localToday(now = new Date()): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
}

/** Tasks and todos repeat; a repeating item counts from its due date, today when it was given none. */
function withRecurrence(
  payload: ItemCreateInput,
  values: { type: ItemType; recurrence?: string | null; today?: string },
): ItemCreateInput {
  if (!values.recurrence || values.type === 'campaign') return payload;
  return {
    ...payload,
    recurrence: values.recurrence,
    due_date: payload.due_date ?? values.today ?? localToday(),
  };
}

/**
 * The reminder field as the instant the API stores, or null for none. A `datetime-local` value
 * (no offset) is this device's local time, which is how Date reads that form; not ./editing's
 * helper, which would bring the edit dialog's module into the quick-add card's chunk.
 */
function remindAtOf(value: string | undefined): string | null {
  if (value === undefined || !/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/.test(value.trim())) return null;
  const at = new Date(value.trim());
  return Number.isNaN(at.getTime()) ? null : at.toISOString();
}

function assigneeId(value: string): number | null {
  if (value.trim() === '') return null;
  const n = Number(value);
  return Number.isInteger(n) && n > 0 ? n : null;
}

function parentOf(parentId: number | null | undefined): number | null {
  return parentId === undefined || parentId === null || parentId === 0 ? null : parentId;
}

/** The create payload of the quick-add card, applying the spec's per-type rules. */
export function quickAddPayload(values: QuickAddValues): ItemCreateInput {
  const fields = quickAddFields(values.type);
  const payload: ItemCreateInput = {
    title: values.title.trim(),
    type: values.type,
    status: 'pending',
    parent_id: parentOf(values.parentId),
  };
  const description = values.description.trim();
  if (fields.description && description !== '') payload.description = description;
  if (fields.dueDate && values.dueDate !== '') payload.due_date = values.dueDate;
  const assignee = assigneeId(values.assignee);
  if (fields.assignee && assignee !== null) payload.assigned_to = assignee;
  const remindAt = remindAtOf(values.remindAt);
  if (remindAt !== null) payload.remind_at = remindAt;
  return withRecurrence(payload, values);
}

export interface DialogValues {
  type: ItemType;
  title: string;
  description: string;
  assignee: string;
  dueDate: string;
  endDate: string;
  /** A `datetime-local` value in this device's time; '' or absent for no reminder. */
  remindAt?: string;
  parentId?: number | null;
  recurrence?: string | null;
  today?: string;
}

/** Types the Create New Item dialog offers; a campaign cannot sit under a parent. */
export function dialogTypeEnabled(type: ItemType, parentId: number | null | undefined): boolean {
  return !(type === 'campaign' && parentOf(parentId) !== null);
}

/**
 * The create payload of the Create New Item dialog: assignee as a number, due_date only for task and
 * todo, end_date only for campaign.
 */
export function dialogPayload(values: DialogValues): ItemCreateInput {
  const payload: ItemCreateInput = {
    title: values.title.trim(),
    type: values.type,
    status: 'pending',
    parent_id: values.type === 'campaign' ? null : parentOf(values.parentId),
  };
  const description = values.description.trim();
  if (description !== '') payload.description = description;
  const assignee = assigneeId(values.assignee);
  if (assignee !== null) payload.assigned_to = assignee;
  if (values.type !== 'campaign' && values.dueDate !== '') payload.due_date = values.dueDate;
  if (values.type === 'campaign' && values.endDate !== '') payload.end_date = values.endDate;
  const remindAt = remindAtOf(values.remindAt);
  if (remindAt !== null) payload.remind_at = remindAt;
  return withRecurrence(payload, values);
}
