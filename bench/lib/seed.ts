import type { UserRow } from '../../src/server/auth/users';
import { findOrCreateUser } from '../../src/server/auth/users';
import { type Executor, rows, sql } from '../../src/server/db/client';
import { rollUpSeeded } from '../../testkit/rollUpSeeded';

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
  await rollUpSeeded(db, user.id);
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

export interface ScaleAccount {
  user: UserRow;
  /** Every item the account can see, as a fresh device must store them all. */
  total: number;
  /** Items with no parent: what Home lists. */
  topLevel: number;
  campaignId: number;
  /** The task with 2,000 todos. */
  bigTaskId: number;
}

export const BIG_TASK_TODOS = 2000;

/**
 * One account with `items` items in the shape of a long-lived tracker: a campaign per 500 items with
 * 30 tasks each; top-level tasks (1 per 100 items) and todos (1 per 50); one task with 2,000 todos;
 * the rest todos spread over the other tasks unevenly (most have a few, the busiest a few hundred).
 * About a third of the todos are completed, and statuses roll up as the app rolls them. Creation
 * times cover the past two years, children after their parent. Set-based INSERTs: 100,000 items take
 * seconds on either engine.
 */
export async function seedScaleAccount(
  db: Executor,
  options: { phone: string; name: string; items: number },
): Promise<ScaleAccount> {
  const user = await findOrCreateUser(db, options.phone, options.name);
  const u = user.id;
  const campaigns = Math.max(1, Math.round(options.items / 500));
  const perCampaign = 30;
  const topTasks = Math.round(options.items / 100);
  const topTodos = Math.round(options.items / 50);
  const spread =
    options.items - campaigns - campaigns * perCampaign - topTasks - topTodos - 1 - BIG_TASK_TODOS;
  if (spread < 0) throw new Error(`seedScaleAccount: ${options.items} items are too few for the shape`);
  const stepMins = Math.floor((730 * 24 * 60) / campaigns);
  const words = sql`(ARRAY['paint','fence','tape','order','ship','call','plan','review','draft','budget'])`;
  await db.execute(sql`
    INSERT INTO items (uuid, title, description, type, status, user_id, created_at, updated_at)
    SELECT gen_random_uuid(), 'Campaign ' || g || ' ' || ${words}[1 + g % 10], 'Campaign number ' || g,
           'campaign', 'pending', ${u},
           now() - make_interval(days => 730) + make_interval(mins => g * ${stepMins}::int),
           now() - make_interval(days => 730) + make_interval(mins => g * ${stepMins}::int)
    FROM generate_series(1, ${campaigns}::int) g`);
  await db.execute(sql`
    INSERT INTO items (uuid, title, type, status, user_id, parent_id, created_at, updated_at)
    SELECT gen_random_uuid(), 'Task ' || k || ' of ' || c.title, 'task',
           CASE WHEN k % 5 = 0 THEN 'in_progress' ELSE 'pending' END, ${u}, c.id,
           c.created_at + make_interval(mins => k * 30), c.created_at + make_interval(mins => k * 30)
    FROM items c CROSS JOIN generate_series(1, ${perCampaign}::int) k
    WHERE c.user_id = ${u} AND c.type = 'campaign'`);
  // Each kind spread over the whole two years, so Home's newest rows mix campaigns, tasks and todos.
  const topTime = (count: number) =>
    sql`now() - make_interval(days => 730) + make_interval(secs => g * ${Math.floor((730 * 86400) / Math.max(1, count))}::int)`;
  await db.execute(sql`
    INSERT INTO items (uuid, title, type, status, user_id, created_at, updated_at, completed_at)
    SELECT gen_random_uuid(), 'Loose task ' || g || ' ' || ${words}[1 + g % 10], 'task',
           CASE WHEN g % 3 = 0 THEN 'completed' WHEN g % 7 = 0 THEN 'in_progress' ELSE 'pending' END,
           ${u}, ${topTime(topTasks)}, ${topTime(topTasks)}, CASE WHEN g % 3 = 0 THEN ${topTime(topTasks)} + make_interval(days => 1) END
    FROM generate_series(1, ${topTasks}::int) g`);
  const [big] = await rows<{ id: number; created_at: string }>(
    db,
    sql`
    INSERT INTO items (uuid, title, type, status, user_id, parent_id, created_at, updated_at)
    SELECT gen_random_uuid(), ${`Big task with ${BIG_TASK_TODOS.toLocaleString('en-US')} todos`}, 'task', 'pending', ${u}, c.id,
           c.created_at + make_interval(mins => 5), c.created_at + make_interval(mins => 5)
    FROM items c WHERE c.user_id = ${u} AND c.type = 'campaign' ORDER BY c.id LIMIT 1
    RETURNING id, parent_id`,
  );
  if (!big) throw new Error('seedScaleAccount: the big task was not created');
  await db.execute(sql`
    INSERT INTO items (uuid, title, type, status, user_id, parent_id, created_at, updated_at, completed_at)
    SELECT gen_random_uuid(), 'Step ' || g || ': ' || ${words}[1 + g % 10] || ' ' || ${words}[1 + (g / 10) % 10],
           'todo', CASE WHEN g % 3 = 0 THEN 'completed' ELSE 'pending' END, ${u}, t.id,
           t.created_at + make_interval(secs => g), t.created_at + make_interval(secs => g),
           CASE WHEN g % 3 = 0 THEN t.created_at + make_interval(secs => g + 3600) END
    FROM items t CROSS JOIN generate_series(1, ${BIG_TASK_TODOS}::int) g WHERE t.id = ${big.id}`);
  await db.execute(sql`
    INSERT INTO items (uuid, title, type, status, user_id, created_at, updated_at, completed_at)
    SELECT gen_random_uuid(), initcap(${words}[1 + g % 10]) || ' ' || ${words}[1 + (g / 10) % 10] || ' note ' || g,
           'todo', CASE WHEN g % 3 = 0 THEN 'completed' ELSE 'pending' END, ${u},
           ${topTime(topTodos)}, ${topTime(topTodos)}, CASE WHEN g % 3 = 0 THEN ${topTime(topTodos)} + make_interval(hours => 2) END
    FROM generate_series(1, ${topTodos}::int) g`);
  if (spread > 0) {
    // Task n gets the todos whose skewed draw lands on it: n = T·u^1.5 for u spread evenly over [0, 1),
    // so the first tasks hold a few hundred and most hold a handful.
    await db.execute(sql`
      WITH t AS (
        SELECT id, created_at, (row_number() OVER (ORDER BY id) - 1)::int AS n
        FROM items WHERE user_id = ${u} AND type = 'task' AND id <> ${big.id}
      ), pool AS (SELECT count(*)::float8 AS size FROM t),
      d AS (
        SELECT g, floor(pool.size * power(((g::bigint * 7919) % ${spread}::bigint)::float8 / ${spread}::float8, 1.5))::int AS n
        FROM generate_series(0, ${spread - 1}::int) g CROSS JOIN pool
      )
      INSERT INTO items (uuid, title, type, status, user_id, parent_id, created_at, updated_at, completed_at)
      SELECT gen_random_uuid(),
             initcap(${words}[1 + d.g % 10]) || ' ' || ${words}[1 + (d.g / 10) % 10] || ' ' || d.g,
             'todo', CASE WHEN d.g % 3 = 0 THEN 'completed' ELSE 'pending' END, ${u}, t.id,
             t.created_at + make_interval(secs => d.g % 86400), t.created_at + make_interval(secs => d.g % 86400),
             CASE WHEN d.g % 3 = 0 THEN t.created_at + make_interval(secs => d.g % 86400 + 3600) END
      FROM d JOIN t ON t.n = d.n`);
  }
  await rollUpSeeded(db, u);
  await db.execute(sql`ANALYZE items`);
  const [counts] = await rows<{ total: number; top: number; campaign: number }>(
    db,
    sql`SELECT count(*)::int AS total, (count(*) FILTER (WHERE parent_id IS NULL))::int AS top,
               min(id) FILTER (WHERE type = 'campaign')::int AS campaign
        FROM items WHERE user_id = ${u} AND deleted_at IS NULL`,
  );
  return {
    user,
    total: counts?.total ?? 0,
    topLevel: counts?.top ?? 0,
    campaignId: counts?.campaign ?? 0,
    bigTaskId: big.id,
  };
}

