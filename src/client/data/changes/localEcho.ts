import { ECHO_FIELDS } from '../../../shared/itemFields';
import { inManualOrder } from '../../../shared/manualOrder';
import type { LocalItem } from '../store/types';

/**
 * The local echo: a write tells the lists on screen the rows it is storing before its transaction
 * commits, so an edit shows in the time its first read takes, not after the commit and a re-read of
 * every list it touches. Only an edit that cannot move a row into or out of a list, nor reorder a
 * count, is echoed (a title or a description: `echoable`); the list replaces the row in place. Every
 * other write shows when Dexie re-runs the list after the commit, as before.
 *
 * The echo is a view, never a source: a list drops it at its first answer from IndexedDB after the
 * write settled (that answer holds the stored row), and at once if the write failed (the screen goes
 * back to what is stored, and the write's caller shows its error).
 */

/** Fields whose change moves no row on any list or count: a list may show their new value in place. */
const IN_PLACE_FIELDS: ReadonlySet<string> = new Set([
  // The declared fields flagged so (shared/itemFields.ts `echo`): the title, the description, the place.
  ...ECHO_FIELDS,
  // What every local write changes along with them (the sort keys of the updated-first lists follow
  // updated_at; such a list re-reads after the commit and moves the row then).
  'updated_at',
  'version',
  '_localVersion',
  '_syncStatus',
  '_dirty',
  '_base',
  '_sk',
  '_uk',
]);

/** Whether the change from `before` to `after` can be shown in place on every list (see IN_PLACE_FIELDS). */
export function echoable(before: LocalItem, after: LocalItem): boolean {
  if (before.id !== after.id) return false;
  // A guest row becoming an account row (or the reverse) changes its scope: not an edit in place.
  if ((before._syncStatus === 'local') !== (after._syncStatus === 'local')) return false;
  const keys = new Set([...Object.keys(before), ...Object.keys(after)]);
  for (const key of keys) {
    if (IN_PLACE_FIELDS.has(key)) continue;
    const a = (before as unknown as Record<string, unknown>)[key];
    const b = (after as unknown as Record<string, unknown>)[key];
    if (Object.is(a, b)) continue;
    if (typeof a === 'object' && typeof b === 'object' && JSON.stringify(a) === JSON.stringify(b)) continue;
    return false;
  }
  return true;
}

const isItemRow = (v: unknown): v is LocalItem =>
  typeof v === 'object' &&
  v !== null &&
  typeof (v as LocalItem).id === 'number' &&
  typeof (v as LocalItem)._localVersion === 'number';

function patchRow(row: LocalItem, rows: ReadonlyMap<number, LocalItem>): LocalItem {
  const next = rows.get(row.id);
  if (!next || next === row) return row;
  // A query may add fields of its own to the stored row (itemById's parent summary): they stay.
  const patched: LocalItem = { ...row, ...next };
  if ('parent' in row) patched.parent = row.parent;
  return patched;
}

/** The lists in manual order (§5 'Order'): an echo that changes an order key sorts them again. */
const manuallyOrdered = new WeakSet<readonly unknown[]>();

/**
 * Marks `rows` (a live query's answer, sorted by inManualOrder) as a list in manual order: an echoed
 * move then shows at its new place, as the list's re-read after the commit will have it (W5).
 */
export function shownInManualOrder<T extends { sort_key?: string | null; uuid?: string | null }>(
  rows: T[],
): T[] {
  manuallyOrdered.add(rows);
  return rows;
}

/**
 * A live query's answer with `rows` shown in place of the rows of the same id: an item, or an array
 * of items (a list in manual order sorted again when an order key changed). Any other answer (counts, maps, other records) is returned as it is, and so is an answer
 * without any of the rows (the same reference, so nothing re-renders).
 */
