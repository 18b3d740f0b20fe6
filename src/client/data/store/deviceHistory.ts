/**
 * A guest's history on their device (issue 31, SYNC.md K19): the server keeps a signed-in user's
 * history, the device keeps the guest's, one entry per change, in the `history` store. The entries are
 * the server's (shared/history.ts updateFeedEntries on shared/itemUpdate.ts planUpdate's changes), so
 * the timeline reads and restores them as it does the server's. They are written by the one local
 * write (changes/applyLocalChange.ts) in its transaction, and only for guest rows (`_syncStatus`
 * 'local'): a signed-in user's change is recorded by the server, never twice.
 */
import { updateFeedEntries } from '../../../shared/history';
import { PATCHABLE_FIELDS } from '../../../shared/item';
import { planUpdate } from '../../../shared/itemUpdate';
import type { OutpostDb } from './db';
import { currentTrans, type DeviceHistoryRow, GUEST_ACTOR, HISTORY_STORE } from './historyStore';
import type { LocalItem } from './types';
import { storedRowOf } from './writeFacts';

export { clearDeviceHistory } from './historyStore';

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
