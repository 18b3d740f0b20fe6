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

const sameDays = (a: Dated, b: Dated) =>
  (a.start_date?.slice(0, 10) ?? null) === (b.start_date?.slice(0, 10) ?? null) &&
  (a.due_date?.slice(0, 10) ?? null) === (b.due_date?.slice(0, 10) ?? null);

/** What keys asked for an item while their writes are out. */
export interface AskedDates {
  /** The item with the dates a key builds on: those last asked for, else its stored ones. */
  from<T extends Dated & { id: number }>(item: T): T;
  /** A key asked for `patch` on `item` (as `from` gave it). */
  ask(item: Dated & { id: number }, patch: DatePatch): void;
  /** A write came back: refused (what was asked is forgotten) or stored. */
  done(id: number, ok: boolean): void;
  /** Forgets what was asked once no write is out and the stored row shows it (or is gone). */
  settle(id: number, stored: Dated | undefined): void;
  /** The items something is asked for. */
  ids(): number[];
}

/**
 * A held arrow repeats faster than a write comes back through the live read: each key builds on the
 * dates the last one asked for, or every repeat would ask for the same day and the item move once.
 */
export function askedDates(): AskedDates {
  const byId = new Map<number, { dates: Dated; inFlight: number }>();
  return {
    from: (item) => {
      const asked = byId.get(item.id);
      return asked ? { ...item, ...asked.dates } : item;
    },
    ask: (item, patch) => {
      const inFlight = (byId.get(item.id)?.inFlight ?? 0) + 1;
      byId.set(item.id, {
        dates: { start_date: item.start_date ?? null, due_date: item.due_date, ...patch },
        inFlight,
      });
    },
    done: (id, ok) => {
      const asked = byId.get(id);
      if (!asked) return;
      if (!ok) byId.delete(id);
      else asked.inFlight = Math.max(0, asked.inFlight - 1);
    },
    settle: (id, stored) => {
      const asked = byId.get(id);
      if (asked && asked.inFlight === 0 && (!stored || sameDays(stored, asked.dates))) byId.delete(id);
    },
    ids: () => [...byId.keys()],
  };
}
