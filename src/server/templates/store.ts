import type { SQL } from 'drizzle-orm';
import type { Item } from '../../shared/item';
import type { ListTombstone } from '../../shared/syncLists';
import {
  type Template,
  type TemplateKind,
  type TemplateTree,
  templateTreeSchema,
} from '../../shared/templates';
import { seesSharedRow, sharedRowsChangedBetween } from '../campaigns/sharedLists';
import { type Executor, rows, sql } from '../db/client';
import { selectItems, visibleTo } from '../items/queries';

/** A templates row with its creator's name, as the routes answer it. */
export interface TemplateRow {
  id: number;
  uuid: string;
  user_id: number;
  campaign_id: number | null;
  name: string;
  kind: TemplateKind;
  tree: unknown;
  creator_name: string;
  updated_at: string;
}

const COLUMNS = sql`x.id, x.uuid::text AS uuid, x.user_id, x.campaign_id, x.name, x.kind, x.tree,
  u.name AS creator_name,
  to_char(x.updated_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS updated_at`;
const FROM = sql`FROM templates x JOIN users u ON u.id = x.user_id`;

/** The API's template from its row; the stored tree is held to the contract on the way out too. */
export function templateJson(row: TemplateRow): Template {
  const tree = typeof row.tree === 'string' ? (JSON.parse(row.tree) as unknown) : row.tree;
  return {
    id: row.id,
    uuid: row.uuid,
    name: row.name,
    kind: row.kind,
    campaign_id: row.campaign_id,
    tree: templateTreeSchema.parse(tree) as Template['tree'],
    created_by: { id: row.user_id, name: row.creator_name },
    updated_at: row.updated_at,
  };
}

/** The live template `id` if `userId` sees it. */
export async function visibleTemplateById(
  tx: Executor,
  userId: number,
  id: number,
): Promise<TemplateRow | null> {
  const [row] = await rows<TemplateRow>(
    tx,
    sql`SELECT ${COLUMNS} ${FROM} WHERE x.id = ${id} AND ${seesSharedRow(userId)}`,
  );
  return row ?? null;
}

/** Locks the template's row for a change (a concurrent PATCH or DELETE waits). */
export async function lockTemplate(tx: Executor, id: number): Promise<void> {
  await tx.execute(sql`SELECT id FROM templates WHERE id = ${id} FOR UPDATE`);
}

/** Every live template `userId` sees, by name, then id. */
export async function listVisibleTemplates(tx: Executor, userId: number): Promise<TemplateRow[]> {
  return rows<TemplateRow>(
    tx,
    sql`SELECT ${COLUMNS} ${FROM} WHERE ${seesSharedRow(userId)} ORDER BY lower(x.name), x.id`,
  );
}

/** The caller's own template with this uuid (live or deleted): a device's repeated create. */
export async function ownTemplateByUuid(
  tx: Executor,
  userId: number,
  uuid: string,
): Promise<{ id: number; deleted: boolean } | null> {
  const [row] = await rows<{ id: number; deleted: boolean }>(
    tx,
    sql`SELECT id, deleted_at IS NOT NULL AS deleted FROM templates WHERE user_id = ${userId} AND uuid = ${uuid}`,
  );
  return row ?? null;
}

export interface NewTemplate {
  uuid: string;
  userId: number;
  campaignId: number | null;
  name: string;
  kind: TemplateKind;
  tree: TemplateTree;
  nodeCount: number;
}

/** Inserts a template; null when the owner already has one with this uuid (a concurrent repeat). */
export async function insertTemplate(tx: Executor, t: NewTemplate): Promise<number | null> {
  const [row] = await rows<{ id: number }>(
    tx,
    sql`INSERT INTO templates (uuid, user_id, campaign_id, name, kind, tree, node_count)
        VALUES (${t.uuid}, ${t.userId}, ${t.campaignId}, ${t.name}, ${t.kind}, ${JSON.stringify(t.tree)}::jsonb, ${t.nodeCount})
        ON CONFLICT (user_id, uuid) DO NOTHING RETURNING id`,
  );
  return row?.id ?? null;
}

