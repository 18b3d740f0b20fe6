import { randomUUID } from 'node:crypto';
import {
  type Comment,
  type CommentCreate,
  commentMentions,
  commentRecipients,
  MENTION_NOT_ALLOWED,
  mayDeleteComment,
  mayEditComment,
  mentionedInBody,
} from '../../shared/comments';
import type { Item } from '../../shared/item';
import type { UserRow } from '../auth/users';
import { type Executor, rows, sql } from '../db/client';
import { viewersOfItem } from '../events/changeBus';
import { HttpError, notFound, unprocessable } from '../http/errors';
import type { WriteResult } from '../http/idempotency';
import { iso } from '../http/serialize';
import { findVisibleItem, seersAmong, visibleTo } from '../items/queries';
import { addNotification, mutedAmong } from '../notifications/record';

/** A comment row with its author's name and its mentions' names, as COMMENT_SELECT reads it. */
export interface CommentRow {
  id: number;
  uuid: string;
  item_id: number;
  user_id: number;
  user_name: string;
  body: string;
  mention_list: { id: number; name: string }[] | string | null;
  created_at: Date | string;
  updated_at: Date | string;
  edited_at: Date | string | null;
  deleted_at: Date | string | null;
}

/**
 * The comment columns with names: the author's, and each mention's in the order the comment lists
 * them (a mention is stored by id; a renamed person reads by their new name).
 */
export const COMMENT_SELECT = sql`c.id, c.uuid, c.item_id, c.user_id, u.name AS user_name, c.body,
  (SELECT coalesce(json_agg(json_build_object('id', m.id, 'name', m.name) ORDER BY x.n), '[]'::json)
     FROM unnest(c.mentions) WITH ORDINALITY AS x(uid, n) JOIN users m ON m.id = x.uid) AS mention_list,
  c.created_at, c.updated_at, c.edited_at, c.deleted_at
  FROM comments c JOIN users u ON u.id = c.user_id`;

/** The API's comment from a row (§4). */
export function commentJson(r: CommentRow): Comment {
  const mentions = typeof r.mention_list === 'string' ? JSON.parse(r.mention_list) : (r.mention_list ?? []);
  return {
    id: r.id,
    uuid: r.uuid,
    item_id: r.item_id,
    user: { id: r.user_id, name: r.user_name },
    body: r.body,
    mentions,
    created_at: iso(r.created_at),
    updated_at: iso(r.updated_at),
    edited: r.edited_at !== null,
  };
}

async function commentById(tx: Executor, id: number): Promise<CommentRow | undefined> {
  const [found] = await rows<CommentRow>(tx, sql`SELECT ${COMMENT_SELECT} WHERE c.id = ${id}`);
  return found;
}

/** An item's comments, oldest first, one page; the caller has checked that the reader sees the item. */
export async function listComments(
  db: Executor,
  itemId: number,
  page: number,
  perPage: number,
): Promise<{ data: Comment[]; total: number }> {
  const [counted, found] = await Promise.all([
    // The item's own count (K10), kept with every create and delete: no count over its comments per page.
    rows<{ total: number }>(db, sql`SELECT comments_count AS total FROM items WHERE id = ${itemId}`),
    rows<CommentRow>(
      db,
      sql`SELECT ${COMMENT_SELECT} WHERE c.item_id = ${itemId} AND c.deleted_at IS NULL
          ORDER BY c.id LIMIT ${perPage} OFFSET ${(page - 1) * perPage}`,
    ),
  ]);
  return { data: found.map(commentJson), total: counted[0]?.total ?? 0 };
}

/** The item's top-level item and that item's type and creator: whose campaign the item lies in. */
async function rootOf(tx: Executor, itemId: number): Promise<{ id: number; type: string; user_id: number }> {
  const [root] = await rows<{ id: number; type: string; user_id: number }>(
    tx,
    sql`SELECT r.id, r.type, r.user_id FROM items i
          LEFT JOIN items p ON p.id = i.parent_id
          LEFT JOIN items g ON g.id = p.parent_id
          JOIN items r ON r.id = coalesce(g.id, p.id, i.id)
        WHERE i.id = ${itemId}`,
  );
  return root ?? { id: itemId, type: 'todo', user_id: 0 };
}

/**
 * Refuses a mention of anyone who cannot see the item, with one message whatever the reason (an
 * unknown id, a stranger, someone who lost the item): the answer tells nothing of who exists.
 */
async function assertMayMention(tx: Executor, itemId: number, userIds: readonly number[]): Promise<void> {
  for (const userId of userIds) {
    const [seen] = await rows<{ one: number }>(
      tx,
      sql`SELECT 1 AS one FROM items i WHERE i.id = ${itemId} AND i.deleted_at IS NULL AND ${visibleTo(userId)}`,
    );
    if (!seen) throw unprocessable({ mentions: [MENTION_NOT_ALLOWED] });
  }
}

