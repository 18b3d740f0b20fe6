import type { FastifyInstance } from 'fastify';
import { SYNC_PAGE_SIZE, type SyncPage } from '../../shared/item';
import { syncQuerySchema } from '../../shared/schemas';
import { rows, sql } from '../db/client';
import { currentUser } from '../http/context';
import { parseOrThrow, unprocessable } from '../http/errors';
import { selectItems, visibleTo } from '../items/queries';
import { decodeCursor, encodeCursor } from './cursor';

/** Changes since a cursor: every visible item changed after it, tombstones included (see cursor.ts). */
export async function syncRoutes(app: FastifyInstance): Promise<void> {
  const db = app.database.db;
  app.get('/sync', async (request, reply) => {
    const user = currentUser(request);
    const { cursor } = parseOrThrow(syncQuerySchema, request.query);
    const from = decodeCursor(cursor);
    if (!from) throw unprocessable({ cursor: ['The cursor is not one this server gave out.'] });

    // The common pull: nothing changed for this user since this very cursor was handed out.
    const live = app.changes.isLive();
    const hit = live && cursor ? app.readCache.get(user.id, `sync:${cursor}`) : undefined;
    if (hit !== undefined) return reply.type('application/json; charset=utf-8').send(hit);
    const stamp = app.readCache.stamp(user.id);

    // One statement, one snapshot: the horizon and the rows below it are read together, and the
    // horizon comes back even when no row does.
    const found = await rows<{
      id: number | null;
      change_xid: string | number | null;
      horizon: string | number;
      xmax: string | number;
    }>(
      db,
      sql`WITH horizon AS (
            SELECT pg_snapshot_xmin(s)::text::bigint AS xmin, pg_snapshot_xmax(s)::text::bigint AS xmax
            FROM pg_current_snapshot() s
          )
          SELECT r.id, r.change_xid, horizon.xmin AS horizon, horizon.xmax AS xmax
          FROM horizon LEFT JOIN LATERAL (
            SELECT i.id, i.change_xid
            FROM items i
            WHERE i.change_xid < horizon.xmin
              AND (i.change_xid > ${from.xid.toString()}::bigint
                   OR (i.change_xid = ${from.xid.toString()}::bigint AND i.id > ${from.id}))
              AND ${visibleTo(user.id)}
            ORDER BY i.change_xid, i.id
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
    let next = from;
    if (hasMore && last) next = { xid: BigInt(last.change_xid), id: last.id };
    else if (horizon > from.xid) next = { xid: horizon, id: 0 };
    const ids = page.map((r) => r.id);
    const items =
      ids.length === 0
        ? []
        : await selectItems(
            db,
            sql`i.id IN (${sql.join(
              ids.map((id) => sql`${id}`),
              sql`, `,
            )})`,
            sql`ORDER BY i.change_xid, i.id`,
          );
    const answer: SyncPage = { items, cursor: encodeCursor(next), has_more: hasMore };
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
