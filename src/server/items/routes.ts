import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  itemBatchAnswerSchema,
  itemPageSchema,
  itemSchema,
  labelsAnswerSchema,
  searchHitSchema,
  staleSchema,
} from '../../shared/apiSchemas';
import { bodyText } from '../../shared/comments';
import { parse as parseFilter } from '../../shared/filter';
import { type Item, SERVER_SEARCH_LIMIT } from '../../shared/item';
import {
  assignSchema,
  itemBatchSchema,
  itemCreateSchema,
  itemListQuerySchema,
  itemPatchSchema,
  searchQuerySchema,
} from '../../shared/schemas';
import { matchExcerpt, normalizeQuery } from '../../shared/search';
import { departureOf } from '../campaigns/departures';
import { currentUser } from '../http/context';
import { HttpError, notFound, parseOrThrow, unprocessable } from '../http/errors';
import { runWrite, type WriteResult } from '../http/idempotency';
import { pathId } from '../http/paths';
import { sendCached } from '../http/readCache';
import {
  checkedInHandler,
  errorAnswer,
  idParams,
  invalidAnswer,
  noContent,
  routeDoc,
} from '../openapi/routeDoc';
import { createItemsBatch } from './batch';
import { deleteDescendantsInSteps, undoDeleteSteps } from './cascadeSteps';
import { findVisibleItem } from './queries';
import { createItem, deleteItem, parseIfMatch, updateItem } from './service';
import { labelCounts, listItems, searchCommentHits, searchItems } from './store';

function send(reply: FastifyReply, result: WriteResult) {
  const item = result.body as Partial<Item> | null;
  if (item && typeof item.version === 'number') reply.header('ETag', `"${item.version}"`);
  if (result.status === 204) return reply.status(204).send();
  // The JSON made for the Idempotency-Key record is the answer's body: not made twice.
  if (result.json !== undefined) {
    return reply.status(result.status).type('application/json; charset=utf-8').send(result.json);
  }
  return reply.status(result.status).send(result.body);
}

const ifMatchOf = (request: FastifyRequest) => {
  const header = request.headers['if-match'];
  return parseIfMatch(Array.isArray(header) ? header[0] : header);
};

const TAGS = ['Items'];
const itemParams = idParams('The item’s id.');
const notSeen = errorAnswer('No such item, or not one the caller may see.');
const ifMatchHeader = z.object({
  'If-Match': z
    .string()
    .optional()
    .describe('`"<version>"` of the copy the change is based on: a newer one on the server answers 412.'),
});
const stale = {
  description: 'The item changed since the `If-Match` version; `item` is the server’s copy.',
  schema: staleSchema,
};
const itemAnswer = (description: string) => ({ description, schema: itemSchema });

