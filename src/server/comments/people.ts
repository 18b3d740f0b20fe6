import { SAMPLE_USERS } from '../auth/users';
import { type Executor, rows, sql } from '../db/client';
import { viewersOfItem } from '../events/changeBus';
import { visibleTo } from '../items/queries';

const SAMPLE_PHONES = sql.join(
  SAMPLE_USERS.map((s) => sql`${s.phone}`),
  sql`, `,
);

/**
 * The @ picker's list for `readerId` on an item they see (SYNC.md M12): the people who see the item
 * (M10, so never someone removed from its campaign) whom the reader already knows. That is the
 * reader; the creators and assignees of the item and of its ancestors that the reader sees (their
 * names are on those items); the owner and members of its campaign when the reader sees the campaign
 * (its member list is theirs to read, §4); the reader's mutual contacts; and the sample users
 * everybody is offered. Everyone else who sees the item stays unnamed to them.
 */
export async function mentionablePeople(
  db: Executor,
  readerId: number,
  readerPhone: string | null,
  itemId: number,
): Promise<{ id: number; name: string }[]> {
  const seers = await viewersOfItem(db, itemId);
  if (seers.length === 0) return [];
  return rows<{ id: number; name: string }>(
    db,
    sql`WITH chain AS (
          SELECT i.id, i.type, i.user_id, i.assigned_to FROM items i
          WHERE i.id IN (SELECT x.id FROM items x WHERE x.id = ${itemId}
              UNION ALL SELECT x.parent_id FROM items x WHERE x.id = ${itemId}
              UNION ALL SELECT y.parent_id FROM items x JOIN items y ON y.id = x.parent_id WHERE x.id = ${itemId})
            AND ${visibleTo(readerId)}
        ),
        known AS (
          SELECT ${readerId}::int AS id
          UNION SELECT c.user_id FROM chain c
          UNION SELECT c.assigned_to FROM chain c WHERE c.assigned_to IS NOT NULL
          UNION SELECT m.user_id FROM chain c JOIN campaign_members m ON m.campaign_id = c.id WHERE c.type = 'campaign'
          UNION SELECT u.id FROM contacts mine
            JOIN users u ON u.phone = mine.contact_phone
            JOIN contacts theirs ON theirs.user_id = u.id AND theirs.contact_phone = ${readerPhone}
            WHERE mine.user_id = ${readerId}
          UNION SELECT s.id FROM users s WHERE s.id <= ${SAMPLE_USERS.length} AND s.phone IN (${SAMPLE_PHONES})
        )
        SELECT u.id, u.name FROM users u
        WHERE u.id = ANY(${`{${seers.join(',')}}`}::int[]) AND u.id IN (SELECT k.id FROM known k)
        ORDER BY lower(u.name), u.id`,
  );
}
