import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase, rows, sql } from './client';
import { MIGRATIONS_FOLDER } from './migrations';

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});
const tempDir = () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'outpost-embedded-'));
  dirs.push(dir);
  return dir;
};

const journalEntries = () =>
  (
    JSON.parse(readFileSync(path.join(MIGRATIONS_FOLDER, 'meta', '_journal.json'), 'utf8')) as {
      entries: unknown[];
    }
  ).entries.length;

describe('the embedded database in a data folder', () => {
  it('is created in an empty folder (its initdb in a child process), migrated and reopened, and keeps what was written', async () => {
    const dataDir = tempDir();
    const first = await openDatabase({ dataDir, autovacuum: false, sharedBuffers: '16MB' });
    try {
      const applied = await rows<{ n: number }>(
        first.db,
        sql`SELECT count(*)::int AS n FROM drizzle.__drizzle_migrations`,
      );
      expect(applied[0]?.n).toBe(journalEntries());
      await first.db.execute(sql`INSERT INTO users (phone, name) VALUES ('+15550109999', 'Kept')`);
      // The serving engine is the reopened one, with the shared buffers it was asked for.
      const buffers = await rows<{ shared_buffers: string }>(first.db, sql`SHOW shared_buffers`);
      expect(buffers[0]?.shared_buffers).toBe('16MB');
    } finally {
      await first.close();
    }
    const again = await openDatabase({ dataDir, autovacuum: false });
    try {
      const users = await rows<{ name: string }>(
        again.db,
        sql`SELECT name FROM users WHERE phone = '+15550109999'`,
      );
      expect(users.map((user) => user.name)).toEqual(['Kept']);
    } finally {
      await again.close();
    }
  });

  it('says which folder it could not create a database in, and why', async () => {
    const parent = tempDir();
    const notAFolder = path.join(parent, 'a-file');
    writeFileSync(notAFolder, 'not a folder');
    await expect(openDatabase({ dataDir: notAFolder, autovacuum: false })).rejects.toThrow(/a-file/);
  });
});
