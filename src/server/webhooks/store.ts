import type { SQL } from 'drizzle-orm';
import { WEBHOOKS_PER_USER, type Webhook, type WebhookDelivery } from '../../shared/webhooks';
import { type Executor, rows, sql } from '../db/client';
import { HttpError, unprocessable } from '../http/errors';
import { iso, isoOrNull } from '../http/serialize';
import { visibleTo } from '../items/queries';

/** Deliveries one page of the log lists. */
export const DELIVERIES_PER_PAGE = 20;

export interface WebhookRow {
  id: number;
  url: string;
  events: string[] | string;
  campaign_id: number | null;
  enabled: boolean;
  disabled_reason: string | null;
  created_at: Date | string;
  /** The campaign's title while the owner sees it (hooksOf), else null. */
  campaign_title?: string | null;
}

export interface DeliveryRow {
  id: number | string;
  event_type: string;
  webhook_message_id: string;
  status: WebhookDelivery['status'];
  attempts: number;
  last_status_code: number | null;
  last_error: string | null;
  next_attempt_at: Date | string | null;
  created_at: Date | string;
  duration_ms: number | null;
  item_id: number | null;
  /** The item's title while the webhook's owner sees it (deliveriesOf), else null. */
  item_title?: string | null;
}

/** A webhook's change: each field left out keeps its value. */
export interface WebhookChange {
  url?: string;
  events?: readonly string[];
  enabled?: boolean;
}

// Never the secrets: they leave the server only in the create and rotate answers.
const DELIVERY_COLUMNS = sql`d.id, d.event_type, d.webhook_message_id, d.status, d.attempts, d.last_status_code,
  d.last_error, d.next_attempt_at, d.created_at, d.duration_ms, d.item_id`;

/**
 * The caller's webhooks matching `where` (on alias w), each with its campaign's title while the
 * caller sees that campaign (§5's rule, items/queries.ts visibleTo): a campaign they left is not named.
 */
function hooksOf(db: Executor, userId: number, where: SQL): Promise<WebhookRow[]> {
  return rows<WebhookRow>(
    db,
    sql`SELECT w.id, w.url, w.events, w.campaign_id, w.enabled, w.disabled_reason, w.created_at,
          i.title AS campaign_title
        FROM webhooks w
        LEFT JOIN items i ON i.id = w.campaign_id AND i.deleted_at IS NULL AND ${visibleTo(userId)}
        WHERE w.user_id = ${userId} AND ${where} ORDER BY w.id`,
  );
}

/**
 * Deliveries of webhook `hookId` matching `where` (alias d), each with its item's title while
 * `userId` (the webhook's owner) sees the item; a purged item has no title left to give.
 */
function deliveriesOf(db: Executor, userId: number, hookId: number, where: SQL, tail: SQL = sql``) {
  return rows<DeliveryRow>(
    db,
    sql`SELECT ${DELIVERY_COLUMNS}, i.title AS item_title
        FROM webhook_deliveries d
        LEFT JOIN items i ON i.id = d.item_id AND i.title <> '' AND ${visibleTo(userId)}
        WHERE d.webhook_id = ${hookId} AND ${where} ${tail}`,
  );
}

/** A webhook's events, from a text[] whether the driver parsed it or not. */
export const eventsOf = (value: string[] | string) =>
  Array.isArray(value)
    ? value
    : value
        .replace(/^\{|\}$/g, '')
        .split(',')
        .filter(Boolean);

/** The API's webhook (no secret). */
export function webhookJson(r: WebhookRow): Webhook {
  return {
    id: r.id,
    url: r.url,
    events: eventsOf(r.events),
    campaign_id: r.campaign_id,
    campaign:
      r.campaign_id !== null && typeof r.campaign_title === 'string'
        ? { id: r.campaign_id, title: r.campaign_title }
        : null,
    enabled: r.enabled,
    disabled_reason: r.disabled_reason,
    created_at: iso(r.created_at),
  };
}

/** The API's delivery; the next try only while one is coming. */
export function deliveryJson(r: DeliveryRow): WebhookDelivery {
  return {
    id: Number(r.id),
    event_type: r.event_type,
    webhook_message_id: r.webhook_message_id,
    status: r.status,
    attempts: r.attempts,
    last_status_code: r.last_status_code,
    last_error: r.last_error,
    next_attempt_at: r.status === 'pending' ? isoOrNull(r.next_attempt_at) : null,
    created_at: iso(r.created_at),
    duration_ms: r.duration_ms,
    item:
      r.item_id !== null && typeof r.item_title === 'string' ? { id: r.item_id, title: r.item_title } : null,
  };
}

const eventList = (events: readonly string[]) => `{${events.join(',')}}`;

/** All of the user's webhooks, oldest first. */
export const listWebhooks = (db: Executor, userId: number) => hooksOf(db, userId, sql`true`);

