import { type Executor, sql } from '../db/client';

/** Asks the database the cheapest question there is; throws when it does not answer. */
export async function pingDatabase(db: Executor): Promise<void> {
  await db.execute(sql`SELECT 1`);
}
