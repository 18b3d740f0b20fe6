import type { SQL } from 'drizzle-orm';
import { bodyText } from '../../shared/comments';
import { hierarchyError } from '../../shared/hierarchy';
import {
  type ExportAttachment,
  type ExportComment,
  type ExportDocument,
  type ExportMember,
  type ExportSource,
  type ExportTimeEntry,
  exportDocument,
} from '../../shared/importExport';
import { type ItemType, paginated } from '../../shared/item';
import { ITEM_FIELD_NAMES, type ItemFieldName } from '../../shared/itemFields';
import { TRASH_KEEP_DAYS, type TrashEntry } from '../../shared/trash';
import type { UserRow } from '../auth/users';
import { COMMENT_SELECT, type CommentRow, commentJson } from '../comments/service';
import { type Executor, rows, sql } from '../db/client';
import { HttpError, notFound, unprocessable } from '../http/errors';
import { iso, isoOrNull } from '../http/serialize';
import {
  fieldsJson,
  ITEM_COLUMNS,
  ITEM_FROM,
  type ItemRow,
  phoneFor,
  selectItems,
  visibleTo,
} from './queries';

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
 * Whether the caller may restore the parent p of the item i (aliases of ITEM_FROM, with g p's
 * parent): its creator, or the creator of its top-level item, which is g when p has a parent.
 */
function mayRestoreParent(userId: number): SQL {
  return sql`(p.user_id = ${userId} OR g.user_id = ${userId})`;
}

/**
 * Whether `id` can be restored by `userId` (call under the family lock): 'live' when there is nothing
 * to do, the item when it can come back. Someone who cannot see it gets the 404 of an unknown id; a
 * deletion older than the trash keeps is a 404 too (it has been purged). An item whose parent is
 * still in the trash waits for it (a 422 naming that parent) only when the caller may restore the
 * parent; otherwise it comes back without it (`parent_id` the place it comes back to), see below.
 */
export async function restoreRefusal(
  tx: Executor,
  userId: number,
  id: number,
): Promise<{ kind: 'live' } | { kind: 'deleted'; item: Restorable }> {
  // The parent's title only when the caller sees the parent (its creator or assignee, or those of
  // its own parent): an error names nothing the caller could not open.
  const [row] = await rows<
    Restorable & {
      deleted: boolean;
      kept: boolean;
      parent_deleted: boolean;
      parent_restorable: boolean;
      parent_title: string | null;
      refuge: number | null;
    }
  >(
    tx,
    sql`SELECT i.id, i.type, i.title, i.user_id, i.parent_id, i.deleted_at IS NOT NULL AS deleted,
          COALESCE(i.deleted_at > ${KEPT}, false) AS kept,
          COALESCE(p.deleted_at IS NOT NULL, false) AS parent_deleted,
          COALESCE(${mayRestoreParent(userId)} AND p.deleted_at > ${KEPT}, false) AS parent_restorable,
          CASE WHEN p.user_id = ${userId} OR p.assigned_to = ${userId}
            OR g.user_id = ${userId} OR g.assigned_to = ${userId} THEN p.title END AS parent_title,
          CASE WHEN g.deleted_at IS NULL AND (g.user_id = ${userId} OR g.assigned_to = ${userId})
            THEN g.id END AS refuge
        ${ITEM_FROM}
        WHERE i.id = ${id} AND ${visibleTo(userId)}`,
  );
  if (!row) throw notFound();
  if (!row.deleted) return { kind: 'live' };
  if (!row.kept)
    throw new HttpError(404, 'This item is no longer in the trash: deleted items are kept 30 days.');
  const { deleted: _d, kept: _k, parent_deleted, parent_restorable, parent_title, refuge, ...item } = row;
  if (!parent_deleted) return { kind: 'deleted', item };
  if (parent_restorable)
    throw unprocessable({
      parent_id: [
        parent_title === null
          ? 'Its parent is in the trash: it can come back once its parent is restored.'
          : `Its parent "${parent_title}" is in the trash too: restore that first.`,
      ],
    });
  // F5: someone else deleted the tree holding the caller's item, and its parent is theirs to
  // restore, not the caller's (or it is past the trash's 30 days). Waiting for it could mean waiting for ever, so the item comes back
  // where the caller still sees it: under the campaign above its task when that is live and theirs
  // to see (a todo may sit under a campaign), else at the top level. Only the caller's own items get
  // here (the restore rule lets anyone else restore only within a family they created).
  const refugeOk =
    refuge !== null && hierarchyError(item, { id: refuge, type: 'campaign', parent_id: null }) === null;
  return { kind: 'deleted', item: { ...item, parent_id: refugeOk ? refuge : null } };
}

