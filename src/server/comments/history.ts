import { membershipPhrase } from '../../shared/activity';
import {
  type HistoryEntry,
  type HistoryRedaction,
  isRevertible,
  planRevert,
  redactedChanges,
  revertableMetadata,
} from '../../shared/history';
import { itemPatchSchema } from '../../shared/schemas';
import type { UserRow } from '../auth/users';
import { type Executor, rows, sql } from '../db/client';
import { HttpError, notFound, parseOrThrow } from '../http/errors';
import type { WriteResult } from '../http/idempotency';
import { iso } from '../http/serialize';
import { findVisibleItem, visibleTo } from '../items/queries';
import { updateItem } from '../items/service';

interface EntryRow {
  id: number;
  user_id: number;
  user_name: string;
  action: string;
  metadata: Record<string, unknown>;
  created_at: Date | string;
  via_token: string | null;
}

/** Feed entries that are not changes to the item itself: a comment has its own place in the timeline. */
const NOT_HISTORY = sql`a.action <> 'commented'`;

/** The parent ids an entry's move names (its `parent_id` change), for the visibility check. */
function movedBetween(metadata: Record<string, unknown> | null): number[] {
  const ids = metadata?.parent_id as { old?: unknown; new?: unknown } | undefined;
  if (typeof ids !== 'object' || ids === null) return [];
  return [ids.old, ids.new].filter((id): id is number => typeof id === 'number');
}

/** The parents the moves in these feed entries name that `readerId` does not see (K22). */
export async function hiddenParentsOf(
  db: Executor,
  readerId: number,
  metadata: readonly (Record<string, unknown> | null)[],
): Promise<Set<number>> {
  const named = [...new Set(metadata.flatMap(movedBetween))];
  if (named.length === 0) return new Set();
  const seen = await rows<{ id: number }>(
    db,
    sql`SELECT i.id FROM items i WHERE i.id = ANY(${`{${named.join(',')}}`}::int[]) AND ${visibleTo(readerId)}`,
  );
  const seenIds = new Set(seen.map((r) => r.id));
  return new Set(named.filter((id) => !seenIds.has(id)));
}

/**
 * What `readerId` may not read in the history of `itemId` (K22): the parents named by these entries
 * that they do not see, and the horizon before which the item was out of their sight. The horizon is
 * the latest move of the item or of an ancestor it has now that came from a place the reader does
 * not see (a parent hidden from them, or the top level of someone else's item): what was written
 * before it was never theirs to read. Its creator has none.
 */
async function redactionFor(
  db: Executor,
  readerId: number,
  itemId: number,
  metadata: readonly (Record<string, unknown> | null)[],
): Promise<HistoryRedaction> {
  const moves = await rows<{ id: number; metadata: Record<string, unknown>; creator: number; own: boolean }>(
    db,
    sql`SELECT a.id, a.metadata, m.user_id AS creator, (i.user_id = ${readerId}) AS own
        FROM items i
        LEFT JOIN items p ON p.id = i.parent_id
        JOIN activities a ON a.item_id IN (i.id, p.id, p.parent_id) AND a.metadata->'parent_id' IS NOT NULL
        JOIN items m ON m.id = a.item_id
        WHERE i.id = ${itemId}
        ORDER BY a.id DESC LIMIT 200`,
  );
  const hiddenParents = await hiddenParentsOf(db, readerId, [...metadata, ...moves.map((m) => m.metadata)]);
  let horizon: number | null = null;
  if (!moves[0]?.own) {
    for (const move of moves) {
      const from = (move.metadata.parent_id as { old?: unknown }).old;
      const unseen = typeof from === 'number' ? hiddenParents.has(from) : move.creator !== readerId;
      if (unseen) {
        horizon = move.id;
        break;
      }
    }
  }
  return { hiddenParents, horizon };
}

/** One page of an item's history, newest first (§4 'History'), as `readerId` may read it (K22). */
export async function listHistory(
  db: Executor,
  readerId: number,
  itemId: number,
  page: number,
  perPage: number,
): Promise<{ data: HistoryEntry[]; total: number }> {
  const [counted, found] = await Promise.all([
    rows<{ total: number }>(
      db,
      sql`SELECT count(*)::int AS total FROM activities a WHERE a.item_id = ${itemId} AND ${NOT_HISTORY}`,
    ),
    rows<EntryRow>(
      db,
      sql`SELECT a.id, a.user_id, u.name AS user_name, a.action, a.metadata, a.created_at, a.via_token
          FROM activities a JOIN users u ON u.id = a.user_id
          WHERE a.item_id = ${itemId} AND ${NOT_HISTORY}
          ORDER BY a.id DESC LIMIT ${perPage} OFFSET ${(page - 1) * perPage}`,
    ),
  ]);
  const redaction = await redactionFor(
    db,
    readerId,
    itemId,
    found.map((r) => r.metadata),
  );
  const data = found.map((r): HistoryEntry => {
    const entry = {
      id: r.id,
      user: { id: r.user_id, name: r.user_name },
      at: iso(r.created_at),
      action: r.action,
      via: r.via_token,
    };
    // A membership line says whom in words (issue 50); its role change is in the sentence.
    const summary = membershipPhrase(r.action, r.metadata);
    if (summary !== null) return { ...entry, changes: {}, summary };
    return { ...entry, changes: redactedChanges(r.id, r.metadata ?? {}, redaction) };
  });
  return { data, total: counted[0]?.total ?? 0 };
}

/**
 * Reverts one history entry (K3): each field it changed goes back to its `from` where the item still
 * holds its `to`, through the item's own write path (roll-up, feed, notifications, sync, the viewer's
 * 403); fields changed since are left alone and named in `skipped`.
 */
export async function revertEntry(
  tx: Executor,
  actor: UserRow,
  itemId: number,
  entryId: number,
): Promise<WriteResult> {
  const item = await findVisibleItem(tx, actor.id, itemId);
  if (!item) throw notFound();
  const [entry] = await rows<EntryRow>(
    tx,
    sql`SELECT a.id, a.user_id, '' AS user_name, a.action, a.metadata, a.created_at
        FROM activities a WHERE a.id = ${entryId} AND a.item_id = ${itemId} AND ${NOT_HISTORY}`,
  );
  if (!entry) throw notFound('History entry');
  if (!isRevertible(entry.metadata ?? {})) throw new HttpError(422, 'This entry has no change to restore.');
  // K22: what the reader may not read is not set back by them either (it would show it).
  const redaction = await redactionFor(tx, actor.id, itemId, [entry.metadata]);
  const { metadata, hidden } = revertableMetadata(entry.id, entry.metadata ?? {}, redaction);
  const planned = planRevert(metadata, item);
  const patch = planned.patch;
  const skipped = [...hidden, ...planned.skipped];
  if (Object.keys(patch).length === 0) return { status: 200, body: { ...item, skipped } };
  // What the feed recorded passed the item rules when it was written; they are asked again now.
  const result = await updateItem(tx, actor, itemId, parseOrThrow(itemPatchSchema, patch), undefined);
  return { ...result, body: { ...(result.body as object), skipped } };
}