/** The user's webhook `id`, or undefined for someone else's or none. */
export async function webhookById(db: Executor, userId: number, id: number): Promise<WebhookRow | undefined> {
  const [row] = await hooksOf(db, userId, sql`w.id = ${id}`);
  return row;
}

/** Locks the user's webhook `id` for this transaction; false when it is not theirs. */
export async function lockWebhook(tx: Executor, userId: number, id: number): Promise<boolean> {
  const [locked] = await rows<{ id: number }>(
    tx,
    sql`SELECT id FROM webhooks WHERE id = ${id} AND user_id = ${userId} FOR UPDATE`,
  );
  return Boolean(locked);
}

/**
 * A new webhook of the user's, inside `tx`: the user's row is locked for the cap of
 * WEBHOOKS_PER_USER, and a campaign named must be one the user is in.
 */
export async function insertWebhook(
  tx: Executor,
  userId: number,
  input: { url: string; events: readonly string[]; campaign_id?: number | null },
  secret: string,
): Promise<WebhookRow> {
  // The user's row is the lock two parallel creates queue on, so the cap holds on PostgreSQL.
  await tx.execute(sql`SELECT id FROM users WHERE id = ${userId} FOR UPDATE`);
  const [count] = await rows<{ n: number }>(
    tx,
    sql`SELECT count(*)::int AS n FROM webhooks WHERE user_id = ${userId}`,
  );
  if ((count?.n ?? 0) >= WEBHOOKS_PER_USER)
    throw new HttpError(422, `You can have at most ${WEBHOOKS_PER_USER} webhooks.`, {
      errors: { url: [`You can have at most ${WEBHOOKS_PER_USER} webhooks.`] },
    });
  const campaignId = input.campaign_id ?? null;
  if (campaignId !== null) {
    const [campaign] = await rows<{ id: number }>(
      tx,
      sql`SELECT i.id FROM items i WHERE i.id = ${campaignId} AND i.type = 'campaign'
                    AND i.deleted_at IS NULL AND (i.user_id = ${userId}
                      OR EXISTS (SELECT 1 FROM campaign_members m WHERE m.campaign_id = i.id AND m.user_id = ${userId}))`,
    );
    if (!campaign) throw unprocessable({ campaign_id: ['campaign_id must name a campaign you are in.'] });
  }
  const [row] = await rows<{ id: number }>(
    tx,
    sql`INSERT INTO webhooks (user_id, url, events, campaign_id, secret)
                VALUES (${userId}, ${input.url}, ${eventList(input.events)}::text[], ${campaignId}, ${secret})
                RETURNING id`,
  );
  const [made] = await hooksOf(tx, userId, sql`w.id = ${row!.id}`);
  return made!;
}

/** Writes `patch` over webhook `current`; turning it on clears why it was off. */
export async function updateWebhook(tx: Executor, current: WebhookRow, patch: WebhookChange): Promise<void> {
  await tx.execute(
    sql`UPDATE webhooks SET
                  url = ${patch.url ?? current.url},
                  events = ${patch.events ? eventList(patch.events) : eventList(eventsOf(current.events))}::text[],
                  enabled = ${patch.enabled ?? current.enabled},
                  disabled_reason = CASE WHEN ${patch.enabled === true}::boolean THEN NULL ELSE disabled_reason END
                WHERE id = ${current.id}`,
  );
}

/** Deletes webhook `id` (its deliveries go with it). */
export async function deleteWebhook(tx: Executor, id: number): Promise<void> {
  await tx.execute(sql`DELETE FROM webhooks WHERE id = ${id}`);
}

/** Gives webhook `id` a new secret, keeping the old one beside it (ROTATION_OVERLAP_MS). */
export async function rotateWebhookSecret(tx: Executor, id: number, secret: string): Promise<void> {
  await tx.execute(
    sql`UPDATE webhooks SET previous_secret = secret, secret = ${secret}, rotated_at = now()
                WHERE id = ${id}`,
  );
}

/** One page of webhook `hookId`'s deliveries, newest first, and how many it has in all. */
export async function deliveryPage(
  db: Executor,
  userId: number,
  hookId: number,
  page: number,
): Promise<{ found: DeliveryRow[]; total: number }> {
  const [count] = await rows<{ n: number }>(
    db,
    sql`SELECT count(*)::int AS n FROM webhook_deliveries WHERE webhook_id = ${hookId}`,
  );
  const found = await deliveriesOf(
    db,
    userId,
    hookId,
    sql`true`,
    sql`ORDER BY d.id DESC LIMIT ${DELIVERIES_PER_PAGE} OFFSET ${(page - 1) * DELIVERIES_PER_PAGE}`,
  );
  return { found, total: count?.n ?? 0 };
}

/** Delivery `id` of webhook `hookId`, or undefined. */
export async function deliveryById(
  db: Executor,
  userId: number,
  hookId: number,
  id: number,
): Promise<DeliveryRow | undefined> {
  const [row] = await deliveriesOf(db, userId, hookId, sql`d.id = ${id}`);
  return row;
}
