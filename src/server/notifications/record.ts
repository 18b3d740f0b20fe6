import { COMMENT_NOTICES_PER_MINUTE } from '../../shared/comments';
import type { ItemType } from '../../shared/item';
import {
  assignedManyText,
  BURST_MS,
  burstKinds,
  joinsBurst,
  type MembershipNotificationKind,
  type NotificationKind,
  notificationText,
  PUSHES_PER_MINUTE,
  recipientsOf,
} from '../../shared/notifications';
import type { ActivityInput } from '../activity/record';
import { type Executor, prepared, rows, sql } from '../db/client';
import { seersAmong } from '../items/queries';
import { outboxSignal } from './outboxSignal';

interface ItemState {
  user_id: number;
  assigned_to: number | null;
  remind_at: Date | string | null;
}

/** The assignee ids an `assigned` activity carries in its metadata (`assigned_to: {old, new}`). */
function assignment(metadata: Record<string, unknown> | undefined): { old: number | null } {
  const change = metadata?.assigned_to as { old?: unknown } | undefined;
  return { old: typeof change?.old === 'number' ? change.old : null };
}

const itemState = prepared(
  (id: number) => sql`SELECT user_id, assigned_to, remind_at FROM items WHERE id = ${id}`,
);

/**
 * The write path's one hook: turns an activity entry of an item change into the notifications it
 * causes, inside the same transaction (so an entry exists exactly when its change committed), and
 * cancels or re-arms the item's reminder when it is completed, deleted or reopened.
 */
export async function notifyFromActivity(tx: Executor, entry: ActivityInput): Promise<void> {
  const [item] = await rows<ItemState>(tx, itemState(entry.item.id));
  if (!item) return;
  await settleReminder(tx, entry.action, entry.item.id, item.remind_at);
  const recipients = recipientsOf({
    action: entry.action,
    actorId: entry.actor.id,
    creatorId: item.user_id,
    assigneeId: item.assigned_to,
    previousAssigneeId: entry.action === 'assigned' ? assignment(entry.metadata).old : undefined,
    rolledUp: entry.metadata?.rolled_up === true,
  });
  // Whoever muted the item hears of no edits to it (§5); the rest of the kinds still arrive.
  const edits = recipients.filter((r) => r.kind === 'updated').map((r) => r.userId);
  const muted = edits.length === 0 ? new Set<number>() : await mutedAmong(tx, entry.item.id, edits);
  const seeing = await audienceOf(tx, entry.item.id, recipients);
  for (const { userId, kind } of recipients) {
    if (muted.has(userId) || !seeing.has(userId)) continue;
    await addNotification(tx, {
      userId,
      kind,
      actor: entry.actor,
      item: entry.item,
    });
  }
}

/**
 * Of an item change's recipients, those who may hear of it (M10): whoever sees the item now, by the
 * reads' own rule (seersAmong), and for `unassigned` whoever saw it just before as its assignee. So a
 * person removed from (or who left) the campaign the item lies in is told nothing, even as its
 * creator or assignee.
 */
export async function audienceOf(
  tx: Executor,
  itemId: number,
  recipients: readonly { userId: number; kind: NotificationKind }[],
): Promise<Set<number>> {
  const now = recipients.filter((r) => r.kind !== 'unassigned').map((r) => r.userId);
  const seeing = new Set(await seersAmong(tx, itemId, now));
  for (const { userId, kind } of recipients) {
    if (kind === 'unassigned' && (await seersAmong(tx, itemId, [userId], userId)).length > 0)
      seeing.add(userId);
  }
  return seeing;
}

/** Which of `userIds` muted the item. */
export async function mutedAmong(
  tx: Executor,
  itemId: number,
  userIds: readonly number[],
): Promise<Set<number>> {
  if (userIds.length === 0) return new Set();
  const found = await rows<{ user_id: number }>(
    tx,
    sql`SELECT user_id FROM item_mutes WHERE item_id = ${itemId} AND user_id = ANY(${`{${userIds.join(',')}}`}::int[])`,
  );
  return new Set(found.map((r) => r.user_id));
}

/**
 * The hook for a roll-up's consequences (a cascade over a family): they notify no one (recipientsOf
 * answers nobody for a rolled-up change), but completing cancels the items' pending reminders and
 * reopening re-arms future ones, as `notifyFromActivity` does one item at a time, here in one
 * statement for all of them.
 */
export async function notifyFromRollUp(
  tx: Executor,
  action: 'completed' | 'reopened',
  itemIds: readonly number[],
): Promise<void> {
  if (itemIds.length === 0) return;
  const ids = `{${itemIds.join(',')}}`;
  if (action === 'completed') {
    await tx.execute(
      sql`INSERT INTO reminder_claims (item_id, remind_at, outcome)
          SELECT i.id, i.remind_at, 'cancelled' FROM items i
          WHERE i.id = ANY(${ids}::int[]) AND i.remind_at IS NOT NULL
          ON CONFLICT DO NOTHING`,
    );
  } else {
    await tx.execute(
      sql`DELETE FROM reminder_claims c USING items i
          WHERE i.id = ANY(${ids}::int[]) AND c.item_id = i.id AND c.remind_at = i.remind_at
            AND c.outcome = 'cancelled' AND c.remind_at > now()`,
    );
  }
}

