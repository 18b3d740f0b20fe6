import { spawn } from 'node:child_process';
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { keysOf, readAll, spoolFile } from '../../../testkit/fileStoreContract';
import { startS3, type TestS3 } from '../../../testkit/s3';
import { type Engine, openTestDatabase, PGLITE_TEMPLATE_ENV, pullsCaughtUp } from '../../../testkit/server';
import { share } from '../../../testkit/sharing';
import { makeMutual, signedIn, TestClient } from '../../../testkit/testClient';
import type { Item } from '../../shared/item';
import { buildApp } from '../app';
import { createDiskStore } from '../attachments/diskStore';
import { contentKey, type FileStore, thumbnailKey } from '../attachments/fileStore';
import { createS3Store } from '../attachments/s3Store';
import { type Database, openDatabase, rows, sql } from '../db/client';
import { backupToFile, progressLine, restoreFromFile } from './files';
import { RestoreRefused } from './restore';

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});
const tempFile = (name: string) => {
  const dir = mkdtempSync(path.join(tmpdir(), 'outpost-backup-'));
  dirs.push(dir);
  return path.join(dir, name);
};

/** A disk store in a fresh temporary folder. */
const diskStore = () => createDiskStore(path.join(path.dirname(tempFile('x')), 'files'));

/** A store of either kind; an S3 one on its own s3rver, stopped with `stop`. */
async function makeStore(kind: 'disk' | 's3'): Promise<{ store: FileStore; stop(): Promise<void> }> {
  if (kind === 'disk') return { store: diskStore(), stop: async () => {} };
  const s3: TestS3 = await startS3();
  return { store: createS3Store(s3.config, path.dirname(tempFile('x'))), stop: () => s3.stop() };
}

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

/**
 * A file on an item as an upload leaves it: its bytes (and a thumbnail's) in the store, its row in
 * `attachments`. Written here rather than through the upload route, so these tests hold the backup
 * to every row and key shape without depending on how an upload makes them.
 */
async function attach(
  database: Database,
  files: FileStore,
  at: { itemId: number; userId: number },
  bytes: Uint8Array,
  options: { name?: string; thumbnail?: Uint8Array; deleted?: boolean } = {},
): Promise<string> {
  const hash = sha256(bytes);
  await files.putFile(contentKey(hash), await spoolFile(files, bytes));
  if (options.thumbnail) await files.putBytes(thumbnailKey(hash), options.thumbnail, 'image/webp');
  await database.db.execute(sql`INSERT INTO attachments
      (uuid, item_id, user_id, name, type, size, sha256, has_thumbnail, deleted_at)
      VALUES (${randomUUID()}, ${at.itemId}, ${at.userId}, ${options.name ?? 'file.bin'}, 'application/octet-stream',
        ${bytes.length}, ${hash}, ${Boolean(options.thumbnail)}, ${options.deleted ? sql`now()` : null})`);
  return hash;
}

/** Every key of a store with its bytes' sha256 (a thumbnail's too). */
async function storeContents(files: FileStore): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const key of await keysOf(files)) out[key] = sha256(await readAll((await files.read(key))!));
  return out;
}

/** The attachments rows, as a restore must bring them back. */
const attachmentRows = (database: Database) =>
  rows(
    database.db,
    sql`SELECT id, uuid, item_id, user_id, name, type, size::text, sha256, has_thumbnail, deleted_at IS NOT NULL AS deleted
        FROM attachments ORDER BY id`,
  );

