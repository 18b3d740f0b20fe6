import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { readdir, rm, utimes, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { keysOf, spoolFile } from '../../../testkit/fileStoreContract';
import { gardenTeam, tempDiskStore, uploadFile } from '../../../testkit/files';
import { openTestDatabase, testEngines } from '../../../testkit/server';
import { signedIn, type TestClient } from '../../../testkit/testClient';
import type { Attachment, SyncAttachmentChange } from '../../shared/attachments';
import { THUMBNAIL_MAX_PX } from '../../shared/attachments';
import type { Item, SyncPage } from '../../shared/item';
import { buildApp } from '../app';
import { type Database, rows, sql } from '../db/client';
import { sweepExpired } from '../maintenance/sweep';
import type { FileStore } from './fileStore';
import { purgeUnnamedFiles, SPOOL_KEEP_MS } from './purge';

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');
const DAY = 24 * 60 * 60 * 1000;

describe.each(testEngines())('files through their life on %s', (engine) => {
  let database: Database;
  let app: FastifyInstance;
  let files: Awaited<ReturnType<typeof tempDiskStore>>;
  let store: FileStore;
  /** Set to run a purge right after the next stored file (the purge racing an upload). */
  let purgeAfterNextPut = false;
  let racedPurge: Promise<{ removed: number }> | null = null;
  let alex: TestClient;
  let blair: TestClient;
  let stranger: TestClient;
  let campaign: Item;
  let todo: Item;

  beforeAll(async () => {
    database = await openTestDatabase(engine);
    files = await tempDiskStore();
    const disk = files.store;
    // The disk store, with a purge that can run between an upload's store of its bytes and its row.
    store = {
      kind: disk.kind,
      spoolDir: disk.spoolDir,
      async putFile(key, spoolPath) {
        await disk.putFile(key, spoolPath);
        if (!purgeAfterNextPut) return;
        purgeAfterNextPut = false;
        racedPurge = purgeUnnamedFiles(database.db, disk, new Date());
        await racedPurge;
      },
      putBytes: (key, bytes, type) => disk.putBytes(key, bytes, type),
      has: (key) => disk.has(key),
      read: (key, range) => disk.read(key, range),
      remove: (key) => disk.remove(key),
      keys: () => disk.keys(),
      check: () => disk.check(),
    };
    app = await buildApp({ database, files: store, config: { seedSampleUsers: true, reminderTickMs: 0 } });
    await app.ready();
    ({ alex, blair, campaign, todo } = await gardenTeam(app));
    stranger = await signedIn(app, 'Stranger');
  });
  afterAll(async () => {
    await app?.close();
    await database?.close();
    await files?.close();
  });

  const upload = (client: TestClient, itemId: number, bytes: Uint8Array, name: string, uuid?: string) =>
    uploadFile(app, client, itemId, bytes, name, uuid);
  const content = (client: TestClient, id: number) => client.get(`/api/attachments/${id}/content`);

  it('images get their shown size and a WebP thumbnail of at most 400 px; a broken one is still stored', async () => {
    const png = await sharp({ create: { width: 800, height: 600, channels: 4, background: '#0a0' } })
      .png()
      .toBuffer();
    const photo = await upload(alex, todo.id, png, 'gate.png');
    expect(photo.status, photo.text).toBe(201);
    expect(photo.body).toMatchObject({
      width: 800,
      height: 600,
      thumbnail_url: `/api/attachments/${photo.body.id}/thumbnail`,
    });
    const thumb = await app.inject({
      url: photo.body.thumbnail_url!,
      headers: { cookie: alex.cookieHeader() },
    });
    expect(thumb.statusCode).toBe(200);
    expect(thumb.headers['content-type']).toBe('image/webp');
    expect(thumb.headers['x-content-type-options']).toBe('nosniff');
    expect(thumb.headers['content-security-policy']).toMatch(/^sandbox/);
    const small = await sharp(thumb.rawPayload).metadata();
    expect(small).toMatchObject({ format: 'webp', width: THUMBNAIL_MAX_PX, height: 300 });
    const again = await app.inject({
      url: photo.body.thumbnail_url!,
      headers: { cookie: alex.cookieHeader(), 'if-none-match': String(thumb.headers.etag) },
    });
    expect(again.statusCode).toBe(304);
    // A phone's JPEG turned by its EXIF orientation: its size as shown, the thumbnail turned too.
    const turned = await sharp({ create: { width: 300, height: 100, channels: 3, background: '#888' } })
      .jpeg()
      .withMetadata({ orientation: 6 })
      .toBuffer();
    const jpeg = await upload(alex, todo.id, turned, 'phone.jpg');
    expect(jpeg.body).toMatchObject({ type: 'image/jpeg', width: 100, height: 300 });
    const jpegThumb = await app.inject({
      url: jpeg.body.thumbnail_url!,
      headers: { cookie: alex.cookieHeader() },
    });
    expect(await sharp(jpegThumb.rawPayload).metadata()).toMatchObject({ width: 100, height: 300 });
    // A PNG's signature and nothing readable after it: an image by its bytes, with no size or thumbnail.
    const broken = Buffer.concat([png.subarray(0, 33), Buffer.alloc(64)]);
    const stored = await upload(alex, todo.id, broken, 'broken.png');
    expect(stored.status, stored.text).toBe(201);
    expect(stored.body.type).toBe('image/png');
    expect(stored.body.thumbnail_url).toBeUndefined();
    expect(stored.body.width).toBeUndefined();
    expect((await content(alex, stored.body.id)).status).toBe(200);
    expect((await alex.get(`/api/attachments/${stored.body.id}/thumbnail`)).status).toBe(404);
    // A thumbnail is a stranger's 404 like the file.
    expect((await stranger.get(photo.body.thumbnail_url!)).status).toBe(404);
  });

  it('a file past the JSON body limit (1 MB) streams through to the store whole', async () => {
    const bytes = randomBytes(3 * 1024 * 1024 + 17);
    const sent = await upload(blair, todo.id, bytes, 'large.bin');
    expect(sent.status, sent.text).toBe(201);
    expect(sent.body).toMatchObject({ size: bytes.length, sha256: sha256(bytes) });
    const read = await app.inject({
      url: `/api/attachments/${sent.body.id}/content`,
      headers: { cookie: blair.cookieHeader(), range: `bytes=${bytes.length - 10}-` },
    });
    expect(read.statusCode).toBe(206);
    expect(read.rawPayload.equals(bytes.subarray(bytes.length - 10))).toBe(true);
  });

  it('A10: a pull carries files (metadata, never bytes) to who sees the item, and a deleted one as a bare tombstone', async () => {
    const pull = async (client: TestClient, from = '') => {
      const found = new Map<number, SyncAttachmentChange>();
      let cursor = from;
      for (let i = 0; i < 50; i++) {
        const page = await client.get<SyncPage & { attachments?: SyncAttachmentChange[] }>(
          `/api/sync?cursor=${encodeURIComponent(cursor)}`,
        );
        expect(page.status, page.text).toBe(200);
        for (const a of page.body.attachments ?? []) found.set(a.id, a);
        cursor = page.body.cursor;
        if (!page.body.has_more) break;
      }
      return { found, cursor };
    };
    const bytes = Buffer.from('synced words');
    const sent = await upload(alex, todo.id, bytes, 'synced.txt');
    const { cursor } = await vi.waitFor(
      async () => {
        const pulled = await pull(blair);
        expect(pulled.found.get(sent.body.id)).toEqual({ ...sent.body, item_uuid: todo.uuid });
        return pulled;
      },
      { timeout: 10_000, interval: 50 },
    );
    expect((await pull(stranger)).found.size).toBe(0);
    expect((await alex.delete(`/api/attachments/${sent.body.id}`)).status).toBe(204);
    const tombstone = await vi.waitFor(
      async () => {
        const found = (await pull(blair, cursor)).found.get(sent.body.id);
        expect(found).toBeDefined();
        return found;
      },
      { timeout: 10_000, interval: 50 },
    );
    expect(tombstone).toEqual({
      id: sent.body.id,
      uuid: sent.body.uuid,
      item_id: todo.id,
      deleted_at: expect.any(String),
    });
    expect((await pull(stranger)).found.size).toBe(0);
  });

  it('A11: an item in the trash keeps its files, unread until a restore brings them back, and a pull sends them again', async () => {
    const item = await alex.create({ title: 'Quote', type: 'todo', parent_id: campaign.id });
    const bytes = randomBytes(2000);
    const sent = await upload(alex, item.id, bytes, 'quote.pdf');
    expect(sent.status, sent.text).toBe(201);
    expect((await alex.delete(`/api/items/${item.id}`)).status).toBe(204);
    expect((await content(alex, sent.body.id)).status).toBe(404);
    expect((await alex.get(`/api/items/${item.id}/attachments`)).status).toBe(404);
    // The sweep at any time before the purge leaves the bytes alone.
    await purgeUnnamedFiles(database.db, store, new Date());
    expect(await store.has(sha256(bytes))).toBe(true);
    const [before] = await rows<{ change_xid: string }>(
      database.db,
      sql`SELECT change_xid::text FROM attachments WHERE id = ${sent.body.id}`,
    );
    const restored = await alex.post(`/api/items/${item.id}/restore`);
    expect(restored.status, restored.text).toBe(200);
    const read = await app.inject({
      url: `/api/attachments/${sent.body.id}/content`,
      headers: { cookie: alex.cookieHeader() },
    });
    expect(read.statusCode).toBe(200);
    expect(read.rawPayload.equals(bytes)).toBe(true);
    const [after] = await rows<{ change_xid: string }>(
      database.db,
      sql`SELECT change_xid::text FROM attachments WHERE id = ${sent.body.id}`,
    );
    expect(BigInt(after!.change_xid)).toBeGreaterThan(BigInt(before!.change_xid));
  });

  it('A11: the 30-day purge deletes a purged item’s files and removes bytes no row names; shared and young bytes stay', async () => {
    const doomed = await alex.create({ title: 'Old plan', type: 'todo', parent_id: campaign.id });
    const kept = await alex.create({ title: 'Current plan', type: 'todo', parent_id: campaign.id });
    const only = randomBytes(3000);
    const shared = await sharp({ create: { width: 50, height: 50, channels: 3, background: '#f00' } })
      .png()
      .toBuffer();
    const onlyFile = await upload(alex, doomed.id, only, 'only.bin');
    await upload(alex, doomed.id, shared, 'shared.png');
    await upload(blair, kept.id, shared, 'shared-too.png');
    // A file deleted on its own keeps its bytes for the trash's 30 days, then they go too.
    const alone = randomBytes(500);
    const deleted = await upload(alex, kept.id, alone, 'deleted.bin');
    expect((await alex.delete(`/api/attachments/${deleted.body.id}`)).status).toBe(204);
    expect((await alex.delete(`/api/items/${doomed.id}`)).status).toBe(204);
    // Bytes a refused upload stored are named by no row either.
    const orphan = randomBytes(100);
    await store.putFile(sha256(orphan), await spoolFile(store, orphan));

    await purgeUnnamedFiles(database.db, store, new Date());
    expect(await store.has(sha256(only))).toBe(true);
    expect(await store.has(sha256(alone))).toBe(true);
    expect(await store.has(sha256(orphan))).toBe(false);

    // 31 days pass for the deletes (a sweep run 31 days ahead would end every session too).
    const monthAgo = new Date(Date.now() - 31 * DAY);
    await database.db.execute(sql`UPDATE items SET deleted_at = ${monthAgo} WHERE id = ${doomed.id}`);
    await database.db.execute(
      sql`UPDATE attachments SET deleted_at = ${monthAgo} WHERE id = ${deleted.body.id}`,
    );
    expect((await sweepExpired(database.db, new Date()))?.purgedItems).toBeGreaterThanOrEqual(1);
    expect(
      await rows(database.db, sql`SELECT id FROM attachments WHERE item_id = ${doomed.id}`),
    ).toHaveLength(0);
    const result = await purgeUnnamedFiles(database.db, store, new Date());
    expect(result.removed).toBeGreaterThanOrEqual(2);
    const keys = await keysOf(store);
    expect(keys).not.toContain(sha256(only));
    expect(keys).not.toContain(sha256(alone));
    // The shared image's bytes and thumbnail stay for the live item's file.
    expect(keys).toEqual(expect.arrayContaining([sha256(shared), `${sha256(shared)}.thumb`]));
    // The deleted file's row stays as its sync tombstone.
    expect(
      await rows(database.db, sql`SELECT id FROM attachments WHERE id = ${deleted.body.id}`),
    ).toHaveLength(1);
    expect((await content(alex, onlyFile.body.id)).status).toBe(404);
  });

  it('A11: a purge between an upload’s store of its bytes and its row’s commit takes nothing the row names', async () => {
    const bytes = randomBytes(4000);
    purgeAfterNextPut = true;
    const sent = await upload(alex, todo.id, bytes, 'raced.bin');
    expect(sent.status, sent.text).toBe(201);
    // The purge ran after the bytes were stored and before the row was written, and took them.
    expect((await racedPurge)?.removed).toBeGreaterThanOrEqual(1);
    const read = await app.inject({
      url: `/api/attachments/${sent.body.id}/content`,
      headers: { cookie: alex.cookieHeader() },
    });
    expect(read.statusCode).toBe(200);
    expect(read.rawPayload.equals(bytes)).toBe(true);
    expect(await readdirSafe(store.spoolDir)).toEqual([]);
  });

  it('the purge removes spool files an upload left behind a day ago, and none of an upload under way', async () => {
    const old = path.join(store.spoolDir, 'upload-crashed');
    const young = path.join(store.spoolDir, 'upload-running');
    await writeFile(old, 'x');
    await writeFile(young, 'y');
    const then = new Date(Date.now() - SPOOL_KEEP_MS - 60_000);
    await utimes(old, then, then);
    expect((await purgeUnnamedFiles(database.db, store, new Date())).spool).toBe(1);
    expect(await readdirSafe(store.spoolDir)).toEqual(['upload-running']);
    await rm(young);
  });

  it('A4: parallel uploads of one uuid over real connections store one row and one copy', async () => {
    const address = await app.listen({ port: 0, host: '127.0.0.1' });
    const bytes = randomBytes(100_000);
    const uuid = randomUUID();
    const token = decodeURIComponent(blair.jar.get('XSRF-TOKEN')!);
    const send = async () => {
      const form = new FormData();
      form.append('uuid', uuid);
      form.append('file', new Blob([bytes]), 'same.bin');
      const response = await fetch(`${address}/api/items/${todo.id}/attachments`, {
        method: 'POST',
        headers: { cookie: blair.cookieHeader(), 'x-xsrf-token': token },
        body: form,
      });
      return { status: response.status, body: (await response.json()) as Attachment & { message?: string } };
    };
    const answers = await Promise.all(Array.from({ length: 8 }, send));
    const statuses = answers.map((a) => a.status).sort();
    const said = JSON.stringify(answers.map((a) => [a.status, a.body.message]));
    expect(
      statuses.filter((s) => s === 201),
      said,
    ).toHaveLength(1);
    expect(
      statuses.filter((s) => s === 200),
      said,
    ).toHaveLength(7);
    expect(new Set(answers.map((a) => a.body.id)).size).toBe(1);
    expect(await rows(database.db, sql`SELECT id FROM attachments WHERE uuid = ${uuid}`)).toHaveLength(1);
    expect((await keysOf(store)).filter((k) => k === sha256(bytes))).toHaveLength(1);
    expect(await readdirSafe(store.spoolDir)).toEqual([]);
  });
});

async function readdirSafe(folder: string): Promise<string[]> {
  try {
    return (await readdir(folder)).sort();
  } catch {
    return [];
  }
}
