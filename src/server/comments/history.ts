import { type HistoryEntry, historyChanges, isRevertible, planRevert } from '../../shared/history';
import { itemPatchSchema } from '../../shared/schemas';
import type { UserRow } from '../auth/users';
import { type Executor, rows, sql } from '../db/client';
import { HttpError, notFound, parseOrThrow } from '../http/errors';
import type { WriteResult } from '../http/idempotency';
import { iso } from '../http/serialize';
import { findVisibleItem } from '../items/queries';
import { updateItem } from '../items/service';

interface EntryRow {
  id: number;
  user_id: number;
  user_name: string;
  action: string;
  metadata: Record<string, unknown>;
  created_at: Date | string;
}

/** Feed entries that are not changes to the item itself: a comment has its own place in the timeline. */
const NOT_HISTORY = sql`a.action <> 'commented'`;

/** One page of an item's history, newest first (§4 'History'); the caller has checked the reader sees it. */
export async function listHistory(
  db: Executor,
  itemId: number,
  page: number,
  perPage: number,
): Promise<{ data: HistoryEntry[]; total: number }> {
  const [counted, found] = await Promise.all([
    rows<{ total: number }>(
      db,
      sql`SELECT count(*)::int AS total FROM activities a WHERE a.item_id = ${itemId} AND ${NOT_HISTORY}`,
    ),
    rows<EntryRow>(
      db,
      sql`SELECT a.id, a.user_id, u.name AS user_name, a.action, a.metadata, a.created_at
          FROM activities a JOIN users u ON u.id = a.user_id
          WHERE a.item_id = ${itemId} AND ${NOT_HISTORY}
          ORDER BY a.id DESC LIMIT ${perPage} OFFSET ${(page - 1) * perPage}`,
    ),
  ]);
  const data = found.map((r) => ({
    id: r.id,
    user: { id: r.user_id, name: r.user_name },
    at: iso(r.created_at),
    action: r.action,
    changes: historyChanges(r.metadata ?? {}),
  }));
  return { data, total: counted[0]?.total ?? 0 };
}

/**
 * Reverts one history entry (K3): each field it changed goes back to its `from` where the item still
 * holds its `to`, through the item's own write path (roll-up, feed, notifications, sync, the viewer's
 * 403); fields changed since are left alone and named in `skipped`.
 */
export async function revertEntry(
  tx: Executor,
  actor: UserRow,
  itemId: number,
  entryId: number,
): Promise<WriteResult> {
  const item = await findVisibleItem(tx, actor.id, itemId);
  if (!item) throw notFound();
  const [entry] = await rows<EntryRow>(
    tx,
    sql`SELECT a.id, a.user_id, '' AS user_name, a.action, a.metadata, a.created_at
        FROM activities a WHERE a.id = ${entryId} AND a.item_id = ${itemId} AND ${NOT_HISTORY}`,
  );
  if (!entry) throw notFound('History entry');
  const metadata = entry.metadata ?? {};
  if (!isRevertible(metadata)) throw new HttpError(422, 'This entry has no change to restore.');
  const { patch, skipped } = planRevert(metadata, item);
  if (Object.keys(patch).length === 0) return { status: 200, body: { ...item, skipped } };
  // What the feed recorded passed the item rules when it was written; they are asked again now.
  const result = await updateItem(tx, actor, itemId, parseOrThrow(itemPatchSchema, patch), undefined);
  return { ...result, body: { ...(result.body as object), skipped } };
}
