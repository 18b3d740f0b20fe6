/**
 * The PostgreSQL the fault and load benchmarks use: TEST_DATABASE_URL, or the machine's own cluster
 * (trust auth on 127.0.0.1, as .ci/run sets it up).
 */
import { randomUUID } from 'node:crypto';
import pg from 'pg';

export const DEFAULT_PG_URL = 'postgres://postgres@127.0.0.1:5432/test';

/** Sets TEST_DATABASE_URL (openTestDatabase reads it) and returns the URL. */
export function pgUrl(): string {
  const url = process.env.TEST_DATABASE_URL || DEFAULT_PG_URL;
  process.env.TEST_DATABASE_URL = url;
  return url;
}

/** Null when PostgreSQL answers, else why it cannot be used. */
export async function pgReachable(url = pgUrl()): Promise<string | null> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3000 });
  try {
    await client.connect();
    await client.query('SELECT 1');
    return null;
  } catch (error) {
    return `${url} is unreachable (${(error as Error).message}); set TEST_DATABASE_URL`;
  } finally {
    await client.end().catch(() => {});
  }
}

/** A new empty database on the cluster of `base`, for one bench run: its URL, and its drop. */
export async function freshPgDatabase(base = pgUrl()): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `outpost_bench_${randomUUID().replaceAll('-', '').slice(0, 16)}`;
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(base);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const dropper = new pg.Client({ connectionString: base });
      await dropper.connect();
      try {
        await dropper.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      } finally {
        await dropper.end();
      }
    },
  };
}
