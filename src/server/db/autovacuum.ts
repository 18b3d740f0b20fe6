import { type SQL, sql } from 'drizzle-orm';

/** What a pass runs statements on: client.ts's database (it starts this, so this file names none of it). */
interface Executor {
  execute(query: SQL): Promise<unknown>;
}

/**
 * The embedded engine has no autovacuum, so nothing ever analyzed or vacuumed its tables, and with
 * named statements that matters: a statement's generic plan is kept until its tables' statistics
 * change. The UPDATE of idempotency_keys, first planned when the table was empty, kept its sequential
 * scan while the table grew to thousands of rows (0.5-0.7 ms a write, and growing, against 0.04 ms
 * by its primary key). This does autovacuum's job with its default thresholds: a table with more
 * dead rows than 50 + 20% of its rows is vacuumed (and analyzed), one with more rows changed since
 * its last analyze than 50 + 10% is analyzed; either drops the plans cached for it.
 */
const VACUUM = { base: 50, share: 0.2 } as const;
const ANALYZE = { base: 50, share: 0.1 } as const;
/** How often the tables' counters are read; a pass that finds nothing costs one catalog read. */
export const MAINTENANCE_INTERVAL_MS = 10_000;

/** One autovacuum pass: vacuums or analyzes each table past its threshold, and names what it did. */
export async function maintainTables(db: Executor): Promise<{ vacuumed: string[]; analyzed: string[] }> {
  const result = await db.execute(
    sql`SELECT s.schemaname AS schema, s.relname AS name,
          s.n_dead_tup > ${VACUUM.base} + ${VACUUM.share} * GREATEST(c.reltuples, 0) AS vacuum
        FROM pg_stat_user_tables s JOIN pg_class c ON c.oid = s.relid
        WHERE s.n_dead_tup > ${VACUUM.base} + ${VACUUM.share} * GREATEST(c.reltuples, 0)
          OR s.n_mod_since_analyze > ${ANALYZE.base} + ${ANALYZE.share} * GREATEST(c.reltuples, 0)
        ORDER BY s.relid`,
  );
  // Read here rather than with client.ts's rows(): client.ts starts this, and imports it.
  const due = (result as unknown as { rows: { schema: string; name: string; vacuum: boolean }[] }).rows;
  const done = { vacuumed: [] as string[], analyzed: [] as string[] };
  for (const table of due) {
    const name: SQL = sql`${sql.identifier(table.schema)}.${sql.identifier(table.name)}`;
    // One statement each, outside any transaction (VACUUM refuses to run inside one); the engine's
    // single connection queues them between requests like any other statement.
    if (table.vacuum) {
      await db.execute(sql`VACUUM (ANALYZE) ${name}`);
      done.vacuumed.push(table.name);
    } else {
      await db.execute(sql`ANALYZE ${name}`);
      done.analyzed.push(table.name);
    }
  }
  return done;
}

/**
 * Runs maintainTables every `intervalMs` until the returned stop is called; stop waits for a pass
 * under way. A failed pass (the database closing) is skipped: the next one tries again.
 */
export function startAutovacuum(db: Executor, intervalMs = MAINTENANCE_INTERVAL_MS): () => Promise<void> {
  let running: Promise<unknown> = Promise.resolve();
  const timer = setInterval(() => {
    running = running.then(() => maintainTables(db)).catch(() => {});
  }, intervalMs);
  // A server that has nothing else to do may exit; this never keeps it alive.
  timer.unref();
  return async () => {
    clearInterval(timer);
    await running;
  };
}
