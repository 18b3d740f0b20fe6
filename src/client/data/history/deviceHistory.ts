/**
 * A guest's history on their device (issue 31, SYNC.md K19): the server keeps a signed-in user's
 * history, the device keeps the guest's, one entry per change, in the `history` store. The entries are
 * the server's (shared/history.ts updateFeedEntries on shared/itemUpdate.ts planUpdate's changes), so
 * the timeline reads and restores them as it does the server's. They are written by the one local
 * write (changes/applyLocalChange.ts) in its transaction, and only for guest rows (`_syncStatus`
 * 'local'): a signed-in user's change is recorded by the server, never twice.
 */
import Dexie, { type DBCore, type DBCoreKeyRange, type DBCoreTransaction, type Middleware } from 'dexie';
import type { HistoryEntry } from '../../../shared/history';
import { historyChanges, updateFeedEntries } from '../../../shared/history';
import { PATCHABLE_FIELDS } from '../../../shared/item';
import { planUpdate } from '../../../shared/itemUpdate';
import type { OutpostDb } from '../store/db';
import type { LocalItem } from '../store/types';
import { storedRowOf } from '../store/writeFacts';

export const HISTORY_STORE = 'history';
/** The timeline's read: an item's entries by time (ids break ties, oldest first). */
export const HISTORY_INDEX = '[item_id+at]';
export const HISTORY_SCHEMA = `++id, ${HISTORY_INDEX}`;

/** Who a guest's entries name: the guest has no account, the timeline says 'You' (as the Activity tab). */
export const GUEST_ACTOR = { id: 0, name: 'You' } as const;

/** One entry as the device stores it: the server's feed entry, with the item it is about. */
export interface DeviceHistoryRow {
  /** Given by the store (auto-increment): also the order of entries written in the same millisecond. */
  id?: number;
  /** A guest item's id never changes (it is never swapped); the log goes when the guest signs in (K19). */
  item_id: number;
  item_uuid: string | null;
  at: string;
  user: { id: number; name: string };
  action: string;
  /** The feed's `{field: {old, new}}` (ids beside names), which a restore plans from (planRevert). */
  metadata: Record<string, unknown>;
}

/** A device entry as the timeline reads it: the API's shape plus what a restore plans from. */
export interface DeviceHistoryEntry extends HistoryEntry {
  metadata: Record<string, unknown>;
}

const isGuestRow = (row: LocalItem) => row._syncStatus === 'local';

const patchOf = (row: LocalItem) => {
  const out: Record<string, unknown> = {};
  const r = row as unknown as Record<string, unknown>;
  for (const field of PATCHABLE_FIELDS) out[field] = r[field] ?? null;
  return out;
};

/** Titles of items known to this change: its rows after it, else as they were before it. */
type TitleOf = (id: number | null) => string | null | undefined;

/**
 * The entries one change makes for the guest rows it writes: a new row is 'created' (or 'restored',
 * one that comes back from the trash: edited, or older than its last change), a changed one gets the
 * server's entries for its change, a removed one 'deleted'. `before` is the stored row each value
 * replaces (null: none), as the writer or the store's side effects knew it.
 */
export function deviceHistoryOf(
  rows: readonly LocalItem[],
  before: (row: LocalItem) => LocalItem | null | undefined,
  removed: readonly number[],
  titleOf: TitleOf,
  at: string,
): DeviceHistoryRow[] {
  const out: DeviceHistoryRow[] = [];
  const entry = (row: { id: number; uuid?: string | null }, action: string, metadata = {}) =>
    out.push({
      item_id: row.id,
      item_uuid: row.uuid ?? null,
      at,
      user: { ...GUEST_ACTOR },
      action,
      metadata,
    });
  for (const row of rows) {
    if (!isGuestRow(row)) continue;
    const was = before(row);
    if (was === undefined) continue;
    if (was === null || was._deleted === 1) {
      const fresh = row._localVersion <= 1 && row.created_at === row.updated_at;
      entry(row, fresh ? 'created' : 'restored');
      continue;
    }
    const { changed } = planUpdate(was, patchOf(row));
    if (Object.keys(changed).length === 0) continue;
    const names = {
      parent: { old: titleOf(was.parent_id) ?? null, new: titleOf(row.parent_id) ?? null },
      assignee: { old: was.assignedUser?.name ?? null, new: row.assignedUser?.name ?? null },
    };
    for (const { action, metadata } of updateFeedEntries(changed, names)) entry(row, action, metadata);
  }
  for (const id of removed) entry({ id }, 'deleted');
  return out;
}

