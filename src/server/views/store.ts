import type { SQL } from 'drizzle-orm';
import type { ViewSort } from '../../shared/filter/views';
import { seesSharedRow, sharedRowsChangedBetween } from '../campaigns/sharedLists';
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

const COLUMNS = sql`x.id, x.uuid::text AS uuid, x.user_id, x.campaign_id, x.name, x.query, x.grammar::int AS grammar,
  x.sort, u.name AS creator_name,
  to_char(x.updated_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS updated_at`;
const FROM = sql`FROM views x JOIN users u ON u.id = x.user_id`;

/** The live view `id` if `userId` sees it. */
export async function visibleViewById(tx: Executor, userId: number, id: number): Promise<ViewRow | null> {
  const [row] = await rows<ViewRow>(
    tx,
    sql`SELECT ${COLUMNS} ${FROM} WHERE x.id = ${id} AND ${seesSharedRow(userId)}`,
  );
  return row ?? null;
}

/** Every live view `userId` sees, by name, then id. */
export async function listVisibleViews(tx: Executor, userId: number): Promise<ViewRow[]> {
  return rows<ViewRow>(
    tx,
    sql`SELECT ${COLUMNS} ${FROM} WHERE ${seesSharedRow(userId)} ORDER BY lower(x.name), x.id`,
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
  const sets: SQL[] = [sql`updated_at = now()`, sql`change_xid = pg_current_xact_id()::text::bigint`];
  if (change.name !== undefined) sets.push(sql`name = ${change.name}`);
  if (change.query !== undefined)
    sets.push(sql`query = ${change.query}`, sql`grammar = ${change.grammar ?? 1}`);
  if (change.sort !== undefined) sets.push(sql`sort = ${change.sort}`);
  if (change.campaignId !== undefined)
    sets.push(
      sql`campaign_id = ${change.campaignId}`,
      // L14: the campaign it leaves is remembered, so its members' devices learn it went.
      sql`left_campaigns = CASE WHEN campaign_id IS NOT NULL AND campaign_id IS DISTINCT FROM ${change.campaignId}::int
            AND NOT campaign_id = ANY(left_campaigns) THEN array_append(left_campaigns, campaign_id)
            ELSE left_campaigns END`,
    );
  await tx.execute(sql`UPDATE views SET ${sql.join(sets, sql`, `)} WHERE id = ${id}`);
}

/** Deletes softly: the tombstone keeps the uuid from being reused by a device's late repeat, and goes to devices' pulls. */
export async function softDeleteView(tx: Executor, id: number): Promise<void> {
  await tx.execute(sql`UPDATE views SET deleted_at = now(), updated_at = now(),
          change_xid = pg_current_xact_id()::text::bigint WHERE id = ${id}`);
}

/**
 * L13: the views rows a pull over the transaction ids [from, to) carries for `userId`, with whether
 * they still see each (the rest go as tombstones) and when it went.
 */
export async function viewRowsChangedBetween(
  db: Executor,
  userId: number,
  from: bigint,
  to: bigint,
): Promise<(ViewRow & { seen: boolean; gone_at: string })[]> {
  return rows<ViewRow & { seen: boolean; gone_at: string }>(
    db,
    sql`SELECT ${COLUMNS}, ${seesSharedRow(userId)} AS seen,
          to_char(COALESCE(x.deleted_at, x.updated_at) AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS gone_at
        ${FROM} WHERE ${sharedRowsChangedBetween(userId, from, to)} ORDER BY x.id`,
  );
}
