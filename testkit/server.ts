import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import type { Logger } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { buildApp } from '../src/server/app';
import type { FileStore } from '../src/server/attachments/fileStore';
import { type Database, openDatabase, rows, sql } from '../src/server/db/client';
import type { AppConfig } from '../src/server/env';
import { tempDiskStore } from './files';

export type Engine = 'pglite' | 'pg';

/** The engines integration tests run on: PGlite always, PostgreSQL when TEST_DATABASE_URL is set. */
export function testEngines(): Engine[] {
  return process.env.TEST_DATABASE_URL ? ['pglite', 'pg'] : ['pglite'];
}

/** Where testkit/globalSetup.ts left a migrated PGlite data folder for this run (unset outside vitest). */
export const PGLITE_TEMPLATE_ENV = 'OUTPOST_PGLITE_TEMPLATE';

/** The migrated PostgreSQL database testkit/globalSetup.ts left for this run to copy (unset outside vitest). */
export const PG_TEMPLATE_ENV = 'OUTPOST_PG_TEMPLATE';

let template: Promise<Blob | undefined> | undefined;

/** This run's migrated PGlite data folder, read once per test process; undefined when there is none. */
function pgliteTemplate(): Promise<Blob | undefined> {
  const file = process.env[PGLITE_TEMPLATE_ENV];
  template ??= file ? readFile(file).then((bytes) => new Blob([bytes])) : Promise.resolve(undefined);
  return template;
}

/**
 * A fresh, migrated database: in-memory PGlite, or a new throwaway database on PostgreSQL. `logger`
 * sees every statement the app sends on it (a test that checks what a write reads).
 */
export async function openTestDatabase(
  engine: Engine = 'pglite',
  options: { logger?: Logger } = {},
): Promise<Database> {
  // From the run's migrated copy when there is one: its migrations then find nothing left to do.
  if (engine === 'pglite')
    return openDatabase({ dataDir: 'memory://', loadDataDir: await pgliteTemplate(), ...options });
  const base = process.env.TEST_DATABASE_URL;
  if (!base) throw new Error('TEST_DATABASE_URL is not set');
  const name = `outpost_test_${randomUUID().replaceAll('-', '').slice(0, 16)}`;
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  const pgTemplate = process.env[PG_TEMPLATE_ENV];
  // The template's name is this run's own (globalSetup), never input.
  await admin.query(`CREATE DATABASE ${name}${pgTemplate ? ` TEMPLATE ${pgTemplate}` : ''}`);
  await admin.end();
  const url = new URL(base);
  url.pathname = `/${name}`;
  const database = await openDatabase({ url: url.toString(), ...options });
  return {
    ...database,
    async close() {
      await database.close();
      const dropper = new pg.Client({ connectionString: base });
      await dropper.connect();
      await dropper.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await dropper.end();
    },
  };
}

/**
 * A real app on a fresh database, for `app.inject` tests. Close it with `close()`. `files` is where
 * uploads go (by default a disk store in a temporary folder, removed on close; or an S3 one);
 * `config` adds to the defaults.
 */
export async function createTestApp(
  engine: Engine = 'pglite',
  options: { files?: FileStore; config?: Partial<AppConfig> } = {},
): Promise<{
  app: FastifyInstance;
  database: Database;
  close(): Promise<void>;
}> {
  const database = await openTestDatabase(engine);
  const temporary = options.files ? null : await tempDiskStore();
  const app = await buildApp({
    database,
    config: { seedSampleUsers: true, ...options.config },
    files: options.files ?? temporary!.store,
  });
  await app.ready();
  return {
    app,
    database,
    async close() {
      await app.close();
      await database.close();
      await temporary?.close();
    },
  };
}

export interface TestServer {
  url: string;
  database: Database;
  /** Closes the HTTP server and listens again on the same port and database (a server restart). */
  restart(): Promise<void>;
  close(): Promise<void>;
}

/** The real server on a random loopback port, for clients that speak HTTP (the client's data tests). */
export async function startTestServer(
  engine: Engine = 'pglite',
  config: Partial<AppConfig> = {},
  options: { files?: FileStore } = {},
): Promise<TestServer> {
  const database = await openTestDatabase(engine);
  // Uploads go to a temporary folder unless the test names a store: never into ./data.
  const temporary = options.files ? null : await tempDiskStore();
  const files = { files: options.files ?? temporary!.store };
  let app = await buildApp({ database, config: { seedSampleUsers: true, ...config }, ...files });
  const address = await app.listen({ port: 0, host: '127.0.0.1' });
  const port = new URL(address).port;
  return {
    url: address,
    database,
    async restart() {
      await app.close();
      app = await buildApp({ database, config: { seedSampleUsers: true, ...config }, ...files });
      await app.listen({ port: Number(port), host: '127.0.0.1' });
    },
    async close() {
      await app.close();
      await database.close();
      await temporary?.close();
    },
  };
}

/**
 * Waits until a pull sees every write committed so far. Pulls show rows below the cluster's oldest
 * open transaction (cursor.ts, SYNC.md L1); on a PostgreSQL shared with other test files, another
 * database's open transaction may hold that back for a moment. Embedded, it returns at once.
 */
export async function pullsCaughtUp(database: Database, timeoutMs = 30_000): Promise<void> {
  const [mark] = await rows<{ xid: string }>(database.db, sql`SELECT pg_current_xact_id()::text AS xid`);
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const [now] = await rows<{ xmin: string }>(
      database.db,
      sql`SELECT pg_snapshot_xmin(pg_current_snapshot())::text AS xmin`,
    );
    if (BigInt(now?.xmin ?? 0) > BigInt(mark?.xid ?? 0)) return;
    if (Date.now() > deadline)
      throw new Error(`the pull horizon stayed below ${mark?.xid} for ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
