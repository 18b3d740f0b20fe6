import { commentExcerpt } from '../../shared/comments';
import type { ActivityEntry } from '../../shared/item';
import { type Executor, rows, sql } from '../db/client';
import { visibleTo } from '../items/queries';

/** An activity entry with its author's name, as the campaign feed reads it. */
export interface ActivityRow {
  id: number;
  user_id: number;
  user_name: string;
  action: ActivityEntry['action'];
  item_id: number;
  item_type: ActivityEntry['item']['type'] | null;
  item_title: string | null;
  description: string;
  metadata: Record<string, unknown>;
  created_at: Date;
  via_token: string | null;
}

/** One page of campaign `id`'s activity entries, newest first, and how many it has in all. */
export async function activityPage(
  db: Executor,
  id: number,
  page: number,
  perPage: number,
): Promise<{ found: ActivityRow[]; total: number }> {
  const [counted, found] = await Promise.all([
    rows<{ total: number }>(db, sql`SELECT count(*)::int AS total FROM activities WHERE root_id = ${id}`),
    rows<ActivityRow>(
      db,
      // The item as the entry recorded it, never as it is now: it may have moved somewhere the
      // reader cannot see, and its title with it.
      sql`SELECT a.id, a.user_id, u.name AS user_name, a.action, a.item_id, a.item_type, a.item_title,
              a.description, a.metadata, a.created_at, a.via_token
            FROM activities a JOIN users u ON u.id = a.user_id
            WHERE a.root_id = ${id}
            ORDER BY a.id DESC LIMIT ${perPage} OFFSET ${(page - 1) * perPage}`,
    ),
  ]);
  const total = counted[0]?.total ?? 0;
  return { found, total };
}

/** The comment a `commented` entry names (0 when it names none). */
export const commentIdOf = (r: Pick<ActivityRow, 'metadata'>): number => {
  const id = r.metadata?.comment_id;
  return typeof id === 'number' && Number.isInteger(id) ? id : 0;
};

/**
 * The first words of the comments these `commented` entries name, by comment id, as `readerId` may
 * read them: a live comment on a live item they see now. A deleted or erased comment, or one whose
 * item moved out of their sight, is missing, and its entry says one neutral thing for all three.
 */
export async function commentExcerpts(
  db: Executor,
  readerId: number,
  entries: readonly ActivityRow[],
): Promise<Map<number, string>> {
  const ids = [...new Set(entries.filter((r) => r.action === 'commented').map(commentIdOf))].filter(
    (id) => id > 0,
  );
  if (ids.length === 0) return new Map();
  const found = await rows<{ id: number; body: string; mentions: { id: number; name: string }[] }>(
    db,
    sql`SELECT c.id, c.body,
          COALESCE((SELECT json_agg(json_build_object('id', mu.id, 'name', mu.name))
            FROM users mu WHERE mu.id = ANY(c.mentions)), '[]'::json) AS mentions
        FROM comments c JOIN items i ON i.id = c.item_id
        WHERE c.id = ANY(${`{${ids.join(',')}}`}::int[]) AND c.deleted_at IS NULL AND i.deleted_at IS NULL
          AND ${visibleTo(readerId)}`,
  );
  return new Map(found.map((c) => [c.id, commentExcerpt(c.body, c.mentions)]));
}