/** A completed or deleted item's pending reminder is cancelled; reopening re-arms a future one. */
async function settleReminder(
  tx: Executor,
  action: string,
  itemId: number,
  remindAt: Date | string | null,
): Promise<void> {
  if (remindAt === null) return;
  const at = new Date(remindAt).toISOString();
  if (action === 'completed' || action === 'deleted') {
    await tx.execute(
      sql`INSERT INTO reminder_claims (item_id, remind_at, outcome) VALUES (${itemId}, ${at}, 'cancelled')
          ON CONFLICT DO NOTHING`,
    );
  } else if (action === 'reopened') {
    await tx.execute(
      sql`DELETE FROM reminder_claims WHERE item_id = ${itemId} AND remind_at = ${at}
            AND outcome = 'cancelled' AND remind_at > now()`,
    );
  }
}

/**
 * Writes one entry, or folds it into the same person's unread entry of the same item and burst group
 * from the last minute (an edit burst, an assign/unassign or complete/reopen toggle is one entry,
 * saying where it ended). The push outbox (`pushed_at` null) only holds entries for users with a push
 * subscription, and at most PUSHES_PER_MINUTE of other people's changes a minute for each: the rest
 * are listed, not pushed. A person's own reminders (no actor) are always pushed.
 */
export async function addNotification(
  tx: Executor,
  input: {
    userId: number;
    actor: { id: number; name: string } | null;
    item: { id: number; type: ItemType; title: string };
    /** The comment a `mentioned` or `commented` entry is about. */
    commentId?: number;
  } & (
    | { kind: NotificationKind; text?: undefined }
    /** Membership entries bring their own line (membershipText: it names the role). */
    | { kind: MembershipNotificationKind; text: string }
  ),
): Promise<void> {
  const text =
    input.text ?? notificationText(input.kind, input.actor?.name ?? null, input.item.type, input.item.title);
  const folds = burstKinds(input.kind);
  if (folds.length > 0 && input.actor) {
    const [last] = await rows<{
      id: number;
      kind: string;
      created_at: Date | string;
      read_at: unknown;
      now: Date | string;
    }>(
      tx,
      sql`SELECT id, kind, created_at, read_at, now() AS now FROM notifications
          WHERE user_id = ${input.userId} AND item_id = ${input.item.id} AND actor_id = ${input.actor.id}
            AND kind = ANY(${`{${folds.join(',')}}`}::text[]) AND item_count = 1
          ORDER BY id DESC LIMIT 1`,
    );
    if (
      last &&
      joinsBurst(
        {
          kind: last.kind,
          actorId: input.actor.id,
          itemId: input.item.id,
          createdAt: new Date(last.created_at),
          read: last.read_at !== null,
        },
        { kind: input.kind, actorId: input.actor.id, itemId: input.item.id, at: new Date(last.now) },
      )
    ) {
      await tx.execute(
        sql`UPDATE notifications SET kind = ${input.kind}, text = ${text}, item_title = ${input.item.title},
              comment_id = coalesce(${input.commentId ?? null}::int, comment_id), updated_at = now()
            WHERE id = ${last.id}`,
      );
      return;
    }
  }
  if (
    input.kind === 'assigned' &&
    input.actor &&
    (await joinAssignmentRun(tx, input.userId, input.actor, input.item))
  )
    return;
  const [inserted] = await rows<{ to_push: boolean }>(
    tx,
    sql`INSERT INTO notifications (user_id, actor_id, kind, item_id, item_type, item_title, text, comment_id, pushed_at)
        VALUES (${input.userId}, ${input.actor?.id ?? null}, ${input.kind}, ${input.item.id}, ${input.item.type},
          ${input.item.title}, ${text}, ${input.commentId ?? null},
          CASE WHEN EXISTS (SELECT 1 FROM push_subscriptions s WHERE s.user_id = ${input.userId})
              AND (${input.actor === null}::boolean
                OR (SELECT count(*) FROM notifications n WHERE n.user_id = ${input.userId}
                      AND n.actor_id IS NOT NULL AND n.created_at > now() - interval '1 minute')
                   < ${PUSHES_PER_MINUTE})
            THEN NULL ELSE now() END)
        RETURNING pushed_at IS NULL AS to_push`,
  );
  if (inserted?.to_push) outboxSignal.mark(tx);
}

