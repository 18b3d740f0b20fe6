import type { FastifyInstance } from 'fastify';
import {
  markReadSchema,
  notificationListSchema,
  pushEndpointSchema,
  pushSubscriptionSchema,
} from '../../shared/notificationSchemas';
import { rows, sql } from '../db/client';
import { currentUser } from '../http/context';
import { HttpError, parseOrThrow, unprocessable } from '../http/errors';
import { endpointProblem, loadVapidKeys, type PushOptions, PushOutbox, type VapidKeys } from './push';
import { startReminders } from './reminders';
import { listNotifications, markRead, saveSubscription } from './store';

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

  await app.register(
    async (api) => {
      api.get('/notifications', async (request) => {
        const user = currentUser(request);
        const query = parseOrThrow(notificationListSchema, request.query);
        return listNotifications(db, user.id, query.page ?? 1, query.per_page);
      });

      api.post('/notifications/read', async (request) => {
        const user = currentUser(request);
        const { ids } = parseOrThrow(markReadSchema, request.body);
        const unread = await markRead(db, user.id, ids);
        // The user's other tabs and devices learn the new count through their event streams.
        app.changes.committed([user.id]);
        return { unread };
      });

      api.get('/push/key', async () => ({ publicKey: (await vapid()).publicKey }));

      api.post('/push/subscriptions', async (request, reply) => {
        const user = currentUser(request);
        const input = parseOrThrow(pushSubscriptionSchema, request.body);
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

      api.delete('/push/subscriptions', async (request, reply) => {
        const user = currentUser(request);
        const { endpoint } = parseOrThrow(pushEndpointSchema, request.body);
        await rows(
          db,
          sql`DELETE FROM push_subscriptions WHERE user_id = ${user.id} AND endpoint = ${endpoint} RETURNING id`,
        );
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
