import { type Item, isTombstone, type SyncChange } from '../../../shared/item';
import { byCreatedDesc } from '../../../shared/sort';
import type { OutpostDb } from './db';
import { fromServer } from './localItems';
import { topOf } from './topFlags';
import type { LocalItem } from './types';

/**
 * Memory first (SYNC.md L17, issue 69 item 3): a bootstrap's first page is on Home while IndexedDB
 * stores it. Writing it (and the second page's transaction that follows at once, which a read of the
 * list waits behind) took 300–700 ms between the page's arrival and its first row on a slow disk.
 *
 * The rows are a view, never a source: nothing is written from them, Home shows them only while its
 * list read from IndexedDB is empty, and the pull drops them when it ends, stored or not; a reload
 * starts from what is stored.
 */

/** A first page shown from memory; `stored` once its transaction has committed. */
export interface FirstRows {
  rows: readonly LocalItem[];
  stored: boolean;
}

interface Shown {
  first: FirstRows | null;
  /** Whether the rows shown last were stored before they went (a list then holds them at its next read). */
  wentStored: boolean;
  /** Whether a screen has drawn since these rows were shown (L8: the count waits for it). */
  drawn: boolean;
  listeners: Set<() => void>;
}

const shown = new WeakMap<OutpostDb, Shown>();

function shownOn(db: OutpostDb): Shown {
  let state = shown.get(db);
  if (!state) {
    state = { first: null, wentStored: false, drawn: false, listeners: new Set() };
    shown.set(db, state);
  }
  return state;
}

function setFirst(db: OutpostDb, first: FirstRows | null): void {
  const state = shownOn(db);
  if (state.first === first) return;
  state.wentStored = first === null && state.first?.stored === true;
  // The same rows going stored stay drawn; new rows are not on screen yet.
  if (first?.rows !== state.first?.rows) state.drawn = false;
  state.first = first;
  for (const listener of state.listeners) listener();
}

/**
 * The rows of a fresh device's first page that Home's All list will hold once it is stored: live and
 * top-level (no parent, or one the page does not carry; the device holds none yet), newest first.
 */
export function homeRowsOfPage(items: readonly SyncChange[]): LocalItem[] {
  const live = items.filter((i): i is Item => !isTombstone(i)).map((i) => fromServer(i));
  const byId = new Map(live.map((r) => [r.id, r]));
  return live
    .filter((r) => topOf(r, r.parent_id === null ? undefined : byId.get(r.parent_id)) === 1)
    .sort(byCreatedDesc);
}

/** Shows a bootstrap's first page on Home from memory until dropFirstRows (L17). */
export function showFirstRows(db: OutpostDb, items: readonly SyncChange[]): void {
  const rows = homeRowsOfPage(items);
  // For the sign-in's timeline (npm run bench -- scale --timeline) and DevTools' performance panel.
  performance.mark('outpost: first rows in memory');
  setFirst(db, rows.length > 0 ? { rows, stored: false } : null);
}

/**
 * The first page's transaction committed: Home may go on showing its rows until its next read from
 * IndexedDB, which holds them (a read answered before the commit is empty).
 */
export function firstRowsStored(db: OutpostDb): void {
  const first = shown.get(db)?.first;
  if (first && !first.stored) setFirst(db, { rows: first.rows, stored: true });
}

/** The pull ended (stored, stopped or failed): Home shows only what is stored (L17). */
export function dropFirstRows(db: OutpostDb): void {
  setFirst(db, null);
}

/** The first page shown from memory (its Home rows newest first); null when there is none. */
export function firstRowsOf(db: OutpostDb): FirstRows | null {
  return shown.get(db)?.first ?? null;
}

/** Whether the rows shown from memory last were stored before they went (their list's next read holds them). */
export function firstRowsWentStored(db: OutpostDb): boolean {
  return shown.get(db)?.wentStored ?? false;
}

/** Calls `listener` whenever the rows shown from memory change. */
export function subscribeFirstRows(db: OutpostDb, listener: () => void): () => void {
  const state = shownOn(db);
  state.listeners.add(listener);
  return () => state.listeners.delete(listener);
}

/** A screen drew what it reads (reads/live.ts useShown): the rows shown from memory, if any, are on it. */
export function noteScreenDrawn(db: OutpostDb): void {
  const state = shown.get(db);
  if (!state?.first || state.drawn) return;
  state.drawn = true;
  for (const listener of state.listeners) listener();
}

/**
 * Null when no rows are shown from memory or a screen has drawn since they were; else a promise of
 * the first of those or `ms` passing: what the pull's count waits for (L8), so the server counting
 * never holds up the screen's modules.
 */
export function firstRowsUndrawn(db: OutpostDb, ms: number): Promise<void> | null {
  const state = shownOn(db);
  const settled = () => state.first === null || state.drawn;
  if (settled()) return null;
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      state.listeners.delete(check);
      resolve();
    };
    const check = () => {
      if (settled()) done();
    };
    const timer = setTimeout(done, ms);
    state.listeners.add(check);
  });
}
