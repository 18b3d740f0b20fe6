import { z } from 'zod';

// Webhooks (ARCHITECTURE §4 'Webhooks', Standard Webhooks v1): the events, the retry schedule, the
// payload's size rule and the routes' request and answer shapes, the one contract of server and client.

/**
 * Every event a webhook may subscribe to (`time_entry.created`: a timer started or an entry added;
 * `member.updated`: a member's role changed, with `previous_role` beside the new one; `attachment.*`: a
 * file added to an item or deleted, its metadata, never its bytes).
 */
export const WEBHOOK_EVENTS = [
  'item.created',
  'item.updated',
  'item.completed',
  'item.deleted',
  'item.restored',
  'comment.created',
  'comment.updated',
  'comment.deleted',
  'member.added',
  'member.updated',
  'member.removed',
  'time_entry.created',
  'attachment.created',
  'attachment.deleted',
] as const;
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];
/** What a delivery may carry: a subscribed event, or the test a person sends by hand. */
export type WebhookEventType = WebhookEvent | 'webhook.test';

/** Webhooks one person may have at most. */
export const WEBHOOKS_PER_USER = 20;

/** Largest body a delivery carries, in bytes (UTF-8). */
export const WEBHOOK_PAYLOAD_MAX_BYTES = 20 * 1024;

/** How long deliveries carry the previous secret's signature too after a rotation. */
export const ROTATION_OVERLAP_MS = 24 * 60 * 60 * 1000;

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;

/** The waits before each retry after a failed attempt: 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 14 h, 20 h, 24 h. */
export const RETRY_SCHEDULE_MS = [
  5 * SECOND,
  5 * MINUTE,
  30 * MINUTE,
  2 * HOUR,
  5 * HOUR,
  10 * HOUR,
  14 * HOUR,
  20 * HOUR,
  24 * HOUR,
] as const;

/**
 * After the `attempts`th failed attempt: how long to wait before the next, or null when the delivery
 * has had its last try (it is then marked failed).
 */
export function nextRetryDelay(
  attempts: number,
  schedule: readonly number[] = RETRY_SCHEDULE_MS,
): number | null {
  if (!Number.isInteger(attempts) || attempts < 1) return schedule[0] ?? null;
  return schedule[attempts - 1] ?? null;
}

/** The soonest an open delivery log looks again, and the latest it waits while a delivery is pending. */
export const LOG_CHECK_MS = { soonest: 2_000, latest: 5 * 60_000 } as const;

/**
 * When an open delivery log asks the server again: a second after the soonest next try of a pending
 * delivery (2 s for one due now, 5 min at most), or never when nothing is pending: then only a change
 * or the tab showing again refreshes it, never a timer (issue 62).
 */
export function nextLogCheck(
  deliveries: readonly { status: string; next_attempt_at: string | null }[],
  now: number = Date.now(),
): number | false {
  let soonest = Number.POSITIVE_INFINITY;
  for (const d of deliveries) {
    if (d.status !== 'pending') continue;
    const at = d.next_attempt_at === null ? now : Date.parse(d.next_attempt_at);
    soonest = Math.min(soonest, Number.isNaN(at) ? now : at);
  }
  if (soonest === Number.POSITIVE_INFINITY) return false;
  return Math.min(LOG_CHECK_MS.latest, Math.max(LOG_CHECK_MS.soonest, soonest - now + 1_000));
}

/** Whether a webhook subscribed to `events` hears of `type` (`*` is every event). */
export function subscribes(events: readonly string[], type: WebhookEventType): boolean {
  if (type === 'webhook.test') return true;
  return events.includes('*') || events.includes(type);
}

/** What an answer's status means for a delivery: delivered, gone (the webhook is disabled) or failed. */
export function outcomeOf(status: number): 'delivered' | 'gone' | 'failed' {
  if (status >= 200 && status < 300) return 'delivered';
  if (status === 410) return 'gone';
  return 'failed';
}

export interface WebhookPayload {
  type: WebhookEventType;
  timestamp: string;
  actor: { id: number; name: string } | null;
  data: Record<string, unknown>;
}

const byteLength = (text: string) => new TextEncoder().encode(text).length;

/** Text fields that may be long, shortened first when a payload is too large. */
const LONG_FIELDS = ['description', 'body', 'title', 'note', 'name'] as const;

/**
 * The body of a delivery, under WEBHOOK_PAYLOAD_MAX_BYTES: the event as it is when it fits, else with
 * the long text fields of its data shortened (marked `truncated: true`), else the objects reduced to
 * their ids. A receiver that needs the whole of a long text reads it from the API.
 */
