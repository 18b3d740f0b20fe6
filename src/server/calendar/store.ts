import { setImmediate as yieldToOthers } from 'node:timers/promises';
import { FEED_DESCRIPTION_MAX, type FeedItem } from '../../shared/calendarFeed';
import { type Executor, rows, sql } from '../db/client';
import { iso } from '../http/serialize';
import { hashToken } from '../http/session';
import { visibleTo } from '../items/queries';

/** Most events one feed lists: the newest due dates first, far more than any calendar shows. */
export const FEED_MAX_EVENTS = 5_000;

/** Rows read per query and events written per slice: each is a few milliseconds, then others run. */
export const FEED_PAGE = 100;

type FeedRow = FeedItem & { updated_at: Date | string };

/**
 * The items of `userId`'s feed (F5, F11): those with a due or start date they created or are
 * assigned that they still see (the reads' own rule, `visibleTo`, so a departure from a campaign takes its items out),
 * newest due date first. The ids come first (no text, so the sort never reads a description), then
 * the rows a page at a time, each description cut in SQL to what one event carries: a 5,000-event
 * feed never holds the database (on PGlite, the server's own thread) for long at once.
 */
export async function feedItems(db: Executor, userId: number): Promise<FeedItem[]> {
  // visibleTo is true of every row the person created or is assigned unless a departure hides it
  // (M4): without a departure the rule needs no per-row check, the common case by far.
  const [departed] = await rows<{ n: number }>(
    db,
    sql`SELECT 1 AS n FROM campaign_departures WHERE user_id = ${userId} LIMIT 1`,
  );
  const ids = await rows<{ id: number }>(
    db,
    sql`SELECT i.id FROM items i
        WHERE i.deleted_at IS NULL AND (i.due_date IS NOT NULL OR i.start_date IS NOT NULL)
          AND (i.user_id = ${userId} OR i.assigned_to = ${userId})
          ${departed ? sql`AND ${visibleTo(userId)}` : sql``}
        ORDER BY coalesce(i.due_date, i.start_date) DESC, i.id DESC
        LIMIT ${FEED_MAX_EVENTS}`,
  );
  const out: FeedItem[] = [];
  for (let start = 0; start < ids.length; start += FEED_PAGE) {
    // A query on the embedded engine answers in the same task (no I/O to wait on): without a
    // yield, reading 50 pages was one ~0.5 s task that no other request could interrupt.
    if (start > 0) await yieldToOthers();
    const page = ids.slice(start, start + FEED_PAGE).map((row) => row.id);
    const found = await rows<FeedRow>(
      db,
      sql`SELECT i.id, i.uuid, i.title, left(i.description, ${FEED_DESCRIPTION_MAX + 1}) AS description,
            i.status, i.due_date::text AS due_date, i.start_date::text AS start_date,
            i.end_date::text AS end_date, i.recurrence, i.series_uuid, i.updated_at
          FROM items i
          WHERE i.id = ANY(${`{${page.join(',')}}`}::int[]) AND i.deleted_at IS NULL
            AND (i.due_date IS NOT NULL OR i.start_date IS NOT NULL)
            AND (i.user_id = ${userId} OR i.assigned_to = ${userId})
          ORDER BY coalesce(i.due_date, i.start_date) DESC, i.id DESC`,
    );
    for (const row of found) out.push({ ...row, updated_at: iso(row.updated_at) });
  }
  return out;
}

/** When `user`'s live feed link was made, or undefined while they have none. */
export async function calendarTokenOf(db: Executor, user: { id: number }) {
  const [row] = await rows<{ created_at: Date | string }>(
    db,
    sql`SELECT created_at FROM calendar_tokens WHERE user_id = ${user.id}`,
  );
  return row;
}

/** Keeps `token`'s hash as `user`'s feed link, replacing the one before (F10); answers when it was made. */
export async function replaceCalendarToken(db: Executor, user: { id: number }, token: string) {
  const [row] = await rows<{ created_at: Date | string }>(
    db,
    sql`INSERT INTO calendar_tokens (user_id, token_hash) VALUES (${user.id}, ${hashToken(token)})
          ON CONFLICT (user_id) DO UPDATE SET token_hash = EXCLUDED.token_hash, created_at = now()
          RETURNING created_at`,
  );
  return row!;
}

/** The owner of the feed link whose hash is `key`, or undefined. */
export async function calendarTokenOwner(db: Executor, key: string) {
  const [owner] = await rows<{ user_id: number }>(
    db,
    sql`SELECT user_id FROM calendar_tokens WHERE token_hash = ${key}`,
  );
  return owner;
}
