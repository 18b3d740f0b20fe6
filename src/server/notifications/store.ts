import { DEFAULT_PER_PAGE, type ItemType, MAX_PER_PAGE, paginated } from '../../shared/item';
import type { NotificationEntry, NotificationKind, NotificationPage } from '../../shared/notifications';
import { type Executor, rows, sql } from '../db/client';
import { HttpError } from '../http/errors';
import { isoOrNull } from '../http/serialize';
import { visibleTo } from '../items/queries';

/** How many of the user's entries are unread. */
export async function unreadCount(db: Executor, userId: number): Promise<number> {
  const [row] = await rows<{ n: number }>(
    db,
    sql`SELECT count(*)::int AS n FROM notifications WHERE user_id = ${userId} AND read_at IS NULL`,
  );
  return row?.n ?? 0;
}

/** Unread counts of several users in one query (E4: one read per delivery, not per stream); 0 for none. */
export async function unreadCounts(db: Executor, userIds: readonly number[]): Promise<Map<number, number>> {
  const counts = new Map<number, number>(userIds.map((id) => [id, 0]));
  if (userIds.length === 0) return counts;
  const found = await rows<{ user_id: number; n: number }>(
    db,
    sql`SELECT user_id, count(*)::int AS n FROM notifications
        WHERE user_id = ANY(string_to_array(${userIds.join(',')}, ',')::int[]) AND read_at IS NULL
        GROUP BY user_id`,
  );
  for (const row of found) counts.set(row.user_id, row.n);
  return counts;
}

interface Row {
  id: number;
  kind: NotificationKind;
  text: string;
  item_id: number | null;
  actor_id: number | null;
  actor_name: string | null;
  created_at: Date | string;
  read_at: Date | string | null;
  comment_id: number | null;
  item_count: number;
  live_id: number | null;
  live_type: ItemType | null;
  live_title: string | null;
}

/**
 * One page of the user's entries, newest first, with the unread count. The item is named only while
 * the reader can still see it (live, and theirs or shared with them): one who lost it gets `null`,
 * never a title or a link it may no longer have.
 */
export async function listNotifications(
  db: Executor,
  userId: number,
  page: number,
  perPageAsked: number | undefined,
): Promise<NotificationPage> {
  const perPage = Math.min(perPageAsked ?? DEFAULT_PER_PAGE, MAX_PER_PAGE);
  const [counts] = await rows<{ total: number; unread: number }>(
    db,
    sql`SELECT count(*)::int AS total, count(*) FILTER (WHERE read_at IS NULL)::int AS unread
        FROM notifications WHERE user_id = ${userId}`,
  );
  const found = await rows<Row>(
    db,
    sql`SELECT n.id, n.kind, n.text, n.item_id, n.actor_id, a.name AS actor_name, n.created_at, n.read_at,
          n.comment_id, n.item_count,
          i.id AS live_id, i.type AS live_type, i.title AS live_title
        FROM notifications n
        LEFT JOIN users a ON a.id = n.actor_id
        LEFT JOIN items i ON i.id = n.item_id AND i.deleted_at IS NULL AND ${visibleTo(userId)}
        WHERE n.user_id = ${userId}
        ORDER BY n.created_at DESC, n.id DESC
        LIMIT ${perPage} OFFSET ${(page - 1) * perPage}`,
  );
  const total = counts?.total ?? 0;
  const data: NotificationEntry[] = found.map((r) => ({
    id: r.id,
    kind: r.kind,
    text: r.text,
    item:
      r.live_id !== null && r.live_type !== null
        ? { id: r.live_id, type: r.live_type, title: r.live_title ?? '' }
        : null,
    actor: r.actor_id !== null ? { id: r.actor_id, name: r.actor_name ?? '' } : null,
    created_at: isoOrNull(r.created_at) ?? '',
    read_at: isoOrNull(r.read_at),
    ...(r.comment_id !== null && r.live_id !== null ? { comment_id: r.comment_id } : {}),
    ...(r.item_count > 1 ? { item_count: r.item_count } : {}),
  }));
  return { ...paginated(data, page, perPage, total), unread: counts?.unread ?? 0 };
}

/**
 * Marks the given entries (or, without ids, every entry) read and answers the new unread count.
 * An id that is not the user's is a 404, as if it did not exist: entries are private.
 */
export async function markRead(db: Executor, userId: number, ids: number[] | undefined): Promise<number> {
  if (ids === undefined) {
    await db.execute(
      sql`UPDATE notifications SET read_at = now() WHERE user_id = ${userId} AND read_at IS NULL`,
    );
    return unreadCount(db, userId);
  }
  const unique = [...new Set(ids)];
  if (unique.length > 0) {
    const list = sql.join(
      unique.map((id) => sql`${id}`),
      sql`, `,
    );
    const mine = await rows<{ id: number }>(
      db,
      sql`SELECT id FROM notifications WHERE user_id = ${userId} AND id IN (${list})`,
    );
    if (mine.length !== unique.length) throw new HttpError(404, 'Notification not found.');
    await db.execute(
      sql`UPDATE notifications SET read_at = now()
          WHERE user_id = ${userId} AND id IN (${list}) AND read_at IS NULL`,
    );
  }
  return unreadCount(db, userId);
}

/** More subscriptions than this for one user (browsers, devices) drop the oldest. */
export const SUBSCRIPTIONS_PER_USER = 20;

/**
 * Stores a push subscription for `userId`, or answers 'held' when another user holds its endpoint.
 * The endpoint is the capability to reach a browser: handing it to whoever names it would let anyone
 * who learnt one (a shared machine, a log) receive another user's notifications. Its holder lets it go
 * by unsubscribing (DELETE, or the push service's 404/410), after which it is free again. The holder
 * re-sending it renews its keys.
 */
export async function saveSubscription(
  db: Executor,
  userId: number,
  input: { endpoint: string; keys: { p256dh: string; auth: string } },
): Promise<'saved' | 'held'> {
  // One statement, so two users racing for a new endpoint cannot both get it.
  const saved = await rows<{ id: number }>(
    db,
    sql`INSERT INTO push_subscriptions (user_id, endpoint, p256dh, auth)
        VALUES (${userId}, ${input.endpoint}, ${input.keys.p256dh}, ${input.keys.auth})
        ON CONFLICT (endpoint) DO UPDATE SET p256dh = EXCLUDED.p256dh, auth = EXCLUDED.auth, created_at = now()
          WHERE push_subscriptions.user_id = EXCLUDED.user_id
        RETURNING id`,
  );
  if (saved.length === 0) return 'held';
  await db.execute(
    sql`DELETE FROM push_subscriptions WHERE user_id = ${userId} AND id NOT IN (
          SELECT id FROM push_subscriptions WHERE user_id = ${userId}
          ORDER BY created_at DESC, id DESC LIMIT ${SUBSCRIPTIONS_PER_USER})`,
  );
  return 'saved';
}

/** Forgets `user`'s push subscription at `endpoint` (nothing when they have none there). */
export async function deleteSubscription(
  db: Executor,
  user: { id: number },
  endpoint: string,
): Promise<void> {
  await rows(
    db,
    sql`DELETE FROM push_subscriptions WHERE user_id = ${user.id} AND endpoint = ${endpoint} RETURNING id`,
  );
}