/** Three people, a shared campaign with work, comments, mentions, notifications, a trash, own items. */
async function seed(app: FastifyInstance): Promise<TestClient[]> {
  const alice = await signedIn(app, 'Alice');
  const bob = await signedIn(app, 'Bob');
  const carol = await signedIn(app, 'Carol');
  await makeMutual(alice, bob, carol);
  const campaign = await alice.create({ title: 'Spring fair', type: 'campaign' });
  const task = await alice.create({
    title: 'Stalls',
    type: 'task',
    parent_id: campaign.id,
    labels: ['fair'],
  });
  const todos: Item[] = [];
  for (const title of ['Tables', 'Chairs', 'Signs']) {
    todos.push(await alice.create({ title, type: 'todo', parent_id: task.id, due_date: '2026-12-01' }));
  }
  await share(alice, campaign, 'editor', bob);
  await share(alice, campaign, 'viewer', carol);
  await bob.update(todos[0]!.id, { status: 'completed' });
  await bob.update(todos[1]!.id, { title: 'Chairs, 40 of them', priority: 1 });
  expect((await alice.post(`/api/items/${todos[2]!.id}/assign`, { user_id: bob.user!.id })).status).toBe(200);
  for (const [who, body, mentions] of [
    [alice, 'Who brings the tables?', [bob.user!.id]],
    [bob, 'I do. "Quotes", emoji 🎪 and\nnew lines', []],
    [carol, 'Watching', [alice.user!.id]],
  ] as const) {
    const posted = await who.post(`/api/items/${task.id}/comments`, { body, mentions });
    expect(posted.status, posted.text).toBe(201);
  }
  const gone = await alice.create({ title: 'Old idea', type: 'task' });
  expect((await alice.delete(`/api/items/${gone.id}`)).status).toBe(204);
  await bob.create({ title: 'Bob alone', type: 'task', description: 'Ünïcödé\ttabs' });
  await carol.create({ title: 'Carol alone', type: 'campaign' });
  return [alice, bob, carol];
}

async function get<T>(client: TestClient, url: string): Promise<T> {
  const response = await client.get<T>(url);
  expect(response.status, `${url}: ${response.text}`).toBe(200);
  return response.body;
}

/** Everything one person's API answers say, in an order that does not depend on transaction ids. */
async function answers(client: TestClient) {
  const me = await get<unknown>(client, '/api/me');
  const lists: unknown[] = [];
  for (let page = 1; ; page += 1) {
    const body = await get<{ data: Item[]; last_page: number }>(
      client,
      `/api/items?per_page=100&page=${page}`,
    );
    lists.push(body);
    if (page >= body.last_page) break;
  }
  const items = new Map<number, unknown>();
  const comments = new Map<number, unknown>();
  let cursor = '';
  for (;;) {
    const page = await get<{
      items: { id: number }[];
      comments: { id: number }[];
      cursor: string;
      has_more: boolean;
    }>(client, `/api/sync?cursor=${encodeURIComponent(cursor)}`);
    for (const item of page.items) items.set(item.id, item);
    for (const comment of page.comments) comments.set(comment.id, comment);
    cursor = page.cursor;
    if (!page.has_more) break;
  }
  const byId = <T>(map: Map<number, T>) => [...map].sort(([a], [b]) => a - b).map(([, v]) => v);
  const visible = byId(items) as (Item & { deleted_at?: string | null })[];
  const perItem: Record<number, unknown> = {};
  for (const item of visible.filter((i) => !i.deleted_at)) {
    perItem[item.id] = {
      item: await get(client, `/api/items/${item.id}`),
      comments: await get(client, `/api/items/${item.id}/comments`),
      ...(item.type === 'campaign'
        ? { members: await get(client, `/api/campaigns/${item.id}/members`) }
        : {}),
    };
  }
  return {
    me,
    lists,
    sync: { items: visible, comments: byId(comments) },
    perItem,
    notifications: await get(client, '/api/notifications'),
    trash: await get(client, '/api/trash'),
  };
}

/** The same signed-in people on another app: their sessions came across with the rows. */
function sameSessions(clients: TestClient[], app: FastifyInstance): TestClient[] {
  return clients.map((c) => {
    const moved = new TestClient(app);
    for (const [k, v] of c.jar) moved.jar.set(k, v);
    moved.user = c.user;
    return moved;
  });
}

type StoreKind = 'disk' | 's3';
/** Each engine to each (when PostgreSQL is there), each file store to the other (SYNC.md A13). */
const pairs: [Engine, StoreKind, Engine, StoreKind][] = [
  ['pglite', 'disk', 'pglite', 's3'],
  ['pglite', 's3', 'pglite', 'disk'],
  ...(process.env.TEST_DATABASE_URL
    ? ([
        ['pglite', 'disk', 'pg', 's3'],
        ['pg', 's3', 'pglite', 'disk'],
      ] as [Engine, StoreKind, Engine, StoreKind][])
    : []),
];

