import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  notificationPageSchema,
  pushKeyAnswerSchema,
  pushSubscribedSchema,
  unreadAnswerSchema,
} from '../../shared/apiSchemas';
import {
  markReadSchema,
  notificationListSchema,
  pushEndpointSchema,
  pushSubscriptionSchema,
} from '../../shared/notificationSchemas';
import { currentUser } from '../http/context';
import { HttpError, unprocessable } from '../http/errors';
import { endpointProblem } from '../http/outboundUrl';
import { errorAnswer, invalidAnswer, noContent, routeDoc } from '../openapi/routeDoc';
import { loadVapidKeys, type PushOptions, PushOutbox, type VapidKeys } from './push';
import { startReminders } from './reminders';
import { deleteSubscription, listNotifications, markRead, saveSubscription } from './store';

/**
 * Notifications, Web Push and reminders: the routes, the push outbox drained after every commit
 * (and on each reminder tick), and the reminder loop. `stop` ends the loop and waits for pushes.
 */
export async function registerNotifications(app: FastifyInstance): Promise<{ stop(): Promise<void> }> {
  const db = app.database.db;
  const config = app.config.push;
  let keys: Promise<VapidKeys> | null = null;
  const vapid = () => {
    keys ??= loadVapidKeys(db, config).catch((error) => {
      keys = null;
      throw error;
    });
    return keys;
  };
  const pushOptions = async (): Promise<PushOptions> => ({
    keys: await vapid(),
    subject: config.subject,
    allowLoopback: config.allowLoopback,
    timeoutMs: config.timeoutMs,
    maxConcurrent: config.maxConcurrent,
    maxPerEndpoint: config.maxPerEndpoint,
    retryBaseMs: config.retryBaseMs,
  });
  const outbox = new PushOutbox(db, pushOptions, app.log);
  // Every commit, here or (through LISTEN) on another instance, may have left entries to push; the
  // claim in the outbox makes sure each goes out from one instance only.
  app.changes.onChange(() => outbox.poke());
  // Every so many ticks the outbox is drained whatever this process wrote (a safety net).
  let ticks = 0;
  const SAFETY_EVERY = 30;
  const reminders = startReminders({
    db,
    log: app.log,
    clock: app.clock,
    tickMs: app.config.reminderTickMs,
    onSent: (userIds) => {
      if (userIds.length > 0) app.changes.committed(userIds);
      ticks += 1;
      outbox.poke(ticks % SAFETY_EVERY === 1);
    },
  });

  const TAGS = ['Notifications'];
  await app.register(
    async (plain) => {
      const api = plain.withTypeProvider<ZodTypeProvider>();
      const listDoc = routeDoc({
        summary: 'List notifications',
        description: 'Newest first, with the unread count.',
        tags: TAGS,
        querystring: notificationListSchema,
        answers: {
          200: { description: 'One page of notifications.', schema: notificationPageSchema },
          422: invalidAnswer(),
        },
      });
      api.get('/notifications', { schema: listDoc }, async (request) => {
        const user = currentUser(request);
        const query = request.query;
        return listNotifications(db, user.id, query.page ?? 1, query.per_page);
      });

      const readDoc = routeDoc({
        summary: 'Mark notifications read',
        description: 'The given `ids`, or every entry without `ids`.',
        tags: TAGS,
        body: markReadSchema,
        answers: {
          200: { description: 'The unread count now.', schema: unreadAnswerSchema },
          422: invalidAnswer(),
        },
      });
      api.post('/notifications/read', { schema: readDoc }, async (request) => {
        const user = currentUser(request);
        const { ids } = request.body;
        const unread = await markRead(db, user.id, ids);
        // The user's other tabs and devices learn the new count through their event streams.
        app.changes.committed([user.id]);
        return { unread };
      });

      const keyDoc = routeDoc({
        summary: 'Web Push key',
        description: 'The VAPID public key to subscribe with (`applicationServerKey`).',
        tags: TAGS,
        answers: { 200: { description: 'The key.', schema: pushKeyAnswerSchema } },
      });
      api.get('/push/key', { schema: keyDoc }, async () => ({ publicKey: (await vapid()).publicKey }));

      const subscribeDoc = routeDoc({
        summary: 'Subscribe to Web Push',
        description:
          'The body is what `PushSubscription.toJSON()` gives. Every notification also goes there.',
        tags: TAGS,
        body: pushSubscriptionSchema,
        answers: {
          201: { description: 'Subscribed.', schema: pushSubscribedSchema },
          409: errorAnswer('This browser’s subscription belongs to another account.'),
          422: invalidAnswer('Bad input, or an endpoint that is not a public https push service.'),
        },
      });
      api.post('/push/subscriptions', { schema: subscribeDoc }, async (request, reply) => {
        const user = currentUser(request);
        const input = request.body;
        const problem = endpointProblem(input.endpoint, config.allowLoopback);
        if (problem) throw unprocessable({ endpoint: [problem] });
        if (Buffer.from(input.keys.p256dh, 'base64url').length !== 65)
          throw unprocessable({ 'keys.p256dh': ['keys.p256dh must be a P-256 public key (65 bytes).'] });
        if (Buffer.from(input.keys.auth, 'base64url').length !== 16)
          throw unprocessable({ 'keys.auth': ['keys.auth must be 16 bytes.'] });
        const saved = await db.transaction((tx) => saveSubscription(tx, user.id, input));
        if (saved === 'held') {
          throw new HttpError(
            409,
            'This browser’s push subscription belongs to another account. Turn notifications off and on again to get a new one.',
          );
        }
        return reply.status(201).send({ endpoint: input.endpoint });
      });

      const unsubscribeDoc = routeDoc({
        summary: 'Unsubscribe from Web Push',
        tags: TAGS,
        body: pushEndpointSchema,
        answers: { 204: noContent('Unsubscribed (also when it was not subscribed).'), 422: invalidAnswer() },
      });
      api.delete('/push/subscriptions', { schema: unsubscribeDoc }, async (request, reply) => {
        const user = currentUser(request);
        const { endpoint } = request.body;
        await deleteSubscription(db, user, endpoint);
        return reply.status(204).send();
      });
    },
    { prefix: '/api' },
  );

  return {
    async stop() {
      await reminders.stop();
      await outbox.stop();
    },
  };
}
