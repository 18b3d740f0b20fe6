import type { FastifyInstance } from 'fastify';
import { activityPageSchema } from '../../shared/apiSchemas';
import { redactedMetadata } from '../../shared/history';
import { type ActivityEntry, DEFAULT_PER_PAGE, paginated } from '../../shared/item';
import { pageQuerySchema } from '../../shared/schemas';
import { hiddenParentsOf } from '../comments/history';
import { currentUser } from '../http/context';
import { notFound, parseOrThrow } from '../http/errors';
import { pathId } from '../http/paths';
import { iso } from '../http/serialize';
import { findVisibleItem } from '../items/queries';
import { checkedInHandler, errorAnswer, idParams, invalidAnswer, routeDoc } from '../openapi/routeDoc';
import { activityPage, commentExcerpts, commentIdOf } from './store';

/** The activity feed of a campaign and everything under it, newest first. */
export async function activityRoutes(app: FastifyInstance): Promise<void> {
  const db = app.database.db;
  const activityDoc = routeDoc({
    summary: 'A campaign’s activity',
    description: 'Entries for the campaign and everything under it, newest first, 20 a page.',
    tags: ['Campaigns'],
    params: idParams('The campaign’s id.'),
    // Read after the path's id: an id that is not one is a 404 first.
    querystring: checkedInHandler(pageQuerySchema),
    answers: {
      200: { description: 'One page of entries.', schema: activityPageSchema },
      404: errorAnswer('No such campaign, or not one the caller may see.'),
      422: invalidAnswer(),
    },
  });
  app.get('/campaigns/:id/activity', { schema: activityDoc }, async (request) => {
    const user = currentUser(request);
    const id = pathId(request, 'Campaign');
    const { page = 1 } = parseOrThrow(pageQuerySchema, request.query);
    const campaign = await findVisibleItem(db, user.id, id);
    if (campaign?.type !== 'campaign') throw notFound('Campaign');
    const perPage = DEFAULT_PER_PAGE;
    const { found, total } = await activityPage(db, id, page, perPage);
    // K22: a move names by title only the places the reader sees (a move in from a private one, not).
    const hidden = await hiddenParentsOf(
      db,
      user.id,
      found.map((r) => r.metadata),
    );
    const excerpts = await commentExcerpts(db, user.id, found);
    const data: ActivityEntry[] = found.map((r) => ({
      id: r.id,
      user: { id: r.user_id, name: r.user_name },
      action: r.action,
      item: { id: r.item_id, type: r.item_type ?? 'todo', title: r.item_title ?? '' },
      description: r.description,
      metadata: redactedMetadata(r.metadata ?? {}, hidden),
      created_at: iso(r.created_at),
      via: r.via_token,
      ...(r.action === 'commented' ? { comment: excerpts.get(commentIdOf(r)) ?? null } : {}),
    }));
    return paginated(data, page, perPage, total);
  });
}
