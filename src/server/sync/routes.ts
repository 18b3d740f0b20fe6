import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { syncPageSchema } from '../../shared/apiSchemas';
import type { SyncPage } from '../../shared/item';
import { ITEM_CHILDREN, type SyncPageChildren } from '../../shared/itemChildren';
import { syncQuerySchema } from '../../shared/schemas';
import { SYNC_LISTS, type SyncPageLists } from '../../shared/syncLists';
import { currentUser } from '../http/context';
import { unprocessable } from '../http/errors';
import { invalidAnswer, routeDoc } from '../openapi/routeDoc';
import { type CursorPosition, decodeCursor } from './cursor';
import { snapshotXmax, syncPage } from './page';

/**
 * Changes since a cursor: every visible item changed after it, tombstones included, and the children
 * of visible items (each declared kind) changed after it (K13, X5; see cursor.ts).
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
    const xmax = await snapshotXmax(db);
    if (xmax > knownXmax) knownXmax = xmax;
    return newest > xmax;
  };
  const syncDoc = routeDoc({
    summary: 'Changes since a cursor',
    description:
      'Every item the caller sees that changed after the cursor (deleted or no longer visible ones as tombstones), with the comments and other rows that changed with them, at most 500 a page (100 on the first page of a bootstrap). No cursor is a full bootstrap. The cursor is opaque.',
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

    const { body, sent, hasMore, nextCursor, quiescent } = await syncPage(
      db,
      user,
      { from, count },
      app.itemChildren,
    );
    app.metrics.syncPullRows.inc(sent);
    if (live && !hasMore && quiescent) {
      const empty: SyncPage & SyncPageChildren & SyncPageLists = {
        items: [],
        ...Object.fromEntries(ITEM_CHILDREN.map((child) => [child.name, []])),
        ...Object.fromEntries(SYNC_LISTS.map((name) => [name, []])),
        cursor: nextCursor,
        has_more: false,
      };
      app.readCache.set(user.id, `sync:${nextCursor}`, stamp, JSON.stringify(empty));
    }
    return reply.type('application/json; charset=utf-8').send(body);
  });
}