describe.each(pairs)(
  'backup on %s with files on %s, restore on %s with files on %s',
  (from, fromStore, to, toStore) => {
    it('A13: gives every person the same API answers, carries every file the rows name, keeps ids from colliding and refuses a second restore', async () => {
      const source: Database = await openTestDatabase(from);
      const target: Database = await openTestDatabase(to);
      const sourceFiles = await makeStore(fromStore);
      const targetFiles = await makeStore(toStore);
      const sourceApp = await buildApp({
        database: source,
        config: { seedSampleUsers: true },
        files: sourceFiles.store,
      });
      let targetApp: FastifyInstance | null = null;
      try {
        const people = await seed(sourceApp);
        // Files of every shape a key can have: larger than a backup line, empty, the same bytes on two
        // items (one key), with a thumbnail, and in the trash (its bytes stay, A11).
        const [owner, bob] = people;
        const owned = (await get<{ data: Item[] }>(owner!, '/api/items?per_page=100')).data;
        const [first, second] = owned;
        const big = randomBytes(150_000);
        await attach(source, sourceFiles.store, { itemId: first!.id, userId: owner!.user!.id }, big, {
          name: 'photo.jpg',
          thumbnail: randomBytes(900),
        });
        await attach(source, sourceFiles.store, { itemId: second!.id, userId: owner!.user!.id }, big);
        await attach(
          source,
          sourceFiles.store,
          { itemId: second!.id, userId: owner!.user!.id },
          new Uint8Array(),
        );
        const bobs = (await get<{ data: Item[] }>(bob!, '/api/items?per_page=100')).data;
        await attach(
          source,
          sourceFiles.store,
          { itemId: bobs[0]!.id, userId: bob!.user!.id },
          Buffer.from('in the trash'),
          { deleted: true },
        );
        const filesBefore = await storeContents(sourceFiles.store);
        expect(Object.keys(filesBefore)).toHaveLength(4);
        const rowsBefore = await attachmentRows(source);
        // The answers to compare with are the whole of what was written, not what a pull saw of it.
        await pullsCaughtUp(source);
        const before: Awaited<ReturnType<typeof answers>>[] = [];
        for (const person of people) before.push(await answers(person));
        const oldCursor = (await get<{ cursor: string }>(people[0]!, '/api/sync?cursor=')).cursor;

        const file = tempFile('outpost.jsonl.gz');
        const lines: string[] = [];
        const written = await backupToFile(source, file, {
          files: sourceFiles.store,
          onProgress: (p) => lines.push(progressLine(p)),
        });
        expect(written.rows).toBeGreaterThan(20);
        expect(written).toMatchObject({ files: 4, bytes: 150_000 + 900 + 0 + 'in the trash'.length });
        expect(lines).toContain(`files: 4 of 4 (${(written.bytes / 1024).toFixed(0)} KB)`);
        expect(lines.filter((l) => !l.startsWith('files:')).at(-1)).toMatch(/100% of all\)$/);
        const restored = await restoreFromFile(target, file, 'the test target', { files: targetFiles.store });
        expect(restored).toEqual(written);
        // Every key the rows name, with the same bytes, in the other kind of store.
        expect(await storeContents(targetFiles.store)).toEqual(filesBefore);
        expect(await attachmentRows(target)).toEqual(rowsBefore);

        targetApp = await buildApp({
          database: target,
          config: { seedSampleUsers: false },
          files: targetFiles.store,
        });
        const moved = sameSessions(people, targetApp);
        // A pull shows rows below the cluster's oldest open transaction (cursor.ts); on a PostgreSQL
        // shared with other test files, another database's open transaction may hold that back for a
        // moment, so the answers are read again until the restored rows are in sight, as a device would.
        for (const [i, person] of moved.entries())
          await vi.waitFor(async () => expect(await answers(person), person.user!.name).toEqual(before[i]), {
            timeout: 30_000,
            interval: 250,
          });

        // The restored server reads each file from its own store through the checked route.
        const [alice] = moved;
        const [photo] = await rows<{ id: number }>(
          target.db,
          sql`SELECT id FROM attachments WHERE sha256 = ${sha256(big)} ORDER BY id LIMIT 1`,
        );
        for (const what of ['content', 'thumbnail']) {
          const read = await targetApp.inject({
            url: `/api/attachments/${photo!.id}/${what}`,
            headers: { cookie: alice!.cookieHeader() },
          });
          expect(read.statusCode, what).toBe(200);
          expect(sha256(read.rawPayload), what).toBe(
            filesBefore[what === 'content' ? sha256(big) : `${sha256(big)}.thumb`],
          );
        }

        // New rows take fresh ids, and a device's cursor from before the move still learns of them.
        const fresh = await alice!.create({ title: 'After the move', type: 'task' });
        const highest = Math.max(...before[0]!.sync.items.map((i) => (i as Item).id));
        expect(fresh.id).toBeGreaterThan(highest);
        let cursor = oldCursor;
        const seen = new Set<number>();
        await vi.waitFor(
          async () => {
            for (;;) {
              const page = await get<{ items: { id: number }[]; cursor: string; has_more: boolean }>(
                alice!,
                `/api/sync?cursor=${encodeURIComponent(cursor)}`,
              );
              for (const item of page.items) seen.add(item.id);
              cursor = page.cursor;
              if (!page.has_more) break;
            }
            expect(seen.has(fresh.id)).toBe(true);
          },
          { timeout: 30_000, interval: 250 },
        );
        const comment = await alice!.post(`/api/items/${fresh.id}/comments`, { body: 'New comment' });
        expect(comment.status, comment.text).toBe(201);

        await expect(
          restoreFromFile(target, file, 'the test target', { files: targetFiles.store }),
        ).rejects.toThrow(
          new RestoreRefused(
            `The database at the test target already holds ${4 + people.length} users; restore needs an empty database.`,
          ),
        );
      } finally {
        await targetApp?.close();
        await sourceApp.close();
        await source.close();
        await target.close();
        await sourceFiles.stop();
        await targetFiles.stop();
      }
    }, 180_000);
  },
);

