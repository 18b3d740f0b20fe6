import type { SQL } from 'drizzle-orm';
import type { Mutual } from '../../shared/item';
import { SAMPLE_USERS } from '../auth/users';
import { type Executor, rows, sql } from '../db/client';

/** Users who have `phone` in their contacts and whose phone `userId` has in theirs. */
function mutualsFrom(userId: number, phone: string | null): SQL {
  return sql`FROM contacts mine
    JOIN users u ON u.phone = mine.contact_phone
    JOIN contacts theirs ON theirs.user_id = u.id AND theirs.contact_phone = ${phone}
    WHERE mine.user_id = ${userId} AND u.id <> ${userId}`;
}

/** The user's mutual contacts, by name. */
export function listMutuals(db: Executor, userId: number, phone: string | null): Promise<Mutual[]> {
  return rows<Mutual>(
    db,
    sql`SELECT u.id, u.name, u.phone ${mutualsFrom(userId, phone)} ORDER BY u.name, u.id`,
  );
}

/** E3: a fingerprint of the user's mutual contacts (who, and their names); '' for none. */
export async function mutualsVersion(db: Executor, userId: number, phone: string | null): Promise<string> {
  const [row] = await rows<{ version: string | null }>(
    db,
    sql`SELECT md5(string_agg(u.id::text || ':' || u.name, ',' ORDER BY u.id)) AS version ${mutualsFrom(userId, phone)}`,
  );
  return row?.version ?? '';
}

/**
 * The sample users this server seeded (ids 1 to 4 with their sample phones): none on a deployment
 * without them, so a picker never offers a person the server would refuse.
 */
export function listSampleUsers(db: Executor): Promise<Mutual[]> {
  const phones = sql.join(
    SAMPLE_USERS.map((s) => sql`${s.phone}`),
    sql`, `,
  );
  return rows<Mutual>(
    db,
    sql`SELECT id, name, phone FROM users WHERE id <= ${SAMPLE_USERS.length} AND phone IN (${phones}) ORDER BY id`,
  );
}
