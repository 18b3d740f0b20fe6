import type { SQL } from 'drizzle-orm';
import type { ViewSort } from '../../shared/filter/views';
import { type Executor, rows, sql } from '../db/client';

/** A views row with its creator's name, as stored (its query in the grammar it was saved under). */
export interface ViewRow {
  id: number;
  uuid: string;
  user_id: number;
  campaign_id: number | null;
  name: string;
  query: string;
  grammar: number;
  sort: ViewSort;
  creator_name: string;
  updated_at: string;
}

const COLUMNS = sql`v.id, v.uuid::text AS uuid, v.user_id, v.campaign_id, v.name, v.query, v.grammar::int AS grammar,
  v.sort, u.name AS creator_name,
  to_char(v.updated_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS updated_at`;
const FROM = sql`FROM views v JOIN users u ON u.id = v.user_id`;

/** Whether `userId` sees view v: their own, or one shared with a live campaign they own or belong to. */
function visibleView(userId: number): SQL {
  return sql`v.deleted_at IS NULL AND (v.user_id = ${userId} OR (v.campaign_id IS NOT NULL AND EXISTS (
      SELECT 1 FROM items c WHERE c.id = v.campaign_id AND c.deleted_at IS NULL AND (c.user_id = ${userId}
        OR EXISTS (SELECT 1 FROM campaign_members m WHERE m.campaign_id = c.id AND m.user_id = ${userId})))))`;
}

/** The live view `id` if `userId` sees it. */
export async function visibleViewById(tx: Executor, userId: number, id: number): Promise<ViewRow | null> {
  const [row] = await rows<ViewRow>(
    tx,
    sql`SELECT ${COLUMNS} ${FROM} WHERE v.id = ${id} AND ${visibleView(userId)}`,
  );
  return row ?? null;
}

/** Every live view `userId` sees, by name, then id. */
export async function listVisibleViews(tx: Executor, userId: number): Promise<ViewRow[]> {
  return rows<ViewRow>(
    tx,
    sql`SELECT ${COLUMNS} ${FROM} WHERE ${visibleView(userId)} ORDER BY lower(v.name), v.id`,
  );
}

/** Locks the view's row for a change (a concurrent PATCH or DELETE waits). */
export async function lockView(tx: Executor, id: number): Promise<void> {
  await tx.execute(sql`SELECT id FROM views WHERE id = ${id} FOR UPDATE`);
}

/** The caller's own view with this uuid (live or deleted): a device's repeated create. */
export async function ownViewByUuid(
  tx: Executor,
  userId: number,
  uuid: string,
): Promise<{ id: number; deleted: boolean } | null> {
  const [row] = await rows<{ id: number; deleted: boolean }>(
    tx,
    sql`SELECT id, deleted_at IS NOT NULL AS deleted FROM views WHERE user_id = ${userId} AND uuid = ${uuid}`,
  );
  return row ?? null;
}

export interface NewView {
  uuid: string;
  userId: number;
  campaignId: number | null;
  name: string;
  query: string;
  grammar: number;
  sort: ViewSort;
}

/** Inserts a view; null when the owner already has one with this uuid (a concurrent repeat). */
export async function insertView(tx: Executor, v: NewView): Promise<number | null> {
  const [row] = await rows<{ id: number }>(
    tx,
    sql`INSERT INTO views (uuid, user_id, campaign_id, name, query, grammar, sort)
        VALUES (${v.uuid}, ${v.userId}, ${v.campaignId}, ${v.name}, ${v.query}, ${v.grammar}, ${v.sort})
        ON CONFLICT (user_id, uuid) DO NOTHING RETURNING id`,
  );
  return row?.id ?? null;
}

/** Writes a view's changed fields; a new query is stored under `grammar` (the current one). */
export async function updateView(
  tx: Executor,
  id: number,
  change: { name?: string; query?: string; grammar?: number; sort?: ViewSort; campaignId?: number | null },
): Promise<void> {
  const sets: SQL[] = [sql`updated_at = now()`];
  if (change.name !== undefined) sets.push(sql`name = ${change.name}`);
  if (change.query !== undefined)
    sets.push(sql`query = ${change.query}`, sql`grammar = ${change.grammar ?? 1}`);
  if (change.sort !== undefined) sets.push(sql`sort = ${change.sort}`);
  if (change.campaignId !== undefined) sets.push(sql`campaign_id = ${change.campaignId}`);
  await tx.execute(sql`UPDATE views SET ${sql.join(sets, sql`, `)} WHERE id = ${id}`);
}

/** Deletes softly: the tombstone keeps the uuid from being reused by a device's late repeat. */
export async function softDeleteView(tx: Executor, id: number): Promise<void> {
  await tx.execute(sql`UPDATE views SET deleted_at = now(), updated_at = now() WHERE id = ${id}`);
}