describe('restore refuses what it cannot load', () => {
  it('refuses a file that is not a backup and a backup cut short, writing nothing', async () => {
    const source = await openTestDatabase('pglite');
    const target = await openTestDatabase('pglite');
    const files = diskStore();
    const app = await buildApp({ database: source, config: { seedSampleUsers: true }, files });
    try {
      await seed(app);
      const file = tempFile('full.jsonl.gz');
      await backupToFile(source, file, { files });
      const { writeFileSync } = await import('node:fs');
      const { gunzipSync, gzipSync } = await import('node:zlib');
      const text = gunzipSync(readFileSync(file)).toString('utf8');
      const cut = tempFile('cut.jsonl.gz');
      writeFileSync(cut, gzipSync(text.split('\n').slice(0, -5).join('\n')));
      const into = { files: diskStore() };
      await expect(restoreFromFile(target, cut, 'target', into)).rejects.toThrow(
        /cut short|holds \d+ rows of/,
      );
      const junk = tempFile('junk.jsonl.gz');
      writeFileSync(junk, gzipSync('{"hello":"world"}\n'));
      await expect(restoreFromFile(target, junk, 'target', into)).rejects.toThrow(
        'This is not an Outpost backup.',
      );
      // Nothing of the cut file stayed: the whole restore still goes through.
      expect((await restoreFromFile(target, file, 'target', into)).rows).toBeGreaterThan(20);
    } finally {
      await app.close();
      await source.close();
      await target.close();
    }
  }, 120_000);
});

