import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { syncPageSchema } from '../../shared/apiSchemas';
import type { SyncCommentChange, SyncPageComments } from '../../shared/comments';
import { SYNC_PAGE_SIZE, type SyncPage } from '../../shared/item';
import { syncQuerySchema } from '../../shared/schemas';
import type { SyncPageTimeEntries, SyncTimeEntryChange } from '../../shared/timeEntries';
import { COMMENT_SELECT, commentJson } from '../comments/service';
import { hotStatement, rows, sql } from '../db/client';
import { currentUser } from '../http/context';
import { unprocessable } from '../http/errors';
import { iso } from '../http/serialize';
import { syncItemsJson, visibleTo } from '../items/queries';
import { invalidAnswer, routeDoc } from '../openapi/routeDoc';
import { TIME_ENTRY_SELECT, type TimeEntryRow, timeEntryJson } from '../timeEntries/service';
import { type CursorPosition, decodeCursor, encodeCursor } from './cursor';

/**
 * Changes since a cursor: every visible item changed after it, tombstones included, and the comments
 * on visible items changed after it (K13; see cursor.ts).
 */
export async function syncRoutes(plain: FastifyInstance): Promise<void> {
  const app = plain.withTypeProvider<ZodTypeProvider>();
  const db = app.database.db;
  // The newest transaction id this instance has seen the database hand out (see fromTheFuture).
  let knownXmax = 0n;
  /**
   * Whether a cursor names a transaction this database has not reached: one from before a restore
   * (npm run restore) into a database whose transaction ids are younger. Pulling from it would
   * return nothing until the ids caught up, so it is read as a full bootstrap instead; the device
   * merges what it already holds. Every cursor this database gave out lies below its xmax, so the
   * database is asked only when a cursor passes the newest xmax seen here (once per cursor at most).
   */
  const fromTheFuture = async (position: CursorPosition): Promise<boolean> => {
    const newest =
      position.since !== undefined && position.since > position.xid ? position.since : position.xid;
    if (newest <= knownXmax) return false;
    const [found] = await rows<{ xmax: string | number }>(
      db,
      sql`SELECT pg_snapshot_xmax(pg_current_snapshot())::text AS xmax`,
    );
    const xmax = BigInt(found?.xmax ?? 0);
    if (xmax > knownXmax) knownXmax = xmax;
    return newest > xmax;
  };
  const syncDoc = routeDoc({
    summary: 'Changes since a cursor',
    description:
      'Every item the caller sees that changed after the cursor (deleted or no longer visible ones as tombstones), with the comments and other rows that changed with them, at most 500 a page. No cursor is a full bootstrap. The cursor is opaque.',
    tags: ['Sync'],
    querystring: syncQuerySchema,
    answers: {
      200: { description: 'One page of changes.', schema: syncPageSchema },
      422: invalidAnswer('Bad input, or a cursor this server did not give out.'),
    },
  });
  app.get('/sync', { schema: syncDoc }, async (request, reply) => {
    const user = currentUser(request);
    const { cursor, count } = request.query;
    const decoded = decodeCursor(cursor);
    if (!decoded) throw unprocessable({ cursor: ['The cursor is not one this server gave out.'] });
    const from = (await fromTheFuture(decoded)) ? { xid: 0n, id: 0 } : decoded;

    // The common pull: nothing changed for this user since this very cursor was handed out.
    const live = app.changes.isLive();
    const hit = live && cursor ? app.readCache.get(user.id, `sync:${cursor}`) : undefined;
    if (hit !== undefined) return reply.type('application/json; charset=utf-8').send(hit);
    const stamp = app.readCache.stamp(user.id);

    // One statement, one snapshot: the horizon and the rows below it are read together, and the
    // horizon comes back even when no row does.
    const xid = from.xid.toString();
    // K13: within one transaction id the item rows come first, then the comments. From a comment's
    // position every item row of its xid has been sent; from an item's, every comment of it is to come.
    // X5: time entries come last within a transaction id, after its comments.
    const atTime = from.timeEntry === true;
    const atComment = from.comment === true || atTime;
    // A row comparison, not the equivalent OR: it is one range of items_change_idx (change_xid, id)
    // that starts at the cursor, where the OR scanned from the cursor's xid and filtered out every row
    // of it already sent (a bootstrap inside one large transaction read 500 more rows each page).
    const itemsAfter = atComment
      ? sql`i.change_xid > ${xid}::bigint`
      : sql`(i.change_xid, i.id) > (${xid}::bigint, ${from.id}::int)`;
    const revokedAfter = atComment
      ? sql`v.change_xid > ${xid}::bigint`
      : sql`(v.change_xid, v.item_id) > (${xid}::bigint, ${from.id}::int)`;
    // M2: a membership granted (or a role changed) after the cursor sends the campaign's whole live
    // tree at the grant's position, however old its rows' own change_xid: the member never had them.
    const grantedAfter = atComment
      ? sql`m.change_xid > ${xid}::bigint`
      : sql`(m.change_xid > ${xid}::bigint
      OR (m.change_xid = ${xid}::bigint AND t.id > ${from.id}))`;
    const commentedAfter = atTime
      ? sql`c.change_xid > ${xid}::bigint`
      : atComment
        ? sql`(c.change_xid > ${xid}::bigint OR (c.change_xid = ${xid}::bigint AND c.id > ${from.id}))`
        : sql`c.change_xid >= ${xid}::bigint`;
    const timedAfter = atTime
      ? sql`(e.change_xid > ${xid}::bigint OR (e.change_xid = ${xid}::bigint AND e.id > ${from.id}))`
      : sql`e.change_xid >= ${xid}::bigint`;
    // K14: the grant sends the tree's live comments too, at the grant's position, after its items.
    const commentGrantedAfter = atTime
      ? sql`m.change_xid > ${xid}::bigint`
      : atComment
        ? sql`(m.change_xid > ${xid}::bigint OR (m.change_xid = ${xid}::bigint AND c.id > ${from.id}))`
        : sql`m.change_xid >= ${xid}::bigint`;
    // X5: and its live time entries, after its comments.
    const timeGrantedAfter = atTime
      ? sql`(m.change_xid > ${xid}::bigint OR (m.change_xid = ${xid}::bigint AND e.id > ${from.id}))`
      : sql`m.change_xid >= ${xid}::bigint`;
    // A pull from the very beginning meets every tree granted before its first page among the item
    // changes: no grant rows below that page's xmin, there and on the pages that follow (cursor.ts).
    const fresh = from.xid === 0n && from.id === 0 && from.since === undefined;
    // Its grant rows would lie at or above the horizon and below it at once: none, so its statement
    // leaves the grant branches (and their counts) out, which halves what the first page plans.
    const grantFloor =
      from.since === undefined ? sql`` : sql`AND m.change_xid >= ${from.since.toString()}::bigint`;
    const tree = sql`campaign_members m CROSS JOIN LATERAL (
        SELECT f.id FROM items f WHERE f.id = m.campaign_id AND f.deleted_at IS NULL
        UNION ALL SELECT f.id FROM items f WHERE f.parent_id = m.campaign_id AND f.deleted_at IS NULL
        UNION ALL SELECT f.id FROM items f JOIN items fp ON fp.id = f.parent_id
          WHERE fp.parent_id = m.campaign_id AND f.deleted_at IS NULL) t`;
    const granted = sql`m.user_id = ${user.id} AND m.change_xid >= ${xid}::bigint AND m.change_xid < horizon.xmin
        ${grantFloor}`;
    const grants = sql`FROM ${tree} WHERE ${granted} AND ${grantedAfter}`;
    const commentGrants = sql`FROM ${tree} JOIN comments c ON c.item_id = t.id AND c.deleted_at IS NULL
      WHERE ${granted} AND ${commentGrantedAfter}`;
    const timeGrants = sql`FROM ${tree} JOIN time_entries e ON e.item_id = t.id AND e.deleted_at IS NULL
      WHERE ${granted} AND ${timeGrantedAfter}`;
    // K13: a comment goes to whoever sees its live item, exactly as the item does; nobody else learns
    // of it, not even as a tombstone. The plain `>=` bound lets the planner range-scan the index.
    const commented = sql`FROM comments c JOIN items i ON i.id = c.item_id
      WHERE c.change_xid >= ${xid}::bigint AND c.change_xid < horizon.xmin AND ${commentedAfter}
        AND i.deleted_at IS NULL AND ${visibleTo(user.id)}`;
    // X5: a time entry likewise, to whoever sees its live item.
    const timed = sql`FROM time_entries e JOIN items i ON i.id = e.item_id
      WHERE e.change_xid >= ${xid}::bigint AND e.change_xid < horizon.xmin AND ${timedAfter}
        AND i.deleted_at IS NULL AND ${visibleTo(user.id)}`;
    // L7: asked for, the same statement counts every change after the cursor below the same horizon,
    // by the page's own filters (items_change_idx and item_revocations_change_idx ranges), once.
    // The plain `>=` bound is implied by the cursor's OR, but only it lets the planner range-scan the
    // index: without it an incremental pull's count would read every row of the table.
    const counted = count
      ? sql`(SELECT count(*) FROM items i
              WHERE i.change_xid >= ${xid}::bigint AND i.change_xid < horizon.xmin AND ${itemsAfter}
                AND ${visibleTo(user.id)})
          + (SELECT count(*) FROM item_revocations v
              WHERE v.user_id = ${user.id} AND v.change_xid >= ${xid}::bigint
                AND v.change_xid < horizon.xmin AND ${revokedAfter})
          + (SELECT count(*) ${commented}) + (SELECT count(*) ${timed})
          ${fresh ? sql`` : sql`+ (SELECT count(*) ${grants}) + (SELECT count(*) ${commentGrants}) + (SELECT count(*) ${timeGrants})`}`
      : sql`NULL::bigint`;
    const found = await rows<{
      id: number | null;
      change_xid: string | number | null;
      revoked_at: Date | string | null;
      k: number | null;
      horizon: string | number;
      xmax: string | number;
      after: string | number | null;
    }>(
      db,
      hotStatement(sql`WITH horizon AS (
            SELECT pg_snapshot_xmin(s)::text::bigint AS xmin, pg_snapshot_xmax(s)::text::bigint AS xmax
            FROM pg_current_snapshot() s
          ), counted AS MATERIALIZED (
            SELECT ${counted} AS after FROM horizon
          )
          SELECT r.id, r.change_xid, r.revoked_at, r.k, horizon.xmin AS horizon, horizon.xmax AS xmax,
            counted.after::text AS after
          FROM horizon CROSS JOIN counted LEFT JOIN LATERAL (
            SELECT u.id, u.change_xid, u.revoked_at, u.k FROM (
              (SELECT i.id, i.change_xid, NULL::timestamptz AS revoked_at, 0 AS k
               FROM items i
               WHERE i.change_xid < horizon.xmin AND ${itemsAfter} AND ${visibleTo(user.id)}
               ORDER BY i.change_xid, i.id
               LIMIT ${SYNC_PAGE_SIZE + 1})
              UNION ALL
              (SELECT v.item_id AS id, v.change_xid, v.revoked_at, 0 AS k
               FROM item_revocations v
               WHERE v.user_id = ${user.id} AND v.change_xid < horizon.xmin AND ${revokedAfter}
               ORDER BY v.change_xid, v.item_id
               LIMIT ${SYNC_PAGE_SIZE + 1})
              UNION ALL
              (SELECT c.id, c.change_xid, NULL::timestamptz AS revoked_at, 1 AS k ${commented}
               ORDER BY c.change_xid, c.id
               LIMIT ${SYNC_PAGE_SIZE + 1})
              UNION ALL
              (SELECT e.id, e.change_xid, NULL::timestamptz AS revoked_at, 2 AS k ${timed}
               ORDER BY e.change_xid, e.id
               LIMIT ${SYNC_PAGE_SIZE + 1})
              ${
                fresh
                  ? sql``
                  : sql`UNION ALL
              (SELECT t.id, m.change_xid, NULL::timestamptz AS revoked_at, 0 AS k ${grants}
               ORDER BY m.change_xid, t.id
               LIMIT ${SYNC_PAGE_SIZE + 1})
              UNION ALL
              (SELECT c.id, m.change_xid, NULL::timestamptz AS revoked_at, 1 AS k ${commentGrants}
               ORDER BY m.change_xid, c.id
               LIMIT ${SYNC_PAGE_SIZE + 1})
              UNION ALL
              (SELECT e.id, m.change_xid, NULL::timestamptz AS revoked_at, 2 AS k ${timeGrants}
               ORDER BY m.change_xid, e.id
               LIMIT ${SYNC_PAGE_SIZE + 1})`
              }
            ) u
            ORDER BY u.change_xid, u.k, u.id
            LIMIT ${SYNC_PAGE_SIZE + 1}
          ) r ON true
          ORDER BY r.change_xid, r.k, r.id`),
    );
    const horizon = BigInt(found[0]?.horizon ?? 0);
    const changed = found.filter(
      (r): r is typeof r & { id: number; change_xid: string | number; k: number } =>
        r.id !== null && r.change_xid !== null && r.k !== null,
    );
    const hasMore = changed.length > SYNC_PAGE_SIZE;
    const page = changed.slice(0, SYNC_PAGE_SIZE);
    app.metrics.syncPullRows.inc(page.length);
    const last = page.at(-1);
    let next: CursorPosition = { xid: from.xid, id: from.id };
    if (hasMore && last)
      next =
        Number(last.k) === 2
          ? { xid: BigInt(last.change_xid), id: last.id, timeEntry: true }
          : Number(last.k) === 1
            ? { xid: BigInt(last.change_xid), id: last.id, comment: true }
            : { xid: BigInt(last.change_xid), id: last.id };
    else if (horizon > from.xid) next = { xid: horizon, id: 0 };
    // Carried until the pull passes it; past it, `>= xid` already leaves out every grant below it.
    const since = fresh ? horizon : from.since;
    if (since !== undefined && next.xid < since) next = { ...next, since };
    // One entry per item, the latest: a revocation and a later re-grant (or the reverse) in one page.
    const latest = new Map<number, (typeof page)[number]>();
    const commentIds = new Set<number>();
    const timeEntryIds = new Set<number>();
    for (const row of page) {
      if (Number(row.k) === 2) {
        timeEntryIds.add(row.id);
        continue;
      }
      if (Number(row.k) === 1) {
        commentIds.add(row.id);
        continue;
      }
      latest.delete(row.id);
      latest.set(row.id, row);
    }
    // The page's items as JSON text built by the database (syncItemsJson), sent as it is. A lost item
    // travels as a tombstone, exactly like a deleted one: the id, the uuid and when, never what the
    // item has become since (its title may be what the user must no longer read).
    const rowsOfPage = [...latest.values()];
    const items = await syncItemsJson(
      db,
      user.id,
      rowsOfPage.map((row) => row.id),
      rowsOfPage.map((row) => (row.revoked_at === null ? null : iso(row.revoked_at))),
    );
    const comments = await pageComments(db, [...commentIds]);
    const timeEntries = await pageTimeEntries(db, [...timeEntryIds]);
    const nextCursor = encodeCursor(next);
    // The count took in this page's rows (before one entry per item was kept): what is left after them.
    const after = found[0]?.after;
    const remaining =
      count && after !== null && after !== undefined
        ? hasMore
          ? Math.max(0, Number(after) - page.length)
          : 0
        : undefined;
    // The SyncPage shape, written out around the items' text: {items, comments, cursor, has_more, remaining?}.
    const body = `{"items":${items},"comments":${JSON.stringify(comments)},"time_entries":${JSON.stringify(timeEntries)},"cursor":${JSON.stringify(nextCursor)},"has_more":${hasMore}${remaining === undefined ? '' : `,"remaining":${remaining}`}}`;
    // With no transaction in flight at the snapshot (xmin = xmax), every row below the new cursor
    // has been sent: until a change event for this user arrives, a pull from it finds nothing.
    const quiescent = String(found[0]?.xmax ?? '') === String(found[0]?.horizon ?? '');
    if (live && !hasMore && quiescent) {
      const empty: SyncPage & SyncPageComments & SyncPageTimeEntries = {
        items: [],
        comments: [],
        time_entries: [],
        cursor: nextCursor,
        has_more: false,
      };
      app.readCache.set(user.id, `sync:${nextCursor}`, stamp, JSON.stringify(empty));
    }
    return reply.type('application/json; charset=utf-8').send(body);
  });
}

