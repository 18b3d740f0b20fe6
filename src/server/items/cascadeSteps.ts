import { setImmediate as yieldToOthers } from 'node:timers/promises';
import type { SQL } from 'drizzle-orm';
import { ITEM_CHILDREN } from '../../shared/itemChildren';
import type { UserRow } from '../auth/users';
import { type Database, type Executor, rows, sql } from '../db/client';
import { type ChangeBus, viewersOfItem } from '../events/changeBus';
import { HttpError } from '../http/errors';
import { assertDeletable } from './service';

/**
 * P7 (issue 48, F0 residual): the embedded database runs one transaction at a time, and deleting or
 * restoring a campaign of 5,000 tasks in one took 0.3-1 s, during which every other user waited (a
 * delete/restore loop kept another user's reads up to 2.1 s). There a large delete or restore goes
 * in steps of CASCADE_STEP_ROWS rows, each its own short transaction under the family's lock, and
 * other requests are served between two steps. PostgreSQL keeps one transaction: nobody waits there.
 *
 * What stays whole: the item itself, its feed entry, the roll-up above it, the Idempotency-Key's
 * record and the answer are the one transaction they always were. The steps only move descendants,
 * bottom-up before a delete (nothing live ever sits under a deleted item) and top-down after a
 * restore, all with the delete's one `deleted_at`, so the trash still takes them as one entry. A step
 * that finds the item gone or the caller no longer allowed stops; a delete that then fails brings
 * back what its steps took. Until the last step, other people can see the campaign half emptied.
 */
export const CASCADE_STEP_ROWS = 250;

const CHANGE = sql`change_xid = pg_current_xact_id()::text::bigint`;

/** The descendants of `id` at one depth: its children (1) or its grandchildren (2). */
const atDepth = (id: number, depth: 1 | 2): SQL =>
  depth === 1
    ? sql`parent_id = ${id}`
    : sql`parent_id IN (SELECT c.id FROM items c WHERE c.parent_id = ${id})`;

interface Context {
  database: Database;
  changes: ChangeBus;
}

/**
 * Runs the steps of one cascade over `id`, each `work` its own transaction, until one moves fewer
 * than CASCADE_STEP_ROWS rows (or refuses, -1: answered). After each commit the people who see `id`
 * (read once, in the first step) are told, as after any write (E1).
 */
async function steps(
  context: Context,
  id: number,
  work: (tx: Executor, first: boolean) => Promise<number>,
): Promise<number> {
  let viewers: number[] | null = null;
  for (let first = true; ; first = false) {
    // The embedded engine answers in the same task: without a turn of the event loop between two
    // steps, a request arriving over the network would still wait for them all.
    if (!first) await yieldToOthers();
    const moved = await context.database.db.transaction(async (tx) => {
      const n = await work(tx, first);
      if (n > 0 && viewers === null) viewers = await viewersOfItem(tx, id);
      return n;
    });
    if (moved > 0 && viewers) context.changes.committed(viewers);
    if (moved < CASCADE_STEP_ROWS) return moved;
  }
}

/**
 * A step after the first holds only the item's row (still live?): the first checked the caller's
 * rights, the delete or restore's own transaction checks them all again, and a step holds the engine
 * for as short as it can.
 */
async function stillLive(tx: Executor, id: number): Promise<boolean> {
  const [row] = await rows<{ id: number }>(
    tx,
    sql`SELECT id FROM items WHERE id = ${id} AND deleted_at IS NULL FOR UPDATE`,
  );
  return row !== undefined;
}

/** The first step's checks: those of the delete itself (`assertDeletable`); false when refused. */
async function mayGoOn(
  tx: Executor,
  actor: UserRow,
  id: number,
  ifMatch: number | undefined,
  first: boolean,
) {
  if (!first) return stillLive(tx, id);
  try {
    await assertDeletable(tx, actor, id, ifMatch);
    return true;
  } catch (error) {
    if (error instanceof HttpError) return false;
    throw error;
  }
}

/** How many live descendants `id` has, counting no further than `past` (it only matters whether more). */
async function liveBelow(db: Executor, id: number, past: number): Promise<number> {
  const [row] = await rows<{ n: number }>(
    db,
    sql`SELECT count(*)::int AS n FROM (SELECT 1 FROM items
          WHERE deleted_at IS NULL AND (${atDepth(id, 1)} OR ${atDepth(id, 2)}) LIMIT ${past + 1}) t`,
  );
  return row?.n ?? 0;
}

/**
 * Before the delete of `id` on the embedded database: deletes its descendants in steps, grandchildren
 * first, while the delete's own checks still hold. Answers the `deleted_at` they got, for the delete
 * to give the rest (deleteItem's `stamp`), or null when it did nothing (a small family, PostgreSQL,
 * or a delete that will be refused or was already made: the delete itself then answers).
 */
