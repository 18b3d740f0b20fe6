import { randomUUID } from 'node:crypto';
import type { Item } from '../../shared/item';
import { textArrayLiteral } from '../../shared/planning';
import { nextOccurrence } from '../../shared/recurrence';
import { recurrenceProblem } from '../../shared/recurrenceRule';
import type { ItemCreate } from '../../shared/schemas';
import { recordActivity } from '../activity/record';
import type { UserRow } from '../auth/users';
import { type Executor, rows, sql } from '../db/client';
import { unprocessable } from '../http/errors';
import { keyAfterLastSibling } from './order';
import { findItem, visibleTo } from './queries';

/**
 * Recurrence on the server (ARCHITECTURE §5, SYNC.md N1–N3): the checks on a rule, the owner of an
 * occurrence, and the next occurrence created in the completing transaction. Kept out of service.ts,
 * which calls it from one place per write. A queued create naming a `series_uuid` the caller sees is
 * owned by that series' owner, so `ON CONFLICT (user_id, uuid) DO NOTHING` here and a known uuid
 * answering the existing item (P2) make the server's copy, each device's and every repeat one row.
 */

const today = () => new Date().toISOString().slice(0, 10);

/**
 * A 422 naming `recurrence` when the item as it will be after the write cannot repeat. `stored`
 * skips the end-date check for a rule judged before (a next occurrence, a guest's upload): refusing
 * it now would split the device's copy from the server's.
 */
export function assertRecurrence(
  item: { type: Item['type']; due_date: string | null; recurrence: string | null },
  stored = false,
): void {
  const problem = recurrenceProblem(item, stored ? '0000-00-00' : today());
  if (problem) throw unprocessable({ recurrence: [problem] });
}

/**
 * Who owns a create: the caller, except for an occurrence of a series the caller sees, which belongs
 * to the series' owner. Then the (owner, uuid) key is the series' and a device's queued create of a
 * next occurrence meets the one the server made when the completion arrived: one row, never two.
 */
export async function occurrenceOwner(tx: Executor, actor: UserRow, input: ItemCreate): Promise<number> {
  const series = input.series_uuid ?? null;
  if (series === null) return actor.id;
  const [row] = await rows<{ user_id: number }>(
    tx,
    sql`SELECT i.user_id FROM items i WHERE i.series_uuid = ${series} AND ${visibleTo(actor.id)}
        UNION ALL (SELECT i.user_id FROM items i WHERE i.uuid = ${series} AND ${visibleTo(actor.id)}
          ORDER BY i.id LIMIT 1)
        LIMIT 1`,
  );
  return row?.user_id ?? actor.id;
}

/**
 * Creates the next occurrence of `completed` (just completed by `actor`, its family locked) unless
 * the series has ended or the occurrence already exists. It belongs to the series' owner, with the
 * same parent and assignee (copied, not re-checked: the completion must not fail over them).
 * Returns the new id so the caller can roll the parent up, or null when nothing was created.
 */
export async function createNextOccurrence(
  tx: Executor,
  actor: UserRow,
  completed: Item,
  rootId: number,
): Promise<number | null> {
  if (!completed.recurrence || !completed.due_date) return null;
  let uuid = completed.uuid;
  if (uuid === null) {
    // Items created over the API without a uuid have none; a series needs one to derive from.
    uuid = randomUUID();
    await tx.execute(sql`UPDATE items SET uuid = ${uuid} WHERE id = ${completed.id}`);
  }
  const next = nextOccurrence({
    ...completed,
    uuid,
    recurrence: completed.recurrence,
    series_uuid: completed.series_uuid ?? null,
  });
  if (next === null) return null;
  // A new item goes last among its siblings (§5 'Order'), as every create does.
  const sortKey = await keyAfterLastSibling(tx, next.parent_id, completed.user_id);
  const [created] = await rows<{ id: number }>(
    tx,
    sql`INSERT INTO items (uuid, series_uuid, recurrence, title, description, type, status, user_id,
          assigned_to, parent_id, due_date, remind_at, time_zone, priority, labels, sort_key)
        VALUES (${next.uuid}, ${next.series_uuid}, ${next.recurrence}, ${next.title}, ${next.description},
          ${next.type}, ${next.status}, ${completed.user_id}, ${next.assigned_to}, ${next.parent_id},
          ${next.due_date}, ${next.remind_at}, ${next.time_zone}, ${next.priority},
          ${textArrayLiteral(next.labels)}::text[], ${sortKey})
        ON CONFLICT (user_id, uuid) DO NOTHING
        RETURNING id`,
  );
  if (!created) return null;
  await recordActivity(tx, {
    actor,
    action: 'created',
    item: { id: created.id, type: next.type, title: next.title },
    rootId: next.parent_id === null ? created.id : rootId,
    metadata: { recurrence: next.recurrence, due_date: next.due_date },
  });
  return created.id;
}

/**
 * N6: the next occurrence of every repeating item that a status cascade (or roll-up) just completed,
 * as a direct completion of each would bring. `ids` are the items the cascade completed; answers the
 * parents whose new child needs rolling up (null for a top-level occurrence's absent parent is left out).
 */
export async function createCascadedOccurrences(
  tx: Executor,
  actor: UserRow,
  ids: readonly number[],
  rootId: number,
): Promise<number[]> {
  if (ids.length === 0) return [];
  // Repeating items are few in any family: one query finds them, then each is read whole.
  const repeating = await rows<{ id: number }>(
    tx,
    sql`SELECT id FROM items WHERE id = ANY(${`{${ids.join(',')}}`}::int[])
          AND recurrence IS NOT NULL AND due_date IS NOT NULL AND deleted_at IS NULL
        ORDER BY id`,
  );
  const parents: number[] = [];
  for (const { id } of repeating) {
    const completed = await findItem(tx, actor.id, id);
    if (!completed) continue;
    const created = await createNextOccurrence(tx, actor, completed, rootId);
    if (created !== null && completed.parent_id !== null) parents.push(completed.parent_id);
  }
  return parents;
}
