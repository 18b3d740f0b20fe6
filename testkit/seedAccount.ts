import { findOrCreateUser } from '../src/server/auth/users';
import { type Executor, rows, sql } from '../src/server/db/client';
import { rollUpSeeded } from './rollUpSeeded';

/** What seedAccount made: the account and how many items it owns. */
export interface SeededAccount {
  userId: number;
  items: number;
}

/**
 * An account with `count` items in a tracker's shape, by set-based INSERTs (seconds for 100,000):
 * one campaign per 100 items with 10 tasks each, the rest todos spread over the tasks, about a third
 * of them completed, statuses rolled up as the app does (all done → completed, any started → in
 * progress), so a fresh device signing in has `count` items to pull.
 */
export async function seedAccount(
  db: Executor,
  phone: string,
  name: string,
  count: number,
): Promise<SeededAccount> {
  const user = await findOrCreateUser(db, phone, name);
  const campaigns = Math.max(1, Math.floor(count / 100));
  const tasks = Math.min(campaigns * 10, Math.max(0, count - campaigns));
  const todos = Math.max(0, count - campaigns - tasks);
  await db.execute(sql`
    INSERT INTO items (title, description, type, status, user_id, created_at, updated_at)
    SELECT 'Campaign ' || g, 'Seeded campaign number ' || g, 'campaign', 'pending', ${user.id},
           now() - make_interval(days => 365) + make_interval(secs => g * 60),
           now() - make_interval(days => 365) + make_interval(secs => g * 60)
    FROM generate_series(1, ${campaigns}) g`);
  await db.execute(sql`
    WITH c AS (
      SELECT id, title, created_at, (row_number() OVER (ORDER BY id) - 1)::int AS n
      FROM items WHERE user_id = ${user.id} AND type = 'campaign'
    )
    INSERT INTO items (title, type, status, user_id, parent_id, created_at, updated_at)
    SELECT 'Task ' || g || ' of ' || c.title, 'task', 'pending', ${user.id}, c.id,
           c.created_at + make_interval(secs => g), c.created_at + make_interval(secs => g)
    FROM generate_series(0, ${tasks - 1}) g JOIN c ON c.n = g % ${campaigns}`);
  if (todos > 0 && tasks > 0) {
    await db.execute(sql`
      WITH t AS (
        SELECT id, title, created_at, (row_number() OVER (ORDER BY id) - 1)::int AS n
        FROM items WHERE user_id = ${user.id} AND type = 'task'
      )
      INSERT INTO items (title, type, status, user_id, parent_id, created_at, updated_at, completed_at)
      SELECT 'Todo ' || g || ' for ' || t.title, 'todo',
             CASE WHEN g % 3 = 0 THEN 'completed' ELSE 'pending' END, ${user.id}, t.id,
             t.created_at + make_interval(secs => 1 + g % 50), t.created_at + make_interval(secs => 1 + g % 50),
             CASE WHEN g % 3 = 0 THEN t.created_at + make_interval(secs => 100) END
      FROM generate_series(0, ${todos - 1}) g JOIN t ON t.n = g % ${tasks}`);
  }
  await rollUpSeeded(db, user.id);
  await db.execute(sql`ANALYZE items`);
  const [seeded] = await rows<{ n: number }>(
    db,
    sql`SELECT count(*)::int AS n FROM items WHERE user_id = ${user.id}`,
  );
  return { userId: user.id, items: seeded?.n ?? 0 };
}
