import type { SQL } from 'drizzle-orm';
import { sql } from '../db/client';

/**
 * The enabled webhooks that may hear a write about `itemIds`: those of the people who can see one
 * of the items by the visibility rule's own terms (its creator or assignee, or its parent's or
 * grandparent's, or a member of the campaign at its top; items/queries.ts visibleTo), plus `extra`
 * owners (whoever a member.removed event tells), and only those without a campaign or with the
 * campaign at an item's top. A superset of who hears: the caller still asks seersAmong and the
 * campaign scope per event. Found through webhooks_owner_campaign_idx, so a write reads only these
 * people's hooks, never every hook of every user (issue 62: 12,000 other hooks made a write 9×
 * slower).
 */
export function hooksHearing(itemIds: readonly number[], extra: readonly number[]): SQL {
  const ids = `{${[...new Set(itemIds)].join(',')}}`;
  const others = `{${[...new Set(extra)].join(',')}}`;
  return sql`WITH t AS (
      SELECT i.id AS i_id, p.id AS p_id, g.id AS g_id,
        ARRAY[i.user_id, i.assigned_to, p.user_id, p.assigned_to, g.user_id, g.assigned_to] AS people
      FROM items i LEFT JOIN items p ON p.id = i.parent_id LEFT JOIN items g ON g.id = p.parent_id
      WHERE i.id = ANY(${ids}::int[])
    ), near(user_id) AS (
      SELECT unnest(t.people) FROM t
      UNION SELECT m.user_id FROM t
        JOIN campaign_members m ON m.campaign_id = ANY(ARRAY[t.i_id, t.p_id, t.g_id])
      UNION SELECT unnest(${others}::int[])
    )
    SELECT w.id, w.user_id, w.events, w.campaign_id
    FROM near CROSS JOIN LATERAL (
      SELECT h.id, h.user_id, h.events, h.campaign_id FROM webhooks h
      WHERE h.user_id = near.user_id AND h.enabled
        AND (h.campaign_id IS NULL OR h.campaign_id = ANY(${ids}::int[])
          OR h.campaign_id IN (SELECT COALESCE(t.g_id, t.p_id, t.i_id) FROM t))
      -- OFFSET 0 keeps this a look-up per person: joined flat, the planner may hash every hook of
      -- every user against the few people near (it did, on a table it had no statistics of).
      OFFSET 0) w
    WHERE near.user_id IS NOT NULL
    ORDER BY w.id`;
}
