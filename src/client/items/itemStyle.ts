import type { ItemStatus, ItemType } from '../../shared/item';
import { statusLabel } from '../../shared/statusLabel';

/** The spec's type colours, as small dots: campaign cyan, task green, todo amber. */
export const TYPE_DOT: Record<ItemType, string> = {
  campaign: 'bg-cyan-500 dark:bg-cyan-400',
  task: 'bg-green-500 dark:bg-green-400',
  todo: 'bg-amber-500 dark:bg-amber-400',
};

/**
 * DESIGN: the priority flag's colour, p1 red, p2 orange, p3 blue; p4 (no priority) has no flag on a
 * row. These steps keep the flag AA-readable on white and on zinc-950 (orange-600 is not, at 12 px).
 */
export const PRIORITY_TEXT: Record<number, string> = {
  1: 'text-red-600 dark:text-red-400',
  2: 'text-orange-700 dark:text-orange-400',
  3: 'text-blue-600 dark:text-blue-400',
};

/** Words for a priority, as quick add writes it ('p1' is the most urgent). */
export function priorityName(priority: number): string {
  return priority === 4 ? 'p4 (none)' : `p${priority}`;
}

/** The same colours for icons and text (AA on zinc-50 and zinc-900 surfaces). */
export const TYPE_TEXT: Record<ItemType, string> = {
  campaign: 'text-cyan-700 dark:text-cyan-300',
  task: 'text-green-700 dark:text-green-300',
  todo: 'text-amber-700 dark:text-amber-300',
};

export const TYPE_LABEL: Record<ItemType, string> = { campaign: 'Campaign', task: 'Task', todo: 'Todo' };
export const TYPE_PLURAL: Record<ItemType, string> = { campaign: 'Campaigns', task: 'Tasks', todo: 'Todos' };

/** 'in_progress' → 'In progress': statuses in words (shared/statusLabel), wherever a person reads them. */
export function statusText(status: ItemStatus | string): string {
  return statusLabel(status);
}

export const STATUS_PILL: Record<ItemStatus, string> = {
  pending: 'bg-zinc-100 text-zinc-700 dark:bg-zinc-800 dark:text-zinc-300',
  in_progress: 'bg-indigo-50 text-indigo-700 dark:bg-indigo-950 dark:text-indigo-300',
  completed: 'bg-green-50 text-green-700 dark:bg-green-950 dark:text-green-300',
};

/** The detail route of an item, or null for a todo (todos open in their parent). */
export function itemHref(item: { id: number; type: ItemType }): string | null {
  if (item.type === 'campaign') return `/campaigns/${item.id}`;
  if (item.type === 'task') return `/tasks/${item.id}`;
  return null;
}

/**
 * The page of any item, a todo's too (/todos/{id}: its facts and timeline). A todo's row keeps its
 * title for renaming in place (itemHref is null for it); its Enter, its menu and its comment count
 * lead here.
 */
export function itemPageHref(item: { id: number; type: ItemType }): string {
  return itemHref(item) ?? `/todos/${item.id}`;
}

/** Due dates travel as YYYY-MM-DD; showing them must not shift a day with the time zone. */
export function formatDay(day: string | null | undefined): string | null {
  if (!day) return null;
  const match = /^(\d{4})-(\d{2})-(\d{2})/.exec(day);
  if (!match) return day;
  const date = new Date(Number(match[1]), Number(match[2]) - 1, Number(match[3]));
  const sameYear = date.getFullYear() === new Date().getFullYear();
  return date.toLocaleDateString(undefined, {
    month: 'short',
    day: 'numeric',
    ...(sameYear ? {} : { year: 'numeric' }),
  });
}

/** Whether a YYYY-MM-DD due date lies before today (local calendar). */
export function isOverdue(day: string | null | undefined, status: ItemStatus): boolean {
  if (!day || status === 'completed') return false;
  const today = new Date();
  const key = `${today.getFullYear()}-${String(today.getMonth() + 1).padStart(2, '0')}-${String(today.getDate()).padStart(2, '0')}`;
  return day.slice(0, 10) < key;
}

/**
 * A reminder's moment (ISO) as a row shows it, short: its time alone on its day, else its day and
 * time ('Dec 3, 9:00 AM'), in this device's time zone and words. Null for no or a broken reminder.
 */
export function reminderText(at: string | null | undefined, now: Date = new Date()): string | null {
  if (!at) return null;
  const when = new Date(at);
  if (Number.isNaN(when.getTime())) return null;
  const time = when.toLocaleTimeString(undefined, { hour: 'numeric', minute: '2-digit' });
  if (when.toDateString() === now.toDateString()) return time;
  const day = when.toLocaleDateString(undefined, {
    month: 'short',
    day: 'numeric',
    ...(when.getFullYear() === now.getFullYear() ? {} : { year: 'numeric' }),
  });
  return `${day}, ${time}`;
}
