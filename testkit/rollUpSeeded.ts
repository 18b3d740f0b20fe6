import { type Executor, rows, sql } from '../src/server/db/client';
import type { ItemStatus, ItemType } from '../src/shared/item';
import { completedAtFor, rolledUpStatus } from '../src/shared/status';

interface SeededRow {
  id: number;
  parent_id: number | null;
  type: ItemType;
  status: ItemStatus;
  completed_at: string | null;
  created_at: string;
}

/**
 * Rolls a seeded account's todos up into their tasks, then the tasks into their campaigns, by the
 * app's own rule (src/shared/status.ts rolledUpStatus, completedAtFor), and writes the parents whose
 * status moved in one statement. Seeds insert by set-based SQL for speed; their statuses must still
 * be what the app's roll-up gives, or every benchmark write would "repair" its family first. A parent
 * completed here is stamped a day after it was created.
 */
export async function rollUpSeeded(db: Executor, userId: number): Promise<void> {
  const items = await rows<SeededRow>(
    db,
    sql`SELECT id, parent_id, type, status, completed_at, created_at FROM items
        WHERE user_id = ${userId} AND deleted_at IS NULL`,
  );
  const byId = new Map(items.map((i) => [i.id, i]));
  const changed = new Map<number, SeededRow>();
  for (const [child, parent] of [
    ['todo', 'task'],
    ['task', 'campaign'],
  ] as const) {
    const children = new Map<number, ItemStatus[]>();
    for (const item of items) {
      if (item.type !== child || item.parent_id === null) continue;
      const list = children.get(item.parent_id) ?? [];
      list.push(item.status);
      children.set(item.parent_id, list);
    }
    for (const [id, statuses] of children) {
      const row = byId.get(id);
      if (!row || row.type !== parent) continue;
      const status = rolledUpStatus(row.status, statuses);
      if (status === row.status) continue;
      const dayAfter = new Date(new Date(row.created_at).getTime() + 86_400_000).toISOString();
      row.status = status;
      row.completed_at = completedAtFor(status, null, dayAfter);
      changed.set(id, row);
    }
  }
  if (changed.size === 0) return;
  const values = [...changed.values()].map(({ id, status, completed_at }) => ({ id, status, completed_at }));
  await db.execute(sql`
    UPDATE items t SET status = v.status, completed_at = v.completed_at
    FROM json_to_recordset(${JSON.stringify(values)}::json) AS v(id int, status text, completed_at timestamptz)
    WHERE t.id = v.id`);
}
