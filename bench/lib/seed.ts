import type { UserRow } from '../../src/server/auth/users';
import { findOrCreateUser } from '../../src/server/auth/users';
import { type Executor, rows, sql } from '../../src/server/db/client';

export const BENCH_PHONE = '+15555550199';
export const BENCH_NAME = 'Bench User';
export const SEED_COUNTS = { campaigns: 300, tasks: 2700, todos: 7000 } as const;

export interface Seeded {
  user: UserRow;
  taskIds: number[];
  /** The seeded todos still pending, for writes that complete and reopen them. */
  todoIds: number[];
  total: number;
}

/**
 * 10,000 items owned by the benchmark user: 300 campaigns, 9 tasks under each, 7,000 todos spread
 * over the tasks (2 or 3 each). Three set-based INSERTs rather than 10,000 POSTs, so setup takes
 * seconds on both engines. Timestamps are spread over the past year (children after their parent)
 * so "newest first" pages look like real data; about a third of the todos are completed, and tasks
 * and campaigns carry the statuses the app's roll-up gives them.
 */
export async function seedBenchData(db: Executor): Promise<Seeded> {
  const user = await findOrCreateUser(db, BENCH_PHONE, BENCH_NAME);
  const { campaigns, tasks, todos } = SEED_COUNTS;
  const perCampaign = tasks / campaigns;
  await db.execute(sql`
    INSERT INTO items (title, description, type, status, user_id, created_at, updated_at)
    SELECT 'Campaign ' || g, 'Benchmark campaign number ' || g, 'campaign',
           CASE WHEN g % 4 = 0 THEN 'in_progress' ELSE 'pending' END, ${user.id},
           now() - make_interval(days => 365) + make_interval(mins => g * 1000),
           now() - make_interval(days => 365) + make_interval(mins => g * 1000)
    FROM generate_series(1, ${campaigns}) g`);
  await db.execute(sql`
    INSERT INTO items (title, type, status, user_id, parent_id, created_at, updated_at)
    SELECT 'Task ' || k || ' of ' || c.title, 'task',
           CASE WHEN k % 3 = 0 THEN 'in_progress' ELSE 'pending' END, ${user.id}, c.id,
           c.created_at + make_interval(mins => k * 10), c.created_at + make_interval(mins => k * 10)
    FROM items c CROSS JOIN generate_series(1, ${perCampaign}) k
    WHERE c.user_id = ${user.id} AND c.type = 'campaign'`);
  await db.execute(sql`
    WITH t AS (
      SELECT id, title, created_at, (row_number() OVER (ORDER BY id) - 1)::int AS n
      FROM items WHERE user_id = ${user.id} AND type = 'task'
    )
    INSERT INTO items (title, type, status, user_id, parent_id, created_at, updated_at, completed_at)
    SELECT 'Todo ' || g || ' for ' || t.title, 'todo',
           CASE WHEN g % 3 = 0 THEN 'completed' ELSE 'pending' END, ${user.id}, t.id,
           t.created_at + make_interval(secs => g % 600), t.created_at + make_interval(secs => g % 600),
           CASE WHEN g % 3 = 0 THEN t.created_at + make_interval(secs => g % 600 + 60) END
    FROM generate_series(0, ${todos - 1}) g JOIN t ON t.n = g % ${tasks}`);
  // Roll the todos' statuses up into tasks, then tasks into campaigns, by the app's rule (shared/status):
  // all done → completed, any started → in progress, else as it was. Inconsistent seed statuses would
  // make every benchmark write "repair" its family with extra updates that real data never needs.
  for (const [child, parent] of [
    ['todo', 'task'],
    ['task', 'campaign'],
  ] as const) {
    await db.execute(sql`
      UPDATE items t SET
        status = CASE WHEN s.done = s.n THEN 'completed' WHEN s.started > 0 THEN 'in_progress' ELSE t.status END,
        completed_at = CASE WHEN s.done = s.n THEN t.created_at + make_interval(days => 1) END
      FROM (
        SELECT parent_id, count(*) AS n,
               count(*) FILTER (WHERE status = 'completed') AS done,
               count(*) FILTER (WHERE status <> 'pending') AS started
        FROM items WHERE user_id = ${user.id} AND type = ${child} GROUP BY parent_id
      ) s
      WHERE t.id = s.parent_id AND t.type = ${parent}`);
  }
  // Autovacuum would analyze a table this size soon after such a load; do it now so the planner
  // sees the data the benchmark runs against rather than an empty table.
  await db.execute(sql`ANALYZE`);
  const taskRows = await rows<{ id: number }>(
    db,
    sql`SELECT id FROM items WHERE user_id = ${user.id} AND type = 'task' ORDER BY id`,
  );
  const todoRows = await rows<{ id: number }>(
    db,
    sql`SELECT id FROM items WHERE user_id = ${user.id} AND type = 'todo' AND status = 'pending' ORDER BY id`,
  );
  const [count] = await rows<{ n: number }>(db, sql`SELECT count(*)::int AS n FROM items`);
  return {
    user,
    taskIds: taskRows.map((r) => r.id),
    todoIds: todoRows.map((r) => r.id),
    total: count?.n ?? 0,
  };
}
