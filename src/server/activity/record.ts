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
  /** The line to show instead of the one describeActivity makes (membership entries name the member). */
  description?: string;
}

/** Appends one entry to the activity feed of the item's top-level item. */
export async function recordActivity(db: Executor, entry: ActivityInput): Promise<void> {
  const description =
    entry.description ??
    describeActivity(entry.actor.name, entry.action, entry.item.type, entry.item.title, entry.assigneeName);
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

/** Rows one statement of `recordActivities` carries: a cascade over thousands stays a few statements. */
const ACTIVITIES_PER_STATEMENT = 1_000;

/**
 * Appends many entries in a few statements (a cascade's consequences): one row each, exactly as
 * `recordActivity` would write them one at a time, in the order given.
 */
export async function recordActivities(db: Executor, entries: readonly ActivityInput[]): Promise<void> {
  for (let start = 0; start < entries.length; start += ACTIVITIES_PER_STATEMENT) {
    const rowsJson = JSON.stringify(
      entries.slice(start, start + ACTIVITIES_PER_STATEMENT).map((entry, index) => ({
        n: index,
        user_id: entry.actor.id,
        item_id: entry.item.id,
        root_id: entry.rootId,
        action: entry.action,
        item_type: entry.item.type,
        item_title: entry.item.title,
        description: describeActivity(
          entry.actor.name,
          entry.action,
          entry.item.type,
          entry.item.title,
          entry.assigneeName,
        ),
        metadata: entry.metadata ?? {},
      })),
    );
    // One JSON parameter, not eight per row: PostgreSQL caps a statement's parameters at 65,535.
    await db.execute(
      sql`INSERT INTO activities (user_id, item_id, root_id, action, item_type, item_title, description, metadata)
          SELECT r.user_id, r.item_id, r.root_id, r.action, r.item_type, r.item_title, r.description, r.metadata
          FROM jsonb_to_recordset(${rowsJson}::jsonb) AS r(n int, user_id int, item_id int, root_id int,
            action text, item_type text, item_title text, description text, metadata jsonb)
          ORDER BY r.n`,
    );
  }
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
