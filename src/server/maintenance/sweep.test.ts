import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase, testEngines } from '../../../testkit/server';
import { type Database, rows, sql } from '../db/client';
import { startSweeper, sweepExpired } from './sweep';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

describe.each(testEngines())('sweeping expired rows on %s', (engine) => {
  let database: Database;
  let userId: number;
  beforeAll(async () => {
    database = await openTestDatabase(engine);
    const [user] = await rows<{ id: number }>(
      database.db,
      sql`INSERT INTO users (name, phone) VALUES ('Sweeper', '+12025550100') RETURNING id`,
    );
    userId = user!.id;
  });
  afterAll(() => database?.close());

  const ids = async (query: ReturnType<typeof sql>) =>
    (await rows<{ id: string }>(database.db, query)).map((r) => r.id).sort();

  it('removes exactly the expired sessions, idempotency records, login codes and rate buckets', async () => {
    const db = database.db;
    const now = new Date();
    const ago = (ms: number) => new Date(now.getTime() - ms);
    const ahead = (ms: number) => new Date(now.getTime() + ms);

    // Sessions: idle limit 60 minutes.
    for (const [id, user, expires, lastSeen] of [
      ['live', userId, ahead(DAY), ago(MINUTE)],
      ['expired', userId, ago(MINUTE), ago(2 * MINUTE)],
      ['idled', userId, ahead(DAY), ago(61 * MINUTE)],
      // A retired anonymous token: kept until its token's own expiry, however long unused.
      ['retired-live', null, ahead(HOUR), ago(3 * HOUR)],
      ['retired-over', null, ago(MINUTE), ago(3 * HOUR)],
    ] as const) {
      await db.execute(
        sql`INSERT INTO sessions (id, user_id, xsrf_token, expires_at, last_seen_at)
            VALUES (${id}, ${user}, 'x', ${expires}, ${lastSeen})`,
      );
    }
    // Idempotency records live at least 7 days.
    for (const [key, created] of [
      ['fresh', ago(HOUR)],
      ['six-days', ago(6 * DAY)],
      ['eight-days', ago(8 * DAY)],
    ] as const) {
      await db.execute(
        sql`INSERT INTO idempotency_keys (user_id, key, fingerprint, status, created_at)
            VALUES (${userId}, ${key}, 'f', 201, ${created})`,
      );
    }
    // Login codes.
    for (const [phone, hash, expires, attempts, lockedUntil, updated] of [
      ['+1live', 'h', ahead(5 * MINUTE), 0, null, ago(5 * MINUTE)],
      ['+1expired', 'h', ago(20 * MINUTE), 0, null, ago(30 * MINUTE)],
      // Expired, but wrong tries a moment ago: the count must survive until it is forgotten.
      ['+1recent-tries', 'h', ago(MINUTE), 3, null, ago(2 * MINUTE)],
      ['+1locked', null, ago(MINUTE), 5, ahead(10 * MINUTE), ago(5 * MINUTE)],
      ['+1lock-over', null, ago(30 * MINUTE), 5, ago(20 * MINUTE), ago(35 * MINUTE)],
    ] as const) {
      await db.execute(
        sql`INSERT INTO login_codes (phone, code_hash, expires_at, attempts, locked_until, updated_at)
            VALUES (${phone}, ${hash}, ${expires}, ${attempts}, ${lockedUntil}, ${updated})`,
      );
    }
    // Rate buckets: the longest window is 15 minutes; a day later the bucket is long over.
    for (const [key, started] of [
      ['bucket-now', ago(MINUTE)],
      ['bucket-hour', ago(HOUR)],
      ['bucket-old', ago(2 * DAY)],
    ] as const) {
      await db.execute(
        sql`INSERT INTO rate_buckets (key, window_started_at, hits) VALUES (${key}, ${started}, 3)`,
      );
    }

    const result = await sweepExpired(db, now, { sessionIdleMinutes: 60 });
    expect(result).toEqual({
      sessions: 3,
      idempotencyKeys: 1,
      loginCodes: 2,
      rateBuckets: 1,
      purgedItems: 0,
      webhookDeliveries: 0,
      mails: 0,
    });

    expect(await ids(sql`SELECT id FROM sessions`)).toEqual(['live', 'retired-live']);
    expect(await ids(sql`SELECT key AS id FROM idempotency_keys`)).toEqual(['fresh', 'six-days']);
    expect(await ids(sql`SELECT phone AS id FROM login_codes`)).toEqual([
      '+1live',
      '+1locked',
      '+1recent-tries',
    ]);
    expect(await ids(sql`SELECT key AS id FROM rate_buckets`)).toEqual(['bucket-hour', 'bucket-now']);

    // Nothing more to do the second time.
    expect(await sweepExpired(db, now, { sessionIdleMinutes: 60 })).toEqual({
      sessions: 0,
      idempotencyKeys: 0,
      loginCodes: 0,
      rateBuckets: 0,
      purgedItems: 0,
      webhookDeliveries: 0,
      mails: 0,
    });
  });

  it('deletes in bounded batches until everything expired is gone', async () => {
    const now = new Date();
    for (let i = 0; i < 7; i++) {
      await database.db.execute(
        sql`INSERT INTO rate_buckets (key, window_started_at, hits)
            VALUES (${`batch-${i}`}, ${new Date(now.getTime() - 3 * DAY)}, 1)`,
      );
    }
    const result = await sweepExpired(database.db, now, { batchSize: 2 });
    expect(result?.rateBuckets).toBe(7);
    expect(await ids(sql`SELECT key AS id FROM rate_buckets WHERE key LIKE 'batch-%'`)).toEqual([]);
  });

  it('runs on its own timer and stops when asked', async () => {
    await database.db.execute(
      sql`INSERT INTO rate_buckets (key, window_started_at, hits)
          VALUES ('timer', ${new Date(Date.now() - 3 * DAY)}, 1)`,
    );
    const logged: unknown[] = [];
    const log = {
      info: (...args: unknown[]) => logged.push(args),
      warn: (...args: unknown[]) => logged.push(args),
    };
    const sweeper = startSweeper({
      db: database.db,
      log: log as never,
      clock: () => new Date(),
      sessionIdleMinutes: 60,
      intervalMs: 20,
    });
    const started = Date.now();
    while ((await ids(sql`SELECT key AS id FROM rate_buckets WHERE key = 'timer'`)).length > 0) {
      expect(Date.now() - started, 'the sweeper never ran').toBeLessThan(3000);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    await sweeper.stop();
    expect(logged.length).toBeGreaterThan(0);
  });
});

describe.runIf(process.env.TEST_DATABASE_URL)('sweeping with many instances', () => {
  let database: Database;
  beforeAll(async () => {
    database = await openTestDatabase('pg');
  });
  afterAll(() => database?.close());

  it('lets one instance sweep at a time: another that finds the lock taken skips', async () => {
    const now = new Date();
    await database.db.execute(
      sql`INSERT INTO rate_buckets (key, window_started_at, hits)
          VALUES ('contended', ${new Date(now.getTime() - 3 * DAY)}, 1)`,
    );
    // Another instance in the middle of its sweep holds the lock.
    const other = await database.pool!.connect();
    try {
      await other.query('BEGIN');
      await other.query('SELECT pg_advisory_xact_lock(724002)');
      expect(await sweepExpired(database.db, now)).toBeNull();
      expect(await ids(sql`SELECT key AS id FROM rate_buckets`)).toEqual(['contended']);
      await other.query('COMMIT');
    } finally {
      other.release();
    }
    expect((await sweepExpired(database.db, now))?.rateBuckets).toBe(1);
  });

  async function ids(query: ReturnType<typeof sql>) {
    return (await rows<{ id: string }>(database.db, query)).map((r) => r.id).sort();
  }
});
