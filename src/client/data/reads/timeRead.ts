import { rollupSpent } from '../../../shared/timeRollup';
import type { OutpostDb } from '../store/db';
import type { LocalItem, LocalTimeEntry } from '../store/types';

/**
 * The device's reads of time entries (SYNC.md X10, X11), for live queries: each one chain of Dexie's
 * own promises, so the live query observes every read.
 */

export const live = (rows: LocalTimeEntry[]) => rows.filter((e) => e._deleted === 0);
export const newestFirst = (a: LocalTimeEntry, b: LocalTimeEntry) =>
  a.started_at < b.started_at ? 1 : a.started_at > b.started_at ? -1 : 0;

/** The person's running timer with its item's title; null when none runs. */
export function runningTimer(
  db: OutpostDb,
  userId: number,
): Promise<{ entry: LocalTimeEntry; title: string; type: LocalItem['type'] } | null> {
  return db.timeEntries
    .where('[user_id+running]')
    .equals([userId, 1])
    .toArray()
    .then((rows) => {
      const entry = live(rows)[0];
      if (!entry) return null;
      return db.items.get(entry.item_id).then((item) => ({
        entry,
        title: item?.title ?? 'Untitled',
        type: item?.type ?? 'todo',
      }));
    });
}

/** Items by id for the entries' items and their ancestors (two levels up: task, campaign). */
export function withAncestors(db: OutpostDb, ids: number[]): Promise<Map<number, LocalItem>> {
  const found = new Map<number, LocalItem>();
  const keep = (rows: (LocalItem | undefined)[]) => {
    for (const row of rows) if (row && row._deleted === 0) found.set(row.id, row);
  };
  const parentsOf = (of: number[]) => [
    ...new Set(
      of.flatMap((id) => {
        const parent = found.get(id)?.parent_id;
        return parent != null && !found.has(parent) ? [parent] : [];
      }),
    ),
  ];
  return db.items
    .bulkGet(ids)
    .then((rows) => {
      keep(rows);
      return db.items.bulkGet(parentsOf(ids));
    })
    .then((rows) => {
      keep(rows);
      return db.items.bulkGet(parentsOf([...found.keys()]));
    })
    .then((rows) => {
      keep(rows);
      return found;
    });
}

/** X11: minutes spent per item on the device, rolled up to tasks and campaigns, running ones up to now. */
export function spentByItem(db: OutpostDb): Promise<Map<number, number>> {
  return db.timeEntries.toArray().then((all) => {
    const rows = live(all);
    const ids = [...new Set(rows.map((r) => r.item_id))];
    return withAncestors(db, ids).then((items) =>
      rollupSpent(
        rows.filter((r) => items.has(r.item_id)),
        (id) => items.get(id)?.parent_id ?? null,
        Date.now(),
      ),
    );
  });
}
