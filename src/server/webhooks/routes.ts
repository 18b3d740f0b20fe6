import type { FastifyInstance, FastifyRequest } from 'fastify';
import { paginated } from '../../shared/item';
import {
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
import type { Executor } from '../db/client';
import { currentUser } from '../http/context';
import { HttpError, notFound, parseOrThrow, unprocessable } from '../http/errors';
import { endpointProblem } from '../http/outboundUrl';
import { checkedInHandler, errorAnswer, invalidAnswer, noContent, routeDoc } from '../openapi/routeDoc';
import { enqueue } from './events';
import { WebhookOutbox } from './outbox';
import { newSecret } from './send';
import {
  DELIVERIES_PER_PAGE,
  deleteWebhook,
  deliveryById,
  deliveryJson,
  deliveryPage,
  insertWebhook,
  listWebhooks,
  lockWebhook,
  rotateWebhookSecret,
  updateWebhook,
  type WebhookRow,
  webhookById,
  webhookJson,
} from './store';

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
    if (lock && !(await lockWebhook(tx, user.id, parsed.data.id))) throw notFound('Webhook');
    const row = await webhookById(tx, user.id, parsed.data.id);
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
          const created = await db.transaction((tx) => insertWebhook(tx, user.id, input, secret));
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
          const found = await listWebhooks(db, user.id);
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
            await updateWebhook(tx, current, patch);
            if (patch.enabled === true) outbox.poke(true);
            const row = await webhookById(tx, currentUser(request).id, current.id);
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
            await deleteWebhook(tx, current.id);
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
            await rotateWebhookSecret(tx, current.id, secret);
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
          const { found, total } = await deliveryPage(db, currentUser(request).id, hook.id, page);
          return paginated(found.map(deliveryJson), page, DELIVERIES_PER_PAGE, total);
        },
      );

      api.post(
        '/webhooks/:id/deliveries/:delivery_id/retry',
        {
          schema: routeDoc({
            summary: 'Send a delivery again',
            description:
              'Sends it at once, outside the automatic schedule, and answers with the delivery: if the receiver fails again, the delivery keeps its status, attempt count and next automatic try.',
            tags: ['Webhooks'],
            params: checkedInHandler(webhookDeliveryParamsSchema),
            answers: {
              202: { description: 'The delivery after the send.', schema: webhookDeliverySchema },
              404: errorAnswer('No such delivery of yours.'),
              409: errorAnswer('The webhook is off.'),
            },
          }),
        },
        async (request, reply) => {
          const hook = await ownWebhook(db, request);
          const parsed = webhookDeliveryParamsSchema.safeParse(request.params);
          if (!parsed.success) throw notFound('Delivery');
          const id = parsed.data.delivery_id;
          const known = await deliveryById(db, currentUser(request).id, hook.id, id);
          if (!known) throw notFound('Delivery');
          if (!hook.enabled)
            throw new HttpError(409, 'This webhook is off. Turn it on to send its deliveries again.');
          // Sent now, outside the schedule: whatever it answers, the automatic retries keep their
          // times and count (a delivery being sent right now is that send).
          await outbox.sendManually(id);
          const row = await deliveryById(db, currentUser(request).id, hook.id, id);
          return reply.status(202).send(deliveryJson(row ?? known));
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
          const row = await deliveryById(db, user.id, hook.id, id);
          return deliveryJson(row!);
        },
      );
    },
    { prefix: '/api' },
  );

  return { stop: () => outbox.stop() };
}
