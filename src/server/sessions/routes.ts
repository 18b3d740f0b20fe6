import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { DeviceSession } from '../../shared/devices';
import { deviceSessionsSchema } from '../../shared/devices';
import { SIGN_OUT_REASONS, type SignOutReason } from '../../shared/serverEvents';
import { currentUser } from '../http/context';
import { notFound } from '../http/errors';
import { iso } from '../http/serialize';
import { endSession } from '../http/session';
import { errorAnswer, noContent, routeDoc } from '../openapi/routeDoc';
import { deviceSessions, endDeviceSession } from './store';

// auth/routes.ts ends every session on a sign-out everywhere through here.
export { endAllSessions } from './store';

/** A device's public id as the client may send it: anything else is an id nobody has. */
const PUBLIC_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * E7: every instance forgets the ended sessions and closes their event streams with `reason` as the
 * last event, this one at once and the others as soon as the change bus tells them (a failure to
 * tell them is logged: they still notice within SESSION_CACHE_MS).
 */
export async function sessionsEnded(
  app: FastifyInstance,
  ids: readonly string[],
  reason: SignOutReason,
): Promise<void> {
  try {
    await app.changes.sessionsEnded(ids, reason);
  } catch (error) {
    app.log.warn({ err: error }, 'the other instances could not be told of ended sessions');
  }
}

/** The devices the person is signed in on, and signing one of them out (ARCHITECTURE §4). */
export async function sessionRoutes(app: FastifyInstance): Promise<void> {
  const db = app.database.db;

  app.get(
    '/sessions',
    {
      schema: routeDoc({
        summary: 'The signed-in devices',
        description:
          'Where the person is signed in, this device first: browser, how they signed in, last use.',
        tags: ['Devices'],
        answers: { 200: { description: 'The devices.', schema: deviceSessionsSchema } },
      }),
    },
    async (request) => {
      const user = currentUser(request);
      const current = request.session?.id ?? '';
      const found = await deviceSessions(db, user, current, app.config.sessionIdleMinutes);
      const sessions: DeviceSession[] = found.map((s) => ({
        id: s.id,
        created_at: iso(s.created_at),
        last_seen_at: iso(s.last_seen_at),
        user_agent: s.user_agent,
        via: s.via,
        current: s.current,
      }));
      return { sessions };
    },
  );

  // Another person's device, a made-up id and an ended one all answer the same 404.
  app.delete<{ Params: { id: string } }>(
    '/sessions/:id',
    {
      schema: routeDoc({
        summary: 'Sign a device out',
        description:
          "Its session ends: its event streams, on every instance, get `signed_out` with `{reason: 'device'}` and close, and it is a guest on its next request.",
        tags: ['Devices'],
        params: z.object({ id: z.uuid().describe('The device’s public id.') }),
        answers: { 204: noContent('Signed out.'), 404: errorAnswer('No such device of yours.') },
      }),
    },
    async (request, reply) => {
      const user = currentUser(request);
      const { id } = request.params;
      if (!PUBLIC_ID.test(id)) throw notFound('Session');
      const ended = await endDeviceSession(db, user, id);
      if (ended.length === 0) throw notFound('Session');
      // This very device: its cookies go too, as a sign-out does.
      if (request.session && ended.some((r) => r.id === request.session?.id)) {
        await endSession(db, request, reply, request.session.id, app.sessionCache, {
          reason: SIGN_OUT_REASONS.device,
        });
      }
      await sessionsEnded(
        app,
        ended.map((r) => r.id),
        SIGN_OUT_REASONS.device,
      );
      return reply.status(204).send();
    },
  );
}
