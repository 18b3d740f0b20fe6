import { randomUUID } from 'node:crypto';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import { committedMigrations, MIGRATIONS_FOLDER } from '../src/server/db/migrations';
import type { Engine } from './server';

/**
 * A database as an earlier release left it: only the first `count` committed migrations applied
 * (the migrations folder as that release shipped it), then `seed` run on it with that schema. Embedded:
 * a data folder on disk; PostgreSQL: a new database beside TEST_DATABASE_URL's. `drop` removes it.
 */
export interface EarlierDatabase {
  dataDir: string;
  url: string | undefined;
  drop(): Promise<void>;
}

/** Runs SQL on the earlier database while it is open (raw text; the schema is the earlier one's). */
export type Seed = (
  query: (text: string, params?: unknown[]) => Promise<{ rows: Record<string, unknown>[] }>,
) => Promise<void>;

/** Makes a database with the first `count` migrations, seeded by `seed`, and closes it. */
export async function earlierDatabase(engine: Engine, count: number, seed: Seed): Promise<EarlierDatabase> {
  const folder = mkdtempSync(path.join(tmpdir(), 'outpost-migrations-'));
  const dataDir = mkdtempSync(path.join(tmpdir(), 'outpost-earlier-'));
  try {
    const journal = committedMigrations().slice(0, count);
    mkdirSync(path.join(folder, 'meta'));
    writeFileSync(
      path.join(folder, 'meta/_journal.json'),
      JSON.stringify({
        version: '7',
        dialect: 'postgresql',
        entries: journal.map((m, idx) => ({
          idx,
          version: '7',
          when: m.when,
          tag: m.tag,
          breakpoints: true,
        })),
      }),
    );
    for (const m of journal)
      copyFileSync(path.join(MIGRATIONS_FOLDER, `${m.tag}.sql`), path.join(folder, `${m.tag}.sql`));
    if (engine === 'pglite') {
      const engineDb = new PGlite(dataDir, { extensions: { pg_trgm } });
      try {
        await migratePglite(drizzlePglite(engineDb), { migrationsFolder: folder });
        await seed(
          (text, params) => engineDb.query(text, params) as Promise<{ rows: Record<string, unknown>[] }>,
        );
      } finally {
        await engineDb.close();
      }
      return { dataDir, url: undefined, drop: async () => rmSync(dataDir, { recursive: true, force: true }) };
    }
    const base = process.env.TEST_DATABASE_URL;
    if (!base) throw new Error('TEST_DATABASE_URL is not set');
    const name = `outpost_earlier_${randomUUID().replaceAll('-', '').slice(0, 16)}`;
    const admin = new pg.Client({ connectionString: base });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name}`);
    await admin.end();
    const url = new URL(base);
    url.pathname = `/${name}`;
    const client = new pg.Client({ connectionString: url.toString() });
    await client.connect();
    try {
      await migratePg(drizzlePg(client), { migrationsFolder: folder });
      await seed((text, params) => client.query(text, params));
    } finally {
      await client.end();
    }
    return {
      dataDir,
      url: url.toString(),
      drop: async () => {
        rmSync(dataDir, { recursive: true, force: true });
        const dropper = new pg.Client({ connectionString: base });
        await dropper.connect();
        await dropper.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
        await dropper.end();
      },
    };
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}
