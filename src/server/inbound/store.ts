import type { UserRow } from '../auth/users';
import { type Executor, rows, sql } from '../db/client';

/** A campaign's secret inbound token, or null when it has none yet. */
export async function inboundTokenOf(db: Executor, campaignId: number): Promise<string | null> {
  const [row] = await rows<{ token: string }>(
    db,
    sql`SELECT token FROM campaign_inbound WHERE campaign_id = ${campaignId}`,
  );
  return row?.token ?? null;
}

/**
 * The campaign's token, made from `fresh` when it has none: of two first reads at once, the first
 * insert wins and both answer with its token.
 */
export async function ensureInboundToken(db: Executor, campaignId: number, fresh: string): Promise<string> {
  await db.execute(
    sql`INSERT INTO campaign_inbound (campaign_id, token) VALUES (${campaignId}, ${fresh})
        ON CONFLICT (campaign_id) DO NOTHING`,
  );
  return (await inboundTokenOf(db, campaignId)) ?? fresh;
}

/** Replaces the campaign's token with `fresh` (the old address then names nothing). */
export async function replaceInboundToken(db: Executor, campaignId: number, fresh: string): Promise<void> {
  await db.execute(
    sql`INSERT INTO campaign_inbound (campaign_id, token) VALUES (${campaignId}, ${fresh})
        ON CONFLICT (campaign_id) DO UPDATE SET token = EXCLUDED.token, rotated_at = now()`,
  );
}

/** The live campaign a token names, or null (unknown, rotated away, or the campaign deleted). */
export async function campaignByToken(db: Executor, token: string): Promise<number | null> {
  const [row] = await rows<{ id: number }>(
    db,
    sql`SELECT i.id FROM campaign_inbound c JOIN items i ON i.id = c.campaign_id
        WHERE c.token = ${token} AND i.type = 'campaign' AND i.deleted_at IS NULL`,
  );
  return row?.id ?? null;
}

/** The person whose verified address this is (case-blind, as the unique index compares), or null. */
export async function userByVerifiedEmail(db: Executor, email: string): Promise<UserRow | null> {
  const [row] = await rows<UserRow>(
    db,
    sql`SELECT u.id, u.name, u.phone, u.created_at, u.updated_at
        FROM user_emails e JOIN users u ON u.id = e.user_id
        WHERE lower(e.email) = lower(${email}) AND e.verified_at IS NOT NULL`,
  );
  return row ?? null;
}

/** What a message already made for this address, or null (a redelivery makes nothing more). */
export async function madeBefore(
  db: Executor,
  messageId: string,
  to: string,
): Promise<{ outcome: 'task' | 'comment'; item_id: number | null } | null> {
  const [row] = await rows<{ outcome: 'task' | 'comment'; item_id: number | null }>(
    db,
    sql`SELECT outcome, item_id FROM inbound_emails
        WHERE message_id = ${messageId} AND to_address = ${to} AND outcome <> 'refused'`,
  );
  return row ?? null;
}

/** What came of one message for one address, as inbound_emails keeps it. */
export interface InboundRecord {
  /** Null for a message that could not be read. */
  messageId: string | null;
  from: string | null;
  to: string;
  outcome: 'task' | 'comment' | 'refused';
  reason: string | null;
  itemId: number | null;
}

/**
 * Records an outcome. A task or comment is claimed before it is made (in its write's transaction):
 * false when the same message made one for this address already, whoever got there first.
 */
export async function recordInbound(db: Executor, record: InboundRecord): Promise<boolean> {
  const inserted = await rows<{ id: string }>(
    db,
    sql`INSERT INTO inbound_emails (message_id, from_address, to_address, outcome, reason, item_id)
        VALUES (${record.messageId}, ${record.from}, ${record.to}, ${record.outcome}, ${record.reason},
          ${record.itemId})
        ON CONFLICT (message_id, to_address) WHERE outcome <> 'refused' DO NOTHING RETURNING id`,
  );
  return inserted.length > 0;
}

/** Sets the item a claimed message made (recordInbound ran first, in the same transaction). */
export async function setInboundItem(
  db: Executor,
  messageId: string,
  to: string,
  itemId: number,
): Promise<void> {
  await db.execute(
    sql`UPDATE inbound_emails SET item_id = ${itemId}
        WHERE message_id = ${messageId} AND to_address = ${to} AND outcome <> 'refused'`,
  );
}

/**
 * Marks this transaction's feed entries as made by mail (activities.via_token's default reads the
 * setting, as a personal access token's writes do, migration 0034).
 */
export async function markViaEmail(tx: Executor): Promise<void> {
  await tx.execute(sql`SELECT set_config('outpost.via_token', 'email', true)`);
}
