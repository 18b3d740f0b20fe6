import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { DeviceSession, SignInMethod } from '../../shared/devices';
import { deviceSessionsSchema } from '../../shared/devices';
import { type Executor, rows, sql } from '../db/client';
import { currentUser } from '../http/context';
import { notFound } from '../http/errors';
import { iso } from '../http/serialize';
import { endSession, type SessionCache } from '../http/session';
import { errorAnswer, noContent, routeDoc } from '../openapi/routeDoc';

/** A device's public id as the client may send it: anything else is an id nobody has. */
const PUBLIC_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Forgets the ended sessions on this instance at once and closes their event streams. */
export function sessionsEnded(cache: SessionCache, ids: readonly string[]): void {
  for (const id of ids) cache.ended(id);
}

/**
 * Ends every session of `userId` (POST /api/logout {everywhere: true}); answers their keys so the
 * caller can tell the cache. Other instances notice within SESSION_CACHE_MS.
 */
export async function endAllSessions(db: Executor, userId: number): Promise<string[]> {
  const ended = await rows<{ id: string }>(
    db,
    sql`DELETE FROM sessions WHERE user_id = ${userId} RETURNING id`,
  );
  return ended.map((r) => r.id);
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
      const found = await rows<{
        id: string;
        created_at: Date;
        last_seen_at: Date;
        user_agent: string | null;
        via: SignInMethod;
        current: boolean;
      }>(
        db,
        sql`SELECT public_id AS id, created_at, last_seen_at, user_agent, via, id = ${current} AS current
          FROM sessions
          WHERE user_id = ${user.id} AND expires_at > now()
            AND last_seen_at > now() - make_interval(mins => ${app.config.sessionIdleMinutes})
          ORDER BY id = ${current} DESC, last_seen_at DESC
          LIMIT 200`,
      );
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
          'Its session ends; it is a guest on its next request (within SESSION_CACHE_MS on another instance).',
        tags: ['Devices'],
        params: z.object({ id: z.uuid().describe('The device’s public id.') }),
        answers: { 204: noContent('Signed out.'), 404: errorAnswer('No such device of yours.') },
      }),
    },
    async (request, reply) => {
      const user = currentUser(request);
      const { id } = request.params;
      if (!PUBLIC_ID.test(id)) throw notFound('Session');
      const ended = await rows<{ id: string }>(
        db,
        sql`DELETE FROM sessions WHERE public_id = ${id.toLowerCase()} AND user_id = ${user.id} RETURNING id`,
      );
      if (ended.length === 0) throw notFound('Session');
      // This very device: its cookies go too, as a sign-out does.
      if (request.session && ended.some((r) => r.id === request.session?.id)) {
        await endSession(db, request, reply, request.session.id, app.sessionCache);
      }
      sessionsEnded(
        app.sessionCache,
        ended.map((r) => r.id),
      );
      return reply.status(204).send();
    },
  );
}
