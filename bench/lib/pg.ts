/**
 * The PostgreSQL the fault and load benchmarks use: TEST_DATABASE_URL, or the machine's own cluster
 * (trust auth on 127.0.0.1, as .ci/run sets it up).
 */
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
