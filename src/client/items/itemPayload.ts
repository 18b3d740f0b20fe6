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

/**
 * Enter submits a todo's title and the description field; a campaign's or task's title does not submit
 * on Enter, because those usually get a description and a date first.
 */
export function enterSubmits(type: ItemType, field: 'title' | 'description'): boolean {
  if (field === 'description') return true;
  return type === 'todo';
}

export interface QuickAddValues {
  type: ItemType;
  title: string;
  description: string;
  dueDate: string;
  /** A user id as the picker's value: '' or '0' for nobody. */
  assignee: string;
  parentId?: number | null;
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
  return payload;
}

export interface DialogValues {
  type: ItemType;
  title: string;
  description: string;
  assignee: string;
  dueDate: string;
  endDate: string;
  parentId?: number | null;
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
  return payload;
}
