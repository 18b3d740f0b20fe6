/**
 * Issue 54: `npm run bench -- backup [items]` (default 100,000). One account's items (copies of a
 * real row made through the API, with their own uuids and titles) in an embedded database, then:
 * - `npm run backup`'s work (backupToFile: one snapshot, streamed, gzipped): budget < 30 s;
 * - `npm run restore`'s into a fresh embedded database, and into PostgreSQL when TEST_DATABASE_URL
 *   is set: budget < 60 s each.
 * The file's size and the rows per second are printed beside them.
 */
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { buildApp } from '../src/server/app';
import { createDiskStore } from '../src/server/attachments/diskStore';
import { backupToFile, restoreFromFile } from '../src/server/backup/files';
import { type Database, openDatabase, rows, sql } from '../src/server/db/client';
import { openTestDatabase } from '../testkit/server';
import { injectSignIn } from './lib/injectSession';
import { check, heading, info } from './lib/report';

const BACKUP_BUDGET_S = 30;
const RESTORE_BUDGET_S = 60;

/** `count` items owned by one user: one made through the API, the rest copies of it in one statement. */
async function seed(database: Database, count: number): Promise<void> {
  const app = await buildApp({ database, config: { seedSampleUsers: false } });
  try {
    const who = await injectSignIn(app, '+12025550142', 'Backup Bench');
    const made = await app.inject({
      method: 'POST',
      url: '/api/items',
      headers: { cookie: who.cookie, 'x-xsrf-token': who.xsrf },
      payload: { title: 'Template', type: 'task', description: 'A task of an ordinary length, to back up.' },
    });
    const { id } = made.json() as { id: number };
    const columns = (
      await rows<{ column_name: string }>(
        database.db,
        sql`SELECT column_name FROM information_schema.columns WHERE table_schema = 'public' AND table_name = 'items'
            AND column_name NOT IN ('id', 'uuid', 'title', 'change_xid')`,
      )
    ).map((c) => `"${c.column_name}"`);
    await database.db.execute(
      sql.raw(`INSERT INTO items (uuid, title, ${columns.join(', ')})
        SELECT gen_random_uuid(), 'Item ' || n, ${columns.map((c) => `i.${c}`).join(', ')}
        FROM items i CROSS JOIN generate_series(2, ${count}) n WHERE i.id = ${id}`),
    );
  } finally {
    await app.close();
  }
}

async function timed<T>(work: () => Promise<T>): Promise<{ seconds: number; result: T }> {
  const started = performance.now();
  const result = await work();
  return { seconds: (performance.now() - started) / 1000, result };
}

export async function run(args: string[]): Promise<void> {
  const count = Number(args[0]) > 0 ? Number(args[0]) : 100_000;
  const dir = mkdtempSync(path.join(tmpdir(), 'outpost-bench-backup-'));
  const file = path.join(dir, 'backup.jsonl.gz');
  heading(`Backup and restore of ${count.toLocaleString('en-US')} items`);
  const source = await openDatabase({ dataDir: path.join(dir, 'source'), autovacuum: false });
  try {
    await seed(source, count);
    const backup = await timed(() =>
      backupToFile(source, file, { files: createDiskStore(path.join(dir, 'files')) }),
    );
    const size = statSync(file).size;
    check({
      subject: `npm run backup, ${count} items (embedded)`,
      metric: 'time',
      value: `${backup.seconds.toFixed(2)} s`,
      budget: `< ${BACKUP_BUDGET_S} s`,
      ok: backup.seconds < BACKUP_BUDGET_S,
    });
    info('backup file', 'size', `${(size / 1024 / 1024).toFixed(1)} MB for ${backup.result.rows} rows`);
    info(
      'backup',
      'rows per second',
      Math.round(backup.result.rows / backup.seconds).toLocaleString('en-US'),
    );
    const targets: ('pglite' | 'pg')[] = process.env.TEST_DATABASE_URL ? ['pglite', 'pg'] : ['pglite'];
    for (const engine of targets) {
      const target =
        engine === 'pglite'
          ? await openDatabase({ dataDir: path.join(dir, 'target'), autovacuum: false })
          : await openTestDatabase('pg');
      try {
        const restore = await timed(() =>
          restoreFromFile(target, file, engine, {
            files: createDiskStore(path.join(dir, `files-${engine}`)),
          }),
        );
        check({
          subject: `npm run restore, ${count} items (into ${engine === 'pg' ? 'PostgreSQL' : 'embedded'})`,
          metric: 'time',
          value: `${restore.seconds.toFixed(2)} s`,
          budget: `< ${RESTORE_BUDGET_S} s`,
          ok: restore.seconds < RESTORE_BUDGET_S && restore.result.rows === backup.result.rows,
        });
      } finally {
        await target.close();
      }
    }
  } finally {
    await source.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
