import { addDays, dayLabel } from '../../shared/agenda';
import { type Dated, type DatePatch, moveBy, resizeEnd, resizeStart, spanOf } from '../../shared/calendar';

/** A date change a key, a drop or a handle asks for, with its words. */
export interface PlannedChange {
  patch: DatePatch;
  words: string;
}

/** 'Wed 2 Dec' or 'Mon 30 Nov to Wed 2 Dec': an item's dates once `patch` is applied. */
export function spanWords(item: Dated, patch: DatePatch = {}): string {
  const span = spanOf({ ...item, ...patch });
  if (span === null) return 'no date';
  return span.start === span.end ? dayLabel(span.end) : `${dayLabel(span.start)} to ${dayLabel(span.end)}`;
}

/** The change moving `item` by `days` (both dates), or null when there is none. */
export function planMove(item: Dated, days: number): PlannedChange | null {
  const patch = moveBy(item, days);
  return patch ? { patch, words: `Moved to ${spanWords(item, patch)}` } : null;
}

/** The change putting `item`'s end on `end` (never before its start), or null. */
export function planEnd(item: Dated, end: string): PlannedChange | null {
  const patch = resizeEnd(item, end);
  return patch ? { patch, words: `Now ${spanWords(item, patch)}` } : null;
}

/** The change putting `item`'s start on `start` (never after its due date), or null. */
export function planStart(item: Dated, start: string): PlannedChange | null {
  const patch = resizeStart(item, start);
  return patch ? { patch, words: `Now ${spanWords(item, patch)}` } : null;
}

/**
 * What a key does to a focused item: arrows move it a day (left, right) or a week (up, down), Shift
 * with left or right moves its end a day. Null for any other key, and for a change D10 refuses.
 */
export function changeForKey(
  item: Dated,
  key: string,
  shift: boolean,
  vertical = true,
): PlannedChange | 'ignore' | null {
  const step = key === 'ArrowRight' ? 1 : key === 'ArrowLeft' ? -1 : 0;
  if (shift && step !== 0) {
    const span = spanOf(item);
    return span ? (planEnd(item, addDays(span.end, step)) ?? 'ignore') : null;
  }
  if (step !== 0) return planMove(item, step);
  if (vertical && (key === 'ArrowDown' || key === 'ArrowUp'))
    return planMove(item, key === 'ArrowDown' ? 7 : -7);
  return null;
}
