import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { calendarFeed, type FeedItem } from '../../shared/calendarFeed';
import { rows, sql } from '../db/client';
import { currentUser } from '../http/context';
import { iso } from '../http/serialize';
import { hashToken } from '../http/session';

/** Most events one feed lists: the newest due dates first, far more than any calendar shows. */
export const FEED_MAX_EVENTS = 5_000;

/** What every URL that is not a live feed answers (404), whatever was wrong with it. */
export const FEED_NOT_FOUND =
  'This calendar link is no longer valid. Make a new one in Outpost’s Preferences.';

/** 128 random bits as base64url (22 characters): nobody guesses a feed URL. */
const FEED_TOKEN = /^[A-Za-z0-9_-]{22}$/;

/**
 * The calendar feed (ARCHITECTURE §4): POST /api/calendar/token makes a person's secret feed URL,
 * replacing the one before (which then answers 404); GET /cal/{token}.ics needs no session and lists
 * the items with a due date that the person created or is assigned, as text/calendar.
 */
export async function calendarRoutes(app: FastifyInstance): Promise<void> {
  const db = app.database.db;

  app.post('/api/calendar/token', async (request) => {
    const user = currentUser(request);
    const token = randomBytes(16).toString('base64url');
    await db.execute(
      sql`INSERT INTO calendar_tokens (user_id, token_hash) VALUES (${user.id}, ${hashToken(token)})
          ON CONFLICT (user_id) DO UPDATE SET token_hash = EXCLUDED.token_hash, created_at = now()`,
    );
    return { url: `${request.protocol}://${request.host}/cal/${token}.ics` };
  });

  app.get<{ Params: { file: string } }>('/cal/:file', async (request, reply) => {
    const match = /^(.+)\.ics$/.exec(request.params.file);
    const token = match?.[1] ?? '';
    // Every URL that is not a live feed gets the same 404, whatever was wrong with it.
    const notFound = () => reply.status(404).send({ message: FEED_NOT_FOUND });
    if (!FEED_TOKEN.test(token)) return notFound();
    const [owner] = await rows<{ user_id: number }>(
      db,
      sql`SELECT user_id FROM calendar_tokens WHERE token_hash = ${hashToken(token)}`,
    );
    if (!owner) return notFound();
    const items = await rows<FeedItem & { updated_at: Date | string }>(
      db,
      sql`SELECT id, uuid, title, description, status, due_date::text AS due_date, recurrence, updated_at
          FROM items
          WHERE deleted_at IS NULL AND due_date IS NOT NULL
            AND (user_id = ${owner.user_id} OR assigned_to = ${owner.user_id})
          ORDER BY due_date DESC, id DESC
          LIMIT ${FEED_MAX_EVENTS}`,
    );
    const feed = calendarFeed(
      items.map((i) => ({ ...i, updated_at: iso(i.updated_at) })),
      app.clock(),
    );
    return reply
      .type('text/calendar; charset=utf-8')
      .header('Cache-Control', 'private, max-age=300')
      .header('Content-Disposition', 'inline; filename="outpost.ics"')
      .send(feed);
  });
}
