import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync, gzipSync } from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import { afterAll, describe, expect, it } from 'vitest';
import { tempDiskStore } from '../../../testkit/files';
import { type Engine, openTestDatabase, PGLITE_TEMPLATE_ENV, testEngines } from '../../../testkit/server';
import { signedIn, type TestClient } from '../../../testkit/testClient';
import { buildApp } from '../app';
import { type Database, openDatabase, rows, sql } from '../db/client';
import { restoreFromFile } from './files';
import { BACKUP_SOCKET_FILE } from './live';
import { RestoreRefused } from './restore';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});
const tempDir = () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'outpost-live-'));
  dirs.push(dir);
  return dir;
};

/** `npm run backup -- FILE` in its own process, with `env` (and PATH). */
function runBackup(file: string, env: Record<string, string>) {
  return new Promise<{ code: number | null; out: string }>((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/backup.ts', file], {
      cwd: root,
      env: { PATH: process.env.PATH ?? '', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString('utf8');
    });
    child.stderr.on('data', (chunk: Buffer) => {
      out += chunk.toString('utf8');
    });
    child.on('exit', (code) => resolve({ code, out }));
  });
}

/** The server as `npm start` runs it: on the embedded database in a data folder, or on PostgreSQL. */
async function runningServer(engine: Engine): Promise<{
  app: FastifyInstance;
  env: Record<string, string>;
  dataDir: string;
  close(): Promise<void>;
}> {
  const dataDir = tempDir();
  if (engine === 'pglite') {
    // From the run's migrated copy: an initdb costs seconds on a busy machine.
    const template = process.env[PGLITE_TEMPLATE_ENV];
    if (template) {
      await (
        await openDatabase({ dataDir, autovacuum: false, loadDataDir: new Blob([readFileSync(template)]) })
      ).close();
    }
    const app = await buildApp({ config: { dataDir, seedSampleUsers: false } });
    return { app, env: { DATA_DIR: dataDir }, dataDir, close: () => app.close() };
  }
  const database = await openTestDatabase('pg');
  const store = await tempDiskStore();
  const app = await buildApp({ database, config: { seedSampleUsers: false }, files: store.store });
  return {
    app,
    // The script's file store is the server's folder (DATA_DIR/files) on either engine.
    env: { DATABASE_URL: database.url!, DATA_DIR: path.dirname(store.root) },
    dataDir,
    async close() {
      await app.close();
      await database.close();
      await store.close();
    },
  };
}

async function titles(database: Database): Promise<string[]> {
  const found = await rows<{ title: string }>(database.db, sql`SELECT title FROM items ORDER BY id`);
  return found.map((r) => r.title);
}

describe.each(testEngines())('npm run backup while the server runs on %s', (engine) => {
  it('writes a 0600 file the server took (embedded: through its data folder, no second process opening it) that restores to the same items; the server keeps answering', async () => {
    const server = await runningServer(engine);
    let person: TestClient;
    try {
      person = await signedIn(server.app, 'Backed Up');
      for (const title of ['First while running', 'Second while running']) {
        expect(
          (await person.request({ method: 'POST', url: '/api/items', body: { type: 'task', title } })).status,
        ).toBe(201);
      }
      if (engine === 'pglite') expect(existsSync(path.join(server.dataDir, BACKUP_SOCKET_FILE))).toBe(true);
      const file = path.join(tempDir(), 'running.outpost');
      const result = await runBackup(file, server.env);
      expect(result.out).toMatch(
        engine === 'pglite'
          ? new RegExp(
              `^Backed up \\d+ rows of \\d+ tables and 0 files \\(0 bytes\\) from the server running on ${server.dataDir} to ${file} in [\\d.]+ s\\.$`,
              'm',
            )
          : /^Backed up \d+ rows of \d+ tables from postgres:.* to .* in [\d.]+ s\.$/m,
      );
      expect(result.code).toBe(0);
      expect(statSync(file).mode & 0o777).toBe(0o600);
      expect(existsSync(`${file}.partial`)).toBe(false);
      // The server was never stopped: it still reads and writes.
      expect((await person.request({ url: '/api/items' })).status).toBe(200);
      expect(
        (await person.request({ method: 'POST', url: '/api/items', body: { type: 'task', title: 'After' } }))
          .status,
      ).toBe(201);

      const target = await openTestDatabase('pglite');
      const files = await tempDiskStore();
      try {
        await restoreFromFile(target, file, 'the test target', { files: files.store });
        expect(await titles(target)).toEqual(['First while running', 'Second while running']);
      } finally {
        await target.close();
        await files.close();
      }
    } finally {
      await server.close();
    }
    // Closed with the server: a later backup opens the folder itself.
    if (engine === 'pglite') expect(existsSync(path.join(server.dataDir, BACKUP_SOCKET_FILE))).toBe(false);
  }, 120_000);
});

