import type { FastifyInstance, FastifyRequest } from 'fastify';
import { paginated } from '../../shared/item';
import {
  WEBHOOKS_PER_USER,
  type Webhook,
  type WebhookDelivery,
  webhookCreatedSchema,
  webhookCreateSchema,
  webhookDeliveryPageSchema,
  webhookDeliveryParamsSchema,
  webhookDeliveryQuerySchema,
  webhookDeliverySchema,
  webhookIdParamsSchema,
  webhookListSchema,
  webhookPatchSchema,
  webhookRotatedSchema,
  webhookSchema,
} from '../../shared/webhooks';
import { type Executor, rows, sql } from '../db/client';
import { currentUser } from '../http/context';
import { HttpError, notFound, parseOrThrow, unprocessable } from '../http/errors';
import { iso, isoOrNull } from '../http/serialize';
import { endpointProblem } from '../notifications/push';
import { checkedInHandler, errorAnswer, invalidAnswer, noContent, routeDoc } from '../openapi/routeDoc';
import { enqueue } from './events';
import { WebhookOutbox } from './outbox';
import { newSecret } from './send';

/** Deliveries one page of the log lists. */
export const DELIVERIES_PER_PAGE = 20;

interface WebhookRow {
  id: number;
  url: string;
  events: string[] | string;
  campaign_id: number | null;
  enabled: boolean;
  disabled_reason: string | null;
  created_at: Date | string;
}

interface DeliveryRow {
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
}

// Never the secrets: they leave the server only in the create and rotate answers.
const WEBHOOK_COLUMNS = sql`id, url, events, campaign_id, enabled, disabled_reason, created_at`;
const DELIVERY_COLUMNS = sql`id, event_type, webhook_message_id, status, attempts, last_status_code, last_error,
  next_attempt_at, created_at, duration_ms`;

const eventsOf = (value: string[] | string) =>
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
  };
}

const eventList = (events: readonly string[]) => `{${events.join(',')}}`;

/**
 * Webhooks (ARCHITECTURE §4 'Webhooks'): the routes and the sender, which drains the outbox after
 * this process's commits and on its own timer. `stop` waits for the deliveries in flight.
 */