/** Whether a change writes guest rows, so the history costs nothing to a signed-in user's writes. */
export function touchesGuestRows(rows: readonly LocalItem[], removed: readonly number[], queues: boolean) {
  return rows.some(isGuestRow) || (removed.length > 0 && !queues);
}

const currentTrans = () =>
  (Dexie.currentTransaction as { idbtrans?: DBCoreTransaction } | null)?.idbtrans ?? undefined;

/**
 * Records the guest history of one change, in the caller's transaction (the store is in it: see
 * `historyScope`). `written` settles once the rows are put: a row whose stored predecessor the writer
 * did not name (a roll-up's parent) is known to the store's side effects only after its put. A move
 * reads the two parents' titles it does not hold (guests only; an edit in place reads nothing).
 */
export async function recordDeviceHistory(
  db: OutpostDb,
  rows: readonly LocalItem[],
  removed: readonly number[],
  written: Promise<unknown>,
): Promise<void> {
  const trans = currentTrans();
  if (!trans) return;
  const guestRows = rows.filter(isGuestRow);
  const known = guestRows.every((r) => storedRowOf(r) !== undefined);
  if (!known) await written;
  const byId = new Map(rows.map((r) => [r.id, r]));
  const moved = guestRows.flatMap((r) => {
    const was = storedRowOf(r);
    return was && was.parent_id !== r.parent_id ? [was.parent_id, r.parent_id] : [];
  });
  const need = [...new Set(moved)].filter((id): id is number => id !== null && !byId.has(id));
  const titles = new Map<number, string>();
  if (need.length > 0)
    for (const parent of await db.items.bulkGet(need)) if (parent) titles.set(parent.id, parent.title);
  const titleOf: TitleOf = (id) => (id === null ? null : (byId.get(id)?.title ?? titles.get(id)));
  const values = deviceHistoryOf(rows, storedRowOf, removed, titleOf, new Date().toISOString());
  if (values.length === 0) return;
  await db.core.table(HISTORY_STORE).mutate({ type: 'add', trans, values });
}

/** Every key (DBCoreRangeType.Any, a const enum the build cannot import). */
const ALL_KEYS = { type: 3 } as unknown as DBCoreKeyRange;

/**
 * Clears the guest's log in the caller's transaction (K19): the guest upgrade hands the guest's items
 * to the account there, and from then on their history is the server's, which starts with their
 * creates. Also called by no one else: Clear Local Data clears the store with the others.
 */
export async function clearDeviceHistory(db: OutpostDb): Promise<void> {
  const trans = currentTrans();
  if (!trans) return;
  await db.core.table(HISTORY_STORE).mutate({ type: 'deleteRange', trans, range: ALL_KEYS });
}

/**
 * Puts the history store in every read-write transaction that writes items, whatever stores it named
 * (as the store's side effects add their own): the funnel writes its entries in the change's own
 * transaction, and the callers' store lists need not know of it.
 */
export const historyScope: Middleware<DBCore> = {
  stack: 'dbcore',
  name: 'OutpostDeviceHistory',
  create(down) {
    if (!down.schema.tables.some((t) => t.name === HISTORY_STORE)) return down;
    return {
      ...down,
      transaction(stores, mode, options) {
        const scoped =
          mode === 'readwrite' && stores.includes('items') && !stores.includes(HISTORY_STORE)
            ? [...stores, HISTORY_STORE]
            : stores;
        return down.transaction(scoped, mode, options);
      },
    };
  },
};

/** The entry as the timeline reads it: changes by name (never ids), with what a restore plans from. */
export function toTimelineEntry(row: DeviceHistoryRow): DeviceHistoryEntry {
  return {
    id: row.id ?? 0,
    user: row.user,
    at: row.at,
    action: row.action,
    changes: historyChanges(row.metadata),
    metadata: row.metadata,
  };
}

/** An item's device history, oldest first: one range of the timeline index (a live query observes it). */
export function itemHistory(db: OutpostDb, itemId: number): Promise<DeviceHistoryEntry[]> {
  return db
    .table<DeviceHistoryRow, number>(HISTORY_STORE)
    .where(HISTORY_INDEX)
    .between([itemId, ''], [itemId, '\uffff'])
    .toArray()
    .then((rows) =>
      rows
        .sort((a, b) => (a.at === b.at ? (a.id ?? 0) - (b.id ?? 0) : a.at < b.at ? -1 : 1))
        .map(toTimelineEntry),
    );
}
