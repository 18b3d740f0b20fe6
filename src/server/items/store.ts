import type { z } from 'zod';
import { type FilterAst, type FilterPerson, folded } from '../../shared/filter';
import { DEFAULT_PER_PAGE, paginated, SERVER_SEARCH_LIMIT } from '../../shared/item';
import type { itemListQuerySchema } from '../../shared/schemas';
import { type Executor, rows, sql } from '../db/client';
import { filterToSql, namesIn } from './filterSql';
import { selectItems, selectItemsByIds, visibleTo } from './queries';

/**
 * The people a filter's names may mean: those whose whole name or first word is one of `names`
 * (without case); the filter's own rule (shared/filter personMatches) then picks among them.
 */
export function peopleNamed(db: Executor, names: readonly string[]): Promise<FilterPerson[]> {
  const wanted = [...new Set(names.map(folded))].filter((n) => n !== '');
  if (wanted.length === 0) return Promise.resolve([]);
  const list = sql.join(
    wanted.map((n) => sql`${n}`),
    sql`, `,
  );
  return rows<FilterPerson>(
    db,
    sql`SELECT id, name FROM users WHERE lower(name) IN (${list}) OR lower(split_part(name, ' ', 1)) IN (${list})`,
  );
}

/**
 * GET /api/items: one page of the items `userId` sees, by the list's filters (and the parsed
 * `filter` query, counted from `today`), newest first.
 */
export async function listItems(
  db: Executor,
  userId: number,
  query: z.output<typeof itemListQuerySchema>,
  filter: FilterAst | null = null,
) {
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
  if (filter) {
    const today = query.today ?? new Date().toISOString().slice(0, 10);
    const people = await peopleNamed(db, namesIn(filter));
    filters.push(filterToSql(filter, { today, viewerId: userId, people }));
  }
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

/**
 * GET /api/labels: every label on the items `user` sees, with how many of them carry it; labels that
 * differ only in case are one, named as the oldest such item spells it.
 */
export function labelCounts(db: Executor, user: { id: number }) {
  return rows<{ name: string; count: number }>(
    db,
    sql`SELECT (array_agg(l.name ORDER BY i.id, l.at))[1] AS name, count(DISTINCT i.id)::int AS count
          FROM items i CROSS JOIN LATERAL unnest(i.labels) WITH ORDINALITY AS l(name, at)
          WHERE i.deleted_at IS NULL AND ${visibleTo(user.id)}
          GROUP BY lower(l.name)
          ORDER BY lower(l.name)`,
  );
}

/** GET /api/items/search: the items `user` sees whose title or description matches the ILIKE `pattern`. */
export function searchItems(db: Executor, user: { id: number }, pattern: string) {
  return selectItems(
    db,
    user.id,
    sql`i.deleted_at IS NULL AND ${visibleTo(user.id)} AND (i.title ILIKE ${pattern} OR i.description ILIKE ${pattern})`,
    sql`ORDER BY (i.title ILIKE ${pattern}) DESC, i.updated_at DESC, i.id DESC LIMIT ${SERVER_SEARCH_LIMIT}`,
  );
}

/** A comment that found its item in search: the newest live comment on it holding the words. */
export interface CommentHitRow {
  item_id: number;
  comment_id: number;
  body: string;
  mentions: { id: number; name: string }[];
}

/**
 * GET /api/items/search's comment half: up to `limit` items `user` sees (live, not in the trash)
 * whose title and description miss the ILIKE `pattern` but a live comment holds it, most recently
 * updated first, each with its newest such comment; and those items as selectItems gives them.
 */
export async function searchCommentHits(db: Executor, user: { id: number }, pattern: string, limit: number) {
  if (limit <= 0) return [];
  const hits = await rows<CommentHitRow>(
    db,
    sql`SELECT h.item_id, h.comment_id, h.body,
          COALESCE((SELECT json_agg(json_build_object('id', mu.id, 'name', mu.name))
            FROM users mu WHERE mu.id = ANY(h.mentions)), '[]'::json) AS mentions
        FROM (SELECT DISTINCT ON (i.id) i.id AS item_id, i.updated_at, c.id AS comment_id, c.body, c.mentions
              FROM comments c JOIN items i ON i.id = c.item_id
              WHERE c.deleted_at IS NULL AND c.body ILIKE ${pattern} AND i.deleted_at IS NULL
                AND NOT (i.title ILIKE ${pattern} OR COALESCE(i.description ILIKE ${pattern}, false))
                AND ${visibleTo(user.id)}
              ORDER BY i.id, c.id DESC) h
        ORDER BY h.updated_at DESC, h.item_id DESC LIMIT ${limit}`,
  );
  const items = new Map(
    (
      await selectItemsByIds(
        db,
        user.id,
        hits.map((h) => h.item_id),
      )
    ).map((i) => [i.id, i]),
  );
  return hits.flatMap((hit) => {
    const item = items.get(hit.item_id);
    return item ? [{ item, hit }] : [];
  });
}
