import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startTcpRelay } from '../../../testkit/childServer';
import { createTestApp, openTestDatabase, testEngines } from '../../../testkit/server';
import { buildApp } from '../app';
import { openDatabase, sql } from '../db/client';
import { committedMigrations } from '../db/migrations';
import { createLocalChangeBus } from '../events/changeBus';
import { READY_TIMEOUT_MS } from './routes';

const ready = async (app: Awaited<ReturnType<typeof buildApp>>) => {
  const response = await app.inject({ method: 'GET', url: '/api/health/ready' });
  return { status: response.statusCode, body: response.json() as { ready: boolean; message?: string } };
};

describe.each(testEngines())('readiness on %s', (engine) => {
  let t: Awaited<ReturnType<typeof createTestApp>>;
  beforeAll(async () => {
    t = await createTestApp(engine);
  });
  afterAll(async () => {
    await t.close();
  });

  it('answers 200 while the database answers with every migration applied', async () => {
    expect(await ready(t.app)).toEqual({ status: 200, body: { ready: true } });
    const live = await t.app.inject({ method: 'GET', url: '/api/health' });
    expect(live.statusCode).toBe(200);
  });

  it('answers 503 naming the migration a database lacks, and 200 once it is applied', async () => {
    const newest = committedMigrations().at(-1)!;
    await t.database.db.execute(
      sql`DELETE FROM drizzle.__drizzle_migrations WHERE created_at = ${newest.when}`,
    );
    try {
      const answer = await ready(t.app);
      expect(answer.status).toBe(503);
      expect(answer.body.message).toContain(newest.tag);
    } finally {
      await t.database.db.execute(
        sql`INSERT INTO drizzle.__drizzle_migrations (hash, created_at) VALUES ('restored-by-test', ${newest.when})`,
      );
    }
    expect((await ready(t.app)).status).toBe(200);
  });

  it('answers 503 at once when a shutdown begins, while /api/health still answers', async () => {
    t.app.draining = true;
    try {
      const answer = await ready(t.app);
      expect(answer.status).toBe(503);
      expect(answer.body.message).toMatch(/shutting down/);
    } finally {
      t.app.draining = false;
    }
  });
});

describe.runIf(process.env.TEST_DATABASE_URL)('readiness when PostgreSQL goes away', () => {
  it('answers 503 while the database cannot be reached and 200 once it is back', async () => {
    const migrated = await openTestDatabase('pg');
    const url = new URL(migrated.url!);
    const relay = await startTcpRelay({ host: url.hostname, port: Number(url.port || 5432) });
    const through = new URL(url);
    through.hostname = '127.0.0.1';
    through.port = String(relay.port);
    const database = await openDatabase({ url: through.toString() });
    const app = await buildApp({ database, changes: createLocalChangeBus() });
    try {
      expect((await ready(app)).status).toBe(200);
      relay.down();
      const down = await ready(app);
      expect(down.status).toBe(503);
      expect(down.body).toEqual({
        ready: false,
        message: expect.stringMatching(/^DATABASE_URL: the database /),
      });
      // Liveness is the process's: an orchestrator restarting it would not bring the database back.
      expect((await app.inject({ method: 'GET', url: '/api/health' })).statusCode).toBe(200);
      relay.up();
      // A load balancer asks again: the pool may first hand out a connection the outage broke, which
      // it drops on that error; the next asks find the database back.
      await vi.waitFor(async () => expect(await ready(app)).toEqual({ status: 200, body: { ready: true } }), {
        timeout: 10_000,
        interval: 200,
      });
    } finally {
      await app.close();
      await database.close();
      await relay.close();
      await migrated.close();
    }
  });
});

describe('readiness when the embedded database does not answer', () => {
  it('answers 503 while the engine is held past the timeout and 200 once it answers again', async () => {
    // The embedded engine lives in the server's own process and has one session: it cannot be
    // stopped apart from the process, but it can stop answering others (a transaction that holds
    // its one session). Closing it under the app instead breaks PGlite's own adapter, and a long
    // statement (pg_sleep) blocks the whole process, the probe included.
    const database = await openTestDatabase('pglite');
    const app = await buildApp({ database });
    try {
      expect((await ready(app)).status).toBe(200);
      let holding!: () => void;
      const holds = new Promise<void>((resolve) => {
        holding = resolve;
      });
      const held = database.db.transaction(async (tx) => {
        await tx.execute(sql`SELECT 1`);
        holding();
        await new Promise((resolve) => setTimeout(resolve, READY_TIMEOUT_MS + 1500));
      });
      await holds;
      const stuck = await ready(app);
      expect(stuck.status).toBe(503);
      expect(stuck.body.message).toMatch(/^DATA_DIR: the database did not answer/);
      expect((await app.inject({ method: 'GET', url: '/api/health' })).statusCode).toBe(200);
      await held;
      expect(await ready(app)).toEqual({ status: 200, body: { ready: true } });
    } finally {
      await app.close();
      await database.close();
    }
  });
});