/** Items: list, search, get, create (one or a batch), patch, delete and assign. */
export async function itemRoutes(plain: FastifyInstance): Promise<void> {
  const app = plain.withTypeProvider<ZodTypeProvider>();
  const database = app.database;
  const db = database.db;

  const listDoc = routeDoc({
    summary: 'List items',
    description:
      'The items the caller may see, newest first (`created_at`, then `id`), 20 a page by default and at most 100. `parent_id=0` lists the top level. `filter` takes a query in the filter language (the README’s [Filter language](README.md#filter-language) section): terms such as `today`, `overdue`, `p1`, `+label`, `#Campaign`, `@person`, `status: in progress`, `due before: next friday`, `tracked > 2h`, `search: words`, joined with `&`, `|`, `!` and parentheses; at most 500 characters and 20 levels deep. A malformed query answers 422 naming its column. `today` (YYYY-MM-DD, default the server’s UTC day) is the day its dates count from.',
    tags: TAGS,
    querystring: itemListQuerySchema,
    answers: { 200: { description: 'One page of items.', schema: itemPageSchema }, 422: invalidAnswer() },
  });
  app.get('/items', { schema: listDoc }, async (request, reply) => {
    const user = currentUser(request);
    const query = request.query;
    // Pages are read far more often than written: serve repeats from memory until a change event.
    // A blank filter is no filter; a malformed one is told with its column, as the device tells it.
    let filter = null;
    if (query.filter !== undefined && query.filter.trim() !== '') {
      const parsed = parseFilter(query.filter);
      if (!parsed.ok) throw unprocessable({ filter: [parsed.error.message] });
      filter = parsed.ast;
    }
    const key = `items?${[query.type, query.status, query.parent_id, query.priority, query.page, query.per_page, query.label === undefined ? '' : JSON.stringify(query.label), filter === null ? '' : JSON.stringify([query.filter, query.today ?? new Date().toISOString().slice(0, 10)])].join('|')}`;
    return sendCached(app, reply, user.id, key, () => listItems(db, user.id, query, filter));
  });

  // Every label on the items the caller sees (the list's own visibility rule, so nobody else's labels
  // show), with how many of those items carry it. Labels that differ only in case are one, named as
  // the oldest such item spells it.
  const labelsDoc = routeDoc({
    summary: 'List labels',
    description: 'Every label on the items the caller sees, with how many of them carry it.',
    tags: TAGS,
    answers: { 200: { description: 'The labels, by name.', schema: labelsAnswerSchema } },
  });
  app.get('/labels', { schema: labelsDoc }, async (request) => {
    const user = currentUser(request);
    const found = await labelCounts(db, user);
    return { labels: found.map((r) => ({ name: r.name, count: r.count })) };
  });

  const searchDoc = routeDoc({
    summary: 'Search items',
    description:
      'At most 20 items whose title, description or a live comment holds `q`: title matches first, then description matches, then comment matches (each with `matched_comment`, the newest such comment and the words around the match), each most recently updated first. Fewer than 2 characters (after trimming) finds nothing.',
    tags: TAGS,
    querystring: searchQuerySchema,
    answers: {
      200: { description: 'The matching items.', schema: z.array(searchHitSchema) },
      422: invalidAnswer(),
    },
  });
  app.get('/items/search', { schema: searchDoc }, async (request) => {
    const user = currentUser(request);
    const { q } = request.query;
    const query = normalizeQuery(q ?? '');
    if (query === null) return [];
    const pattern = `%${query.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    const found = await searchItems(db, user, pattern);
    // Comment matches rank last (shared/search MATCH_RANK): they only fill what the item's own text left.
    const byComment = await searchCommentHits(db, user, pattern, SERVER_SEARCH_LIMIT - found.length);
    return [
      ...found,
      ...byComment.map(({ item, hit }) => ({
        ...item,
        matched_comment: {
          id: hit.comment_id,
          excerpt: matchExcerpt(bodyText(hit.body, hit.mentions), query),
        },
      })),
    ];
  });

  const getDoc = routeDoc({
    summary: 'Get an item',
    tags: TAGS,
    params: itemParams,
    answers: {
      200: itemAnswer('The item, with `ETag: "<version>"`.'),
      404: errorAnswer(
        'No such item, or not one the caller may see; for a campaign the caller left or was removed from, `departure` says so.',
      ),
    },
  });
  app.get('/items/:id', { schema: getDoc }, async (request, reply) => {
    const user = currentUser(request);
    const id = pathId(request);
    const item = await findVisibleItem(db, user.id, id);
    if (!item) {
      // Q22: a campaign the caller left or was removed from says so (and by whom), nothing more.
      const departure = await departureOf(db, user.id, id);
      if (departure) throw new HttpError(404, notFound().message, { departure });
      throw notFound();
    }
    return send(reply, { status: 200, body: item });
  });

  const createDoc = routeDoc({
    summary: 'Create an item',
    description:
      'The owner is always the caller (`user_id` is accepted and ignored). A repeat of a known `uuid`, or of an `Idempotency-Key`, answers with the existing item.',
    tags: TAGS,
    body: itemCreateSchema,
    answers: {
      200: itemAnswer('An item with this `uuid` exists already: that item.'),
      201: itemAnswer('The new item.'),
      403: errorAnswer('The parent is in a campaign where the caller is a viewer.'),
      422: invalidAnswer(
        'Bad input: an empty or too long title, an unknown type or status, a parent that does not exist, is not visible or breaks the hierarchy, an unknown assignee, a field that is not one of these.',
      ),
    },
  });
  app.post('/items', { schema: createDoc }, async (request, reply) => {
    const user = currentUser(request);
    const input = request.body;
    return send(reply, await runWrite(app, request, user.id, (tx) => createItem(tx, user, input)));
  });

  // Many creates in one transaction (the guest upgrade): parents by uuid, idempotent by uuid and key.
  const batchDoc = routeDoc({
    summary: 'Create many items',
    description:
      'Up to 500 creates in one transaction, parents first; a parent may be named by `parent_uuid` (an earlier item of the batch, or one on the server). Idempotent by `uuid`.',
    tags: TAGS,
    body: itemBatchSchema,
    answers: {
      200: { description: 'Every item existed already.', schema: itemBatchAnswerSchema },
      201: { description: 'The items, created or found.', schema: itemBatchAnswerSchema },
      403: errorAnswer('A parent is in a campaign where the caller is a viewer.'),
      422: invalidAnswer(),
    },
  });
  app.post('/items/batch', { schema: batchDoc }, async (request, reply) => {
    const user = currentUser(request);
    const { items } = request.body;
    return send(
      reply,
      await runWrite(app, request, user.id, (tx) =>
        createItemsBatch(tx, user, items, app.config.userMaxItems),
      ),
    );
  });

  const patchDoc = routeDoc({
    summary: 'Change an item',
    description: 'The changed fields only. A PATCH may move and place at once with `{parent_id, sort_key}`.',
    tags: TAGS,
    params: itemParams,
    headers: ifMatchHeader,
    // Read after the path's id: an id that names nothing is a 404 before the body is looked at.
    body: checkedInHandler(itemPatchSchema),
    answers: {
      200: itemAnswer('The changed item.'),
      403: errorAnswer('The caller sees the item but may not change it (a viewer).'),
      404: notSeen,
      412: stale,
      422: invalidAnswer(),
    },
  });
  app.patch('/items/:id', { schema: patchDoc }, async (request, reply) => {
    const user = currentUser(request);
    const id = pathId(request);
    const patch = parseOrThrow(itemPatchSchema, request.body);
    const ifMatch = ifMatchOf(request);
    return send(
      reply,
      await runWrite(app, request, user.id, (tx) => updateItem(tx, user, id, patch, ifMatch)),
    );
  });

  const deleteDoc = routeDoc({
    summary: 'Delete an item',
    description:
      'Soft: the item and its descendants go to the trash for 30 days (a tombstone remains for sync).',
    tags: TAGS,
    params: itemParams,
    headers: ifMatchHeader,
    answers: {
      204: noContent('Deleted.'),
      403: errorAnswer('The caller sees the item but may not delete it.'),
      404: notSeen,
      412: stale,
    },
  });
  app.delete('/items/:id', { schema: deleteDoc }, async (request, reply) => {
    const user = currentUser(request);
    const id = pathId(request);
    const ifMatch = ifMatchOf(request);
    // P7: on the embedded database a large family's descendants go first, in short steps.
    const stamp = await deleteDescendantsInSteps(app, user, id, ifMatch);
    try {
      return send(
        reply,
        await runWrite(app, request, user.id, (tx) => deleteItem(tx, user, id, ifMatch, stamp)),
      );
    } catch (error) {
      if (stamp !== null) await undoDeleteSteps(app, user, id, stamp);
      throw error;
    }
  });

  const assignDoc = routeDoc({
    summary: 'Assign an item',
    description: '`user_id` 0 unassigns.',
    tags: TAGS,
    params: itemParams,
    headers: ifMatchHeader,
    body: checkedInHandler(assignSchema),
    answers: {
      200: itemAnswer('The item.'),
      403: errorAnswer('The caller sees the item but may not assign it.'),
      404: notSeen,
      412: stale,
      422: invalidAnswer('Not a user id, or a person who may not be assigned.'),
    },
  });
  app.post('/items/:id/assign', { schema: assignDoc }, async (request, reply) => {
    const user = currentUser(request);
    const id = pathId(request);
    const { user_id } = parseOrThrow(assignSchema, request.body);
    const ifMatch = ifMatchOf(request);
    return send(
      reply,
      await runWrite(app, request, user.id, (tx) =>
        updateItem(tx, user, id, { assigned_to: user_id === 0 ? null : user_id }, ifMatch),
      ),
    );
  });
}
