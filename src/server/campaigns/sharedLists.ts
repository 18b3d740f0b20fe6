/**
 * The rows a person keeps for themselves or shares with a campaign's members (templates, saved
 * views; ARCHITECTURE §4): who sees one, and which of them a sync pull between two positions carries
 * (SYNC.md L13–L15). The table is read under the alias `x`, with `user_id`, `campaign_id`,
 * `deleted_at` and `change_xid`.
 */
import type { SQL } from 'drizzle-orm';
import { sql } from '../db/client';

/** Whether `userId` sees row x: their own, or one shared with a live campaign they own or belong to. */
export function seesSharedRow(userId: number): SQL {
  return sql`x.deleted_at IS NULL AND (x.user_id = ${userId} OR (x.campaign_id IS NOT NULL AND EXISTS (
      SELECT 1 FROM items c WHERE c.id = x.campaign_id AND c.deleted_at IS NULL AND (c.user_id = ${userId}
        OR EXISTS (SELECT 1 FROM campaign_members m WHERE m.campaign_id = c.id AND m.user_id = ${userId})))))`;
}

/**
 * L13, L14: the rows of x a pull must carry for `userId` over the transaction ids [from, to): their
 * own and those of the campaigns they own or belong to (a trashed one included, so its rows go as
 * tombstones) or that left such a campaign (`left_campaigns`, so they go as tombstones), that
 * changed in the range, or whose campaign changed in it (trashed, restored), or
 * whose campaign they were let into in it (its rows were never theirs before).
 */
export function sharedRowsChangedBetween(userId: number, from: bigint, to: bigint): SQL {
  const lo = from.toString();
  const hi = to.toString();
  const theirs = sql`SELECT m.campaign_id FROM campaign_members m WHERE m.user_id = ${userId}
        UNION ALL SELECT c.id FROM items c WHERE c.user_id = ${userId} AND c.parent_id IS NULL AND c.type = 'campaign'`;
  return sql`(x.user_id = ${userId} OR x.campaign_id IN (${theirs})
        OR (cardinality(x.left_campaigns) > 0 AND x.left_campaigns && ARRAY(${theirs})))
      AND ((x.change_xid >= ${lo}::bigint AND x.change_xid < ${hi}::bigint)
        OR (x.campaign_id IS NOT NULL AND (
          EXISTS (SELECT 1 FROM items c WHERE c.id = x.campaign_id
            AND c.change_xid >= ${lo}::bigint AND c.change_xid < ${hi}::bigint)
          OR EXISTS (SELECT 1 FROM campaign_members m WHERE m.campaign_id = x.campaign_id AND m.user_id = ${userId}
            AND m.change_xid >= ${lo}::bigint AND m.change_xid < ${hi}::bigint))))`;
}

/** The campaigns whose members hear of a write to such a row (L15): the ones it is, and was, shared with. */
export function campaignsToTell(...ids: (number | null | undefined)[]): number[] {
  return [...new Set(ids)].filter((id): id is number => typeof id === 'number');
}