export function withRows<T>(value: T, rows: ReadonlyMap<number, LocalItem>): T {
  if (rows.size === 0) return value;
  if (Array.isArray(value)) {
    let out: unknown[] | null = null;
    let moved = false;
    for (let i = 0; i < value.length; i++) {
      const row: unknown = value[i];
      if (!isItemRow(row) || !rows.has(row.id)) continue;
      const patched = patchRow(row, rows);
      if (patched === row) continue;
      out ??= value.slice();
      out[i] = patched;
      moved ||= (patched.sort_key ?? null) !== (row.sort_key ?? null);
    }
    if (out !== null && moved && manuallyOrdered.has(value))
      return shownInManualOrder(inManualOrder(out as LocalItem[])) as T;
    return (out ?? value) as T;
  }
  return isItemRow(value) && rows.has(value.id) ? (patchRow(value, rows) as T) : value;
}

type EchoEvent =
  | { kind: 'rows'; write: number; rows: ReadonlyMap<number, LocalItem> }
  | { kind: 'settled'; write: number; stored: boolean };

export interface LocalEcho {
  /**
   * Shows `rows` (each checked with `echoable` by the caller) on the lists on screen; the returned
   * function is called once the write's transaction committed (`true`) or failed (`false`).
   */
  announce(rows: readonly LocalItem[]): (stored: boolean) => void;
  subscribe(listener: (event: EchoEvent) => void): () => void;
}

/** One device's echo: the items repository announces, every live list on screen listens. */
export function createLocalEcho(): LocalEcho {
  const listeners = new Set<(event: EchoEvent) => void>();
  let writes = 0;
  const emit = (event: EchoEvent) => {
    for (const listener of listeners) listener(event);
  };
  return {
    announce(rows) {
      const write = ++writes;
      if (rows.length === 0 || listeners.size === 0) return () => {};
      emit({ kind: 'rows', write, rows: new Map(rows.map((r) => [r.id, r])) });
      let done = false;
      return (stored) => {
        if (done) return;
        done = true;
        emit({ kind: 'settled', write, stored });
      };
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

export interface LiveObserver<T> {
  /** `provisional`: an answer a write outran (reads/liveRead.ts), shown until the next one. */
  next?: (value: T, provisional?: boolean) => void;
  error?: (error: unknown) => void;
}

/** The observable shape Dexie's liveQuery returns and dexie-react-hooks' useObservable takes. */
export interface LiveSource<T> {
  subscribe(
    observerOrNext: LiveObserver<T> | ((value: T) => void),
    onError?: (error: unknown) => void,
  ): { unsubscribe(): void };
  getValue?(): T;
  hasValue?(): boolean;
}

/**
 * `source` (a Dexie live query) with the local echo applied: answers as the source does, and in
 * between, the rows a write is storing shown in place (see the module comment).
 */
export function withLocalEcho<T>(source: LiveSource<T>, echo: LocalEcho): LiveSource<T> {
  return {
    hasValue: source.hasValue ? () => source.hasValue?.() === true : undefined,
    getValue: source.getValue ? () => source.getValue?.() as T : undefined,
    subscribe(observerOrNext, onError) {
      const observer: LiveObserver<T> =
        typeof observerOrNext === 'function' ? { next: observerOrNext, error: onError } : observerOrNext;
      let base: { value: T } | null = null;
      /** The echoes this list shows, by write, in the order they were announced. */
      const shown = new Map<number, { rows: ReadonlyMap<number, LocalItem>; settled: boolean }>();
      const view = (): T => {
        let value = (base as { value: T }).value;
        for (const echo of shown.values()) value = withRows(value, echo.rows);
        return value;
      };
      const stopEcho = echo.subscribe((event) => {
        if (base === null) return;
        if (event.kind === 'rows') {
          if (withRows(base.value, event.rows) === base.value) return;
          shown.set(event.write, { rows: event.rows, settled: false });
          observer.next?.(view());
          return;
        }
        const echoed = shown.get(event.write);
        if (!echoed) return;
        if (event.stored) {
          echoed.settled = true;
        } else {
          shown.delete(event.write);
          observer.next?.(view());
        }
      });
      const sub = source.subscribe({
        next: (value, provisional) => {
          base = { value };
          // A provisional answer may have been read before a settled echo's write committed.
          if (!provisional) for (const [write, echoed] of shown) if (echoed.settled) shown.delete(write);
          observer.next?.(shown.size === 0 ? value : view());
        },
        error: (error) => observer.error?.(error),
      });
      return {
        unsubscribe() {
          stopEcho();
          sub.unsubscribe();
        },
      };
    },
  };
}
