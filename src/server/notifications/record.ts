import type { ItemType } from '../../shared/item';
import {
  joinsBurst,
  type NotificationKind,
  notificationText,
  recipientsOf,
} from '../../shared/notifications';
import type { ActivityInput } from '../activity/record';
import { type Executor, prepared, rows, sql } from '../db/client';
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
  for (const { userId, kind } of recipients) {
    await addNotification(tx, {
      userId,
      kind,
      actor: entry.actor,
      item: entry.item,
    });
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
 * Writes one entry, or folds an edit into the same person's unread edit of the same item from the
 * last minute (a burst is one entry). The push outbox (`pushed_at` null) only holds entries for
 * users with a push subscription, so it stays empty for everyone else.
 */
export async function addNotification(
  tx: Executor,
  input: {
    userId: number;
    kind: NotificationKind;
    actor: { id: number; name: string } | null;
    item: { id: number; type: ItemType; title: string };
  },
): Promise<void> {
  const text = notificationText(input.kind, input.actor?.name ?? null, input.item.type, input.item.title);
  if (input.kind === 'updated' && input.actor) {
    const [last] = await rows<{
      id: number;
      created_at: Date | string;
      read_at: unknown;
      now: Date | string;
    }>(
      tx,
      sql`SELECT id, created_at, read_at, now() AS now FROM notifications
          WHERE user_id = ${input.userId} AND item_id = ${input.item.id} AND actor_id = ${input.actor.id}
            AND kind = 'updated'
          ORDER BY id DESC LIMIT 1`,
    );
    if (
      last &&
      joinsBurst(
        {
          kind: 'updated',
          actorId: input.actor.id,
          itemId: input.item.id,
          createdAt: new Date(last.created_at),
          read: last.read_at !== null,
        },
        { kind: 'updated', actorId: input.actor.id, itemId: input.item.id, at: new Date(last.now) },
      )
    ) {
      await tx.execute(
        sql`UPDATE notifications SET text = ${text}, item_title = ${input.item.title}, updated_at = now()
            WHERE id = ${last.id}`,
      );
      return;
    }
  }
  const [inserted] = await rows<{ to_push: boolean }>(
    tx,
    sql`INSERT INTO notifications (user_id, actor_id, kind, item_id, item_type, item_title, text, pushed_at)
        VALUES (${input.userId}, ${input.actor?.id ?? null}, ${input.kind}, ${input.item.id}, ${input.item.type},
          ${input.item.title}, ${text},
          CASE WHEN EXISTS (SELECT 1 FROM push_subscriptions s WHERE s.user_id = ${input.userId})
            THEN NULL ELSE now() END)
        RETURNING pushed_at IS NULL AS to_push`,
  );
  if (inserted?.to_push) outboxSignal.pending = true;
}
