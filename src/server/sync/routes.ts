import type { FastifyInstance } from 'fastify';
import { type Item, SYNC_PAGE_SIZE, type SyncChange, type SyncPage } from '../../shared/item';
import { syncQuerySchema } from '../../shared/schemas';
import { rows, sql } from '../db/client';
import { currentUser } from '../http/context';
import { parseOrThrow, unprocessable } from '../http/errors';
import { iso } from '../http/serialize';
import { selectItems, visibleTo } from '../items/queries';
import { type CursorPosition, decodeCursor, encodeCursor } from './cursor';

/** Changes since a cursor: every visible item changed after it, tombstones included (see cursor.ts). */
export async function syncRoutes(app: FastifyInstance): Promise<void> {
  const db = app.database.db;
  app.get('/sync', async (request, reply) => {
    const user = currentUser(request);
    const { cursor, count } = parseOrThrow(syncQuerySchema, request.query);
    const from = decodeCursor(cursor);
    if (!from) throw unprocessable({ cursor: ['The cursor is not one this server gave out.'] });

    // The common pull: nothing changed for this user since this very cursor was handed out.
    const live = app.changes.isLive();
    const hit = live && cursor ? app.readCache.get(user.id, `sync:${cursor}`) : undefined;
    if (hit !== undefined) return reply.type('application/json; charset=utf-8').send(hit);
    const stamp = app.readCache.stamp(user.id);

    // One statement, one snapshot: the horizon and the rows below it are read together, and the
    // horizon comes back even when no row does.
    const xid = from.xid.toString();
    const itemsAfter = sql`(i.change_xid > ${xid}::bigint OR (i.change_xid = ${xid}::bigint AND i.id > ${from.id}))`;
    const revokedAfter = sql`(v.change_xid > ${xid}::bigint
      OR (v.change_xid = ${xid}::bigint AND v.item_id > ${from.id}))`;
    // M2: a membership granted (or a role changed) after the cursor sends the campaign's whole live
    // tree at the grant's position, however old its rows' own change_xid: the member never had them.
    const grantedAfter = sql`(m.change_xid > ${xid}::bigint
      OR (m.change_xid = ${xid}::bigint AND t.id > ${from.id}))`;
    // A pull from the very beginning meets every tree granted before its first page among the item
    // changes: no grant rows below that page's xmin, there and on the pages that follow (cursor.ts).
    const fresh = from.xid === 0n && from.id === 0 && from.since === undefined;
    const grantFloor = fresh
      ? sql`AND m.change_xid >= horizon.xmin`
      : from.since === undefined
        ? sql``
        : sql`AND m.change_xid >= ${from.since.toString()}::bigint`;
    const grants = sql`FROM campaign_members m CROSS JOIN LATERAL (
        SELECT f.id FROM items f WHERE f.id = m.campaign_id AND f.deleted_at IS NULL
        UNION ALL SELECT f.id FROM items f WHERE f.parent_id = m.campaign_id AND f.deleted_at IS NULL
        UNION ALL SELECT f.id FROM items f JOIN items fp ON fp.id = f.parent_id
          WHERE fp.parent_id = m.campaign_id AND f.deleted_at IS NULL) t
      WHERE m.user_id = ${user.id} AND m.change_xid >= ${xid}::bigint AND m.change_xid < horizon.xmin
        ${grantFloor} AND ${grantedAfter}`;
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
          + (SELECT count(*) ${grants})`
      : sql`NULL::bigint`;
    const found = await rows<{
      id: number | null;
      change_xid: string | number | null;
      revoked_at: Date | string | null;
      horizon: string | number;
      xmax: string | number;
      after: string | number | null;
    }>(
      db,
      sql`WITH horizon AS (
            SELECT pg_snapshot_xmin(s)::text::bigint AS xmin, pg_snapshot_xmax(s)::text::bigint AS xmax
            FROM pg_current_snapshot() s
          ), counted AS MATERIALIZED (
            SELECT ${counted} AS after FROM horizon
          )
          SELECT r.id, r.change_xid, r.revoked_at, horizon.xmin AS horizon, horizon.xmax AS xmax,
            counted.after::text AS after
          FROM horizon CROSS JOIN counted LEFT JOIN LATERAL (
            SELECT c.id, c.change_xid, c.revoked_at FROM (
              (SELECT i.id, i.change_xid, NULL::timestamptz AS revoked_at
               FROM items i
               WHERE i.change_xid < horizon.xmin AND ${itemsAfter} AND ${visibleTo(user.id)}
               ORDER BY i.change_xid, i.id
               LIMIT ${SYNC_PAGE_SIZE + 1})
              UNION ALL
              (SELECT v.item_id AS id, v.change_xid, v.revoked_at
               FROM item_revocations v
               WHERE v.user_id = ${user.id} AND v.change_xid < horizon.xmin AND ${revokedAfter}
               ORDER BY v.change_xid, v.item_id
               LIMIT ${SYNC_PAGE_SIZE + 1})
              UNION ALL
              (SELECT t.id, m.change_xid, NULL::timestamptz AS revoked_at ${grants}
               ORDER BY m.change_xid, t.id
               LIMIT ${SYNC_PAGE_SIZE + 1})
            ) c
            ORDER BY c.change_xid, c.id
            LIMIT ${SYNC_PAGE_SIZE + 1}
          ) r ON true
          ORDER BY r.change_xid, r.id`,
    );
    const horizon = BigInt(found[0]?.horizon ?? 0);
    const changed = found.filter(
      (r): r is typeof r & { id: number; change_xid: string | number } =>
        r.id !== null && r.change_xid !== null,
    );
    const hasMore = changed.length > SYNC_PAGE_SIZE;
    const page = changed.slice(0, SYNC_PAGE_SIZE);
    const last = page.at(-1);
    let next: CursorPosition = { xid: from.xid, id: from.id };
    if (hasMore && last) next = { xid: BigInt(last.change_xid), id: last.id };
    else if (horizon > from.xid) next = { xid: horizon, id: 0 };
    // Carried until the pull passes it; past it, `>= xid` already leaves out every grant below it.
    const since = fresh ? horizon : from.since;
    if (since !== undefined && next.xid < since) next = { ...next, since };
    // One entry per item, the latest: a revocation and a later re-grant (or the reverse) in one page.
    const latest = new Map<number, (typeof page)[number]>();
    for (const row of page) {
      latest.delete(row.id);
      latest.set(row.id, row);
    }
    const ids = [...latest.keys()];
    const byId =
      ids.length === 0
        ? new Map<number, Item>()
        : new Map(
            (
              await selectItems(
                db,
                user.id,
                sql`i.id IN (${sql.join(
                  ids.map((id) => sql`${id}`),
                  sql`, `,
                )})`,
                sql``,
              )
            ).map((item) => [item.id, item]),
          );
    const items: SyncChange[] = [];
    for (const row of latest.values()) {
      const item = byId.get(row.id);
      if (!item) continue;
      // A lost item travels as a tombstone, exactly like a deleted one: the id, the uuid and when,
      // never what the item has become since (its title may be what the user must no longer read).
      const deletedAt = item.deleted_at ?? (row.revoked_at === null ? null : iso(row.revoked_at));
      items.push(deletedAt === null ? item : { id: item.id, uuid: item.uuid, deleted_at: deletedAt });
    }
    const answer: SyncPage = { items, cursor: encodeCursor(next), has_more: hasMore };
    // The count took in this page's rows (before one entry per item was kept): what is left after them.
    const after = found[0]?.after;
    if (count && after !== null && after !== undefined) {
      answer.remaining = hasMore ? Math.max(0, Number(after) - page.length) : 0;
    }
    // With no transaction in flight at the snapshot (xmin = xmax), every row below the new cursor
    // has been sent: until a change event for this user arrives, a pull from it finds nothing.
    const quiescent = String(found[0]?.xmax ?? '') === String(found[0]?.horizon ?? '');
    if (live && !hasMore && quiescent) {
      const empty: SyncPage = { items: [], cursor: answer.cursor, has_more: false };
      app.readCache.set(user.id, `sync:${answer.cursor}`, stamp, JSON.stringify(empty));
    }
    return answer;
  });
}
