import { randomUUID } from 'node:crypto';
import type { Item } from '../../shared/item';
import { ITEM_FIELD_NAMES, type ItemFieldName } from '../../shared/itemFields';
import { asPriority } from '../../shared/planning';
import { nextOccurrence } from '../../shared/recurrence';
import { recurrenceProblem } from '../../shared/recurrenceRule';
import type { ItemCreate } from '../../shared/schemas';
import { recordActivity } from '../activity/record';
import type { UserRow } from '../auth/users';
import { assertRoleAllows } from '../campaigns/access';
import { type Executor, rows, sql } from '../db/client';
import { unprocessable } from '../http/errors';
import { keyAfterLastSibling } from './order';
import {
  DECLARED_COLUMNS,
  declaredColumns,
  declaredValuesSql,
  fieldsJson,
  findItem,
  type ItemRow,
  insertedValues,
  visibleTo,
} from './queries';

/**
 * Recurrence on the server (ARCHITECTURE §5, SYNC.md N1–N3): the checks on a rule, the owner of an
 * occurrence, and the next occurrence created in the completing transaction. Kept out of service.ts,
 * which calls it from one place per write. A queued create of the next occurrence of a series the
 * caller may complete is owned by that series' owner (seriesCreate), so `ON CONFLICT (user_id, uuid)
 * DO NOTHING` here and a known uuid answering the existing item (P2) make the server's copy, each
 * device's and every repeat one row.
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

/** Told to whoever names a series they see but not as the next occurrence of one they may complete. */
export const NOT_NEXT_OCCURRENCE = 'This is not the next occurrence of a repeating item you can complete.';

/** Who owns a create, and what it creates (the request, or the occurrence the server derives). */
export interface SeriesCreate {
  owner: number;
  input: ItemCreate;
}

/** A series' occurrence as seriesCreate reads it: every declared field (what nextOccurrence carries). */
type SeriesRow = Pick<ItemRow, ItemFieldName> & {
  id: number;
  uuid: string | null;
  user_id: number;
  type: Item['type'];
  root: number;
};

/** The live items of series `series` that `userId` sees (the series' first item and its occurrences). */
const inSeries = (series: string, userId: number) =>
  sql`i.id IN (SELECT s.id FROM items s WHERE s.series_uuid = ${series}
        UNION ALL SELECT s.id FROM items s WHERE s.uuid = ${series})
      AND i.deleted_at IS NULL AND ${visibleTo(userId)}`;

/**
 * Who owns a create, and what it creates (SYNC.md N2, P4). Without `series_uuid` it is the caller's.
 * A known occurrence the caller sees (a device's replayed create meeting the server's copy) keeps its
 * owner, so the known uuid answers it. A new one belongs to the series' owner only when it is the
 * exact next occurrence of one the caller sees and may complete (their role allows it): then it is
 * that occurrence as the server derives it, whatever else the request says, so nobody writes another
 * person's next occurrence or ends their series. Any other create naming a series someone else owns
 * and the caller sees is a 422; naming one the caller does not see makes it the caller's own item.
 */
export async function seriesCreate(tx: Executor, actor: UserRow, input: ItemCreate): Promise<SeriesCreate> {
  const series = input.series_uuid ?? null;
  if (series === null) return { owner: actor.id, input };
  if (input.uuid) {
    // Deleted ones too: a replay of a deleted occurrence's create is answered, not made again (N3).
    const [known] = await rows<{ user_id: number }>(
      tx,
      sql`SELECT i.user_id FROM items i WHERE i.series_uuid = ${series} AND i.uuid = ${input.uuid}
            AND ${visibleTo(actor.id)}
          ORDER BY (i.user_id = ${actor.id}) DESC, i.id LIMIT 1`,
    );
    if (known) return { owner: known.user_id, input };
  }
  if (input.uuid && input.due_date) {
    // The occurrence it follows is due before it: the latest few are enough to find it.
    const before = await rows<SeriesRow>(
      tx,
      sql`SELECT i.id, i.uuid, i.user_id, i.type, ${declaredColumns('i.')}, COALESCE(g.id, p.id, i.id) AS root
          FROM items i LEFT JOIN items p ON p.id = i.parent_id LEFT JOIN items g ON g.id = p.parent_id
          WHERE ${inSeries(series, actor.id)} AND i.recurrence IS NOT NULL AND i.due_date < ${input.due_date}
          ORDER BY (i.user_id = ${actor.id}) DESC, i.due_date DESC, i.id LIMIT 10`,
    );
    for (const previous of before) {
      if ((previous.series_uuid ?? previous.uuid) !== series) continue;
      const next = nextOccurrence({
        ...previous,
        ...fieldsJson(previous, ITEM_FIELD_NAMES),
        recurrence: previous.recurrence ?? null,
        series_uuid: previous.series_uuid ?? null,
      });
      if (next?.uuid !== input.uuid) continue;
      if (previous.user_id === actor.id) return { owner: actor.id, input };
      // Only whoever may complete the occurrence brings its next one (a viewer may not: 403, M5).
      await assertRoleAllows(tx, actor.id, previous.root, 'edit');
      return { owner: previous.user_id, input: { ...next, priority: asPriority(next.priority) } };
    }
  }
  const [other] = await rows<{ id: number }>(
    tx,
    sql`SELECT i.id FROM items i WHERE ${inSeries(series, actor.id)} AND i.user_id <> ${actor.id} LIMIT 1`,
  );
  if (other) throw unprocessable({ series_uuid: [NOT_NEXT_OCCURRENCE] });
  return { owner: actor.id, input };
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
  // Every declared field as the occurrence carries it, else its default (an end date: none).
  const [created] = await rows<{ id: number }>(
    tx,
    sql`INSERT INTO items (uuid, type, user_id, ${DECLARED_COLUMNS})
        VALUES (${next.uuid}, ${next.type}, ${completed.user_id},
          ${declaredValuesSql(insertedValues(next, { sort_key: sortKey }))})
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
