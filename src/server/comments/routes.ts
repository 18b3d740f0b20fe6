import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { COMMENTS_PER_PAGE, commentCreateSchema, commentPatchSchema } from '../../shared/comments';
import { DEFAULT_PER_PAGE, type Item, paginated } from '../../shared/item';
import { idSchema, pageQuerySchema } from '../../shared/schemas';
import { currentUser } from '../http/context';
import { HttpError, notFound, parseOrThrow } from '../http/errors';
import { runWrite, type WriteResult } from '../http/idempotency';
import { findVisibleItem } from '../items/queries';
import { pathId } from '../items/routes';
import { listHistory, revertEntry } from './history';
import { mentionablePeople } from './people';
import { createComment, deleteComment, editComment, isMuted, listComments, setMuted } from './service';

function send(reply: FastifyReply, result: WriteResult) {
  const item = result.body as Partial<Item> | null;
  if (item && typeof item.version === 'number') reply.header('ETag', `"${item.version}"`);
  if (result.status === 204) return reply.status(204).send();
  if (result.json !== undefined) {
    return reply.status(result.status).type('application/json; charset=utf-8').send(result.json);
  }
  return reply.status(result.status).send(result.body);
}

/** A second id in the path (`entry_id`), or the 404 a stranger would get. */
function entryId(request: FastifyRequest): number {
  const parsed = idSchema.safeParse((request.params as { entry?: string }).entry);
  if (!parsed.success) throw new HttpError(404, 'History entry not found.');
  return parsed.data;
}

/** Comments, mutes and history on items (ARCHITECTURE §4 'Comments', 'History'). */
export async function commentRoutes(app: FastifyInstance): Promise<void> {
  const db = app.database.db;

  /** The item in the path when the caller sees it: the same 404 for unknown and forbidden. */
  const seenItem = async (request: FastifyRequest) => {
    const user = currentUser(request);
    const item = await findVisibleItem(db, user.id, pathId(request));
    if (!item) throw notFound();
    return item;
  };

  app.get('/items/:id/comments', async (request) => {
    const item = await seenItem(request);
    const { page = 1 } = parseOrThrow(pageQuerySchema, request.query);
    const { data, total } = await listComments(db, item.id, page, COMMENTS_PER_PAGE);
    return paginated(data, page, COMMENTS_PER_PAGE, total);
  });

  app.post('/items/:id/comments', async (request, reply) => {
    const user = currentUser(request);
    const id = pathId(request);
    const input = parseOrThrow(commentCreateSchema, request.body);
    return send(reply, await runWrite(app, request, user.id, (tx) => createComment(tx, user, id, input)));
  });

  app.patch('/comments/:id', async (request, reply) => {
    const user = currentUser(request);
    const id = pathId(request, 'Comment');
    const { body } = parseOrThrow(commentPatchSchema, request.body);
    return send(reply, await runWrite(app, request, user.id, (tx) => editComment(tx, user, id, body)));
  });

  app.delete('/comments/:id', async (request, reply) => {
    const user = currentUser(request);
    const id = pathId(request, 'Comment');
    return send(reply, await runWrite(app, request, user.id, (tx) => deleteComment(tx, user, id)));
  });

  // The @ picker's list (M12): who sees the item and whom the reader already knows, by name, never by phone.
  app.get('/items/:id/people', async (request) => {
    const item = await seenItem(request);
    const user = currentUser(request);
    return { people: await mentionablePeople(db, user.id, user.phone, item.id) };
  });

  app.get('/items/:id/mute', async (request) => {
    const item = await seenItem(request);
    return { muted: await isMuted(db, currentUser(request).id, item.id) };
  });

  for (const [method, muted] of [
    ['POST', true],
    ['DELETE', false],
  ] as const) {
    app.route({
      method,
      url: '/items/:id/mute',
      handler: async (request, reply) => {
        const user = currentUser(request);
        const id = pathId(request);
        return send(reply, await runWrite(app, request, user.id, (tx) => setMuted(tx, user, id, muted)));
      },
    });
  }

  app.get('/items/:id/history', async (request) => {
    const item = await seenItem(request);
    const { page = 1 } = parseOrThrow(pageQuerySchema, request.query);
    const { data, total } = await listHistory(db, currentUser(request).id, item.id, page, DEFAULT_PER_PAGE);
    return paginated(data, page, DEFAULT_PER_PAGE, total);
  });

  app.post('/items/:id/history/:entry/revert', async (request, reply) => {
    const user = currentUser(request);
    const id = pathId(request);
    const entry = entryId(request);
    return send(reply, await runWrite(app, request, user.id, (tx) => revertEntry(tx, user, id, entry)));
  });
}
