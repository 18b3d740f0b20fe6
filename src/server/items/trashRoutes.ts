import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { exportDocumentSchema, itemSchema, trashPageSchema } from '../../shared/apiSchemas';
import { exportFileName } from '../../shared/importExport';
import { DEFAULT_PER_PAGE, type Item } from '../../shared/item';
import { pageQuerySchema } from '../../shared/schemas';
import { currentUser } from '../http/context';
import { runWrite } from '../http/idempotency';
import { pathId } from '../http/paths';
import { errorAnswer, idParams, invalidAnswer, routeDoc } from '../openapi/routeDoc';
import { restoreDescendantsInSteps, restoreInSteps } from './cascadeSteps';
import { findItem } from './queries';
import { restoreItem } from './service';
import { exportFor, listTrash } from './trash';

/** Restore, the trash and the Outpost JSON export (issue 14). */
export async function trashRoutes(plain: FastifyInstance): Promise<void> {
  const app = plain.withTypeProvider<ZodTypeProvider>();
  const db = app.database.db;
  const TAGS = ['Trash and export'];

  const restoreDoc = routeDoc({
    summary: 'Restore an item',
    description:
      'Brings a deleted item back with the descendants its delete took along. Restoring a live item changes nothing.',
    tags: TAGS,
    params: idParams('The item’s id.'),
    answers: {
      200: { description: 'The item, live again.', schema: itemSchema },
      404: errorAnswer('No such item, or the caller may not delete (and so restore) it.'),
      422: errorAnswer('It can no longer be restored (purged, or its family is full).'),
    },
  });
  app.post('/items/:id/restore', { schema: restoreDoc }, async (request, reply) => {
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

  const trashDoc = routeDoc({
    summary: 'List the trash',
    description:
      'The caller’s deleted items of the last 30 days (the top of each deleted subtree), newest deletion first.',
    tags: TAGS,
    querystring: pageQuerySchema,
    answers: {
      200: { description: 'One page of deleted items.', schema: trashPageSchema },
      422: invalidAnswer(),
    },
  });
  app.get('/trash', { schema: trashDoc }, async (request) => {
    const user = currentUser(request);
    const { page = 1 } = request.query;
    return listTrash(db, user.id, page, DEFAULT_PER_PAGE);
  });

  const exportDoc = routeDoc({
    summary: 'Export',
    description:
      'Outpost JSON: every live item the caller sees, each with its `uuid` and its parent’s `parent_uuid`, its comments, time entries and files (`attachments`: metadata, never bytes; the app’s own export is a zip that carries them), as an attachment (`outpost-YYYY-MM-DD.json`).',
    tags: TAGS,
    answers: { 200: { description: 'The export.', schema: exportDocumentSchema } },
  });
  app.get('/export', { schema: exportDoc }, async (request, reply) => {
    const user = currentUser(request);
    const now = app.clock();
    const doc = await exportFor(db, user, now);
    reply.header('Content-Disposition', `attachment; filename="${exportFileName(now, 'json')}"`);
    reply.header('Cache-Control', 'no-store');
    return doc;
  });
}
