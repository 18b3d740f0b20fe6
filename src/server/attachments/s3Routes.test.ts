import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { HeadObjectCommand, PutObjectCommand } from '@aws-sdk/client-s3';
import type { FastifyInstance } from 'fastify';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keysOf } from '../../../testkit/fileStoreContract';
import { gardenTeam, uploadFile } from '../../../testkit/files';
import { startS3, type TestS3 } from '../../../testkit/s3';
import { openTestDatabase, testEngines } from '../../../testkit/server';
import { signedIn, type TestClient } from '../../../testkit/testClient';
import type { Item } from '../../shared/item';
import { buildApp } from '../app';
import { type Database, rows, sql } from '../db/client';
import { sweepExpired } from '../maintenance/sweep';
import type { FileStore } from './fileStore';
import { purgeUnnamedFiles } from './purge';
import { createS3Store, s3Client } from './s3Store';

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');
const DAY = 24 * 60 * 60 * 1000;

/**
 * The files routes' essential cases with the bytes in an S3-compatible bucket (s3rver) instead of
 * DATA_DIR/files (issue 64: 'on both engines and both storages'); attachments.test.ts and
 * lifecycle.test.ts hold every rule on the disk store.
 */
describe.each(testEngines())('files on items in an S3 bucket on %s', (engine) => {
  let s3: TestS3;
  let dataDir: string;
  let database: Database;
  let app: FastifyInstance;
  let store: FileStore;
  let alex: TestClient;
  let blair: TestClient;
  let campaign: Item;
  let todo: Item;

  beforeAll(async () => {
    s3 = await startS3();
    dataDir = mkdtempSync(path.join(tmpdir(), 'outpost-s3routes-'));
    store = createS3Store(s3.config, dataDir);
    database = await openTestDatabase(engine);
    app = await buildApp({ database, files: store, config: { seedSampleUsers: true, reminderTickMs: 0 } });
    await app.ready();
    ({ alex, blair, campaign, todo } = await gardenTeam(app));
  }, 120_000);
  afterAll(async () => {
    await app?.close();
    await database?.close();
    await s3?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const upload = (client: TestClient, itemId: number, bytes: Uint8Array, name: string, uuid?: string) =>
    uploadFile(app, client, itemId, bytes, name, uuid);
  const content = (client: TestClient, id: number, headers?: Record<string, string>) =>
    client.request({ url: `/api/attachments/${id}/content`, ...(headers ? { headers } : {}) });
  const putsOf = (key: string) =>
    s3.requests.filter((r) => r.method === 'PUT' && r.url.split('?')[0] === `/${s3.bucket}/${key}`);

  it('an upload streams into the bucket and is read back whole, by HEAD and by Range', async () => {
    const bytes = Buffer.concat([Buffer.from('0123456789'), randomBytes(200_000)]);
    const sent = await upload(blair, todo.id, bytes, 'survey.bin');
    expect(sent.status, sent.text).toBe(201);
    expect(sent.body).toMatchObject({ sha256: sha256(bytes), size: bytes.length, item_id: todo.id });
    expect(await store.has(sha256(bytes))).toBe(true);
    // One PutObject of the known length; the spool file is gone.
    expect(putsOf(sha256(bytes)).map((r) => r.headers['content-length'])).toEqual([String(bytes.length)]);
    expect(readdirSync(store.spoolDir)).toEqual([]);

    const whole = await app.inject({
      url: `/api/attachments/${sent.body.id}/content`,
      headers: { cookie: alex.cookieHeader() },
    });
    expect(whole.statusCode).toBe(200);
    expect(whole.rawPayload.equals(bytes)).toBe(true);
    expect(whole.headers.etag).toBe(`"${sha256(bytes)}"`);
    const head = await alex.request({ method: 'HEAD', url: `/api/attachments/${sent.body.id}/content` });
    expect(head.headers['content-length']).toBe(String(bytes.length));

    const part = await content(alex, sent.body.id, { range: 'bytes=2-5' });
    expect(part.status).toBe(206);
    expect(part.text).toBe('2345');
    expect(part.headers['content-range']).toBe(`bytes 2-5/${bytes.length}`);
    expect((await content(alex, sent.body.id, { range: 'bytes=0-0' })).text).toBe('0');
    const tail = await app.inject({
      url: `/api/attachments/${sent.body.id}/content`,
      headers: { cookie: alex.cookieHeader(), range: 'bytes=-100' },
    });
    expect(tail.statusCode).toBe(206);
    expect(tail.rawPayload.equals(bytes.subarray(bytes.length - 100))).toBe(true);
    expect((await content(alex, sent.body.id, { range: `bytes=${bytes.length}-` })).status).toBe(416);
  });

  it('A4: the same uuid twice stores one row and one object; the same bytes again send nothing', async () => {
    const bytes = randomBytes(5000);
    const uuid = randomUUID();
    const first = await upload(blair, todo.id, bytes, 'quote.pdf', uuid);
    expect(first.status, first.text).toBe(201);
    const again = await upload(blair, todo.id, bytes, 'quote.pdf', uuid);
    expect(again.status, again.text).toBe(200);
    expect(again.body).toEqual(first.body);
    expect(await rows(database.db, sql`SELECT id FROM attachments WHERE uuid = ${uuid}`)).toHaveLength(1);
    // Another file of the same bytes is another row naming the one object.
    const other = await upload(alex, campaign.id, bytes, 'copy.pdf');
    expect(other.status, other.text).toBe(201);
    expect(putsOf(sha256(bytes))).toHaveLength(1);
    expect((await keysOf(store)).filter((k) => k === sha256(bytes))).toHaveLength(1);
  });

  it('an image’s thumbnail is an object of its own, read through the thumbnail route', async () => {
    const png = await sharp({ create: { width: 800, height: 600, channels: 3, background: '#3366cc' } })
      .png()
      .toBuffer();
    const sent = await upload(alex, todo.id, png, 'gate.png');
    expect(sent.status, sent.text).toBe(201);
    expect(sent.body.thumbnail_url).toBe(`/api/attachments/${sent.body.id}/thumbnail`);
    expect(await store.has(`${sha256(png)}.thumb`)).toBe(true);
    const thumb = await app.inject({
      url: sent.body.thumbnail_url!,
      headers: { cookie: blair.cookieHeader() },
    });
    expect(thumb.statusCode).toBe(200);
    expect((await sharp(thumb.rawPayload).metadata()).width).toBe(400);
  });

  it('A8: no object is publicly readable, no ACL is ever sent, and only the checked route hands bytes out', async () => {
    const bytes = Buffer.from('the signed quote');
    const sent = await upload(alex, todo.id, bytes, 'signed.txt');
    expect(sent.status, sent.text).toBe(201);
    for (const key of await keysOf(store)) {
      const anonymous = await fetch(`${s3.endpoint}/${s3.bucket}/${key}`);
      expect(anonymous.status, key).toBe(403);
    }
    const listing = await fetch(`${s3.endpoint}/${s3.bucket}/`);
    expect(listing.status).toBe(403);
    const acl = s3.requests.filter(
      (r) =>
        /[?&]acl(=|&|$)/.test(r.url) ||
        Object.keys(r.headers).some((h) => h === 'x-amz-acl' || h.startsWith('x-amz-grant-')),
    );
    expect(acl).toEqual([]);
    const stranger = await signedIn(app, 'Stranger');
    expect((await content(stranger, sent.body.id)).status).toBe(404);
  });

  it('A11: a delete keeps the object until the purge, which removes only unnamed keys of its own', async () => {
    const bytes = randomBytes(700);
    const sent = await upload(blair, todo.id, bytes, 'draft.bin');
    expect((await blair.delete(`/api/attachments/${sent.body.id}`)).status).toBe(204);
    expect((await content(blair, sent.body.id)).status).toBe(404);
    // Something else in a shared bucket.
    await (await s3Client(s3.config)).send(
      new PutObjectCommand({ Bucket: s3.bucket, Key: 'backups/2026-11-01.tar', Body: 'not ours' }),
    );
    await purgeUnnamedFiles(database.db, store, new Date());
    expect(await store.has(sha256(bytes))).toBe(true);

    // The trash's 30 days pass for the deleted file; an item purged with its live file goes too.
    const doomed = await alex.create({ title: 'Old plan', type: 'todo', parent_id: campaign.id });
    const only = randomBytes(900);
    expect((await upload(alex, doomed.id, only, 'only.bin')).status).toBe(201);
    expect((await alex.delete(`/api/items/${doomed.id}`)).status).toBe(204);
    const monthAgo = new Date(Date.now() - 31 * DAY);
    await database.db.execute(
      sql`UPDATE attachments SET deleted_at = ${monthAgo} WHERE id = ${sent.body.id}`,
    );
    await database.db.execute(sql`UPDATE items SET deleted_at = ${monthAgo} WHERE id = ${doomed.id}`);
    expect((await sweepExpired(database.db, new Date()))?.purgedItems).toBeGreaterThanOrEqual(1);
    const result = await purgeUnnamedFiles(database.db, store, new Date());
    expect(result.removed).toBeGreaterThanOrEqual(2);
    expect(await store.has(sha256(bytes))).toBe(false);
    expect(await store.has(sha256(only))).toBe(false);
    // The bucket's other object was never listed as ours, so it is still there.
    const left = await (await s3Client(s3.config)).send(
      new HeadObjectCommand({ Bucket: s3.bucket, Key: 'backups/2026-11-01.tar' }),
    );
    expect(left.$metadata.httpStatusCode).toBe(200);
  });
});
