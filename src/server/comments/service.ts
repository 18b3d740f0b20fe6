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
import { type Executor, prepared, rows, sql } from '../db/client';
import { viewersOfItem } from '../events/changeBus';
import { HttpError, notFound, unprocessable } from '../http/errors';
import type { WriteResult } from '../http/idempotency';
import { childServer } from '../http/itemChildren';
import { iso } from '../http/serialize';
import { findVisibleItem, visibleTo } from '../items/queries';
import { addCommentNotifications } from '../notifications/record';
import { noteWebhookEvent } from '../webhooks/events';
import { mentionablePeople } from './people';

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

/** A comment's data in a webhook event (`{ comment }`), or null when it is gone; app.ts registers it. */
export async function commentWebhookData(tx: Executor, id: number): Promise<{ comment: Comment } | null> {
  const row = await commentById(tx, id);
  return row ? { comment: commentJson(row) } : null;
}

/**
 * The rows of a sync page's comments (K13), live and deleted: the page's statement chose them by the
 * reader's sight of their items. Each carries its item's uuid, so a device files it under the item's
 * timeline even before the item's own row has arrived.
 */
async function commentSyncRows(
  db: Executor,
  ids: readonly number[],
): Promise<(CommentRow & { item_uuid: string | null })[]> {
  const found = await rows<CommentRow>(
    db,
    sql`SELECT ${COMMENT_SELECT} WHERE c.id = ANY(${sql.param([...ids])}::int[])`,
  );
  const itemIds = [...new Set(found.map((r) => r.item_id))];
  const uuids = new Map(
    itemIds.length === 0
      ? []
      : (
          await rows<{ id: number; uuid: string | null }>(
            db,
            sql`SELECT id, uuid FROM items WHERE id = ANY(${sql.param(itemIds)}::int[])`,
          )
        ).map((r) => [r.id, r.uuid]),
  );
  return found.map((r) => ({ ...r, item_uuid: uuids.get(r.item_id) ?? null }));
}

/** Comments as a child of an item (src/shared/itemChildren.ts): their sync rows and webhook data; app.ts registers it. */
export const commentChild = childServer<'comments', CommentRow & { item_uuid: string | null }>({
  syncRows: commentSyncRows,
  syncJson: (r) => ({ ...commentJson(r), item_uuid: r.item_uuid }),
  webhookData: commentWebhookData,
});

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
 * Which of `userIds` see the item, and with `commentersToo` the authors of its other live comments
 * who do, in one statement whatever their number (K23), by the same visibility as every read
 * (`visibleTo`, departures included). `muted` says who muted it.
 */
async function whoSee(
  tx: Executor,
  itemId: number,
  userIds: readonly number[],
  commentersToo: { except: number } | null,
): Promise<{ userId: number; muted: boolean; commenter: boolean }[]> {
  const found = await rows<{ user_id: number; muted: boolean; commenter: boolean }>(
    tx,
    whoSeeQuery(itemId, `{${userIds.join(',')}}`, commentersToo !== null, commentersToo?.except ?? 0),
  );
  return found.map((r) => ({ userId: r.user_id, muted: r.muted, commenter: r.commenter }));
}

// Every comment runs it: built once (db/client.ts `prepared`), whatever the number of people.
const whoSeeQuery = prepared(
  (itemId: number, ids: string, commentersToo: boolean, except: number) =>
    sql`SELECT c.user_id, bool_or(c.commenter) AS commenter,
          EXISTS (SELECT 1 FROM item_mutes m WHERE m.item_id = ${itemId} AND m.user_id = c.user_id) AS muted
        FROM (SELECT unnest(${ids}::int[]), false
              UNION ALL
              SELECT DISTINCT user_id, true FROM comments
              WHERE ${commentersToo}::boolean AND item_id = ${itemId} AND deleted_at IS NULL AND id <> ${except}
             ) AS c(user_id, commenter)
        WHERE EXISTS (SELECT 1 FROM items i WHERE i.id = ${itemId} AND ${visibleTo(sql`c.user_id`)})
        GROUP BY c.user_id`,
);

/**
 * Refuses a mention of anyone who cannot see the item, with one message whatever the reason (an
 * unknown id, a stranger, someone who lost the item): the answer tells nothing of who exists.
 */
