import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { type SQL, sql } from 'drizzle-orm';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import * as schema from './schema';

export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;
/** Anything that runs SQL: the database or an open transaction. */
export type Executor = Pick<Db, 'execute'>;

export interface Database {
  kind: 'pglite' | 'pg';
  db: Db;
  /** The pg pool, for tests; absent on PGlite. */
  pool: pg.Pool | null;
  /** The PostgreSQL connection string, for the LISTEN connection; absent on PGlite. */
  url?: string;
  close(): Promise<void>;
}

const migrationsFolder = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../drizzle');

// Counts and ids come back as int8 strings from pg; our ids and counts fit in a JS number.
pg.types.setTypeParser(20, (v) => {
  const n = Number(v);
  return Number.isSafeInteger(n) ? n : v;
});

/** Opens PGlite in `dataDir` (or in memory for `memory://`) or PostgreSQL at `url`, and migrates it. */
export async function openDatabase(options: { url?: string; dataDir?: string }): Promise<Database> {
  if (options.url) {
    // JIT compilation suits long analytic queries; ours are short, and the planner's estimate for the
    // visibility sub-query crosses jit_above_cost, which added 10-20 ms of compiling to a 1 ms count.
    const pool = new pg.Pool({ connectionString: options.url, max: 20, options: '-c jit=off' });
    // An idle client losing its connection (a restarting server) must not crash the process.
    pool.on('error', () => {});
    // A client checked out of the pool has no error listener of the pool's, so PostgreSQL ending its
    // connection between two queries of a transaction (a restart: "terminating connection due to
    // administrator command") was an unhandled 'error' event that killed the process. The failed
    // query still rejects (a 503), and the pool drops the broken client when it is released.
    pool.on('connect', (client) => client.on('error', () => {}));
    const db = drizzlePg(pool, { schema }) as unknown as Db;
    const client = await pool.connect();
    try {
      // Several instances may start at once against one database: migrate one at a time.
      await client.query('SELECT pg_advisory_lock(724001)');
      await migratePg(drizzlePg(client, { schema }), { migrationsFolder });
    } finally {
      await client.query('SELECT pg_advisory_unlock(724001)').catch(() => {});
      client.release();
    }
    return { kind: 'pg', db, pool, url: options.url, close: () => pool.end() };
  }
  const dataDir = options.dataDir ?? './data';
  const inMemory = dataDir.startsWith('memory://');
  if (!inMemory) mkdirSync(dataDir, { recursive: true });
  const client = new PGlite(inMemory ? dataDir : path.resolve(dataDir), { extensions: { pg_trgm } });
  const db = drizzlePglite(client, { schema }) as unknown as Db;
  await migratePglite(drizzlePglite(client, { schema }), { migrationsFolder });
  return { kind: 'pglite', db, pool: null, close: () => client.close() };
}

/** Runs a query and returns its rows, the same on both engines. */
export async function rows<T>(executor: Executor, query: SQL): Promise<T[]> {
  const result = (await executor.execute(query)) as unknown as { rows: T[] };
  return result.rows;
}

export { sql };
