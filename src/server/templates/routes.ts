import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { itemBatchAnswerSchema } from '../../shared/apiSchemas';
import {
  templateAnswerSchema,
  templateCreateSchema,
  templateInstantiateSchema,
  templateListAnswerSchema,
  templatePatchSchema,
} from '../../shared/templates';
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
import { createTemplate, deleteTemplate, instantiateTemplate, listTemplates, patchTemplate } from './service';

const TAGS = ['Templates'];
const templateParams = idParams('The template’s id.');
const notSeen = errorAnswer('No such template, or not one the caller may see.');
const templateAnswer = (description: string) => ({ description, schema: templateAnswerSchema });

/**
 * Templates (ARCHITECTURE §4 'Templates'): snapshot, list, change, delete, instantiate.
 *
 * Token policy: reading is `read`; every write is `write`, template CRUD included. A template is
 * planned work like the items it is made from (and makes nothing a token could not make item by item
 * with `write`): it grants no one access, mints no credential and touches no account setting, so it
 * sits with the item writes rather than with the `never` routes.
 */
export async function templateRoutes(plain: FastifyInstance): Promise<void> {
  const app = plain.withTypeProvider<ZodTypeProvider>();
  const db = app.database.db;

  const listDoc = routeDoc({
    summary: 'List templates',
    description: 'The caller’s templates and those shared with a campaign they belong to, by name.',
    tags: TAGS,
    answers: { 200: { description: 'The templates.', schema: templateListAnswerSchema } },
  });
  app.get('/templates', { schema: listDoc, config: { tokenAccess: 'read' } }, async (request) => {
    const user = currentUser(request);
    return { templates: await listTemplates(db, user) };
  });

  const createDoc = routeDoc({
    summary: 'Save an item as a template',
    description:
      'Snapshots a campaign (its tasks and todos), a task (its todos) or, with `kind: "checklist"`, a task’s todos only: titles, descriptions, types, priorities, labels, estimates, recurrence, order, and dates as days from the earliest one; never comments, time, history, assignees or status. Shared with the source’s campaign when the caller is its owner or an editor, unless `campaign_id` names another (or null). At most 1,000 items. A repeat of a known `uuid` answers with that template.',
    tags: TAGS,
    body: templateCreateSchema,
    answers: {
      200: templateAnswer('A template with this `uuid` exists already: that template.'),
      201: templateAnswer('The new template.'),
      403: errorAnswer('`campaign_id` names a campaign where the caller is a viewer.'),
      422: invalidAnswer(
        'Bad input: a name empty or over 100 characters, an item that does not exist or cannot be seen, a todo, a kind the item cannot make, more than 1,000 items.',
      ),
    },
  });
  app.post('/templates', { schema: createDoc, config: { tokenAccess: 'write' } }, async (request, reply) => {
    const user = currentUser(request);
    const input = request.body;
    return sendWrite(reply, await runWrite(app, request, user.id, (tx) => createTemplate(tx, user, input)));
  });

  const patchDoc = routeDoc({
    summary: 'Change a template',
    description:
      'Its name, the campaign it is shared with (null: nobody), or its whole tree (of the same kind). Its creator, or the owner and editors of its campaign.',
    tags: TAGS,
    params: templateParams,
    body: checkedInHandler(templatePatchSchema),
    answers: {
      200: templateAnswer('The template.'),
      403: errorAnswer('The caller sees the template but may not change it.'),
      404: notSeen,
      422: invalidAnswer(),
    },
  });
  app.patch(
    '/templates/:id',
    { schema: patchDoc, config: { tokenAccess: 'write' } },
    async (request, reply) => {
      const user = currentUser(request);
      const id = pathId(request, 'Template');
      const patch = parseOrThrow(templatePatchSchema, request.body);
      return sendWrite(
        reply,
        await runWrite(app, request, user.id, (tx) => patchTemplate(tx, user, id, patch)),
      );
    },
  );

  const deleteDoc = routeDoc({
    summary: 'Delete a template',
    description: 'Its creator, or the owner and editors of its campaign. Items made from it stay.',
    tags: TAGS,
    params: templateParams,
    answers: {
      204: noContent('Deleted.'),
      403: errorAnswer('The caller sees the template but may not delete it.'),
      404: notSeen,
    },
  });
  app.delete(
    '/templates/:id',
    { schema: deleteDoc, config: { tokenAccess: 'write' } },
    async (request, reply) => {
      const user = currentUser(request);
      const id = pathId(request, 'Template');
      return sendWrite(reply, await runWrite(app, request, user.id, (tx) => deleteTemplate(tx, user, id)));
    },
  );

  const instantiateDoc = routeDoc({
    summary: 'Create from a template',
    description:
      'Creates the whole tree in one transaction, under `parent_id` (a checklist needs its task) or at the top level, siblings after the parent’s last child in the template’s order, every date shifted to `anchor_date`, every item’s uuid derived from `uuid` and its place in the tree (UUID v5 of the path, such as `0/2/1`, in the namespace `uuid`), so a device that did it offline names the same items. A repeat (the same `uuid`, or `Idempotency-Key`) creates nothing again and answers with the items. The items’ own create rules apply (a viewer adds nothing to a campaign; the family and account caps).',
    tags: TAGS,
    params: templateParams,
    body: checkedInHandler(templateInstantiateSchema),
    answers: {
      200: { description: 'Every item existed already: the items.', schema: itemBatchAnswerSchema },
      201: { description: 'The items, parents first.', schema: itemBatchAnswerSchema },
      403: errorAnswer('The parent is in a campaign where the caller is a viewer.'),
      404: notSeen,
      422: invalidAnswer(),
    },
  });
  app.post(
    '/templates/:id/instantiate',
    { schema: instantiateDoc, config: { tokenAccess: 'write' } },
    async (request, reply) => {
      const user = currentUser(request);
      const id = pathId(request, 'Template');
      const input = parseOrThrow(templateInstantiateSchema, request.body);
      return sendWrite(
        reply,
        await runWrite(app, request, user.id, (tx) =>
          instantiateTemplate(tx, user, id, input, app.config.userMaxItems),
        ),
      );
    },
  );
}
