import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { openDatabase } from '../src/server/db/client';
import { PG_TEMPLATE_ENV, PGLITE_TEMPLATE_ENV } from './server';

/**
 * Vitest's global set-up: migrates one in-memory PGlite and leaves its data folder in a file for every
 * test process (openTestDatabase). A fresh engine's initdb costs seconds, and dozens of test files
 * each open one; loading the copy costs a fraction. Made anew each run, so it follows every migration.
 * With TEST_DATABASE_URL, one migrated PostgreSQL database is the template every test database copies.
 */
export default async function setup(): Promise<() => Promise<void>> {
  const dropPgTemplate = await pgTemplate();
  const removePgliteTemplate = await pgliteTemplate();
  return async () => {
    removePgliteTemplate();
    await dropPgTemplate();
  };
}

async function pgliteTemplate(): Promise<() => void> {
  const database = await openDatabase({ dataDir: 'memory://', autovacuum: false });
  let dump: Blob | undefined;
  try {
    dump = await database.pglite?.dumpDataDir('none');
  } finally {
    await database.close();
  }
  if (!dump) return () => {};
  const dir = path.join(process.cwd(), '.tmp');
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `pglite-template-${process.pid}.tar`);
  writeFileSync(file, Buffer.from(await dump.arrayBuffer()));
  process.env[PGLITE_TEMPLATE_ENV] = file;
  return () => rmSync(file, { force: true });
}

/** Running every migration cost a PostgreSQL test database a quarter second; copying a migrated one, a tenth of that. */
async function pgTemplate(): Promise<() => Promise<void>> {
  const base = process.env.TEST_DATABASE_URL;
  if (!base) return async () => {};
  const name = `outpost_template_${process.pid}`;
  const admin = async (sql: string) => {
    const client = new pg.Client({ connectionString: base });
    await client.connect();
    try {
      await client.query(sql);
    } finally {
      await client.end();
    }
  };
  await admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  await admin(`CREATE DATABASE ${name}`);
  const url = new URL(base);
  url.pathname = `/${name}`;
  // A database is copied only while nobody is connected to it: the migrating pool closes first.
  const database = await openDatabase({ url: url.toString() });
  await database.close();
  process.env[PG_TEMPLATE_ENV] = name;
  return () => admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
}
