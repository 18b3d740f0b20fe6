import { createHash, randomBytes } from 'node:crypto';
import { access, mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contentKey, type FileStore, thumbnailKey } from '../src/server/attachments/fileStore';

/** A store made for a contract run, and how to throw it away afterwards. */
export interface ContractStore {
  store: FileStore;
  close?(): Promise<void>;
}

/** Everything a stream gives, as one buffer. */
export async function readAll(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk as Uint8Array));
  return Buffer.concat(chunks);
}

/** Every key a store lists, sorted. */
export async function keysOf(store: FileStore): Promise<string[]> {
  const out: string[] = [];
  for await (const key of store.keys()) out.push(key);
  return out.sort();
}

/** Writes `bytes` as a finished spool file of `store`, as an upload leaves one, and answers its path. */
export async function spoolFile(store: FileStore, bytes: Uint8Array): Promise<string> {
  await mkdir(store.spoolDir, { recursive: true });
  const file = path.join(store.spoolDir, `contract-${randomBytes(8).toString('hex')}`);
  await writeFile(file, bytes);
  return file;
}

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

/**
 * The FileStore interface's contract (src/server/attachments/fileStore.ts), run against any store:
 * the disk store runs it (diskStore.test.ts), and so may an S3 one. `makeStore` gives a fresh, empty
 * store for the whole run.
 */
export function fileStoreContract(name: string, makeStore: () => Promise<ContractStore>): void {
  describe(`the ${name} file store keeps the FileStore contract`, () => {
    let made: ContractStore;
    let store: FileStore;
    beforeAll(async () => {
      made = await makeStore();
      store = made.store;
      await store.check();
    });
    afterAll(() => made?.close?.());

    it('stores a spool file under its key, takes the spool file away, and reads the bytes back', async () => {
      const bytes = randomBytes(70_000);
      const key = contentKey(sha256(bytes));
      expect(await store.has(key)).toBe(false);
      expect(await store.read(key)).toBeNull();
      const spool = await spoolFile(store, bytes);
      await store.putFile(key, spool);
      expect(await store.has(key)).toBe(true);
      expect((await readAll((await store.read(key))!)).equals(bytes)).toBe(true);
      await expect(access(spool)).rejects.toThrow();
    });

    it('keeps the bytes a key already has when the same key is put again, and the second spool file goes', async () => {
      const bytes = randomBytes(1000);
      const key = contentKey(sha256(bytes));
      await store.putFile(key, await spoolFile(store, bytes));
      // Different bytes under the same key can only be a bug elsewhere: the first bytes stay.
      const second = await spoolFile(store, randomBytes(1000));
      await store.putFile(key, second);
      expect((await readAll((await store.read(key))!)).equals(bytes)).toBe(true);
      await expect(access(second)).rejects.toThrow();
      expect((await keysOf(store)).filter((k) => k === key)).toHaveLength(1);
    });

    it('reads a range, both ends included, as HTTP counts them', async () => {
      const bytes = Buffer.from('0123456789abcdefghij');
      const key = contentKey(sha256(bytes));
      await store.putFile(key, await spoolFile(store, bytes));
      expect((await readAll((await store.read(key, { start: 0, end: 0 }))!)).toString()).toBe('0');
      expect((await readAll((await store.read(key, { start: 5, end: 9 }))!)).toString()).toBe('56789');
      expect((await readAll((await store.read(key, { start: 15, end: 19 }))!)).toString()).toBe('fghij');
    });

    it('stores small bytes (a thumbnail) under a thumbnail key', async () => {
      const bytes = randomBytes(300);
      const key = thumbnailKey(sha256(randomBytes(32)));
      await store.putBytes(key, bytes, 'image/webp');
      expect(await store.has(key)).toBe(true);
      expect((await readAll((await store.read(key))!)).equals(bytes)).toBe(true);
    });

    it('lists every key it holds, spool files never among them, and forgets a removed key', async () => {
      const bytes = randomBytes(64);
      const key = contentKey(sha256(bytes));
      await store.putFile(key, await spoolFile(store, bytes));
      const thumb = thumbnailKey(sha256(bytes));
      await store.putBytes(thumb, randomBytes(10), 'image/webp');
      // A spool file left behind (an upload under way) is not a key.
      await spoolFile(store, randomBytes(10));
      const listed = await keysOf(store);
      expect(listed).toEqual(expect.arrayContaining([key, thumb]));
      for (const k of listed) expect(k).toMatch(/^[0-9a-f]{64}(\.thumb)?$/);
      await store.remove(key);
      await store.remove(key); // A missing key is no error.
      expect(await store.has(key)).toBe(false);
      expect(await store.read(key)).toBeNull();
      expect(await keysOf(store)).not.toContain(key);
      expect(await keysOf(store)).toContain(thumb);
    });

    it('stores an empty file', async () => {
      const key = contentKey(sha256(new Uint8Array()));
      await store.putFile(key, await spoolFile(store, new Uint8Array()));
      expect(await store.has(key)).toBe(true);
      expect((await readAll((await store.read(key))!)).length).toBe(0);
    });
  });
}
