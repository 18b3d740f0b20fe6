import type { FastifyInstance } from 'fastify';
import { exportFileName } from '../../shared/importExport';
import { DEFAULT_PER_PAGE, type Item } from '../../shared/item';
import { pageQuerySchema } from '../../shared/schemas';
import { currentUser } from '../http/context';
import { parseOrThrow } from '../http/errors';
import { runWrite } from '../http/idempotency';
import { restoreDescendantsInSteps, restoreInSteps } from './cascadeSteps';
import { findItem } from './queries';
import { pathId } from './routes';
import { restoreItem } from './service';
import { exportFor, listTrash } from './trash';

/** Restore, the trash and the Outpost JSON export (issue 14). */
export async function trashRoutes(app: FastifyInstance): Promise<void> {
  const db = app.database.db;

  app.post('/items/:id/restore', async (request, reply) => {
    const user = currentUser(request);
    const id = pathId(request);
    // P7: on the embedded database a large family comes back as its item, then in short steps.
    const stamp = await restoreInSteps(app, id);
    const result = await runWrite(app, request, user.id, (tx) => restoreItem(tx, user, id, stamp !== null));
    if (stamp !== null && result.status === 200 && !result.replayed) {
      await restoreDescendantsInSteps(app, user, id, stamp);
      // The answer counts the children that came back after the item.
      const now = await findItem(app.database.db, user.id, id);
      if (now) result.body = now;
    }
    const item = result.body as Partial<Item> | null;
    if (item && typeof item.version === 'number') reply.header('ETag', `"${item.version}"`);
    return reply.status(result.status).send(result.body);
  });

  app.get('/trash', async (request) => {
    const user = currentUser(request);
    const { page = 1 } = parseOrThrow(pageQuerySchema, request.query);
    return listTrash(db, user.id, page, DEFAULT_PER_PAGE);
  });

  app.get('/export', async (request, reply) => {
    const user = currentUser(request);
    const now = app.clock();
    const doc = await exportFor(db, user, now);
    reply.header('Content-Disposition', `attachment; filename="${exportFileName(now, 'json')}"`);
    reply.header('Cache-Control', 'no-store');
    return doc;
  });
}