export interface SeededCampaign {
  campaignId: number;
  /** The campaign's tasks in id order, for writes inside it. */
  taskIds: number[];
  /** Items in the tree, the campaign included. */
  total: number;
}

/**
 * One campaign of `items` items owned by `userId`: about one task per 33 items directly under it (a
 * big project's work packages) and the rest todos spread evenly over the tasks, a third of them
 * completed, statuses rolled up as the app does. Two campaigns seeded alike by two users are the
 * same write and the same sync, so shared and unshared can be compared item for item.
 */
export async function seedCampaignTree(
  db: Executor,
  userId: number,
  options: { items: number; title: string },
): Promise<SeededCampaign> {
  const tasks = Math.max(1, Math.round(options.items / 33));
  const todos = options.items - 1 - tasks;
  if (todos < 0) throw new Error(`seedCampaignTree: ${options.items} items are too few for a campaign`);
  const [campaign] = await rows<{ id: number }>(
    db,
    sql`INSERT INTO items (uuid, title, description, type, status, user_id, created_at, updated_at)
        VALUES (gen_random_uuid(), ${options.title}, 'Seeded for the shared-scale benchmark', 'campaign', 'pending',
                ${userId}, now() - make_interval(days => 200), now() - make_interval(days => 200))
        RETURNING id`,
  );
  if (!campaign) throw new Error('seedCampaignTree: the campaign was not created');
  await db.execute(sql`
    INSERT INTO items (uuid, title, type, status, user_id, parent_id, created_at, updated_at)
    SELECT gen_random_uuid(), 'Work package ' || k, 'task',
           CASE WHEN k % 5 = 0 THEN 'in_progress' ELSE 'pending' END, ${userId}, ${campaign.id},
           now() - make_interval(days => 200) + make_interval(mins => k * 20),
           now() - make_interval(days => 200) + make_interval(mins => k * 20)
    FROM generate_series(1, ${tasks}::int) k`);
  if (todos > 0) {
    await db.execute(sql`
      WITH t AS (
        SELECT id, created_at, (row_number() OVER (ORDER BY id) - 1)::int AS n
        FROM items WHERE parent_id = ${campaign.id} AND type = 'task'
      )
      INSERT INTO items (uuid, title, type, status, user_id, parent_id, created_at, updated_at, completed_at)
      SELECT gen_random_uuid(), 'Step ' || g || ' of package ' || (t.n + 1), 'todo',
             CASE WHEN g % 3 = 0 THEN 'completed' ELSE 'pending' END, ${userId}, t.id,
             t.created_at + make_interval(secs => g % 3600), t.created_at + make_interval(secs => g % 3600),
             CASE WHEN g % 3 = 0 THEN t.created_at + make_interval(secs => g % 3600 + 600) END
      FROM generate_series(0, ${todos - 1}::int) g JOIN t ON t.n = g % ${tasks}::int`);
  }
  await rollUpSeeded(db, userId);
  await db.execute(sql`ANALYZE items`);
  const taskRows = await rows<{ id: number }>(
    db,
    sql`SELECT id FROM items WHERE parent_id = ${campaign.id} AND type = 'task' ORDER BY id`,
  );
  return { campaignId: campaign.id, taskIds: taskRows.map((r) => r.id), total: options.items };
}