/** Runs a script of scripts/ with `env` (and PATH) and collects its exit code and output. */
function runScript(script: string, args: string[], env: Record<string, string>) {
  return new Promise<{ code: number | null; out: string }>((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', script, ...args], {
      cwd: path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..'),
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

describe('files in a backup (SYNC.md A13)', () => {
  it('refuses a backup whose store lacks a file, and a restore whose file is damaged, cut short or tampered, leaving nothing behind; reads a version 1 file', async () => {
    const { writeFileSync, existsSync } = await import('node:fs');
    const { gunzipSync, gzipSync } = await import('node:zlib');
    const source = await openTestDatabase('pglite');
    const target = await openTestDatabase('pglite');
    const files = diskStore();
    const app = await buildApp({ database: source, config: { seedSampleUsers: false }, files });
    try {
      const alice = await signedIn(app, 'Alice');
      const item = await alice.create({ title: 'Gate', type: 'task' });
      const at = { itemId: item.id, userId: alice.user!.id };
      const photo = randomBytes(120_000);
      const photoHash = await attach(source, files, at, photo);
      await attach(source, files, at, Buffer.from('quote'));

      const good = tempFile('good.jsonl.gz');
      expect(await backupToFile(source, good, { files })).toMatchObject({ files: 2, bytes: 120_005 });
      const lines = gunzipSync(readFileSync(good)).toString('utf8').split('\n');
      const write = (name: string, text: string[]) => {
        const file = tempFile(name);
        writeFileSync(file, gzipSync(text.join('\n')));
        return file;
      };
      const into = { files: diskStore() };

      // A file whose bytes are not what its key says: refused, and the file stored before it goes too.
      // The second file in the backup's order (files are written by key, and the photo's key is random).
      const fileLines = lines.flatMap((l, i) => (l.startsWith('{"file":') ? [i] : []));
      const second = fileLines[1] ?? -1;
      expect(second).toBeGreaterThan(0);
      const tampered = [...lines];
      const chunk = Buffer.from(tampered[second + 1] ?? '', 'base64');
      chunk[0] = (chunk[0] ?? 0) ^ 0xff;
      tampered[second + 1] = chunk.toString('base64');
      await expect(
        restoreFromFile(target, write('tampered.jsonl.gz', tampered), 'target', into),
      ).rejects.toThrow(/does not have the bytes its name promises; nothing was restored/);
      expect(await keysOf(into.files)).toEqual([]);
      // Cut short between two files: nothing restored, no file kept.
      await expect(
        restoreFromFile(target, write('cut.jsonl.gz', lines.slice(0, second)), 'target', into),
      ).rejects.toThrow('The backup is cut short after 1 of 2 files; nothing was restored.');
      expect(await keysOf(into.files)).toEqual([]);
      // A key that could name a path is never written.
      const pathLike = lines.map((l) => (l.startsWith('{"file":') ? '{"file":"../../escape"}' : l));
      await expect(restoreFromFile(target, write('path.jsonl.gz', pathLike), 'target', into)).rejects.toThrow(
        /which is not a file key/,
      );

      // A version 1 backup (written before files on items: no file lines) still restores.
      let inFile = false;
      const v1 = lines.flatMap((l) => {
        if (l.startsWith('{"file":')) inFile = true;
        const skip = inFile;
        if (l.startsWith('{"file_end":')) inFile = false;
        if (skip) return [];
        if (!l.startsWith('{"format":') && !l.startsWith('{"end":')) return [l];
        const { files: _files, ...rest } = JSON.parse(l) as Record<string, unknown>;
        return [JSON.stringify(l.startsWith('{"format":') ? { ...rest, version: 1 } : rest)];
      });
      const fresh = await openTestDatabase('pglite');
      try {
        const restored = await restoreFromFile(fresh, write('v1.jsonl.gz', v1), 'fresh', {
          files: diskStore(),
        });
        expect(restored).toMatchObject({ files: 0, bytes: 0 });
        expect(restored.rows).toBeGreaterThan(2);
      } finally {
        await fresh.close();
      }

      // After every refusal the target is as empty as before: the whole backup still goes in.
      expect(await restoreFromFile(target, good, 'target', into)).toMatchObject({ files: 2 });
      expect(await storeContents(into.files)).toEqual(await storeContents(files));

      // A file in the trash whose bytes the purge has taken is no loss: the backup goes on without it.
      const trashed = await attach(source, files, at, Buffer.from('old draft'), { deleted: true });
      await files.remove(contentKey(trashed));
      expect(await backupToFile(source, tempFile('trash.jsonl.gz'), { files })).toMatchObject({ files: 2 });

      // The store lost a live file: the backup stops, naming it, and writes no file.
      await files.remove(contentKey(photoHash));
      const lost = tempFile('lost.jsonl.gz');
      await expect(backupToFile(source, lost, { files })).rejects.toThrow(
        `The file ${photoHash} that an attachment names is not in the file store; the backup is not written.`,
      );
      expect(existsSync(lost)).toBe(false);
      expect(existsSync(`${lost}.partial`)).toBe(false);
    } finally {
      await app.close();
      await source.close();
      await target.close();
    }
  }, 180_000);
});

describe('npm run backup and npm run restore', () => {
  it('move an embedded database and its files to another database and an S3 bucket, refusing a folder in use and a restore into data', async () => {
    const from = path.dirname(tempFile('x'));
    const to = path.dirname(tempFile('y'));
    const file = tempFile('cli.jsonl.gz');
    // Both folders start from the run's migrated copy (an initdb costs half a minute on a busy machine).
    const templateFile = process.env[PGLITE_TEMPLATE_ENV];
    const loadDataDir = templateFile ? new Blob([readFileSync(templateFile)]) : undefined;
    await (
      await openDatabase({ dataDir: to, autovacuum: false, ...(loadDataDir ? { loadDataDir } : {}) })
    ).close();
    const source = await openDatabase({
      dataDir: from,
      autovacuum: false,
      ...(loadDataDir ? { loadDataDir } : {}),
    });
    // DATA_DIR's own file store, as the scripts find it.
    const fromFiles = createDiskStore(path.join(from, 'files'));
    const app = await buildApp({ database: source, config: { seedSampleUsers: true }, files: fromFiles });
    let people: TestClient[];
    const quote = randomBytes(70_000);
    try {
      people = await seed(app);
      const [item] = (await get<{ data: Item[] }>(people[0]!, '/api/items?per_page=1')).data;
      await attach(source, fromFiles, { itemId: item!.id, userId: people[0]!.user!.id }, quote);
      // The folder is open in this process: the script must not open it beside us.
      const busy = await runScript('scripts/backup.ts', [file], { DATA_DIR: from });
      expect(busy.code).toBe(1);
      expect(busy.out).toMatch(/is open in another process \(pid \d+\).*Stop that process/s);
    } finally {
      await app.close();
      await source.close();
    }
    const backedUp = await runScript('scripts/backup.ts', [file], { DATA_DIR: from });
    expect(backedUp.out).toMatch(
      new RegExp(
        `Backed up \\d+ rows of \\d+ tables from .* and 1 file \\(68 KB\\) from ${path.join(from, 'files')} to .* in [\\d.]+ s\\.`,
      ),
    );
    expect(backedUp.out).toMatch(/users: 7 of 7 rows/);
    expect(backedUp.code).toBe(0);
    // Into the embedded database in another folder, its files into an S3 bucket.
    const s3 = await startS3();
    try {
      const s3Env = {
        S3_BUCKET: s3.bucket,
        S3_ENDPOINT: s3.endpoint,
        S3_ACCESS_KEY_ID: s3.config.accessKeyId,
        S3_SECRET_ACCESS_KEY: s3.config.secretAccessKey,
      };
      const wrongBucket = await runScript('scripts/restore.ts', [file], {
        DATA_DIR: to,
        ...s3Env,
        S3_BUCKET: 'nope',
      });
      expect(wrongBucket.code).toBe(1);
      expect(wrongBucket.out).toContain(
        `Restore failed: S3_BUCKET: ${s3.endpoint} has no bucket named nope.`,
      );
      const restored = await runScript('scripts/restore.ts', [file], { DATA_DIR: to, ...s3Env });
      expect(restored.out).toMatch(
        new RegExp(
          `Restored \\d+ rows of \\d+ tables into .* and 1 file \\(68 KB\\) into bucket ${s3.bucket} at`,
        ),
      );
      expect(restored.code).toBe(0);
      const bucket = createS3Store(s3.config, to);
      expect(await keysOf(bucket)).toEqual([sha256(quote)]);
      expect((await readAll((await bucket.read(sha256(quote)))!)).equals(quote)).toBe(true);
    } finally {
      await s3.stop();
    }
    const again = await runScript('scripts/restore.ts', [file], { DATA_DIR: to });
    expect(again.code).toBe(1);
    expect(again.out).toContain(
      `Restore failed: The database at ${to} already holds ${4 + people.length} users; restore needs an empty database.`,
    );
  }, 300_000);
});