export async function deleteDescendantsInSteps(
  context: Context,
  actor: UserRow,
  id: number,
  ifMatch: number | undefined,
): Promise<string | null> {
  if (context.database.kind !== 'pglite') return null;
  if ((await liveBelow(context.database.db, id, CASCADE_STEP_ROWS)) <= CASCADE_STEP_ROWS) return null;
  let stamp: string | null = null;
  const last = await steps(context, id, async (tx, first) => {
    if (!(await mayGoOn(tx, actor, id, ifMatch, first))) return -1;
    if (stamp === null) {
      const [now] = await rows<{ now: string }>(tx, sql`SELECT now()::text AS now`);
      stamp = now?.now ?? null;
    }
    let left = CASCADE_STEP_ROWS;
    for (const depth of [2, 1] as const) {
      const done = await rows<{ id: number }>(
        tx,
        sql`UPDATE items SET deleted_at = ${stamp}::timestamptz, deleted_by = ${actor.id}, updated_at = now(),
              version = version + 1, ${CHANGE}
            WHERE id IN (SELECT id FROM items WHERE deleted_at IS NULL AND ${atDepth(id, depth)}
              LIMIT ${left})
            RETURNING id`,
      );
      left -= done.length;
      if (left === 0) break;
    }
    return CASCADE_STEP_ROWS - left;
  });
  if (last < 0) {
    // Refused now, or already done (a repeat): what the steps took goes back, the delete answers.
    if (stamp !== null) await undoDeleteSteps(context, actor, id, stamp);
    return null;
  }
  return stamp;
}

/**
 * Brings back, in steps, what deleteDescendantsInSteps took when the delete itself did not happen:
 * the rows it stamped, while `id` is still live (a delete that did commit keeps them).
 */
export async function undoDeleteSteps(
  context: Context,
  actor: UserRow,
  id: number,
  stamp: string,
): Promise<void> {
  await steps(context, id, async (tx) => {
    if (!(await stillLive(tx, id))) return 0;
    let left = CASCADE_STEP_ROWS;
    for (const depth of [1, 2] as const) {
      const done = await rows<{ id: number }>(
        tx,
        sql`UPDATE items SET deleted_at = NULL, deleted_by = NULL, updated_at = now(), version = version + 1, ${CHANGE}
            WHERE id IN (SELECT id FROM items WHERE deleted_at = ${stamp}::timestamptz
              AND deleted_by = ${actor.id} AND ${atDepth(id, depth)} LIMIT ${left})
            RETURNING id`,
      );
      left -= done.length;
      if (left === 0) break;
    }
    return CASCADE_STEP_ROWS - left;
  });
}

/**
 * Before the restore of `id` on the embedded database: when it was deleted with more descendants than
 * a step holds, the `deleted_at` they share, and the restore then brings back the item alone
 * (restoreItem's `itemOnly`) for restoreDescendantsInSteps to bring back the rest. Otherwise null.
 */
export async function restoreInSteps(context: Context, id: number): Promise<string | null> {
  if (context.database.kind !== 'pglite') return null;
  const [row] = await rows<{ stamp: string | null; n: number }>(
    context.database.db,
    sql`SELECT r.deleted_at::text AS stamp, (SELECT count(*)::int FROM (SELECT 1 FROM items
          WHERE deleted_at = r.deleted_at AND (${atDepth(id, 1)} OR ${atDepth(id, 2)})
          LIMIT ${CASCADE_STEP_ROWS + 1}) t) AS n
        FROM items r WHERE r.id = ${id} AND r.deleted_at IS NOT NULL`,
  );
  return row?.stamp && row.n > CASCADE_STEP_ROWS ? row.stamp : null;
}

/**
 * After the restore of `id` alone: its descendants deleted with it (`stamp`) come back in steps,
 * children first, with their children (comments, time entries…) sent again (K14), while `id` is live and seen by the caller.
 */
export async function restoreDescendantsInSteps(
  context: Context,
  actor: UserRow,
  id: number,
  stamp: string,
): Promise<void> {
  await steps(context, id, async (tx, first) => {
    // The caller still sees it live, and may still restore it (its creator or its family's).
    if (!(await mayGoOn(tx, actor, id, undefined, first))) return 0;
    let left = CASCADE_STEP_ROWS;
    for (const depth of [1, 2] as const) {
      const done = await rows<{ id: number }>(
        tx,
        sql`WITH back AS (
              UPDATE items SET deleted_at = NULL, deleted_by = NULL, updated_at = now(),
                version = version + 1, ${CHANGE}
              WHERE id IN (SELECT id FROM items WHERE deleted_at = ${stamp}::timestamptz
                AND ${atDepth(id, depth)} LIMIT ${left})
              RETURNING id),
            ${sql.join(
              ITEM_CHILDREN.map(
                (child, n) => sql`${sql.raw(`sent_${n}`)} AS (UPDATE ${sql.raw(child.name)} SET ${CHANGE}
              WHERE deleted_at IS NULL AND ${sql.raw(child.itemColumn)} IN (SELECT id FROM back) RETURNING 1)`,
              ),
              sql`, `,
            )}
            SELECT id FROM back`,
      );
      left -= done.length;
      if (left === 0) break;
    }
    return CASCADE_STEP_ROWS - left;
  });
}
