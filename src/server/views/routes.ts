import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  viewAnswerSchema,
  viewCreateSchema,
  viewListAnswerSchema,
  viewPatchSchema,
} from '../../shared/filter/views';
import { currentUser } from '../http/context';
import { parseOrThrow } from '../http/errors';
import { runWrite, sendWrite } from '../http/idempotency';
import { pathId } from '../http/paths';
import {
  checkedInHandler,
  errorAnswer,
  idParams,
  invalidAnswer,
  noContent,
  routeDoc,
} from '../openapi/routeDoc';
import { createView, deleteView, getView, listViews, patchView } from './service';

const TAGS = ['Views'];
const viewParams = idParams('The view’s id.');
const notSeen = errorAnswer('No such view, or not one the caller may see.');
const viewAnswer = (description: string) => ({ description, schema: viewAnswerSchema });
const badQuery =
  'Bad input: a name empty or over 100 characters, a sort not known, or a query the filter language does not read (`errors.query` names the column, as the app’s field shows it).';

/**
 * Saved views (ARCHITECTURE §4 'Saved views and the filter language'): list, get, save, change, delete.
 *
 * Token policy: reading is `read`; saving, changing and deleting are `write`. A view is a saved
 * query over items the caller already sees: sharing it with a campaign gives its members a query,
 * never access to anything, so it mints no credential and lets nobody in (the `never` routes' test);
 * a script that files work into a view's query is exactly what `write` is for.
 */
export async function viewRoutes(plain: FastifyInstance): Promise<void> {
  const app = plain.withTypeProvider<ZodTypeProvider>();
  const db = app.database.db;

  const listDoc = routeDoc({
    summary: 'List views',
    description:
      'The caller’s saved views and those shared with a campaign they belong to, by name. A query saved under an older grammar comes brought to the current one.',
    tags: TAGS,
    answers: { 200: { description: 'The views.', schema: viewListAnswerSchema } },
  });
  app.get('/views', { schema: listDoc, config: { tokenAccess: 'read' } }, async (request) => {
    const user = currentUser(request);
    return { views: await listViews(db, user) };
  });

  const getDoc = routeDoc({
    summary: 'Get a view',
    description: 'One saved view the caller sees, its query in the current grammar.',
    tags: TAGS,
    params: viewParams,
    answers: { 200: viewAnswer('The view.'), 404: notSeen },
  });
  app.get('/views/:id', { schema: getDoc, config: { tokenAccess: 'read' } }, async (request) => {
    const user = currentUser(request);
    return getView(db, user, pathId(request, 'View'));
  });

  const createDoc = routeDoc({
    summary: 'Save a view',
    description:
      'A name, a query in the filter language (the README’s Filter language section; `grammar` when written under an older one) and a sort. Personal, or shared with the members of `campaign_id` when the caller is its owner or an editor. A repeat of a known `uuid` answers with that view.',
    tags: TAGS,
    body: checkedInHandler(viewCreateSchema),
    answers: {
      200: viewAnswer('A view with this `uuid` exists already: that view.'),
      201: viewAnswer('The new view.'),
      403: errorAnswer('`campaign_id` names a campaign where the caller is a viewer.'),
      422: invalidAnswer(badQuery),
    },
  });
  app.post('/views', { schema: createDoc, config: { tokenAccess: 'write' } }, async (request, reply) => {
    const user = currentUser(request);
    const input = parseOrThrow(viewCreateSchema, request.body);
    return sendWrite(reply, await runWrite(app, request, user.id, (tx) => createView(tx, user, input)));
  });

  const patchDoc = routeDoc({
    summary: 'Change a view',
    description:
      'Its name, query, sort, or the campaign it is shared with (null: nobody). Its creator, or the owner and editors of its campaign.',
    tags: TAGS,
    params: viewParams,
    body: checkedInHandler(viewPatchSchema),
    answers: {
      200: viewAnswer('The view.'),
      403: errorAnswer('The caller sees the view but may not change it.'),
      404: notSeen,
      422: invalidAnswer(badQuery),
    },
  });
  app.patch('/views/:id', { schema: patchDoc, config: { tokenAccess: 'write' } }, async (request, reply) => {
    const user = currentUser(request);
    const id = pathId(request, 'View');
    const patch = parseOrThrow(viewPatchSchema, request.body);
    return sendWrite(reply, await runWrite(app, request, user.id, (tx) => patchView(tx, user, id, patch)));
  });

  const deleteDoc = routeDoc({
    summary: 'Delete a view',
    description: 'Its creator, or the owner and editors of its campaign. The items it showed stay.',
    tags: TAGS,
    params: viewParams,
    answers: {
      204: noContent('Deleted.'),
      403: errorAnswer('The caller sees the view but may not delete it.'),
      404: notSeen,
    },
  });
  app.delete(
    '/views/:id',
    { schema: deleteDoc, config: { tokenAccess: 'write' } },
    async (request, reply) => {
      const user = currentUser(request);
      const id = pathId(request, 'View');
      return sendWrite(reply, await runWrite(app, request, user.id, (tx) => deleteView(tx, user, id)));
    },
  );
}
