import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { openDatabase } from '../src/server/db/client';
import { PGLITE_TEMPLATE_ENV } from './server';

/**
 * Vitest's global set-up: migrates one in-memory PGlite and leaves its data folder in a file for every
 * test process (openTestDatabase). A fresh engine's initdb costs seconds, and dozens of test files
 * each open one; loading the copy costs a fraction. Made anew each run, so it follows every migration.
 */
export default async function setup(): Promise<() => void> {
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