/**
 * Tops of deleted subtrees `userId` sees, deleted in the last 30 days (aliases i, p, g of
 * ITEM_FROM): an item deleted with its parent is listed on its own when the caller may not restore
 * that parent (F5: their own todo under someone else's deleted task), so they can bring it back.
 */
function trashWhere(userId: number): SQL {
  return sql`i.deleted_at IS NOT NULL AND i.deleted_at > ${KEPT}
    AND (p.id IS NULL OR p.deleted_at IS NULL OR p.deleted_at <> i.deleted_at
      OR NOT COALESCE(${mayRestoreParent(userId)}, false)) AND ${visibleTo(userId)}`;
}

/** A page of the caller's trash, newest deletion first, with who deleted each entry. */
export async function listTrash(db: Executor, userId: number, page: number, perPage: number) {
  const where = trashWhere(userId);
  const [counted, items] = await Promise.all([
    rows<{ total: number }>(db, sql`SELECT count(*)::int AS total ${ITEM_FROM} WHERE ${where}`),
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

/** Rows an export reads per query: between two, the embedded database serves other requests (F0). */
export const EXPORT_CHUNK_ROWS = 1_000;

/** An item row as the export reads it: every declared field (shared/itemFields.ts) as ITEM_COLUMNS has it. */
type ExportRow = Pick<ItemRow, ItemFieldName> & {
  id: number;
  uuid: string | null;
  type: ItemType;
  created_at: unknown;
  updated_at: unknown;
  completed_at: unknown;
  assignee_name: string | null;
  /** created_at at full precision, for the next chunk's start (ISO strings keep milliseconds only). */
  created_key: string;
};

/** The live comments of the items `ids` (a Postgres array literal), by item: author and mentions by name. */
async function exportComments(db: Executor, ids: string): Promise<Map<number, ExportComment[]>> {
  const found = await rows<CommentRow>(
    db,
    sql`SELECT ${COMMENT_SELECT} WHERE c.item_id = ANY(${ids}::int[]) AND c.deleted_at IS NULL ORDER BY c.id`,
  );
  const byItem = new Map<number, ExportComment[]>();
  for (const row of found) {
    const c = commentJson(row);
    const list = byItem.get(c.item_id) ?? [];
    list.push({
      uuid: c.uuid,
      author: c.user.name,
      body: bodyText(c.body, c.mentions),
      created_at: c.created_at,
    });
    byItem.set(c.item_id, list);
  }
  return byItem;
}

/** T3: the live time entries of the items `ids` (a Postgres array literal), by item, authors by name. */
async function exportTimeEntries(db: Executor, ids: string): Promise<Map<number, ExportTimeEntry[]>> {
  const found = await rows<{
    item_id: number;
    uuid: string;
    author: string;
    started_at: Date | string;
    ended_at: Date | string | null;
    note: string;
  }>(
    db,
    sql`SELECT t.item_id, t.uuid, u.name AS author, t.started_at, t.ended_at, t.note
        FROM time_entries t JOIN users u ON u.id = t.user_id
        WHERE t.item_id = ANY(${ids}::int[]) AND t.deleted_at IS NULL ORDER BY t.id`,
  );
  const byItem = new Map<number, ExportTimeEntry[]>();
  for (const r of found) {
    const list = byItem.get(r.item_id) ?? [];
    list.push({
      uuid: r.uuid,
      author: r.author,
      started_at: iso(r.started_at),
      ended_at: isoOrNull(r.ended_at),
      note: r.note,
    });
    byItem.set(r.item_id, list);
  }
  return byItem;
}

/**
 * The live files of the items `ids` (a Postgres array literal), by item: their metadata, never bytes;
 * `path` null, for a JSON export carries no bytes (the device's zip export does).
 */
async function exportAttachments(
  db: Executor,
  ids: string,
): Promise<Map<number, (ExportAttachment & { created_at: string })[]>> {
  const found = await rows<{
    item_id: number;
    uuid: string;
    name: string;
    type: string;
    size: number | string;
    sha256: string;
    created_at: Date | string;
  }>(
    db,
    sql`SELECT a.item_id, a.uuid, a.name, a.type, a.size, a.sha256, a.created_at
        FROM attachments a
        WHERE a.item_id = ANY(${ids}::int[]) AND a.deleted_at IS NULL ORDER BY a.id`,
  );
  const byItem = new Map<number, (ExportAttachment & { created_at: string })[]>();
  for (const r of found) {
    const list = byItem.get(r.item_id) ?? [];
    list.push({
      uuid: r.uuid,
      name: r.name,
      type: r.type,
      // bigint: the driver may answer it as text.
      size: Number(r.size),
      sha256: r.sha256,
      path: null,
      created_at: iso(r.created_at),
    });
    byItem.set(r.item_id, list);
  }
  return byItem;
}

/**
 * The people of the campaigns `ids` (a Postgres array literal) as their members list shows them
 * (listMembers): the owner first, then by when they joined, phones as §5's phone rule lets `viewerId` see.
 */
async function exportMembers(
  db: Executor,
  viewerId: number,
  ids: string,
): Promise<Map<number, ExportMember[]>> {
  if (ids === '{}') return new Map();
  const found = await rows<{ campaign_id: number; name: string; phone: string; role: ExportMember['role'] }>(
    db,
    sql`SELECT x.campaign_id, u.name, ${phoneFor('u', viewerId)} AS phone, x.role FROM (
          SELECT c.id AS campaign_id, c.user_id, 'owner' AS role, c.created_at AS added_at, 0 AS rank
            FROM items c WHERE c.id = ANY(${ids}::int[])
          UNION ALL
          SELECT m.campaign_id, m.user_id, m.role, m.added_at, 1 AS rank
            FROM campaign_members m WHERE m.campaign_id = ANY(${ids}::int[])
        ) x JOIN users u ON u.id = x.user_id
        ORDER BY x.campaign_id, x.rank, x.added_at, u.id`,
  );
  const byCampaign = new Map<number, ExportMember[]>();
  for (const r of found) {
    const list = byCampaign.get(r.campaign_id) ?? [];
    list.push({ name: r.name, phone: r.phone === '' ? null : r.phone, role: r.role });
    byCampaign.set(r.campaign_id, list);
  }
  return byCampaign;
}

/**
 * Every live item `user` sees, as Outpost JSON (the same document a device exports offline). Read in
 * chunks of EXPORT_CHUNK_ROWS in (created_at, id) order, each its own short query over the item's
 * own columns (no counts, no joins), so a large export never holds the embedded database (F0); each
 * chunk's comments, time entries, files and campaigns' members are four more short queries.
 */
export async function exportFor(db: Executor, user: UserRow, now: Date): Promise<ExportDocument> {
  const items: ExportSource[] = [];
  let after: { key: string; id: number } | null = null;
  for (;;) {
    const from: SQL = after
      ? sql`AND (i.created_at, i.id) > (${after.key}::timestamptz, ${after.id})`
      : sql``;
    const page: ExportRow[] = await rows<ExportRow>(
      db,
      sql`SELECT ${ITEM_COLUMNS}, i.created_at::text AS created_key,
            (SELECT a.name FROM users a WHERE a.id = i.assigned_to) AS assignee_name
          FROM items i
          WHERE i.deleted_at IS NULL AND ${visibleTo(user.id)} ${from}
          ORDER BY i.created_at, i.id LIMIT ${EXPORT_CHUNK_ROWS}`,
    );
    const ids = `{${page.map((r) => r.id).join(',')}}`;
    const campaigns = `{${page.flatMap((r) => (r.type === 'campaign' ? [r.id] : [])).join(',')}}`;
    const [comments, members, timeEntries, attachments] = await Promise.all([
      exportComments(db, ids),
      exportMembers(db, user.id, campaigns),
      exportTimeEntries(db, ids),
      exportAttachments(db, ids),
    ]);
    for (const { created_key: _key, ...r } of page)
      items.push({
        ...r,
        // Every declared field as the API's item has it (an instant as its ISO text).
        ...fieldsJson(r, ITEM_FIELD_NAMES),
        created_at: iso(r.created_at),
        updated_at: iso(r.updated_at),
        completed_at: isoOrNull(r.completed_at),
        comments: comments.get(r.id) ?? [],
        time_entries: timeEntries.get(r.id) ?? [],
        attachments: attachments.get(r.id) ?? [],
        ...(r.type === 'campaign' ? { members: members.get(r.id) ?? [] } : {}),
      });
    const last = page.at(-1);
    if (!last || page.length < EXPORT_CHUNK_ROWS) break;
    after = { key: last.created_key, id: last.id };
    // Other requests' queries go first before the next chunk.
    await new Promise((resolve) => setImmediate(resolve));
  }
  return exportDocument(items, { id: user.id, name: user.name }, now);
}
