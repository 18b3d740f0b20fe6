import { afterEach, describe, expect, it, vi } from 'vitest';
import { closeFakeDbs, freshFakeDb } from '../../../../testkit/client/fakeDb';
import { serverItem } from '../../../../testkit/client/items';
import type { SyncChange } from '../../../shared/item';
import {
  dropFirstRows,
  type FirstRows,
  firstRowsOf,
  firstRowsStored,
  firstRowsUndrawn,
  firstRowsWentStored,
  homeRowsOfPage,
  noteScreenDrawn,
  showFirstRows,
  subscribeFirstRows,
} from './firstRows';

afterEach(() => closeFakeDbs());

const tombstone = (id: number): SyncChange => ({ id, uuid: null, deleted_at: '2026-01-02T00:00:00.000Z' });

describe("a fresh device's first page on Home from memory", () => {
  it('L17: holds the live top-level rows newest first, without tombstones or children whose parent the page carries', () => {
    const page: SyncChange[] = [
      serverItem(1, 'Campaign', { type: 'campaign' }, 1),
      serverItem(2, 'Its task', { type: 'task', parent_id: 1 }, 2),
      serverItem(3, 'Shared task, its campaign unseen', { type: 'task', parent_id: 99 }, 3),
      serverItem(4, 'Loose todo', {}, 4),
      tombstone(5),
    ];
    expect(homeRowsOfPage(page).map((r) => r.title)).toEqual([
      'Loose todo',
      'Shared task, its campaign unseen',
      'Campaign',
    ]);
    expect(homeRowsOfPage(page).every((r) => r._syncStatus === 'synced')).toBe(true);
  });

  it('L17: is shown, marked stored, then dropped, each step told to the listeners', () => {
    const db = freshFakeDb('first-rows');
    const seen: (FirstRows | null)[] = [];
    const stop = subscribeFirstRows(db, () => seen.push(firstRowsOf(db)));
    showFirstRows(db, [serverItem(1, 'First')]);
    firstRowsStored(db);
    firstRowsStored(db);
    dropFirstRows(db);
    expect(firstRowsWentStored(db)).toBe(true);
    dropFirstRows(db);
    expect(firstRowsWentStored(db)).toBe(true);
    showFirstRows(db, [serverItem(2, 'Second')]);
    dropFirstRows(db);
    expect(firstRowsWentStored(db)).toBe(false);
    stop();
    expect(seen.map((s) => s && { titles: s.rows.map((r) => r.title), stored: s.stored })).toEqual([
      { titles: ['First'], stored: false },
      { titles: ['First'], stored: true },
      null,
      { titles: ['Second'], stored: false },
      null,
    ]);
  });

  it('L17: a page with nothing for Home shows nothing, and one database never sees another’s rows', () => {
    const db = freshFakeDb('first-rows');
    const other = freshFakeDb('first-rows-other');
    showFirstRows(db, [
      serverItem(2, 'A child', { parent_id: 1 }),
      serverItem(1, 'Its parent', {}, 1),
      tombstone(3),
    ]);
    expect(firstRowsOf(other)).toBeNull();
    showFirstRows(db, [tombstone(3)]);
    expect(firstRowsOf(db)).toBeNull();
  });

  it('L8: the count waits for a screen to draw the rows: not when none are shown or they were drawn; a draw, a drop or the time ends the wait', async () => {
    const db = freshFakeDb('first-rows');
    expect(firstRowsUndrawn(db, 1000)).toBeNull();
    // A screen drawing before any rows are shown draws none of them.
    noteScreenDrawn(db);
    showFirstRows(db, [serverItem(1, 'First')]);
    const drawn = firstRowsUndrawn(db, 60_000);
    expect(drawn).not.toBeNull();
    noteScreenDrawn(db);
    await drawn;
    // Stored, the same rows stay drawn; the next page's rows are not on screen yet.
    firstRowsStored(db);
    expect(firstRowsUndrawn(db, 1000)).toBeNull();
    showFirstRows(db, [serverItem(2, 'Second')]);
    const dropped = firstRowsUndrawn(db, 60_000);
    dropFirstRows(db);
    await dropped;
    showFirstRows(db, [serverItem(3, 'Third')]);
    vi.useFakeTimers();
    try {
      let over = false;
      void firstRowsUndrawn(db, 1500)!.then(() => {
        over = true;
      });
      await vi.advanceTimersByTimeAsync(1499);
      expect(over).toBe(false);
      await vi.advanceTimersByTimeAsync(1);
      expect(over).toBe(true);
    } finally {
      vi.useRealTimers();
    }
  });
});