/** The item a comment is on, when the reader sees it; otherwise the same 404 as for no comment. */
async function visibleComment(
  tx: Executor,
  actor: UserRow,
  id: number,
): Promise<{ comment: CommentRow; item: Item }> {
  const comment = await commentById(tx, id);
  if (!comment || comment.deleted_at !== null) throw notFound('Comment');
  const item = await findVisibleItem(tx, actor.id, comment.item_id);
  if (!item) throw notFound('Comment');
  return { comment, item };
}

/** Tells the people a comment concerns (K1), each once, inside the writing transaction. */
async function notifyOfComment(
  tx: Executor,
  actor: UserRow,
  item: Item,
  commentId: number,
  mentionIds: readonly number[],
  followersToo: boolean,
): Promise<void> {
  const commenters = followersToo
    ? (
        await rows<{ user_id: number }>(
          tx,
          sql`SELECT DISTINCT user_id FROM comments
              WHERE item_id = ${item.id} AND deleted_at IS NULL AND id <> ${commentId}`,
        )
      ).map((r) => r.user_id)
    : [];
  // An earlier commenter who has since lost the item hears nothing of it.
  const stillSee: number[] = [];
  for (const userId of commenters) {
    const [seen] = await rows<{ one: number }>(
      tx,
      sql`SELECT 1 AS one FROM items i WHERE i.id = ${item.id} AND ${visibleTo(userId)}`,
    );
    if (seen) stillSee.push(userId);
  }
  const followers = followersToo ? [item.user_id, item.assigned_to, ...stillSee] : [];
  const muted = await mutedAmong(
    tx,
    item.id,
    followers.filter((id): id is number => id !== null),
  );
  const recipients = commentRecipients({
    authorId: actor.id,
    creatorId: followersToo ? item.user_id : actor.id,
    assigneeId: followersToo ? item.assigned_to : null,
    commenterIds: stillSee,
    mentionIds,
    mutedIds: [...muted],
  });
  // M10: only people who see the item, by the reads' rule (a departed creator or assignee does not).
  const seeing = new Set(
    await seersAmong(
      tx,
      item.id,
      recipients.map((r) => r.userId),
    ),
  );
  for (const { userId, kind } of recipients) {
    if (!seeing.has(userId)) continue;
    await addNotification(tx, {
      userId,
      kind,
      actor: { id: actor.id, name: actor.name },
      item: { id: item.id, type: item.type, title: item.title },
      commentId,
    });
  }
}

/**
 * Moves the item's `comments_count` by `delta` inside the comment's own transaction (K10): one
 * relative UPDATE, whose row lock makes parallel comments on the item wait for each other, so none
 * is lost. The item's version and change_xid move with it, so every device's next pull brings the
 * new count (K11); it is no field a person edits, so a queued edit merges over it silently (K12).
 * Called before the notifications, so the item row is locked first, in the order an item's own
 * update takes its locks.
 */
async function countComment(tx: Executor, itemId: number, delta: 1 | -1): Promise<void> {
  await tx.execute(
    sql`UPDATE items SET comments_count = greatest(comments_count + ${delta}, 0), version = version + 1,
          change_xid = pg_current_xact_id()::text::bigint
        WHERE id = ${itemId}`,
  );
}

/** Who hears that the item's timeline changed: everyone who sees the item (K7). */
const timelineViewers = (tx: Executor, itemId: number) => viewersOfItem(tx, itemId);

/**
 * Creates a comment on an item the actor sees (K4: a known uuid answers with the stored comment, and
 * two racing replays store it once), with its feed entry, its notifications and a change event.
 */