export function payloadBody(payload: WebhookPayload, maxBytes = WEBHOOK_PAYLOAD_MAX_BYTES): string {
  const whole = JSON.stringify(payload);
  if (byteLength(whole) <= maxBytes) return whole;
  const shorten = (limit: number): WebhookPayload => ({
    ...payload,
    actor: payload.actor ? { id: payload.actor.id, name: payload.actor.name.slice(0, limit) } : null,
    data: Object.fromEntries(
      Object.entries(payload.data).map(([key, value]) => {
        if (value === null || typeof value !== 'object' || Array.isArray(value)) return [key, value];
        const copy: Record<string, unknown> = { ...(value as Record<string, unknown>) };
        for (const field of LONG_FIELDS)
          if (typeof copy[field] === 'string' && (copy[field] as string).length > limit)
            copy[field] = (copy[field] as string).slice(0, limit);
        return [key, { ...copy, truncated: true }];
      }),
    ),
  });
  for (const limit of [2000, 500, 100]) {
    const text = JSON.stringify(shorten(limit));
    if (byteLength(text) <= maxBytes) return text;
  }
  const ids: WebhookPayload = {
    ...payload,
    actor: payload.actor ? { id: payload.actor.id, name: payload.actor.name.slice(0, 100) } : null,
    data: Object.fromEntries(
      Object.entries(payload.data).map(([key, value]) => [
        key,
        value !== null && typeof value === 'object' && 'id' in value
          ? { id: (value as { id: unknown }).id, truncated: true }
          : null,
      ]),
    ),
  };
  return JSON.stringify(ids);
}

// ---------------------------------------------------------------------------------------------
// The routes' shapes.

const eventName = z.enum([...WEBHOOK_EVENTS, '*'], {
  error: `Each event must be one of ${WEBHOOK_EVENTS.join(', ')} or *.`,
});

const urlText = z
  .string({ error: 'The URL is required.' })
  .trim()
  .min(1, 'The URL is required.')
  .max(2048, 'The URL is longer than 2048 characters.');

const eventList = z
  .array(eventName, { error: 'events must be a list of event names.' })
  .min(1, 'Choose at least one event.')
  .max(WEBHOOK_EVENTS.length + 1, 'Too many events.')
  .transform((events) => [...new Set(events)]);

/** POST /api/webhooks. */
export const webhookCreateSchema = z.strictObject({
  url: urlText,
  events: eventList,
  campaign_id: z.number({ error: 'campaign_id must be a number.' }).int().positive().nullable().optional(),
});
export type WebhookCreate = z.infer<typeof webhookCreateSchema>;

/** PATCH /api/webhooks/{id}. */
export const webhookPatchSchema = z.strictObject({
  url: urlText.optional(),
  events: eventList.optional(),
  enabled: z.boolean({ error: 'enabled must be true or false.' }).optional(),
});
export type WebhookPatch = z.infer<typeof webhookPatchSchema>;

/** A webhook as the API answers it: never its secret, but when it is created. */
export const webhookSchema = z.object({
  id: z.number().int(),
  url: z.string(),
  events: z.array(z.string()),
  campaign_id: z.number().int().nullable(),
  /** The campaign it listens inside, named while its owner sees it; null for every campaign (or one gone from view). */
  campaign: z.object({ id: z.number().int(), title: z.string() }).nullable(),
  enabled: z.boolean(),
  disabled_reason: z.string().nullable(),
  created_at: z.string(),
});
export type Webhook = z.infer<typeof webhookSchema>;

/** The answer of POST /api/webhooks: the webhook and its secret, shown this once. */
export const webhookCreatedSchema = webhookSchema.extend({ secret: z.string() });
export type WebhookCreated = z.infer<typeof webhookCreatedSchema>;

/** GET /api/webhooks. */
export const webhookListSchema = z.object({ webhooks: z.array(webhookSchema) });

/** POST /api/webhooks/{id}/rotate. */
export const webhookRotatedSchema = z.object({ secret: z.string() });

export const DELIVERY_STATUSES = ['pending', 'delivered', 'failed'] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

/** One delivery in a webhook's log. */
export const webhookDeliverySchema = z.object({
  id: z.number().int(),
  event_type: z.string(),
  webhook_message_id: z.string(),
  status: z.enum(DELIVERY_STATUSES),
  attempts: z.number().int(),
  last_status_code: z.number().int().nullable(),
  last_error: z.string().nullable(),
  next_attempt_at: z.string().nullable(),
  created_at: z.string(),
  duration_ms: z.number().int().nullable(),
  /**
   * The item the event is about, while the webhook's owner can still see it (a purged one has no
   * title left, so none); null for member and test events.
   */
  item: z.object({ id: z.number().int(), title: z.string() }).nullable(),
});
export type WebhookDelivery = z.infer<typeof webhookDeliverySchema>;

/** GET /api/webhooks/{id}/deliveries: the paginated shape, newest first. */
export const webhookDeliveryPageSchema = z.object({
  data: z.array(webhookDeliverySchema),
  current_page: z.number().int(),
  per_page: z.number().int(),
  total: z.number().int(),
  last_page: z.number().int(),
});

/** The query of GET /api/webhooks/{id}/deliveries. */
export const webhookDeliveryQuerySchema = z.object({
  page: z.coerce.number({ error: 'The page must be a number.' }).int().min(1).max(1_000_000).optional(),
});

/** Path parameters: a webhook id, and a delivery id. */
export const webhookIdParamsSchema = z.object({ id: z.coerce.number().int().positive().max(2_147_483_647) });
export const webhookDeliveryParamsSchema = webhookIdParamsSchema.extend({
  delivery_id: z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER),
});