export async function registerWebhooks(app: FastifyInstance): Promise<{ stop(): Promise<void> }> {
  const db = app.database.db;
  const options = app.config.webhooks;
  const outbox = new WebhookOutbox(db, options, app.log, (result) =>
    app.metrics.webhookDeliveries.inc({ result }),
  );
  app.changes.onChange(() => outbox.poke());
  // Whatever an instance stopped or killed earlier left pending goes out now.
  app.addHook('onReady', async () => outbox.poke(true));

  /** The caller's webhook in the path, or the 404 a stranger gets for someone else's. */
  const ownWebhook = async (tx: Executor, request: FastifyRequest, lock = false): Promise<WebhookRow> => {
    const user = currentUser(request);
    const parsed = webhookIdParamsSchema.safeParse(request.params);
    if (!parsed.success) throw notFound('Webhook');
    const [row] = await rows<WebhookRow>(
      tx,
      sql`SELECT ${WEBHOOK_COLUMNS} FROM webhooks WHERE id = ${parsed.data.id} AND user_id = ${user.id}
          ${lock ? sql`FOR UPDATE` : sql``}`,
    );
    if (!row) throw notFound('Webhook');
    return row;
  };

  const urlProblem = (url: string) => {
    const problem = endpointProblem(url, options.allowLoopback);
    return problem ? unprocessable({ url: [problem.replace('endpoint', 'URL')] }) : null;
  };

  await app.register(
    async (api) => {
      api.post(
        '/webhooks',
        {
          schema: routeDoc({
            summary: 'Add a webhook',
            description:
              'Standard Webhooks v1 deliveries to an https URL for the events named (or `*`), optionally inside one campaign. The secret (`whsec_…`) is in this answer only; at most 20 per person.',
            tags: ['Webhooks'],
            body: checkedInHandler(webhookCreateSchema),
            answers: {
              201: { description: 'The webhook, with its secret this once.', schema: webhookCreatedSchema },
              422: invalidAnswer(),
            },
          }),
        },
        async (request, reply) => {
          const user = currentUser(request);
          const input = parseOrThrow(webhookCreateSchema, request.body);
          const problem = urlProblem(input.url);
          if (problem) throw problem;
          const secret = newSecret();
          const created = await db.transaction(async (tx) => {
            // The user's row is the lock two parallel creates queue on, so the cap holds on PostgreSQL.
            await tx.execute(sql`SELECT id FROM users WHERE id = ${user.id} FOR UPDATE`);
            const [count] = await rows<{ n: number }>(
              tx,
              sql`SELECT count(*)::int AS n FROM webhooks WHERE user_id = ${user.id}`,
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
                    AND i.deleted_at IS NULL AND (i.user_id = ${user.id}
                      OR EXISTS (SELECT 1 FROM campaign_members m WHERE m.campaign_id = i.id AND m.user_id = ${user.id}))`,
              );
              if (!campaign)
                throw unprocessable({ campaign_id: ['campaign_id must name a campaign you are in.'] });
            }
            const [row] = await rows<WebhookRow>(
              tx,
              sql`INSERT INTO webhooks (user_id, url, events, campaign_id, secret)
                VALUES (${user.id}, ${input.url}, ${eventList(input.events)}::text[], ${campaignId}, ${secret})
                RETURNING ${WEBHOOK_COLUMNS}`,
            );
            return row!;
          });
          return reply.status(201).send({ ...webhookJson(created), secret });
        },
      );

      api.get(
        '/webhooks',
        {
          schema: routeDoc({
            summary: 'List webhooks',
            description: 'Without their secrets.',
            tags: ['Webhooks'],
            answers: { 200: { description: 'The webhooks.', schema: webhookListSchema } },
          }),
        },
        async (request) => {
          const user = currentUser(request);
          const found = await rows<WebhookRow>(
            db,
            sql`SELECT ${WEBHOOK_COLUMNS} FROM webhooks WHERE user_id = ${user.id} ORDER BY id`,
          );
          return { webhooks: found.map(webhookJson) };
        },
      );

      api.patch(
        '/webhooks/:id',
        {
          schema: routeDoc({
            summary: 'Change a webhook',
            description: 'Its URL, events or whether it is enabled.',
            tags: ['Webhooks'],
            params: checkedInHandler(webhookIdParamsSchema),
            body: checkedInHandler(webhookPatchSchema),
            answers: {
              200: { description: 'The webhook.', schema: webhookSchema },
              404: errorAnswer('No such webhook of yours.'),
              422: invalidAnswer(),
            },
          }),
        },
        async (request) => {
          const patch = parseOrThrow(webhookPatchSchema, request.body);
          if (patch.url !== undefined) {
            const problem = urlProblem(patch.url);
            if (problem) throw problem;
          }
          return db.transaction(async (tx) => {
            const current = await ownWebhook(tx, request, true);
            const [row] = await rows<WebhookRow>(
              tx,
              sql`UPDATE webhooks SET
                  url = ${patch.url ?? current.url},
                  events = ${patch.events ? eventList(patch.events) : eventList(eventsOf(current.events))}::text[],
                  enabled = ${patch.enabled ?? current.enabled},
                  disabled_reason = CASE WHEN ${patch.enabled === true}::boolean THEN NULL ELSE disabled_reason END
                WHERE id = ${current.id} RETURNING ${WEBHOOK_COLUMNS}`,
            );
            if (patch.enabled === true) outbox.poke(true);
            return webhookJson(row!);
          });
        },
      );

      api.delete(
        '/webhooks/:id',
        {
          schema: routeDoc({
            summary: 'Delete a webhook',
            description: 'Its pending deliveries go with it.',
            tags: ['Webhooks'],
            params: checkedInHandler(webhookIdParamsSchema),
            answers: { 204: noContent('Deleted.'), 404: errorAnswer('No such webhook of yours.') },
          }),
        },
        async (request, reply) => {
          await db.transaction(async (tx) => {
            const current = await ownWebhook(tx, request, true);
            await tx.execute(sql`DELETE FROM webhooks WHERE id = ${current.id}`);
          });
          return reply.status(204).send();
        },
      );

      api.post(
        '/webhooks/:id/rotate',
        {
          schema: routeDoc({
            summary: 'Rotate a webhook’s secret',
            description: 'A new secret, in this answer only; for 24 hours deliveries carry both signatures.',
            tags: ['Webhooks'],
            params: checkedInHandler(webhookIdParamsSchema),
            answers: {
              200: { description: 'The new secret.', schema: webhookRotatedSchema },
              404: errorAnswer('No such webhook of yours.'),
            },
          }),
        },
        async (request) => {
          const secret = newSecret();
          await db.transaction(async (tx) => {
            const current = await ownWebhook(tx, request, true);
            // The old secret keeps signing beside the new one for a day (ROTATION_OVERLAP_MS).
            await tx.execute(
              sql`UPDATE webhooks SET previous_secret = secret, secret = ${secret}, rotated_at = now()
                WHERE id = ${current.id}`,
            );
          });
          return { secret };
        },
      );

      api.get(
        '/webhooks/:id/deliveries',
        {
          schema: routeDoc({
            summary: 'A webhook’s delivery log',
            description: 'Newest first, paginated.',
            tags: ['Webhooks'],
            params: checkedInHandler(webhookIdParamsSchema),
            querystring: checkedInHandler(webhookDeliveryQuerySchema),
            answers: {
              200: { description: 'One page of deliveries.', schema: webhookDeliveryPageSchema },
              404: errorAnswer('No such webhook of yours.'),
            },
          }),
        },
        async (request) => {
          const hook = await ownWebhook(db, request);
          const { page = 1 } = parseOrThrow(webhookDeliveryQuerySchema, request.query);
          const [count] = await rows<{ n: number }>(
            db,
            sql`SELECT count(*)::int AS n FROM webhook_deliveries WHERE webhook_id = ${hook.id}`,
          );
          const found = await rows<DeliveryRow>(
            db,
            sql`SELECT ${DELIVERY_COLUMNS} FROM webhook_deliveries WHERE webhook_id = ${hook.id}
              ORDER BY id DESC LIMIT ${DELIVERIES_PER_PAGE} OFFSET ${(page - 1) * DELIVERIES_PER_PAGE}`,
          );
          return paginated(found.map(deliveryJson), page, DELIVERIES_PER_PAGE, count?.n ?? 0);
        },
      );

      api.post(
        '/webhooks/:id/deliveries/:delivery_id/retry',
        {
          schema: routeDoc({
            summary: 'Send a delivery again',
            description: 'Queued at once.',
            tags: ['Webhooks'],
            params: checkedInHandler(webhookDeliveryParamsSchema),
            answers: { 202: noContent('Queued.'), 404: errorAnswer('No such delivery of yours.') },
          }),
        },
        async (request, reply) => {
          const hook = await ownWebhook(db, request);
          const parsed = webhookDeliveryParamsSchema.safeParse(request.params);
          if (!parsed.success) throw notFound('Delivery');
          // A delivery being sent right now keeps its claim; the retry follows once it is done.
          const [row] = await rows<DeliveryRow>(
            db,
            sql`UPDATE webhook_deliveries SET status = 'pending', next_attempt_at = now()
              WHERE id = ${parsed.data.delivery_id} AND webhook_id = ${hook.id}
              RETURNING ${DELIVERY_COLUMNS}`,
          );
          if (!row) throw notFound('Delivery');
          outbox.poke(true);
          return reply.status(202).send(deliveryJson(row));
        },
      );

      api.post(
        '/webhooks/:id/test',
        {
          schema: routeDoc({
            summary: 'Send a test event',
            description: 'Sends a `webhook.test` event at once and answers with its delivery.',
            tags: ['Webhooks'],
            params: checkedInHandler(webhookIdParamsSchema),
            answers: {
              200: { description: 'The delivery.', schema: webhookDeliverySchema },
              404: errorAnswer('No such webhook of yours.'),
            },
          }),
        },
        async (request) => {
          const user = currentUser(request);
          const hook = await ownWebhook(db, request);
          const at = new Date();
          // Written already claimed by this request, so no drain sends it beside us.
          const id = await enqueue(
            db,
            hook.id,
            'webhook.test',
            { id: user.id, name: user.name },
            at,
            { webhook: { id: hook.id, url: hook.url } },
            null,
            new Date(at.getTime() + options.leaseMs),
          );
          await outbox.sendNow(id);
          const [row] = await rows<DeliveryRow>(
            db,
            sql`SELECT ${DELIVERY_COLUMNS} FROM webhook_deliveries WHERE id = ${id}`,
          );
          return deliveryJson(row!);
        },
      );
    },
    { prefix: '/api' },
  );

  return { stop: () => outbox.stop() };
}
