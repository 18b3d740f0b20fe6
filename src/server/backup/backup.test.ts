import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { type Engine, openTestDatabase, PGLITE_TEMPLATE_ENV, pullsCaughtUp } from '../../../testkit/server';
import { share } from '../../../testkit/sharing';
import { makeMutual, signedIn, TestClient } from '../../../testkit/testClient';
import type { Item } from '../../shared/item';
import { buildApp } from '../app';
import { type Database, openDatabase } from '../db/client';
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

const pairs: [Engine, Engine][] = [
  ['pglite', 'pglite'],
  ...(process.env.TEST_DATABASE_URL
    ? ([
        ['pglite', 'pg'],
        ['pg', 'pglite'],
      ] as [Engine, Engine][])
    : []),
];

describe.each(pairs)('backup on %s, restore on %s', (from, to) => {
  it('gives every person the same API answers, keeps ids from colliding and refuses a second restore', async () => {
    const source: Database = await openTestDatabase(from);
    const target: Database = await openTestDatabase(to);
    const sourceApp = await buildApp({ database: source, config: { seedSampleUsers: true } });
    let targetApp: FastifyInstance | null = null;
    try {
      const people = await seed(sourceApp);
      // The answers to compare with are the whole of what was written, not what a pull saw of it.
      await pullsCaughtUp(source);
      const before: Awaited<ReturnType<typeof answers>>[] = [];
      for (const person of people) before.push(await answers(person));
      const oldCursor = (await get<{ cursor: string }>(people[0]!, '/api/sync?cursor=')).cursor;

      const file = tempFile('outpost.jsonl.gz');
      const lines: string[] = [];
      const written = await backupToFile(source, file, (p) => lines.push(progressLine(p)));
      expect(written.rows).toBeGreaterThan(20);
      expect(lines.at(-1)).toMatch(/100% of all\)$/);
      const restored = await restoreFromFile(target, file, 'the test target');
      expect(restored).toEqual(written);

      targetApp = await buildApp({ database: target, config: { seedSampleUsers: false } });
      const moved = sameSessions(people, targetApp);
      // A pull shows rows below the cluster's oldest open transaction (cursor.ts); on a PostgreSQL
      // shared with other test files, another database's open transaction may hold that back for a
      // moment, so the answers are read again until the restored rows are in sight, as a device would.
      for (const [i, person] of moved.entries())
        await vi.waitFor(async () => expect(await answers(person), person.user!.name).toEqual(before[i]), {
          timeout: 30_000,
          interval: 250,
        });

      // New rows take fresh ids, and a device's cursor from before the move still learns of them.
      const [alice] = moved;
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

      await expect(restoreFromFile(target, file, 'the test target')).rejects.toThrow(
        new RestoreRefused(
          `The database at the test target already holds ${4 + people.length} users; restore needs an empty database.`,
        ),
      );
    } finally {
      await targetApp?.close();
      await sourceApp.close();
      await source.close();
      await target.close();
    }
  }, 120_000);
});

describe('restore refuses what it cannot load', () => {
  it('refuses a file that is not a backup and a backup cut short, writing nothing', async () => {
    const source = await openTestDatabase('pglite');
    const target = await openTestDatabase('pglite');
    const app = await buildApp({ database: source, config: { seedSampleUsers: true } });
    try {
      await seed(app);
      const file = tempFile('full.jsonl.gz');
      await backupToFile(source, file);
      const { writeFileSync } = await import('node:fs');
      const { gunzipSync, gzipSync } = await import('node:zlib');
      const text = gunzipSync(readFileSync(file)).toString('utf8');
      const cut = tempFile('cut.jsonl.gz');
      writeFileSync(cut, gzipSync(text.split('\n').slice(0, -5).join('\n')));
      await expect(restoreFromFile(target, cut, 'target')).rejects.toThrow(/cut short|holds \d+ rows of/);
      const junk = tempFile('junk.jsonl.gz');
      writeFileSync(junk, gzipSync('{"hello":"world"}\n'));
      await expect(restoreFromFile(target, junk, 'target')).rejects.toThrow('This is not an Outpost backup.');
      // Nothing of the cut file stayed: the whole restore still goes through.
      expect((await restoreFromFile(target, file, 'target')).rows).toBeGreaterThan(20);
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

describe('npm run backup and npm run restore', () => {
  it('move an embedded database to another, refusing a folder in use and a restore into data', async () => {
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
    const app = await buildApp({ database: source, config: { seedSampleUsers: true } });
    let people: TestClient[];
    try {
      people = await seed(app);
      // The folder is open in this process: the script must not open it beside us.
      const busy = await runScript('scripts/backup.ts', [file], { DATA_DIR: from });
      expect(busy.code).toBe(1);
      expect(busy.out).toMatch(/is open in another process \(pid \d+\).*Stop that process/s);
    } finally {
      await app.close();
      await source.close();
    }
    const backedUp = await runScript('scripts/backup.ts', [file], { DATA_DIR: from });
    expect(backedUp.out).toMatch(/Backed up \d+ rows of \d+ tables from .* in [\d.]+ s\./);
    expect(backedUp.out).toMatch(/users: 7 of 7 rows/);
    expect(backedUp.code).toBe(0);
    const restored = await runScript('scripts/restore.ts', [file], { DATA_DIR: to });
    expect(restored.out).toMatch(/Restored \d+ rows of \d+ tables/);
    expect(restored.code).toBe(0);
    const again = await runScript('scripts/restore.ts', [file], { DATA_DIR: to });
    expect(again.code).toBe(1);
    expect(again.out).toContain(
      `Restore failed: The database at ${to} already holds ${4 + people.length} users; restore needs an empty database.`,
    );
  }, 300_000);
});
