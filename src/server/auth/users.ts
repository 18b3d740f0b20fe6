import type { UserSummary } from '../../shared/item';
import { type Executor, rows, sql } from '../db/client';
import { iso } from '../http/serialize';
import type { UserRow } from '../http/session';

// The users row is the session's (http/session.ts): http/ imports no resource.
export type { UserRow };

export function userJson(user: UserRow): UserSummary {
  return {
    id: user.id,
    name: user.name,
    // The API's user always has a phone string (the spec's shape): '' when they have none, as a guest.
    phone: user.phone ?? '',
    created_at: iso(user.created_at),
    updated_at: iso(user.updated_at),
  };
}

/**
 * The user with this E.164 phone, created with `name` on first sign-in; a later sign-in keeps the
 * stored name here (the route renames a placeholder through renameUser, N12).
 */
export async function findOrCreateUser(db: Executor, phone: string, name: string): Promise<UserRow> {
  const [created] = await rows<UserRow>(
    db,
    sql`INSERT INTO users (name, phone) VALUES (${name}, ${phone})
        ON CONFLICT (phone) DO NOTHING RETURNING id, name, phone, created_at, updated_at`,
  );
  if (created) return created;
  const [existing] = await rows<UserRow>(
    db,
    sql`SELECT id, name, phone, created_at, updated_at FROM users WHERE phone = ${phone}`,
  );
  return existing!;
}

/**
 * Renames the user and touches what carries their name to other people (N13): the items they created
 * or are assigned and their comments get a new change_xid (not a new updated_at: nothing was edited),
 * so every device that sees them pulls them with the new name, and the write's viewers are told.
 */
export async function renameUser(tx: Executor, userId: number, name: string): Promise<UserRow> {
  const [user] = await rows<UserRow>(
    tx,
    sql`UPDATE users SET name = ${name}, updated_at = now() WHERE id = ${userId}
        RETURNING id, name, phone, created_at, updated_at`,
  );
  await touchWhatCarriesUser(tx, userId);
  return user!;
}

/**
 * Gives the items the user created or is assigned, and their comments, a new change_xid, so every
 * device that sees them pulls them again with the user's new name or phone (N14, N15).
 */
async function touchWhatCarriesUser(tx: Executor, userId: number): Promise<void> {
  await tx.execute(
    sql`UPDATE items SET change_xid = pg_current_xact_id()::text::bigint
        WHERE (user_id = ${userId} OR assigned_to = ${userId}) AND deleted_at IS NULL`,
  );
  await tx.execute(
    sql`UPDATE comments SET change_xid = pg_current_xact_id()::text::bigint
        WHERE user_id = ${userId} AND deleted_at IS NULL`,
  );
}

/**
 * Gives a user with no phone (who came by single sign-on) the E.164 `phone` (N15): the user, or
 * 'has-phone' when they have another already, or 'taken' when another account has it. The items
 * that carry the user are pulled again, as after a rename.
 */
export async function addPhone(
  tx: Executor,
  userId: number,
  phone: string,
): Promise<UserRow | 'has-phone' | 'taken'> {
  const [added] = await rows<UserRow>(
    tx,
    sql`UPDATE users SET phone = ${phone}, updated_at = now()
        WHERE id = ${userId} AND phone IS NULL
          AND NOT EXISTS (SELECT 1 FROM users other WHERE other.phone = ${phone})
        RETURNING id, name, phone, created_at, updated_at`,
  );
  if (added) {
    await touchWhatCarriesUser(tx, userId);
    return added;
  }
  const [me] = await rows<UserRow>(
    tx,
    sql`SELECT id, name, phone, created_at, updated_at FROM users WHERE id = ${userId}`,
  );
  if (me?.phone === phone) return me;
  return me?.phone ? 'has-phone' : 'taken';
}

export async function userExists(db: Executor, id: number): Promise<boolean> {
  const found = await rows<{ id: number }>(db, sql`SELECT id FROM users WHERE id = ${id}`);
  return found.length > 0;
}

export const SAMPLE_USERS = [
  { id: 1, name: 'Alex Morgan', phone: '+15555550101' },
  { id: 2, name: 'Sam Rivera', phone: '+15555550102' },
  { id: 3, name: 'Jordan Lee', phone: '+15555550103' },
  { id: 4, name: 'Taylor Kim', phone: '+15555550104' },
] as const;

/** Seeds the four sample assignees (ids 1 to 4) unless those ids or phones are taken. */
export async function seedSampleUsers(db: Executor): Promise<void> {
  for (const user of SAMPLE_USERS) {
    await db.execute(
      sql`INSERT INTO users (id, name, phone) VALUES (${user.id}, ${user.name}, ${user.phone}) ON CONFLICT DO NOTHING`,
    );
  }
  await db.execute(
    sql`SELECT setval(pg_get_serial_sequence('users', 'id'), GREATEST((SELECT max(id) FROM users), 4))`,
  );
}
