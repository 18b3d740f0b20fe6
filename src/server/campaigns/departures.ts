import type { Departure } from '../../shared/membership';
import { type Executor, rows, sql } from '../db/client';

/**
 * The caller's departure from campaign `campaignId`, if they were removed from it or left it and were
 * not added back (Q22): who removed them (the owner; only the owner removes) and when. Null for anyone
 * else, so a stranger learns nothing an unknown id would not tell.
 */
export async function departureOf(
  tx: Executor,
  userId: number,
  campaignId: number,
): Promise<Departure | null> {
  const [row] = await rows<{ barred: boolean; departed_at: Date | string; owner: string | null }>(
    tx,
    sql`SELECT d.barred, d.departed_at, u.name AS owner FROM campaign_departures d
        JOIN items c ON c.id = d.campaign_id LEFT JOIN users u ON u.id = c.user_id
        WHERE d.user_id = ${userId} AND d.campaign_id = ${campaignId}`,
  );
  if (!row) return null;
  return {
    campaign_id: campaignId,
    removed: row.barred,
    by: row.barred ? row.owner : null,
    departed_at: new Date(row.departed_at).toISOString(),
  };
}