/** Writes a template's changed fields, stamping the change for a device's pull. */
export async function updateTemplate(
  tx: Executor,
  id: number,
  change: { name?: string; campaignId?: number | null; tree?: TemplateTree; nodeCount?: number },
): Promise<void> {
  const sets: SQL[] = [sql`updated_at = now()`, sql`change_xid = pg_current_xact_id()::text::bigint`];
  if (change.name !== undefined) sets.push(sql`name = ${change.name}`);
  if (change.campaignId !== undefined)
    sets.push(
      sql`campaign_id = ${change.campaignId}`,
      // L14: the campaign it leaves is remembered, so its members' devices learn it went.
      sql`left_campaigns = CASE WHEN campaign_id IS NOT NULL AND campaign_id IS DISTINCT FROM ${change.campaignId}::int
            AND NOT campaign_id = ANY(left_campaigns) THEN array_append(left_campaigns, campaign_id)
            ELSE left_campaigns END`,
    );
  if (change.tree !== undefined) {
    sets.push(sql`tree = ${JSON.stringify(change.tree)}::jsonb`);
    sets.push(sql`node_count = ${change.nodeCount ?? 1}`);
  }
  await tx.execute(sql`UPDATE templates SET ${sql.join(sets, sql`, `)} WHERE id = ${id}`);
}

/** Deletes softly: the tombstone stays for devices' pulls. */
export async function softDeleteTemplate(tx: Executor, id: number): Promise<void> {
  await tx.execute(
    sql`UPDATE templates SET deleted_at = now(), updated_at = now(),
          change_xid = pg_current_xact_id()::text::bigint WHERE id = ${id}`,
  );
}

/** The live items under `rootId` (children and grandchildren), over the alias i. */
function descendantsOf(rootId: number): SQL {
  return sql`i.deleted_at IS NULL AND (i.parent_id = ${rootId} OR i.parent_id IN (
      SELECT c.id FROM items c WHERE c.parent_id = ${rootId} AND c.deleted_at IS NULL))`;
}

/** How many live items lie under `rootId` (to refuse a too-large snapshot before reading it). */
export async function countDescendants(tx: Executor, rootId: number): Promise<number> {
  const [row] = await rows<{ n: number }>(
    tx,
    sql`SELECT count(*)::int AS n FROM items i WHERE ${descendantsOf(rootId)}`,
  );
  return row?.n ?? 0;
}

/** The top-level item of `itemId`'s family: its id and type (a campaign, or a task of its own). */
export async function familyTop(tx: Executor, itemId: number): Promise<{ id: number; type: string } | null> {
  const [row] = await rows<{ id: number; type: string }>(
    tx,
    sql`SELECT r.id, r.type FROM items i
        LEFT JOIN items p ON p.id = i.parent_id LEFT JOIN items g ON g.id = p.parent_id
        JOIN items r ON r.id = COALESCE(g.id, p.id, i.id)
        WHERE i.id = ${itemId}`,
  );
  return row ?? null;
}

/** The live items under `rootId` that `userId` sees, in their order among siblings. */
export async function visibleDescendants(tx: Executor, userId: number, rootId: number): Promise<Item[]> {
  return selectItems(
    tx,
    userId,
    sql`${descendantsOf(rootId)} AND ${visibleTo(userId)}`,
    sql`ORDER BY i.sort_key, i.id`,
  );
}

/**
 * L13: the templates a pull over the transaction ids [from, to) carries for `userId`: the live ones
 * they see, and a tombstone for the rest (deleted, or shared with a campaign they no longer see).
 */
export async function templatesChangedBetween(
  db: Executor,
  userId: number,
  from: bigint,
  to: bigint,
): Promise<(Template | ListTombstone)[]> {
  const found = await rows<TemplateRow & { seen: boolean; gone_at: string }>(
    db,
    sql`SELECT ${COLUMNS}, ${seesSharedRow(userId)} AS seen,
          to_char(COALESCE(x.deleted_at, x.updated_at) AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS gone_at
        ${FROM} WHERE ${sharedRowsChangedBetween(userId, from, to)} ORDER BY x.id`,
  );
  return found.map((row) =>
    row.seen ? templateJson(row) : { id: row.id, uuid: row.uuid, deleted_at: row.gone_at },
  );
}
