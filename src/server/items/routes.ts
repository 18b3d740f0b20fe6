import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import { DEFAULT_PER_PAGE, type Item, paginated, SERVER_SEARCH_LIMIT } from '../../shared/item';
import {
  assignSchema,
  idSchema,
  itemBatchSchema,
  itemCreateSchema,
  itemListQuerySchema,
  itemPatchSchema,
  searchQuerySchema,
} from '../../shared/schemas';
import { normalizeQuery } from '../../shared/search';
import { departureOf } from '../campaigns/departures';
import { rows, sql } from '../db/client';
import { currentUser } from '../http/context';
import { HttpError, notFound, parseOrThrow } from '../http/errors';
import { runWrite, type WriteResult } from '../http/idempotency';
import { sendCached } from '../http/readCache';
import { createItemsBatch } from './batch';
import { deleteDescendantsInSteps, undoDeleteSteps } from './cascadeSteps';
import { findVisibleItem, selectItems, visibleTo } from './queries';
import { createItem, deleteItem, parseIfMatch, updateItem } from './service';

/** The numeric id in the path, or a 404 that says why (ids like `abc` name nothing). */
export function pathId(request: FastifyRequest, what = 'Item'): number {
  const raw = (request.params as { id?: string }).id;
  const parsed = idSchema.safeParse(raw);
  if (!parsed.success)
    throw new HttpError(404, `${what} not found: '${String(raw).slice(0, 40)}' is not an id.`);
  return parsed.data;
}

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

/** Items: list, search, get, create (one or a batch), patch, delete and assign. */
export async function itemRoutes(app: FastifyInstance): Promise<void> {
  const database = app.database;
  const db = database.db;

  app.get('/items', async (request, reply) => {
    const user = currentUser(request);
    const query = parseOrThrow(itemListQuerySchema, request.query);
    // Pages are read far more often than written: serve repeats from memory until a change event.
    const key = `items?${[query.type, query.status, query.parent_id, query.priority, query.page, query.per_page, query.label === undefined ? '' : JSON.stringify(query.label)].join('|')}`;
    return sendCached(app, reply, user.id, key, () => listItems(user.id, query));
  });

  async function listItems(userId: number, query: z.output<typeof itemListQuerySchema>) {
    const perPage = query.per_page ?? DEFAULT_PER_PAGE;
    const page = query.page ?? 1;
    const filters = [sql`i.deleted_at IS NULL`, visibleTo(userId)];
    if (query.type) filters.push(sql`i.type = ${query.type}`);
    if (query.status) filters.push(sql`i.status = ${query.status}`);
    if (query.parent_id !== undefined) {
      filters.push(query.parent_id === 0 ? sql`i.parent_id IS NULL` : sql`i.parent_id = ${query.parent_id}`);
    }
    if (query.priority !== undefined) filters.push(sql`i.priority = ${query.priority}`);
    // Labels compare without case (ARCHITECTURE §4): 'Errand' finds items labelled 'errand'.
    if (query.label !== undefined)
      filters.push(sql`EXISTS (SELECT 1 FROM unnest(i.labels) l WHERE lower(l) = lower(${query.label}))`);
    const where = sql.join(filters, sql` AND `);
    const [counted, data] = await Promise.all([
      // Every filter here names only i (visibleTo included), so the count needs no joins.
      rows<{ total: number }>(db, sql`SELECT count(*)::int AS total FROM items i WHERE ${where}`),
      selectItems(
        db,
        userId,
        where,
        sql`ORDER BY i.created_at DESC, i.id DESC LIMIT ${perPage} OFFSET ${(page - 1) * perPage}`,
      ),
    ]);
    const total = counted[0]?.total ?? 0;
    return paginated(data, page, perPage, total);
  }

  // Every label on the items the caller sees (the list's own visibility rule, so nobody else's labels
  // show), with how many of those items carry it. Labels that differ only in case are one, named as
  // the oldest such item spells it.
  app.get('/labels', async (request) => {
    const user = currentUser(request);
    const found = await rows<{ name: string; count: number }>(
      db,
      sql`SELECT (array_agg(l.name ORDER BY i.id, l.at))[1] AS name, count(DISTINCT i.id)::int AS count
          FROM items i CROSS JOIN LATERAL unnest(i.labels) WITH ORDINALITY AS l(name, at)
          WHERE i.deleted_at IS NULL AND ${visibleTo(user.id)}
          GROUP BY lower(l.name)
          ORDER BY lower(l.name)`,
    );
    return { labels: found.map((r) => ({ name: r.name, count: r.count })) };
  });

  app.get('/items/search', async (request) => {
    const user = currentUser(request);
    const { q } = parseOrThrow(searchQuerySchema, request.query);
    const query = normalizeQuery(q ?? '');
    if (query === null) return [];
    const pattern = `%${query.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    return selectItems(
      db,
      user.id,
      sql`i.deleted_at IS NULL AND ${visibleTo(user.id)} AND (i.title ILIKE ${pattern} OR i.description ILIKE ${pattern})`,
      sql`ORDER BY (i.title ILIKE ${pattern}) DESC, i.updated_at DESC, i.id DESC LIMIT ${SERVER_SEARCH_LIMIT}`,
    );
  });

  app.get('/items/:id', async (request, reply) => {
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

  app.post('/items', async (request, reply) => {
    const user = currentUser(request);
    const input = parseOrThrow(itemCreateSchema, request.body);
    return send(reply, await runWrite(app, request, user.id, (tx) => createItem(tx, user, input)));
  });

  // Many creates in one transaction (the guest upgrade): parents by uuid, idempotent by uuid and key.
  app.post('/items/batch', async (request, reply) => {
    const user = currentUser(request);
    const { items } = parseOrThrow(itemBatchSchema, request.body);
    return send(
      reply,
      await runWrite(app, request, user.id, (tx) =>
        createItemsBatch(tx, user, items, app.config.userMaxItems),
      ),
    );
  });

  app.patch('/items/:id', async (request, reply) => {
    const user = currentUser(request);
    const id = pathId(request);
    const patch = parseOrThrow(itemPatchSchema, request.body);
    const ifMatch = ifMatchOf(request);
    return send(
      reply,
      await runWrite(app, request, user.id, (tx) => updateItem(tx, user, id, patch, ifMatch)),
    );
  });

  app.delete('/items/:id', async (request, reply) => {
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

  app.post('/items/:id/assign', async (request, reply) => {
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