export async function createComment(
  tx: Executor,
  actor: UserRow,
  itemId: number,
  input: CommentCreate,
): Promise<WriteResult> {
  const item = await findVisibleItem(tx, actor.id, itemId);
  if (!item) throw notFound();
  const uuid = input.uuid ?? randomUUID();
  const known = async () => {
    const [existing] = await rows<CommentRow>(
      tx,
      sql`SELECT ${COMMENT_SELECT} WHERE c.user_id = ${actor.id} AND c.uuid = ${uuid}`,
    );
    return existing;
  };
  if (input.uuid !== undefined) {
    const existing = await known();
    if (existing) {
      if (existing.item_id !== itemId)
        throw unprocessable({ uuid: ['This uuid already names another comment.'] });
      return { status: 200, body: commentJson(existing) };
    }
  }
  const mentions = commentMentions(input.body, input.mentions ?? []);
  await assertMayMention(tx, itemId, mentions);
  const [inserted] = await rows<{ id: number }>(
    tx,
    sql`INSERT INTO comments (uuid, item_id, user_id, body, mentions)
        VALUES (${uuid}, ${itemId}, ${actor.id}, ${input.body}, ${`{${mentions.join(',')}}`}::int[])
        ON CONFLICT (user_id, uuid) DO NOTHING RETURNING id`,
  );
  if (!inserted) {
    // A replay that raced this one committed first: answer with what it stored.
    const existing = await known();
    if (existing?.item_id === itemId) return { status: 200, body: commentJson(existing) };
    throw unprocessable({ uuid: ['This uuid already names another comment.'] });
  }
  await countComment(tx, itemId, 1);
  const root = await rootOf(tx, itemId);
  await tx.execute(
    sql`INSERT INTO activities (user_id, item_id, root_id, action, item_type, item_title, description, metadata)
        VALUES (${actor.id}, ${itemId}, ${root.id}, 'commented', ${item.type}, ${item.title},
          ${`${actor.name} commented on ${item.type} "${item.title}"`},
          ${JSON.stringify({ comment_id: inserted.id })}::jsonb)`,
  );
  await notifyOfComment(tx, actor, item, inserted.id, mentions, true);
  const created = await commentById(tx, inserted.id);
  return { status: 201, body: commentJson(created!), formerViewers: await timelineViewers(tx, itemId) };
}

/** Edits a comment's body (K2: its author only); people newly mentioned are told. */
export async function editComment(
  tx: Executor,
  actor: UserRow,
  id: number,
  body: string,
): Promise<WriteResult> {
  const { comment, item } = await visibleComment(tx, actor, id);
  if (!mayEditComment(actor.id, comment.user_id))
    throw new HttpError(403, 'Only its author can edit a comment.');
  if (body === comment.body) return { status: 200, body: commentJson(comment) };
  const before = commentJson(comment).mentions.map((m) => m.id);
  const mentions = mentionedInBody(body);
  const added = mentions.filter((m) => !before.includes(m));
  await assertMayMention(tx, item.id, added);
  await tx.execute(
    sql`UPDATE comments SET body = ${body}, mentions = ${`{${mentions.join(',')}}`}::int[],
          edited_at = now(), updated_at = now(), change_xid = pg_current_xact_id()::text::bigint
        WHERE id = ${id}`,
  );
  await notifyOfComment(tx, actor, item, id, added, false);
  const edited = await commentById(tx, id);
  return { status: 200, body: commentJson(edited!), formerViewers: await timelineViewers(tx, item.id) };
}

/** Deletes a comment (K2: its author, or the owner of the campaign it lies in); a tombstone stays for sync. */
export async function deleteComment(tx: Executor, actor: UserRow, id: number): Promise<WriteResult> {
  const { comment, item } = await visibleComment(tx, actor, id);
  const root = await rootOf(tx, item.id);
  const role = root.type === 'campaign' && root.user_id === actor.id ? 'owner' : null;
  if (!mayDeleteComment(actor.id, comment.user_id, role))
    throw new HttpError(403, 'Only its author or the campaign’s owner can delete a comment.');
  // Only the delete that finds the comment live counts it off: of two racing deletes, the second
  // waits for the first's row lock, then finds it deleted and changes nothing (K10).
  const deleted = await rows<{ id: number }>(
    tx,
    sql`UPDATE comments SET deleted_at = now(), updated_at = now(),
          change_xid = pg_current_xact_id()::text::bigint
        WHERE id = ${id} AND deleted_at IS NULL RETURNING id`,
  );
  if (deleted.length > 0) await countComment(tx, item.id, -1);
  return { status: 204, body: null, formerViewers: await timelineViewers(tx, item.id) };
}

/** Mutes or unmutes an item for the actor (§5): no `commented` or `updated` for it while muted. */
export async function setMuted(
  tx: Executor,
  actor: UserRow,
  itemId: number,
  muted: boolean,
): Promise<WriteResult> {
  const item = await findVisibleItem(tx, actor.id, itemId);
  if (!item) throw notFound();
  await tx.execute(
    muted
      ? sql`INSERT INTO item_mutes (user_id, item_id) VALUES (${actor.id}, ${itemId}) ON CONFLICT DO NOTHING`
      : sql`DELETE FROM item_mutes WHERE user_id = ${actor.id} AND item_id = ${itemId}`,
  );
  return { status: 200, body: { muted } };
}

/** Whether the actor muted an item they see. */
export async function isMuted(tx: Executor, userId: number, itemId: number): Promise<boolean> {
  const [row] = await rows<{ one: number }>(
    tx,
    sql`SELECT 1 AS one FROM item_mutes WHERE user_id = ${userId} AND item_id = ${itemId}`,
  );
  return row !== undefined;
}