describe('a damaged backup', () => {
  it('is refused by restore with a message naming the line, not a dump of rows, and restores nothing', async () => {
    const source = await openTestDatabase('pglite');
    const app = await buildApp({ database: source, config: { seedSampleUsers: false } });
    const file = path.join(tempDir(), 'whole.outpost');
    try {
      const person = await signedIn(app, 'Damaged');
      for (const title of ['Secret one', 'Secret two', 'Secret three']) {
        await person.request({ method: 'POST', url: '/api/items', body: { type: 'task', title } });
      }
      const { backupToFile } = await import('./files');
      await backupToFile(source, file, { files: null });
    } finally {
      await app.close();
      await source.close();
    }
    const lines = gunzipSync(readFileSync(file)).toString('utf8').split('\n');
    const itemsAt = lines.findIndex((l) => l.startsWith('{"table":"items"'));
    const damaged = (change: (line: string) => string, at: number) => {
      const copy = [...lines];
      copy[at] = change(copy[at]!);
      const out = path.join(tempDir(), 'damaged.outpost');
      writeFileSync(out, gzipSync(copy.join('\n')));
      return out;
    };
    const target = await openTestDatabase('pglite');
    const files = await tempDiskStore();
    try {
      // A row cut in half (1-based line numbers, as an editor shows them).
      const cut = damaged((l) => l.slice(0, 20), itemsAt + 2);
      await expect(restoreFromFile(target, cut, 'target', { files: files.store })).rejects.toThrow(
        new RestoreRefused(
          `The backup is damaged at line ${itemsAt + 3}: a row of table items that is not a JSON object; nothing was restored.`,
        ),
      );
      // A row whose value the column cannot take: the database's reason and the line, no rows.
      const wrong = damaged((l) => l.replace(/"due_date":null/, '"due_date":"the 32nd"'), itemsAt + 1);
      const refused = await restoreFromFile(target, wrong, 'target', { files: files.store }).then(
        () => null,
        (e: unknown) => e as Error,
      );
      expect(refused?.message).toMatch(
        new RegExp(
          `^The backup is damaged: a row of table items on lines ${itemsAt + 2}-${itemsAt + 4} cannot be restored \\(invalid input syntax for type date: "the 32nd"\\); nothing was restored\\.$`,
        ),
      );
      expect(refused?.message).not.toContain('Secret');
      // A table line that is not JSON.
      const marker = damaged((l) => l.replace('{"table"', '{table'), itemsAt);
      await expect(restoreFromFile(target, marker, 'target', { files: files.store })).rejects.toThrow(
        new RegExp(`^The backup is damaged at line ${itemsAt + 1}: .*; nothing was restored\\.$`),
      );
      expect(await titles(target)).toEqual([]);
      // The whole file still restores: nothing of the refused ones stayed.
      await restoreFromFile(target, file, 'target', { files: files.store });
      expect(await titles(target)).toEqual(['Secret one', 'Secret two', 'Secret three']);
    } finally {
      await target.close();
      await files.close();
    }
  }, 120_000);
});
