import { describeActivity } from '../../shared/activity';
import type { ActivityAction, ItemType } from '../../shared/item';
import { type Executor, prepared, sql } from '../db/client';

export interface ActivityInput {
  actor: { id: number; name: string };
  action: ActivityAction;
  item: { id: number; type: ItemType; title: string };
  rootId: number;
  metadata?: Record<string, unknown>;
  assigneeName?: string | null;
}

/** Appends one entry to the activity feed of the item's top-level item. */
export async function recordActivity(db: Executor, entry: ActivityInput): Promise<void> {
  const description = describeActivity(
    entry.actor.name,
    entry.action,
    entry.item.type,
    entry.item.title,
    entry.assigneeName,
  );
  await db.execute(
    insertActivity(
      entry.actor.id,
      entry.item.id,
      entry.rootId,
      entry.action,
      entry.item.type,
      entry.item.title,
      description,
      JSON.stringify(entry.metadata ?? {}),
    ),
  );
}

// Every write appends at least one entry: the statement is built once (db/client.ts `prepared`).
const insertActivity = prepared(
  (
    userId: number,
    itemId: number,
    rootId: number,
    action: ActivityAction,
    itemType: ItemType,
    itemTitle: string,
    description: string,
    metadata: string,
  ) =>
    sql`INSERT INTO activities (user_id, item_id, root_id, action, item_type, item_title, description, metadata)
        VALUES (${userId}, ${itemId}, ${rootId}, ${action}, ${itemType}, ${itemTitle}, ${description},
                ${metadata}::jsonb)`,
);
