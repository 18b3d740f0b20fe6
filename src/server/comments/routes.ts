import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import {
  commentPageSchema,
  commentSchema,
  historyPageSchema,
  muteAnswerSchema,
  peopleAnswerSchema,
  revertAnswerSchema,
} from '../../shared/apiSchemas';
import { COMMENTS_PER_PAGE, commentCreateSchema, commentPatchSchema } from '../../shared/comments';
import { DEFAULT_PER_PAGE, type Item, paginated } from '../../shared/item';
import { idSchema, pageQuerySchema } from '../../shared/schemas';
import { currentUser } from '../http/context';
import { HttpError, notFound, parseOrThrow } from '../http/errors';
import { runWrite, type WriteResult } from '../http/idempotency';
import { pathId } from '../http/paths';
import { findVisibleItem } from '../items/queries';
import {
  checkedInHandler,
  errorAnswer,
  idParams,
  invalidAnswer,
  noContent,
  routeDoc,
} from '../openapi/routeDoc';
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

  const TAGS = ['Comments and history'];
  const itemParams = idParams('The item’s id.');
  const commentParams = idParams('The comment’s id.');
  const notSeen = errorAnswer('No such item, or not one the caller may see.');
  // Queries and bodies here are read after the path's item is found: its 404 comes first.
  const page = checkedInHandler(pageQuerySchema);

  const listDoc = routeDoc({
    summary: 'List an item’s comments',
    description: 'Oldest first, 50 a page; for anyone who sees the item.',
    tags: TAGS,
    params: itemParams,
    querystring: page,
    answers: {
      200: { description: 'One page of comments.', schema: commentPageSchema },
      404: notSeen,
      422: invalidAnswer(),
    },
  });
  app.get('/items/:id/comments', { schema: listDoc }, async (request) => {
    const item = await seenItem(request);
    const { page = 1 } = parseOrThrow(pageQuerySchema, request.query);
    const { data, total } = await listComments(db, item.id, page, COMMENTS_PER_PAGE);
    return paginated(data, page, COMMENTS_PER_PAGE, total);
  });

  const createDoc = routeDoc({
    summary: 'Comment on an item',
    description:
      'Plain text, 1–5,000 characters after trimming. Mentions are `@[user id]` in the body and/or `mentions`; each must be someone who sees the item. A repeat of a known `uuid` answers with the existing comment. Viewers may comment.',
    tags: TAGS,
    params: itemParams,
    body: checkedInHandler(commentCreateSchema),
    answers: {
      200: { description: 'A comment with this `uuid` exists already: that comment.', schema: commentSchema },
      201: { description: 'The new comment.', schema: commentSchema },
      404: notSeen,
      422: invalidAnswer(),
    },
  });
  app.post('/items/:id/comments', { schema: createDoc }, async (request, reply) => {
    const user = currentUser(request);
    const id = pathId(request);
    const input = parseOrThrow(commentCreateSchema, request.body);
    return send(reply, await runWrite(app, request, user.id, (tx) => createComment(tx, user, id, input)));
  });

  const editDoc = routeDoc({
    summary: 'Edit a comment',
    description: 'Author only; the answer has `edited: true`.',
    tags: TAGS,
    params: commentParams,
    body: checkedInHandler(commentPatchSchema),
    answers: {
      200: { description: 'The comment.', schema: commentSchema },
      403: errorAnswer('The caller sees the comment but did not write it.'),
      404: errorAnswer('No such comment, or not one the caller may see.'),
      422: invalidAnswer(),
    },
  });
  app.patch('/comments/:id', { schema: editDoc }, async (request, reply) => {
    const user = currentUser(request);
    const id = pathId(request, 'Comment');
    const { body } = parseOrThrow(commentPatchSchema, request.body);
    return send(reply, await runWrite(app, request, user.id, (tx) => editComment(tx, user, id, body)));
  });

  const deleteDoc = routeDoc({
    summary: 'Delete a comment',
    description: 'By its author, or the campaign’s owner.',
    tags: TAGS,
    params: commentParams,
    answers: {
      204: noContent('Deleted.'),
      403: errorAnswer('The caller sees the comment but may not delete it.'),
      404: errorAnswer('No such comment, or not one the caller may see.'),
    },
  });
  app.delete('/comments/:id', { schema: deleteDoc }, async (request, reply) => {
    const user = currentUser(request);
    const id = pathId(request, 'Comment');
    return send(reply, await runWrite(app, request, user.id, (tx) => deleteComment(tx, user, id)));
  });

  // The @ picker's list (M12): who sees the item and whom the reader already knows, by name, never by phone.
  const peopleDoc = routeDoc({
    summary: 'People to mention',
    description: 'Who sees the item, by name (never by phone).',
    tags: TAGS,
    params: itemParams,
    answers: { 200: { description: 'The people.', schema: peopleAnswerSchema }, 404: notSeen },
  });
  app.get('/items/:id/people', { schema: peopleDoc }, async (request) => {
    const item = await seenItem(request);
    const user = currentUser(request);
    return { people: await mentionablePeople(db, user.id, user.phone, item.id) };
  });

  const muteDoc = (summary: string, description: string) =>
    routeDoc({
      summary,
      description,
      tags: TAGS,
      params: itemParams,
      answers: { 200: { description: 'Whether the item is muted.', schema: muteAnswerSchema }, 404: notSeen },
    });
  app.get(
    '/items/:id/mute',
    { schema: muteDoc('Is an item muted', 'Whether the caller muted the item’s notifications.') },
    async (request) => {
      const item = await seenItem(request);
      return { muted: await isMuted(db, currentUser(request).id, item.id) };
    },
  );

  for (const [method, muted] of [
    ['POST', true],
    ['DELETE', false],
  ] as const) {
    app.route({
      method,
      url: '/items/:id/mute',
      schema: muted
        ? muteDoc(
            'Mute an item',
            'No `commented` or `updated` notifications for it from now on; `mentioned` still arrives.',
          )
        : muteDoc('Unmute an item', 'Its notifications arrive again.'),
      handler: async (request, reply) => {
        const user = currentUser(request);
        const id = pathId(request);
        return send(reply, await runWrite(app, request, user.id, (tx) => setMuted(tx, user, id, muted)));
      },
    });
  }

  const historyDoc = routeDoc({
    summary: 'An item’s history',
    description: 'Every change to the item, newest first: who, when, and `changes {field: {from, to}}`.',
    tags: TAGS,
    params: itemParams,
    querystring: page,
    answers: {
      200: { description: 'One page of history.', schema: historyPageSchema },
      404: notSeen,
      422: invalidAnswer(),
    },
  });
  app.get('/items/:id/history', { schema: historyDoc }, async (request) => {
    const item = await seenItem(request);
    const { page = 1 } = parseOrThrow(pageQuerySchema, request.query);
    const { data, total } = await listHistory(db, currentUser(request).id, item.id, page, DEFAULT_PER_PAGE);
    return paginated(data, page, DEFAULT_PER_PAGE, total);
  });

  const revertDoc = routeDoc({
    summary: 'Revert a history entry',
    description:
      'Sets each field of the entry back to its `from` where it still holds the entry’s `to`; a field changed since is left alone and named in `skipped`.',
    tags: TAGS,
    params: z.object({
      id: z.number().int().min(1).describe('The item’s id.'),
      entry: z.number().int().min(1).describe('The history entry’s id.'),
    }),
    answers: {
      200: { description: 'The item.', schema: revertAnswerSchema },
      403: errorAnswer('The caller sees the item but may not change it (a viewer).'),
      404: errorAnswer('No such item or entry, or not one the caller may see.'),
      412: errorAnswer('The item changed in a way the entry can no longer be reverted.'),
    },
  });
  app.post('/items/:id/history/:entry/revert', { schema: revertDoc }, async (request, reply) => {
    const user = currentUser(request);
    const id = pathId(request);
    const entry = entryId(request);
    return send(reply, await runWrite(app, request, user.id, (tx) => revertEntry(tx, user, id, entry)));
  });
}
