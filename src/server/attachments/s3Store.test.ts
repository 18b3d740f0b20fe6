import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PutObjectCommand } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fileStoreContract } from '../../../testkit/fileStoreContract';
import { startS3, type TestS3 } from '../../../testkit/s3';
import { contentKey } from './fileStore';
import { createS3Store, s3Client } from './s3Store';

let s3: TestS3;
const dirs: string[] = [];
beforeAll(async () => {
  s3 = await startS3();
});
afterAll(async () => {
  await s3?.stop();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});
const dataDir = () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'outpost-s3store-'));
  dirs.push(dir);
  return dir;
};
const keyOf = (bytes: Uint8Array) => contentKey(createHash('sha256').update(bytes).digest('hex'));
const text = async (stream: NodeJS.ReadableStream | null) => {
  if (!stream) return null;
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk as Buffer));
  return Buffer.concat(chunks);
};

fileStoreContract('S3 (s3rver)', async () => {
  const service = await startS3({ bucket: 'contract' });
  return { store: createS3Store(service.config, dataDir()), close: () => service.stop() };
});

describe('the S3 file store on an S3-protocol service (s3rver)', () => {
  it('spools under DATA_DIR/files/.spool and streams a file in one PutObject, none for a key it holds', async () => {
    const store = createS3Store(s3.config, dataDir());
    expect(store.kind).toBe('s3');
    expect(store.spoolDir).toMatch(/files[/\\]\.spool$/);
    expect(existsSync(store.spoolDir)).toBe(true);
    const bytes = Buffer.alloc(2 * 1024 * 1024 + 3, 'ab');
    const key = keyOf(bytes);
    const spool = path.join(store.spoolDir, 'upload-1');
    writeFileSync(spool, bytes);
    const before = s3.requests.length;
    await store.putFile(key, spool);
    expect(existsSync(spool)).toBe(false);
    const puts = s3.requests.slice(before).filter((r) => r.method === 'PUT');
    // One PutObject with the known length: the spool file streamed, not a multipart upload.
    expect(puts).toHaveLength(1);
    expect(puts[0]!.headers['content-length']).toBe(String(bytes.length));
    expect((await text(await store.read(key, { start: 1, end: 4 })))?.toString()).toBe('baba');

    // The same key again sends no bytes: the object is there already (a key is a sha256).
    writeFileSync(spool, bytes);
    const again = s3.requests.length;
    await store.putFile(key, spool);
    expect(existsSync(spool)).toBe(false);
    expect(s3.requests.slice(again).filter((r) => r.method === 'PUT')).toHaveLength(0);
  });

  it('lists only its own keys in a shared bucket and names no key but a sha256', async () => {
    const store = createS3Store(s3.config, dataDir());
    const thumb = `${'c'.repeat(64)}.thumb`;
    await store.putBytes(thumb, new Uint8Array([1, 2, 3]), 'image/webp');
    expect([...((await text(await store.read(thumb))) ?? [])]).toEqual([1, 2, 3]);
    // Something else in a shared bucket is never listed, so the purge never removes it.
    await (await s3Client(s3.config)).send(
      new PutObjectCommand({ Bucket: s3.bucket, Key: 'backups/readme.txt', Body: 'not ours' }),
    );
    const listed: string[] = [];
    for await (const key of store.keys()) listed.push(key);
    expect(listed).toContain(thumb);
    expect(listed.every((key) => /^[0-9a-f]{64}(\.thumb)?$/.test(key))).toBe(true);
    await expect(store.read('../etc/passwd')).rejects.toThrow(/Not a file store key/);
  });

  it('lists every key over several pages', async () => {
    const other = await startS3({ bucket: 'many-files' });
    try {
      const store = createS3Store(other.config, dataDir(), { listPageSize: 2 });
      const keys = Array.from({ length: 7 }, (_, i) => createHash('sha256').update(`f${i}`).digest('hex'));
      for (const key of keys) await store.putBytes(key, new Uint8Array([1]), 'application/octet-stream');
      const listed: string[] = [];
      for await (const key of store.keys()) listed.push(key);
      expect(listed.sort()).toEqual([...keys].sort());
      expect(other.requests.filter((r) => r.url.includes('list-type=2'))).toHaveLength(4);
    } finally {
      await other.stop();
    }
  });

  it('A8: an object is never publicly readable, and no ACL is ever sent', async () => {
    const store = createS3Store(s3.config, dataDir());
    const bytes = Buffer.from('the signed quote');
    const key = keyOf(bytes);
    const spool = path.join(store.spoolDir, 'quote');
    writeFileSync(spool, bytes);
    await store.putFile(key, spool);
    await store.putBytes(`${key}.thumb`, new Uint8Array([9]), 'image/webp');
    // The object is there for the server (signed) and refused to anyone else (no signature).
    expect(await store.has(key)).toBe(true);
    for (const url of [
      `${s3.endpoint}/${s3.bucket}/${key}`,
      `${s3.endpoint}/${s3.bucket}/${key}.thumb`,
      `${s3.endpoint}/${s3.bucket}/`,
    ]) {
      const anonymous = await fetch(url);
      expect(anonymous.status, url).toBe(403);
      expect(await anonymous.text()).toContain('AccessDenied');
    }
    const acl = s3.requests.filter(
      (r) =>
        /[?&]acl(=|&|$)/.test(r.url) ||
        Object.keys(r.headers).some((h) => h === 'x-amz-acl' || h.startsWith('x-amz-grant-')),
    );
    expect(acl).toEqual([]);
  });

  it('the gate in front of s3rver lets a public-read object through, so the refusal above means something', async () => {
    const key = 'e'.repeat(64);
    await (await s3Client(s3.config)).send(
      new PutObjectCommand({ Bucket: s3.bucket, Key: key, Body: 'public', ACL: 'public-read' }),
    );
    const anonymous = await fetch(`${s3.endpoint}/${s3.bucket}/${key}`);
    expect(anonymous.status).toBe(200);
    expect(await anonymous.text()).toBe('public');
  });

  it('check() names the setting to fix: a missing bucket, refused keys, an endpoint that does not answer', async () => {
    await expect(createS3Store(s3.config, dataDir()).check()).resolves.toBeUndefined();
    await expect(
      createS3Store({ ...s3.config, bucket: 'no-such-bucket' }, dataDir()).check(),
    ).rejects.toThrow(`S3_BUCKET: ${s3.endpoint} has no bucket named no-such-bucket.`);
    await expect(createS3Store({ ...s3.config, accessKeyId: 'WRONG' }, dataDir()).check()).rejects.toThrow(
      /^S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY: .* refused them for bucket outpost-files \(403/,
    );
    await expect(
      createS3Store({ ...s3.config, endpoint: 'http://127.0.0.1:1' }, dataDir()).check(),
    ).rejects.toThrow('S3_ENDPOINT: http://127.0.0.1:1 cannot be reached (ECONNREFUSED).');
  });
});
