import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { tempDiskStore } from '../../../testkit/files';
import { testEngines } from '../../../testkit/server';
import { TestClient } from '../../../testkit/testClient';
import { type EarlierDatabase, earlierDatabase } from '../../../testkit/upgrades';
import { buildApp } from '../app';
import { openDatabase, sql } from '../db/client';
import { committedMigrations, NewerDatabaseError } from '../db/migrations';
import type { BackupHeader } from './backup';
import { backupsDir } from './upgrade';

const PHONE = '+15550123456';
/** The release before this one's migrations: a few back, so the upgrade applies more than one. */
const EARLIER = committedMigrations().length - 3;

/** A user and a task written with the earlier schema's own SQL, as that release would have. */
async function seedEarlier(engine: 'pglite' | 'pg'): Promise<{ db: EarlierDatabase; itemId: number }> {
  let itemId = 0;
  const db = await earlierDatabase(engine, EARLIER, async (query) => {
    const user = await query('INSERT INTO users (name, phone) VALUES ($1, $2) RETURNING id', [
      'Earlier Person',
      PHONE,
    ]);
    const item = await query(
      `INSERT INTO items (title, description, type, user_id, due_date) VALUES ($1, $2, 'task', $3, '2026-12-01') RETURNING id`,
      ['Written before the upgrade', 'kept as it was', user.rows[0]!.id],
    );
    itemId = Number(item.rows[0]!.id);
  });
  return { db, itemId };
}

function backupLines(file: string): unknown[] {
  return gunzipSync(readFileSync(file))
    .toString('utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as unknown);
}

const opened: { close(): Promise<void> }[] = [];
afterEach(async () => {
  for (const thing of opened.splice(0).reverse()) await thing.close();
  vi.restoreAllMocks();
});

describe.each(testEngines())('an upgrade from an earlier release on %s', (engine) => {
  it('applies the pending migrations after the backup (embedded) or the advice (PostgreSQL), and answers the same reads', async () => {
    const { db: earlier, itemId } = await seedEarlier(engine);
    opened.push({ close: earlier.drop });
    const said: string[] = [];
    vi.spyOn(console, 'log').mockImplementation((line: unknown) => {
      said.push(String(line));
    });
    const store = await tempDiskStore();
    opened.push(store);
    const app = await buildApp({
      config: {
        dataDir: earlier.dataDir,
        databaseUrl: earlier.url,
        seedSampleUsers: false,
        authMode: 'demo',
      },
      files: store.store,
    });
    opened.push(app);

    const from = committedMigrations()[EARLIER - 1]!.tag;
    const to = committedMigrations().at(-1)!.tag;
    if (engine === 'pglite') {
      const files = readdirSync(backupsDir(earlier.dataDir));
      expect(files).toEqual([
        expect.stringMatching(
          new RegExp(`^pre-upgrade-${from}-${to}-\\d{4}-\\d\\d-\\d\\dT\\d\\d-\\d\\d-\\d\\dZ\\.outpost$`),
        ),
      ]);
      const file = path.join(backupsDir(earlier.dataDir), files[0]!);
      expect(statSync(file).mode & 0o777).toBe(0o600);
      const [header, ...rest] = backupLines(file) as [BackupHeader, ...Record<string, unknown>[]];
      // The backup is of the database as the earlier release left it: its migrations, its rows.
      expect(header.migrations.map((m) => m.tag)).toEqual(
        committedMigrations()
          .slice(0, EARLIER)
          .map((m) => m.tag),
      );
      expect(rest).toContainEqual(
        expect.objectContaining({ id: itemId, title: 'Written before the upgrade' }),
      );
      expect(rest.at(-1)).toMatchObject({ end: true });
      expect(said.join('\n')).toContain(`backed up`);
      expect(said.join('\n')).toContain(file);
    } else {
      expect(said.join('\n')).toMatch(/Upgrading the PostgreSQL database .*3 migrations, .* pg_dump/);
    }

    expect((await app.inject({ method: 'GET', url: '/api/health/ready' })).statusCode).toBe(200);
    const client = new TestClient(app);
    await client.request({ url: '/sanctum/csrf-cookie' });
    expect(
      (
        await client.request({
          method: 'POST',
          url: '/api/login',
          body: { phone: PHONE, name: 'Earlier Person' },
        })
      ).status,
    ).toBe(200);
    const item = await client.request<Record<string, unknown>>({ url: `/api/items/${itemId}` });
    expect(item.status).toBe(200);
    expect(item.body).toMatchObject({
      id: itemId,
      title: 'Written before the upgrade',
      description: 'kept as it was',
      type: 'task',
      due_date: '2026-12-01',
    });

    // The next start finds nothing to apply: no second backup, nothing said.
    await app.close();
    opened.pop();
    said.length = 0;
    const again = await buildApp({
      config: { dataDir: earlier.dataDir, databaseUrl: earlier.url, seedSampleUsers: false },
      files: store.store,
    });
    opened.push(again);
    if (engine === 'pglite') expect(readdirSync(backupsDir(earlier.dataDir))).toHaveLength(1);
    expect(said.filter((line) => line.includes('Upgrading'))).toEqual([]);
  });

  it('refuses a database a newer release migrated, naming what to do, and leaves it as it was', async () => {
    const { db: earlier } = await seedEarlier(engine);
    opened.push({ close: earlier.drop });
    const current = await openDatabase({ dataDir: earlier.dataDir, url: earlier.url, autovacuum: false });
    const newest = committedMigrations().at(-1)!.when;
    // What a newer release's migrator records: a stamp after every migration this code has.
    await current.db.execute(
      sql`INSERT INTO drizzle.__drizzle_migrations (hash, created_at) VALUES ('from-a-newer-release', ${newest + 60_000})`,
    );
    await current.close();

    const opening = openDatabase({ dataDir: earlier.dataDir, url: earlier.url, autovacuum: false });
    await expect(opening).rejects.toBeInstanceOf(NewerDatabaseError);
    await expect(opening).rejects.toThrow(
      /was upgraded by a newer Outpost: it has 1 migration this version does not know \(this version's newest is \d{4}_\w+\)\. Run that newer Outpost again/,
    );
    // Refused before anything ran: the data folder is free again and no backup was taken.
    if (engine === 'pglite') expect(() => readdirSync(backupsDir(earlier.dataDir))).toThrow();
    const reopened = openDatabase({ dataDir: earlier.dataDir, url: earlier.url, autovacuum: false });
    await expect(reopened).rejects.toBeInstanceOf(NewerDatabaseError);
  });
});