/**
 * The page's comments (K13): a live one as the API shows it with its item's uuid, a deleted one as a
 * bare tombstone. The page's statement already chose them by the reader's sight of their items.
 */
async function pageComments(
  db: FastifyInstance['database']['db'],
  ids: readonly number[],
): Promise<SyncCommentChange[]> {
  if (ids.length === 0) return [];
  const list = sql.join(
    ids.map((id) => sql`${id}`),
    sql`, `,
  );
  const found = await rows<Parameters<typeof commentJson>[0] & { item_uuid: string | null }>(
    db,
    sql`SELECT ${COMMENT_SELECT} WHERE c.id IN (${list}) ORDER BY c.id`,
  );
  const itemIds = [...new Set(found.map((r) => r.item_id))];
  const uuids = new Map(
    itemIds.length === 0
      ? []
      : (
          await rows<{ id: number; uuid: string | null }>(
            db,
            sql`SELECT id, uuid FROM items WHERE id IN (${sql.join(
              itemIds.map((id) => sql`${id}`),
              sql`, `,
            )})`,
          )
        ).map((r) => [r.id, r.uuid]),
  );
  return found.map(
    (r): SyncCommentChange =>
      r.deleted_at === null
        ? { ...commentJson(r), item_uuid: uuids.get(r.item_id) ?? null }
        : { id: r.id, uuid: r.uuid, item_id: r.item_id, deleted_at: iso(r.deleted_at) },
  );
}

/** The page's time entries (X5): a live one as the API shows it with its item's uuid, a deleted one as a tombstone. */
async function pageTimeEntries(
  db: FastifyInstance['database']['db'],
  ids: readonly number[],
): Promise<SyncTimeEntryChange[]> {
  if (ids.length === 0) return [];
  const found = await rows<TimeEntryRow & { item_uuid: string | null }>(
    db,
    sql`SELECT ${TIME_ENTRY_SELECT}
        WHERE t.id = ANY(${sql.param([...ids])}::int[]) ORDER BY t.id`,
  );
  return found.map(
    (r): SyncTimeEntryChange =>
      r.deleted_at === null
        ? { ...timeEntryJson(r), item_uuid: r.item_uuid }
        : { id: r.id, uuid: r.uuid, item_id: r.item_id, deleted_at: iso(r.deleted_at) },
  );
}