/**
 * P8: an assignment joins the recipient's unread `assigned` entry by the same person for other items
 * from the last BURST_MS, which then counts it ('Alex assigned you 1,000 items: …'), so a batch
 * create, an import or a run of edits assigning many items is one entry and one push, not one each.
 * The entry keeps its first item (its link) and its push state: it was pushed once, or is pushed with
 * the count when its transaction commits. Answers whether it joined one.
 */
async function joinAssignmentRun(
  tx: Executor,
  userId: number,
  actor: { id: number; name: string },
  item: { id: number },
): Promise<boolean> {
  const [run] = await rows<{
    id: number;
    item_count: number;
    item_type: ItemType;
    item_title: string | null;
  }>(
    tx,
    sql`SELECT id, item_count, item_type, item_title FROM notifications
        WHERE user_id = ${userId} AND actor_id = ${actor.id} AND kind = 'assigned' AND read_at IS NULL
          AND item_id <> ${item.id} AND created_at > now() - make_interval(secs => ${BURST_MS / 1000})
        ORDER BY id DESC LIMIT 1`,
  );
  if (!run) return false;
  const count = run.item_count + 1;
  await tx.execute(
    sql`UPDATE notifications SET item_count = ${count}, updated_at = now(),
          text = ${assignedManyText(actor.name, count, run.item_type, run.item_title ?? '')}
        WHERE id = ${run.id}`,
  );
  return true;
}

/**
 * A comment's notifications, all in one statement however many people it tells (K23): each
 * recipient's entry folds into their unread one of the same kind from the same person on the same
 * item in the last minute (as addNotification's burst), else is written, unless the recipient had
 * COMMENT_NOTICES_PER_MINUTE comment entries in the last minute already (K24): the comment is still
 * on the item's timeline, and a flood of comments lists no more. Pushes as addNotification does.
 */
export async function addCommentNotifications(
  tx: Executor,
  input: {
    recipients: readonly { userId: number; kind: 'mentioned' | 'commented' }[];
    actor: { id: number; name: string };
    item: { id: number; type: ItemType; title: string };
    commentId: number;
  },
): Promise<void> {
  if (input.recipients.length === 0) return;
  const { actor, item } = input;
  const recipients = input.recipients.map((r) => ({
    user_id: r.userId,
    kind: r.kind,
    text: notificationText(r.kind, actor.name, item.type, item.title),
  }));
  const [result] = await rows<{ to_push: boolean }>(
    tx,
    commentNotificationsQuery(
      JSON.stringify(recipients),
      item.id,
      item.type,
      item.title,
      actor.id,
      input.commentId,
    ),
  );
  if (result?.to_push) outboxSignal.mark(tx);
}

// Built once (db/client.ts `prepared`): the recipients travel as one JSON parameter.
const commentNotificationsQuery = prepared(
  (
    recipients: string,
    itemId: number,
    itemType: ItemType,
    title: string,
    actorId: number,
    commentId: number,
  ) =>
    sql`WITH r AS (
          SELECT * FROM json_to_recordset(${recipients}::json) AS r(user_id int, kind text, text text)),
        last AS (
          SELECT DISTINCT ON (n.user_id, n.kind) n.id, n.user_id, n.kind, n.read_at, n.created_at
          FROM notifications n JOIN r ON n.user_id = r.user_id AND n.kind = r.kind
          WHERE n.item_id = ${itemId} AND n.actor_id = ${actorId}
          ORDER BY n.user_id, n.kind, n.id DESC),
        folded AS (
          UPDATE notifications n SET text = r.text, item_title = ${title}, comment_id = ${commentId},
              updated_at = now()
          FROM last JOIN r ON r.user_id = last.user_id AND r.kind = last.kind
          WHERE n.id = last.id AND last.read_at IS NULL
            AND last.created_at <= now() AND last.created_at > now() - ${`${BURST_MS} milliseconds`}::interval
          RETURNING n.user_id),
        inserted AS (
          INSERT INTO notifications (user_id, actor_id, kind, item_id, item_type, item_title, text, comment_id, pushed_at)
          SELECT r.user_id, ${actorId}, r.kind, ${itemId}, ${itemType}, ${title}, r.text, ${commentId},
            CASE WHEN EXISTS (SELECT 1 FROM push_subscriptions s WHERE s.user_id = r.user_id)
                AND (SELECT count(*) FROM notifications n WHERE n.user_id = r.user_id
                      AND n.actor_id IS NOT NULL AND n.created_at > now() - interval '1 minute') < ${PUSHES_PER_MINUTE}
              THEN NULL ELSE now() END
          FROM r
          WHERE r.user_id NOT IN (SELECT user_id FROM folded)
            AND (SELECT count(*) FROM notifications n WHERE n.user_id = r.user_id
                  AND n.kind IN ('mentioned', 'commented') AND n.created_at > now() - interval '1 minute')
                < ${COMMENT_NOTICES_PER_MINUTE}
          RETURNING pushed_at IS NULL AS to_push)
        SELECT coalesce(bool_or(to_push), false) AS to_push FROM inserted`,
);