async function assertMayMention(
  tx: Executor,
  actor: UserRow,
  item: Item,
  userIds: readonly number[],
): Promise<void> {
  if (userIds.length === 0) return;
  // The item is live and the actor sees it (read under the family's lock). Only the picker's people
  // (M12) may be mentioned: a 201 for anyone else who sees the item would tell the author who does.
  const known = new Set((await mentionablePeople(tx, actor.id, actor.phone, item.id)).map((p) => p.id));
  if (userIds.some((id) => !known.has(id))) throw unprocessable({ mentions: [MENTION_NOT_ALLOWED] });
}

/**
 * Locks the family (the top-level item) that item `itemId` lies in, as item writes do (M5), so a
 * comment and a removal from the campaign run one after the other: the caller reads the item and
 * checks who sees it only after this, under the lock.
 */
async function lockFamilyOf(tx: Executor, itemId: number): Promise<void> {
  await tx.execute(
    sql`SELECT r.id FROM items i
          LEFT JOIN items p ON p.id = i.parent_id
          LEFT JOIN items g ON g.id = p.parent_id
          JOIN items r ON r.id = coalesce(g.id, p.id, i.id)
        WHERE i.id = ${itemId} FOR UPDATE OF r`,
  );
}

/** The item a comment is on, when the reader sees it; otherwise the same 404 as for no comment. */
async function visibleComment(
  tx: Executor,
  actor: UserRow,
  id: number,
): Promise<{ comment: CommentRow; item: Item }> {
  const [found] = await rows<{ item_id: number }>(tx, sql`SELECT item_id FROM comments WHERE id = ${id}`);
  if (!found) throw notFound('Comment');
  await lockFamilyOf(tx, found.item_id);
  const comment = await commentById(tx, id);
  if (!comment || comment.deleted_at !== null) throw notFound('Comment');
  const item = await findVisibleItem(tx, actor.id, comment.item_id);
  if (!item) throw notFound('Comment');
  return { comment, item };
}

/**
 * Tells the people a comment concerns (K1), each once, inside the writing transaction: who they are
 * is one statement (whoSee) and their entries another (addCommentNotifications), whatever their number.
 */
async function notifyOfComment(
  tx: Executor,
  actor: UserRow,
  item: Item,
  commentId: number,
  mentionIds: readonly number[],
  followersToo: boolean,
): Promise<void> {
  const named = followersToo
    ? [item.user_id, ...(item.assigned_to === null ? [] : [item.assigned_to]), ...mentionIds]
    : [...mentionIds];
  if (!followersToo && named.length === 0) return;
  // Whoever has since lost the item (an earlier commenter, a creator who left the campaign) hears nothing.
  const seeing = await whoSee(tx, item.id, named, followersToo ? { except: commentId } : null);
  const sees = new Set(seeing.map((s) => s.userId));
  const recipients = commentRecipients({
    authorId: actor.id,
    creatorId: followersToo && sees.has(item.user_id) ? item.user_id : actor.id,
    assigneeId:
      followersToo && item.assigned_to !== null && sees.has(item.assigned_to) ? item.assigned_to : null,
    commenterIds: seeing.filter((s) => s.commenter).map((s) => s.userId),
    mentionIds: mentionIds.filter((id) => sees.has(id)),
    mutedIds: seeing.filter((s) => s.muted).map((s) => s.userId),
  });
  await addCommentNotifications(tx, {
    recipients,
    actor: { id: actor.id, name: actor.name },
    item: { id: item.id, type: item.type, title: item.title },
    commentId,
  });
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
  await lockFamilyOf(tx, itemId);
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
  await assertMayMention(tx, actor, item, mentions);
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
  noteWebhookEvent(tx, {
    kind: 'child',
    child: 'comments',
    type: 'comment.created',
    actor,
    itemId,
    childId: inserted.id,
  });
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
  await assertMayMention(tx, actor, item, added);
  await tx.execute(
    sql`UPDATE comments SET body = ${body}, mentions = ${`{${mentions.join(',')}}`}::int[],
          edited_at = now(), updated_at = now(), change_xid = pg_current_xact_id()::text::bigint
        WHERE id = ${id}`,
  );
  await notifyOfComment(tx, actor, item, id, added, false);
  noteWebhookEvent(tx, {
    kind: 'child',
    child: 'comments',
    type: 'comment.updated',
    actor,
    itemId: item.id,
    childId: id,
  });
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
  if (deleted.length > 0) {
    await countComment(tx, item.id, -1);
    noteWebhookEvent(tx, {
      kind: 'child',
      child: 'comments',
      type: 'comment.deleted',
      actor,
      itemId: item.id,
      childId: id,
    });
  }
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
