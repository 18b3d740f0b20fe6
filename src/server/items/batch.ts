import type { Item } from '../../shared/item';
import type { ItemBatchEntry } from '../../shared/schemas';
import type { UserRow } from '../auth/users';
import { type Executor, rows, sql } from '../db/client';
import { HttpError, unprocessable } from '../http/errors';
import type { WriteResult } from '../http/idempotency';
import { selectItems, visibleTo } from './queries';
import { createItem, createRun, finishCreates, loadKnownUuids } from './service';

/** The errors of one batch item, named `items.N.field` so the client knows which item it was. */
function prefixed(error: HttpError, index: number): HttpError {
  const errors = (error.extra.errors ?? {}) as Record<string, string[]>;
  const named: Record<string, string[]> = {};
  for (const [field, messages] of Object.entries(errors)) named[`items.${index}.${field}`] = messages;
  if (Object.keys(named).length === 0) named[`items.${index}`] = [error.message];
  // The message already counts every error, also those the list was cut to MAX_REPORTED_ERRORS from.
  return new HttpError(422, error.message, { errors: named });
}

/** The id of an item already on the server with this uuid that the actor may see (their own first). */
async function serverParentId(tx: Executor, actor: UserRow, uuid: string): Promise<number | null> {
  const [row] = await rows<{ id: number }>(
    tx,
    sql`SELECT i.id FROM items i
        WHERE i.uuid = ${uuid} AND i.deleted_at IS NULL AND ${visibleTo(actor.id)}
        ORDER BY (i.user_id = ${actor.id}) DESC, i.id LIMIT 1`,
  );
  return row?.id ?? null;
}

/**
 * Creates a batch of items in the caller's transaction, in request order, each through `createItem`
 * (so the visibility, assignee, hierarchy and roll-up rules are the single create's). A parent is
 * named by `parent_id`, or by `parent_uuid`: an earlier item of this batch or one already on the
 * server. A known uuid answers with the existing item, so a repeated batch creates nothing new. Any
 * bad item is a 422 naming it (`items.N.field`) and, thrown inside the transaction, creates nothing.
 * Answers 201 when something was created, 200 when every item already existed.
 */
export async function createItemsBatch(
  tx: Executor,
  actor: UserRow,
  entries: readonly ItemBatchEntry[],
  /** Most live items the actor may own (AppConfig.userMaxItems, F0). */
  userMaxItems = Number.POSITIVE_INFINITY,
): Promise<WriteResult> {
  const positions = new Map<string, number>();
  entries.forEach((entry, index) => {
    const earlier = positions.get(entry.uuid);
    if (earlier !== undefined) {
      throw unprocessable({ [`items.${index}.uuid`]: [`The same uuid as item ${earlier}.`] });
    }
    positions.set(entry.uuid, index);
  });
  await assertAccountRoom(tx, actor, entries.length, userMaxItems);
  const run = createRun();
  await loadKnownUuids(
    tx,
    actor,
    run,
    entries.map((e) => e.uuid),
  );
  const ids = new Map<string, number>();
  const order: number[] = [];
  const created = new Set<number>();
  for (const [index, entry] of entries.entries()) {
    const { parent_uuid, ...input } = entry;
    let parentId = input.parent_id ?? null;
    if (parent_uuid != null) {
      const inBatch = positions.get(parent_uuid);
      if (inBatch !== undefined && inBatch >= index) {
        throw unprocessable({
          [`items.${index}.parent_uuid`]: ['The parent must come before its children in the batch.'],
        });
      }
      parentId = ids.get(parent_uuid) ?? (await serverParentId(tx, actor, parent_uuid));
      if (parentId === null) {
        throw unprocessable({ [`items.${index}.parent_uuid`]: ['The selected parent does not exist.'] });
      }
    }
    let result: WriteResult;
    try {
      result = await createItem(tx, actor, { ...input, parent_id: parentId }, run);
    } catch (error) {
      if (error instanceof HttpError && error.statusCode === 422) throw prefixed(error, index);
      throw error;
    }
    const { id } = result.body as { id: number };
    if (result.status === 201) created.add(id);
    ids.set(entry.uuid, id);
    order.push(id);
  }
  await finishCreates(tx, actor, run, created);
  const list = sql.join(
    order.map((id) => sql`${id}`),
    sql`, `,
  );
  const byId = new Map(
    // P5: only items the caller sees (every answer was checked; this read is the last word).
    (await selectItems(tx, actor.id, sql`i.id IN (${list}) AND ${visibleTo(actor.id)}`, sql``)).map((i) => [
      i.id,
      i,
    ]),
  );
  const items = order.map((id) => byId.get(id)).filter((i): i is Item => i !== undefined);
  return { status: created.size > 0 ? 201 : 200, body: { items } };
}

/**
 * F0: a 422 when `adding` more items would take the actor past `max` live items of their own. The
 * count stops at `max` rows, so it costs no more than the cap however many items there are.
 */
async function assertAccountRoom(tx: Executor, actor: UserRow, adding: number, max: number): Promise<void> {
  if (!Number.isFinite(max)) return;
  const [row] = await rows<{ n: number }>(
    tx,
    sql`SELECT count(*)::int AS n FROM (
          SELECT 1 FROM items WHERE user_id = ${actor.id} AND deleted_at IS NULL LIMIT ${max}) t`,
  );
  if ((row?.n ?? 0) + adding > max) throw unprocessable({ items: [accountFullMessage(max)] });
}

/** What a person is told when their account holds the most items it may. */
export function accountFullMessage(max: number): string {
  return `Your account holds the most items it may (${max.toLocaleString('en-US')}). Delete some to add more.`;
}
