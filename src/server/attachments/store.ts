import { type Executor, rows, sql } from '../db/client';

/** An attachment row with its uploader's name and its item's uuid, as ATTACHMENT_SELECT reads it. */
export interface AttachmentRow {
  id: number;
  uuid: string;
  item_id: number;
  user_id: number;
  user_name: string;
  name: string;
  type: string;
  size: number | string;
  sha256: string;
  width: number | null;
  height: number | null;
  has_thumbnail: boolean;
  created_at: Date | string;
  deleted_at: Date | string | null;
  item_uuid: string | null;
}

const ATTACHMENT_SELECT = sql`a.id, a.uuid, a.item_id, a.user_id, u.name AS user_name, a.name, a.type,
  a.size, a.sha256, a.width, a.height, a.has_thumbnail, a.created_at, a.deleted_at, ai.uuid AS item_uuid
  FROM attachments a JOIN users u ON u.id = a.user_id JOIN items ai ON ai.id = a.item_id`;

/** The row `id`, live or deleted. */
export async function attachmentById(db: Executor, id: number): Promise<AttachmentRow | undefined> {
  const [found] = await rows<AttachmentRow>(db, sql`SELECT ${ATTACHMENT_SELECT} WHERE a.id = ${id}`);
  return found;
}

/** The caller's own row named by the uuid their device gave it, live or deleted. */
export async function attachmentByUuid(
  db: Executor,
  userId: number,
  uuid: string,
): Promise<AttachmentRow | undefined> {
  const [found] = await rows<AttachmentRow>(
    db,
    sql`SELECT ${ATTACHMENT_SELECT} WHERE a.user_id = ${userId} AND a.uuid = ${uuid}`,
  );
  return found;
}

/** The rows `ids` (live and deleted), for a sync page. */
export function attachmentsByIds(db: Executor, ids: readonly number[]): Promise<AttachmentRow[]> {
  return rows<AttachmentRow>(
    db,
    sql`SELECT ${ATTACHMENT_SELECT} WHERE a.id = ANY(${sql.param([...ids])}::int[])`,
  );
}

/** What an upload stores of a file. */
export interface NewAttachment {
  uuid: string;
  itemId: number;
  userId: number;
  name: string;
  type: string;
  size: number;
  sha256: string;
  width: number | null;
  height: number | null;
  hasThumbnail: boolean;
}

/**
 * Inserts a row and reads it back as ATTACHMENT_SELECT does, in one statement; undefined when the
 * uploader's uuid names one already (a retry stored it first).
 */
export async function insertAttachment(tx: Executor, a: NewAttachment): Promise<AttachmentRow | undefined> {
  const [inserted] = await rows<AttachmentRow>(
    tx,
    sql`WITH a AS (
          INSERT INTO attachments (uuid, item_id, user_id, name, type, size, sha256, width, height, has_thumbnail)
          VALUES (${a.uuid}, ${a.itemId}, ${a.userId}, ${a.name}, ${a.type}, ${a.size}, ${a.sha256},
            ${a.width}, ${a.height}, ${a.hasThumbnail})
          ON CONFLICT (user_id, uuid) DO NOTHING RETURNING *)
        SELECT a.id, a.uuid, a.item_id, a.user_id, u.name AS user_name, a.name, a.type, a.size, a.sha256,
          a.width, a.height, a.has_thumbnail, a.created_at, a.deleted_at, ai.uuid AS item_uuid
        FROM a JOIN users u ON u.id = a.user_id JOIN items ai ON ai.id = a.item_id`,
  );
  return inserted;
}

/** Marks a live row deleted (a tombstone for sync); false when it was deleted already. */
export async function softDeleteAttachment(tx: Executor, id: number): Promise<boolean> {
  const deleted = await rows<{ id: number }>(
    tx,
    sql`UPDATE attachments SET deleted_at = now(), updated_at = now(),
          change_xid = pg_current_xact_id()::text::bigint
        WHERE id = ${id} AND deleted_at IS NULL RETURNING id`,
  );
  return deleted.length > 0;
}

/** An item's live attachments, newest first, one page, with how many it has. */
export async function itemAttachmentsPage(
  db: Executor,
  itemId: number,
  page: number,
  perPage: number,
): Promise<{ rows: AttachmentRow[]; total: number }> {
  const [counted, found] = await Promise.all([
    rows<{ total: number }>(
      db,
      sql`SELECT count(*)::int AS total FROM attachments WHERE item_id = ${itemId} AND deleted_at IS NULL`,
    ),
    rows<AttachmentRow>(
      db,
      sql`SELECT ${ATTACHMENT_SELECT} WHERE a.item_id = ${itemId} AND a.deleted_at IS NULL
          ORDER BY a.id DESC LIMIT ${perPage} OFFSET ${(page - 1) * perPage}`,
    ),
  ]);
  return { rows: found, total: counted[0]?.total ?? 0 };
}

/** The creator of the top-level item `itemId` lies under (who may delete anything in it, §5). */
export async function rootCreatorOf(tx: Executor, itemId: number): Promise<number | null> {
  const [root] = await rows<{ user_id: number }>(
    tx,
    sql`SELECT r.user_id FROM items i
          LEFT JOIN items p ON p.id = i.parent_id
          LEFT JOIN items g ON g.id = p.parent_id
          JOIN items r ON r.id = coalesce(g.id, p.id, i.id)
        WHERE i.id = ${itemId}`,
  );
  return root?.user_id ?? null;
}

/**
 * The lock between storing bytes and removing unnamed ones (purge.ts): an upload holds it shared
 * from its check that its bytes are stored until its row commits; the purge holds it alone while it
 * checks that no row names a key and removes it. Any number shared by all instances, distinct from
 * the migration's (724001) and the sweep's (724002).
 */
const FILES_LOCK = 724003;

/** Takes the files lock shared, for this transaction: no purge removes a key until it ends. */
export async function holdFilesShared(tx: Executor): Promise<void> {
  await tx.execute(sql`SELECT pg_advisory_xact_lock_shared(${FILES_LOCK}::bigint)`);
}

/** Takes the files lock alone, for this transaction: no upload stores a row meanwhile. */
export async function holdFilesAlone(tx: Executor): Promise<void> {
  await tx.execute(sql`SELECT pg_advisory_xact_lock(${FILES_LOCK}::bigint)`);
}

/**
 * Which of these sha256s a row still names: a live one (its item live or in the trash), or one
 * deleted after `deletedSince` (a deleted file's bytes outlive it as long as the trash keeps items).
 */
export async function namedShas(
  db: Executor,
  shas: readonly string[],
  deletedSince: Date,
): Promise<Set<string>> {
  if (shas.length === 0) return new Set();
  const found = await rows<{ sha256: string }>(
    db,
    sql`SELECT DISTINCT sha256 FROM attachments WHERE sha256 = ANY(${sql.param([...shas])}::text[])
          AND (deleted_at IS NULL OR deleted_at > ${deletedSince})`,
  );
  return new Set(found.map((r) => r.sha256));
}
