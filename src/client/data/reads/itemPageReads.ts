/**
 * The reads of an item's page (its comments, its files, its guest history, its time panel) and of the
 * time report (SYNC.md K8, A1, K19, X10, X11, X14): their own module, loaded when those screens first ask
 * (./laterReads.ts), not with Home.
 */
import type { ReportEntry } from '../../../shared/timeReport';
import { rollupEstimates } from '../../../shared/timeRollup';
import { childrenOfAny, childrenWhere } from '../store/childRows';
import type { OutpostDb } from '../store/db';
import { type DeviceHistoryRow, HISTORY_INDEX, HISTORY_STORE } from '../store/historyStore';
import { resolveId } from '../store/idAliases';
import type { LocalAttachment, LocalComment, LocalItem, LocalTimeEntry } from '../store/types';
import { live, newestFirst, withAncestors } from './timeRead';

/** An entry of an item's time panel: `on` names the child or grandchild it sits on (null: the item itself). */
export type PanelEntry = LocalTimeEntry & { on: { id: number; title: string } | null };

/** What an item's time panel shows: the entries its spent time sums, and its estimate (X14 for a task or campaign). */
export interface ItemTime {
  entries: PanelEntry[];
  estimate: number | null;
}

/**
 * An item's time as its page shows it: the live entries on it and on its live descendants, newest
 * first, so the list holds every minute the spent time sums (X11); and its estimate, a task's or
 * campaign's rolled up from its children when it has none of its own (X14, rollupEstimates).
 */
export function itemTime(db: OutpostDb, itemId: number): Promise<ItemTime> {
  const liveItems = (rows: (LocalItem | undefined)[]) =>
    rows.filter((r): r is LocalItem => r !== undefined && r._deleted === 0);
  return db.items.get(itemId).then((root) =>
    childrenWhere(db.items, itemId)
      .toArray()
      .then((childRows) => {
        const children = liveItems(childRows);
        return childrenOfAny(
          db.items,
          children.map((c) => c.id),
        )
          .toArray()
          .then((grandRows) => {
            const family = [...liveItems([root]), ...children, ...liveItems(grandRows)];
            const byId = new Map(family.map((i) => [i.id, i]));
            const totals = rollupEstimates(family);
            const estimate = totals.get(itemId) ?? root?.estimate_minutes ?? null;
            return db.timeEntries
              .where('item_id')
              .anyOf([...byId.keys()])
              .toArray()
              .then((rows) => ({
                entries: live(rows)
                  .sort(newestFirst)
                  .map((e) => {
                    const on = e.item_id === itemId ? undefined : byId.get(e.item_id);
                    return { ...e, on: on ? { id: on.id, title: on.title } : null };
                  }),
                estimate,
              }));
          });
      }),
  );
}

/** Every live entry on the device with its item's title and campaign, for the time report. */
export function reportEntries(db: OutpostDb): Promise<ReportEntry[]> {
  return db.timeEntries.toArray().then((all) => {
    const rows = live(all);
    return withAncestors(db, [...new Set(rows.map((r) => r.item_id))]).then((items) => {
      const campaignOf = (id: number): { id: number; title: string } | null => {
        let item = items.get(id);
        for (let depth = 0; item && depth < 3; depth++) {
          if (item.type === 'campaign') return { id: item.id, title: item.title };
          item = item.parent_id == null ? undefined : items.get(item.parent_id);
        }
        return null;
      };
      const taskOf = (id: number): string | null => {
        const item = items.get(id);
        if (item?.type === 'task') return item.title;
        const parent = item?.parent_id == null ? undefined : items.get(item.parent_id);
        return parent?.type === 'task' ? parent.title : null;
      };
      return rows
        .filter((r) => items.has(r.item_id))
        .map((r) => ({
          item_id: r.item_id,
          user_id: r.user_id,
          user_name: r.user_name,
          started_at: r.started_at,
          ended_at: r.ended_at,
          note: r.note,
          item_title: items.get(r.item_id)?.title ?? '',
          campaign: campaignOf(r.item_id),
          task_title: taskOf(r.item_id),
        }));
    });
  });
}

/** An item's live entries, newest first. */
export function itemTimeEntries(db: OutpostDb, itemId: number): Promise<LocalTimeEntry[]> {
  return db.timeEntries
    .where('item_id')
    .equals(itemId)
    .toArray()
    .then((rows) => live(rows).sort(newestFirst));
}

/**
 * An item's comments on the device, oldest first, deleted ones left out (SYNC.md K8): the timeline's
 * live read. One chain of Dexie's own promises, so a live query observes both reads: the item (its
 * uuid files its comments) and the timeline index's range.
 */
export function itemComments(db: OutpostDb, itemId: number): Promise<LocalComment[]> {
  return db.items.get(itemId).then((item) => {
    if (!item || item._deleted === 1) return [];
    const key = item.uuid ?? `#${item.id}`;
    return db.comments
      .where('[item_uuid+created_at]')
      .between([key, ''], [key, '\uffff'])
      .toArray()
      .then((rows) => rows.filter((row) => row._deleted === 0));
  });
}

/**
 * An item's device history rows, oldest first: one range of the timeline index (a live query observes
 * it). The timeline reads them as entries (shared/history.ts deviceTimelineEntry) with its own screen,
 * so the history formatting stays out of the first screen's load.
 */
export function itemHistory(db: OutpostDb, itemId: number): Promise<DeviceHistoryRow[]> {
  return db
    .table<DeviceHistoryRow, number>(HISTORY_STORE)
    .where(HISTORY_INDEX)
    .between([itemId, ''], [itemId, '\uffff'])
    .toArray()
    .then((rows) => rows.sort((a, b) => (a.at === b.at ? (a.id ?? 0) - (b.id ?? 0) : a.at < b.at ? -1 : 1)));
}

/**
 * An item's files on the device, newest first, deleted ones left out (SYNC.md A1): the strip's live
 * read. A temporary item id is followed to the server's (its files move with it, K30); one chain of
 * Dexie's own promises, so a live query observes the aliases and the files' range.
 */
export function itemAttachments(db: OutpostDb, itemId: number): Promise<LocalAttachment[]> {
  return resolveId(db, itemId).then((id) =>
    db.attachments
      .where('item_id')
      .equals(id)
      .toArray()
      .then((rows) =>
        rows
          .filter((row) => row._deleted !== 1)
          .sort((a, b) =>
            a.created_at !== b.created_at
              ? b.created_at.localeCompare(a.created_at)
              : b.uuid.localeCompare(a.uuid),
          ),
      ),
  );
}
