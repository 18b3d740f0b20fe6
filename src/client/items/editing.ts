/** Pure helpers of the edit dialog, the detail pages' fields and the Move to… picker. */
import { ALLOWED_PARENT_TYPES } from '../../shared/hierarchy';
import type { ItemType } from '../../shared/item';

const pad = (n: number) => String(n).padStart(2, '0');

/** An instant as a `datetime-local` input shows it, in this device's time zone ('' for none). */
export function toLocalDateTime(iso: string | null | undefined): string {
  if (!iso) return '';
  const at = new Date(iso);
  if (Number.isNaN(at.getTime())) return '';
  return `${at.getFullYear()}-${pad(at.getMonth() + 1)}-${pad(at.getDate())}T${pad(at.getHours())}:${pad(at.getMinutes())}`;
}

/** A `datetime-local` value (this device's time) as the instant the API stores; null for none or nonsense. */
export function fromLocalDateTime(value: string): string | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})/.exec(value.trim());
  if (!match) return null;
  const [, y, mo, d, h, mi] = match.map(Number) as [number, number, number, number, number, number];
  const at = new Date(y, mo - 1, d, h, mi);
  return Number.isNaN(at.getTime()) ? null : at.toISOString();
}

/** A reminder for people: 'Mon, May 4, 9:30 AM' (this device's time zone and locale). */
export function formatReminder(iso: string | null | undefined): string | null {
  if (!iso) return null;
  const at = new Date(iso);
  if (Number.isNaN(at.getTime())) return null;
  return at.toLocaleString(undefined, {
    weekday: 'short',
    month: 'short',
    day: 'numeric',
    year: at.getFullYear() === new Date().getFullYear() ? undefined : 'numeric',
    hour: 'numeric',
    minute: '2-digit',
  });
}

/**
 * A date an `<input type="date">` holds that is worth saving: complete and with a four-digit year
 * from 1900 (typing a year goes through 0002, 0020, 0202 first), or '' for none.
 */
export function isCommittableDay(value: string): boolean {
  if (value === '') return true;
  const match = /^(\d{4})-\d{2}-\d{2}$/.exec(value);
  return !!match && Number(match[1]) >= 1900;
}

/** Same, for a `datetime-local` value. */
export function isCommittableDateTime(value: string): boolean {
  if (value === '') return true;
  const match = /^(\d{4})-\d{2}-\d{2}T\d{2}:\d{2}/.exec(value);
  return !!match && Number(match[1]) >= 1900 && fromLocalDateTime(value) !== null;
}

export interface MoveCandidate {
  id: number;
  type: ItemType;
  title: string;
  parent_id: number | null;
}

export interface MoveTarget {
  id: number;
  type: ItemType;
  title: string;
  /** The target's own parent's title ('in Garden'), when known. */
  context: string | null;
  current: boolean;
}

/**
 * Where `item` may go (the hierarchy rules): a campaign nowhere; a task under a campaign; a todo
 * under a task or a campaign; never under itself or its own descendants. Campaigns first, then
 * tasks, each by title. 'No parent' is offered separately by the picker.
 */
export function moveTargets(
  item: { id: number; type: ItemType; parent_id: number | null },
  candidates: readonly MoveCandidate[],
): MoveTarget[] {
  const allowed: readonly ItemType[] = ALLOWED_PARENT_TYPES[item.type];
  if (allowed.length === 0) return [];
  const byId = new Map(candidates.map((c) => [c.id, c]));
  const insideItem = (c: MoveCandidate) => {
    let cursor: MoveCandidate | undefined = c;
    for (let depth = 0; cursor && depth < 5; depth += 1) {
      if (cursor.id === item.id) return true;
      cursor = cursor.parent_id === null ? undefined : byId.get(cursor.parent_id);
    }
    return false;
  };
  const order: Record<ItemType, number> = { campaign: 0, task: 1, todo: 2 };
  return candidates
    .filter((c) => allowed.includes(c.type) && !insideItem(c))
    .map((c) => ({
      id: c.id,
      type: c.type,
      title: c.title,
      context: c.parent_id === null ? null : (byId.get(c.parent_id)?.title ?? null),
      current: c.id === item.parent_id,
    }))
    .sort((a, b) => order[a.type] - order[b.type] || a.title.localeCompare(b.title));
}

/** Case- and accent-insensitive match of a search against a target's title and its parent's. */
export function matchesTarget(target: MoveTarget, search: string): boolean {
  const fold = (s: string) => s.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
  const q = fold(search.trim());
  if (q === '') return true;
  return fold(target.title).includes(q) || (target.context !== null && fold(target.context).includes(q));
}
