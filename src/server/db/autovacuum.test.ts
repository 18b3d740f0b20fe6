import { afterEach, describe, expect, it } from 'vitest';
import { openTestDatabase } from '../../../testkit/server';
import { maintainTables } from './autovacuum';
import { type Database, rows, sql } from './client';

/** The engine's statistics collector publishes a session's counters at most once a second. */
async function flushStats(database: Database): Promise<void> {
  await new Promise((resolve) => setTimeout(resolve, 1100));
  await database.db.execute(sql`SELECT pg_stat_force_next_flush()`);
  await database.db.execute(sql`SELECT 1`);
}

async function planOf(database: Database, statement: string): Promise<string> {
  const plan = await rows<{ 'QUERY PLAN': string }>(database.db, sql.raw(`EXPLAIN ${statement}`));
  return plan.map((r) => r['QUERY PLAN']).join('\n');
}

describe('autovacuum on the embedded engine', () => {
  let database: Database | null = null;
  afterEach(async () => {
    await database?.close();
    database = null;
  });

  it('analyzes a table grown past the threshold, so a plan cached while it was empty is planned again', async () => {
    database = await openTestDatabase('pglite');
    const { db } = database;
    await db.execute(sql`CREATE TABLE scratch (id int PRIMARY KEY, note text)`);
    await db.execute(sql`ANALYZE scratch`);
    await db.execute(sql`PREPARE scratch_by_id(int) AS SELECT note FROM scratch WHERE id = $1`);
    // Past five runs the engine keeps the generic plan, made for an empty table.
    for (let i = 0; i < 6; i++) await db.execute(sql.raw(`EXECUTE scratch_by_id(${i})`));
    await db.execute(sql`INSERT INTO scratch SELECT g, 'note ' || g FROM generate_series(1, 20000) g`);
    expect(await planOf(database, 'EXECUTE scratch_by_id(5)')).toContain('Seq Scan');

    await flushStats(database);
    const done = await maintainTables(db);
    expect(done.analyzed).toContain('scratch');
    expect(await planOf(database, 'EXECUTE scratch_by_id(5)')).toContain('Index Scan');
    const [stats] = await rows<{ reltuples: number }>(
      db,
      sql`SELECT reltuples FROM pg_class WHERE relname = 'scratch'`,
    );
    expect(stats?.reltuples).toBe(20000);

    // Nothing changed since: the next pass leaves it alone.
    await flushStats(database);
    const again = await maintainTables(db);
    expect([...again.analyzed, ...again.vacuumed]).not.toContain('scratch');
  });

  it('vacuums a table whose dead rows pass the threshold, keeping every live row', async () => {
    database = await openTestDatabase('pglite');
    const { db } = database;
    await db.execute(sql`CREATE TABLE scratch (id int PRIMARY KEY, n int)`);
    await db.execute(sql`INSERT INTO scratch SELECT g, 0 FROM generate_series(1, 1000) g`);
    await db.execute(sql`ANALYZE scratch`);
    await db.execute(sql`DELETE FROM scratch WHERE id > 500`);
    await flushStats(database);
    const done = await maintainTables(db);
    expect(done.vacuumed).toContain('scratch');
    const [left] = await rows<{ n: number }>(db, sql`SELECT count(*)::int AS n FROM scratch`);
    expect(left?.n).toBe(500);
    const [stats] = await rows<{ dead: number }>(
      db,
      sql`SELECT n_dead_tup::int AS dead FROM pg_stat_user_tables WHERE relname = 'scratch'`,
    );
    expect(stats?.dead).toBe(0);
  });
});
