import { mkdtemp, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { fileStoreContract, keysOf, spoolFile } from '../../../testkit/fileStoreContract';
import { createDiskStore, SPOOL_FOLDER } from './diskStore';

const folders: string[] = [];
async function freshRoot(): Promise<string> {
  const folder = await mkdtemp(path.join(tmpdir(), 'outpost-files-'));
  folders.push(folder);
  return path.join(folder, 'files');
}
afterAll(async () => {
  for (const folder of folders) await rm(folder, { recursive: true, force: true });
});

fileStoreContract('disk', async () => ({ store: createDiskStore(await freshRoot()) }));

describe('the disk file store', () => {
  const key = 'ab'.repeat(32);

  it('fans keys out two folders deep by their first hex digits, the spool beside them', async () => {
    const root = await freshRoot();
    const store = createDiskStore(root);
    expect(store.spoolDir).toBe(path.join(root, SPOOL_FOLDER));
    await store.putFile(key, await spoolFile(store, Buffer.from('x')));
    await store.putBytes(`${key}.thumb`, Buffer.from('t'), 'image/webp');
    expect((await readdir(path.join(root, 'ab', 'ab'))).sort()).toEqual([key, `${key}.thumb`]);
    expect(await readdir(store.spoolDir)).toEqual([]);
    expect(await keysOf(store)).toEqual([key, `${key}.thumb`]);
  });

  it('names no file outside its folder: a key that is not a sha256 is refused', async () => {
    const store = createDiskStore(await freshRoot());
    for (const bad of ['../../etc/passwd', `${key}/x`, 'AB'.repeat(32), `${key}.exe`, '']) {
      await expect(store.has(bad)).rejects.toThrow(/Not a file store key/);
      await expect(store.read(bad)).rejects.toThrow(/Not a file store key/);
      await expect(store.remove(bad)).rejects.toThrow(/Not a file store key/);
    }
  });

  it('lists nothing and reads nothing before the first file is stored', async () => {
    const store = createDiskStore(await freshRoot());
    expect(await keysOf(store)).toEqual([]);
    expect(await store.has(key)).toBe(false);
    expect(await store.read(key)).toBeNull();
  });

  it('says which setting to fix when its folder cannot be used', async () => {
    const root = await freshRoot();
    // A file where the folder should be.
    await writeFile(root, 'not a folder');
    await expect(createDiskStore(root).check()).rejects.toThrow(
      /^DATA_DIR: the file store at .* cannot be used/,
    );
  });

  it('stores a thumbnail whole under its key', async () => {
    const root = await freshRoot();
    const store = createDiskStore(root);
    const bytes = Buffer.alloc(200_000, 7);
    await store.putBytes(key, bytes, 'image/webp');
    expect((await stat(path.join(root, 'ab', 'ab', key))).size).toBe(bytes.length);
  });
});
