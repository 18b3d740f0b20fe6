import type { SQL } from 'drizzle-orm';
import { type ExportDocument, exportDocument } from '../../shared/importExport';
import { type Item, type ItemType, paginated } from '../../shared/item';
import { TRASH_KEEP_DAYS, type TrashEntry } from '../../shared/trash';
import type { UserRow } from '../auth/users';
import { type Executor, rows, sql } from '../db/client';
import { HttpError, notFound, unprocessable } from '../http/errors';
import { iso } from '../http/serialize';
import { selectItems, visibleTo } from './queries';

const KEPT = sql`now() - make_interval(days => ${TRASH_KEEP_DAYS})`;

/**
 * The rows the delete of `id` took along: `id` and its descendants whose `deleted_at` is its own.
 * One delete is one transaction and so one `now()`; a child deleted on its own earlier has another
 * time and stays in the trash as its own entry.
 */
export function deletedTogether(id: number): SQL {
  return sql`deleted_at = (SELECT t.deleted_at FROM items t WHERE t.id = ${id})
    AND (id = ${id} OR parent_id = ${id} OR parent_id IN (SELECT c.id FROM items c WHERE c.parent_id = ${id}))`;
}

interface Restorable {
  id: number;
  type: ItemType;
  title: string;
  user_id: number;
  parent_id: number | null;
}

/**
 * Whether `id` can be restored by `userId` (call under the family lock): 'live' when there is nothing
 * to do, the item when it can come back. Someone who cannot see it gets the 404 of an unknown id; a
 * deletion older than the trash keeps is a 404 too (it has been purged), and an item whose parent is
 * still in the trash is a 422 that names the parent, since it has nowhere to come back to.
 */
export async function restoreRefusal(
  tx: Executor,
  userId: number,
  id: number,
): Promise<{ kind: 'live' } | { kind: 'deleted'; item: Restorable }> {
  // The parent's title only when the caller sees the parent (its creator or assignee, or those of
  // its own parent): an error names nothing the caller could not open.
  const [row] = await rows<
    Restorable & { deleted: boolean; kept: boolean; parent_deleted: boolean; parent_title: string | null }
  >(
    tx,
    sql`SELECT i.id, i.type, i.title, i.user_id, i.parent_id, i.deleted_at IS NOT NULL AS deleted,
          COALESCE(i.deleted_at > ${KEPT}, false) AS kept,
          COALESCE(p.deleted_at IS NOT NULL, false) AS parent_deleted,
          CASE WHEN p.user_id = ${userId} OR p.assigned_to = ${userId}
            OR g.user_id = ${userId} OR g.assigned_to = ${userId} THEN p.title END AS parent_title
        FROM items i LEFT JOIN items p ON p.id = i.parent_id LEFT JOIN items g ON g.id = p.parent_id
        WHERE i.id = ${id} AND ${visibleTo(userId)}`,
  );
  if (!row) throw notFound();
  if (!row.deleted) return { kind: 'live' };
  if (!row.kept)
    throw new HttpError(404, 'This item is no longer in the trash: deleted items are kept 30 days.');
  if (row.parent_deleted)
    throw unprocessable({
      parent_id: [
        row.parent_title === null
          ? 'Its parent is in the trash: it can come back once its parent is restored.'
          : `Its parent "${row.parent_title}" is in the trash too: restore that first.`,
      ],
    });
  const { deleted: _d, kept: _k, parent_deleted: _p, parent_title: _t, ...item } = row;
  return { kind: 'deleted', item };
}

/** Tops of deleted subtrees `userId` sees, deleted in the last 30 days (aliases i, p of ITEM_FROM). */
function trashWhere(userId: number): SQL {
  return sql`i.deleted_at IS NOT NULL AND i.deleted_at > ${KEPT}
    AND (p.id IS NULL OR p.deleted_at IS NULL OR p.deleted_at <> i.deleted_at) AND ${visibleTo(userId)}`;
}

/** A page of the caller's trash, newest deletion first, with who deleted each entry. */
export async function listTrash(db: Executor, userId: number, page: number, perPage: number) {
  const where = trashWhere(userId);
  const [counted, items] = await Promise.all([
    rows<{ total: number }>(
      db,
      sql`SELECT count(*)::int AS total FROM items i LEFT JOIN items p ON p.id = i.parent_id WHERE ${where}`,
    ),
    selectItems(
      db,
      userId,
      where,
      sql`ORDER BY i.deleted_at DESC, i.id DESC LIMIT ${perPage} OFFSET ${(page - 1) * perPage}`,
    ),
  ]);
  const ids = items.map((i) => sql`${i.id}`);
  const deleters =
    ids.length === 0
      ? []
      : await rows<{ id: number; by_id: number; by_name: string }>(
          db,
          sql`SELECT i.id, u.id AS by_id, u.name AS by_name FROM items i JOIN users u ON u.id = i.deleted_by
              WHERE i.id IN (${sql.join(ids, sql`, `)})`,
        );
  const byItem = new Map(deleters.map((d) => [d.id, { id: d.by_id, name: d.by_name }]));
  const total = counted[0]?.total ?? 0;
  const data: TrashEntry[] = items.map((item) => ({
    ...item,
    deleted_at: item.deleted_at ?? iso(new Date()),
    deleted_by: byItem.get(item.id) ?? null,
  }));
  return paginated(data, page, perPage, total);
}

/** Every live item `user` sees, as Outpost JSON (the same document a device exports offline). */
export async function exportFor(db: Executor, user: UserRow, now: Date): Promise<ExportDocument> {
  const items: Item[] = await selectItems(
    db,
    user.id,
    sql`i.deleted_at IS NULL AND ${visibleTo(user.id)}`,
    sql`ORDER BY i.created_at, i.id`,
  );
  return exportDocument(items, { id: user.id, name: user.name }, now);
}
