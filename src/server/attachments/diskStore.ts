import { randomUUID } from 'node:crypto';
import { constants } from 'node:fs';
import { access, link, mkdir, open, readdir, rm, unlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { type FileStore, isStoreKey } from './fileStore';

/** The spool's folder under the store's root: a dot name, never a key's fan-out folder. */
export const SPOOL_FOLDER = '.spool';

const isMissing = (error: unknown) => (error as NodeJS.ErrnoException).code === 'ENOENT';
const isTaken = (error: unknown) => (error as NodeJS.ErrnoException).code === 'EEXIST';

/**
 * The embedded file store (ARCHITECTURE §4 'Files on items'): each key's bytes in one file under
 * `root` (`DATA_DIR/files`), fanned out by the key's first two pairs of hex digits (`ab/cd/abcd…`), so
 * no folder grows past 65,536 entries' worth of siblings. Spool files live in `root/.spool`, on the
 * same file system, so storing one is a rename. A key is written whole or not at all: its file
 * appears by a hard link of a finished file, which fails when the key is already there (the same
 * bytes: a key is a sha256), so a reader never meets half a file and two racing puts keep one.
 */
export function createDiskStore(root: string): FileStore {
  const spoolDir = path.join(root, SPOOL_FOLDER);
  const pathOf = (key: string) => {
    // Keys come from the database or from sha256 here; anything else names no file (no `..`, no `/`).
    if (!isStoreKey(key)) throw new Error(`Not a file store key: ${key.slice(0, 80)}`);
    return path.join(root, key.slice(0, 2), key.slice(2, 4), key);
  };

  /** Moves a finished file in under `key`, keeping the key's bytes when it is there already. */
  const place = async (key: string, finished: string) => {
    const target = pathOf(key);
    try {
      // The fan-out folder is made when a link first finds it missing, not asked for every time.
      await linkMaking(finished, target);
    } catch (error) {
      if (!isTaken(error)) throw error;
    } finally {
      await unlinkIfThere(finished);
    }
  };

  return {
    kind: 'disk',
    spoolDir,
    async putFile(key, spoolPath) {
      await place(key, spoolPath);
    },
    async putBytes(key, bytes) {
      await mkdir(spoolDir, { recursive: true });
      const temporary = path.join(spoolDir, `put-${randomUUID()}`);
      try {
        // Flushed before it is linked in: a crash never leaves a key naming bytes that never reached the disk.
        await writeFile(temporary, bytes, { flag: 'wx', flush: true });
      } catch (error) {
        await rm(temporary, { force: true });
        throw error;
      }
      await place(key, temporary);
    },
    async has(key) {
      try {
        await access(pathOf(key), constants.F_OK);
        return true;
      } catch (error) {
        if (isMissing(error)) return false;
        throw error;
      }
    },
    async read(key, range) {
      // Opened first, so a key removed between the check and the read is a null, never a stream error.
      let handle: Awaited<ReturnType<typeof open>>;
      try {
        handle = await open(pathOf(key), 'r');
      } catch (error) {
        if (isMissing(error)) return null;
        throw error;
      }
      // The handle's own stream closes the handle when it ends or is destroyed.
      return handle.createReadStream(range ? { start: range.start, end: range.end } : {}) as Readable;
    },
    async remove(key) {
      try {
        await unlink(pathOf(key));
      } catch (error) {
        if (!isMissing(error)) throw error;
      }
    },
    async *keys() {
      for (const first of await entriesOf(root)) {
        if (!/^[0-9a-f]{2}$/.test(first)) continue;
        for (const second of await entriesOf(path.join(root, first))) {
          if (!/^[0-9a-f]{2}$/.test(second)) continue;
          for (const name of await entriesOf(path.join(root, first, second))) {
            if (isStoreKey(name) && name.startsWith(first + second)) yield name;
          }
        }
      }
    },
    async check() {
      try {
        await mkdir(spoolDir, { recursive: true });
        await access(root, constants.R_OK | constants.W_OK);
        await access(spoolDir, constants.R_OK | constants.W_OK);
      } catch (error) {
        throw new Error(
          `DATA_DIR: the file store at ${root} cannot be used (${(error as Error).message}). Check that the folder exists and the server may write to it.`,
        );
      }
    },
  };
}

/** Links `from` as `to`, making `to`'s folder when the first try finds it missing. */
async function linkMaking(from: string, to: string): Promise<void> {
  try {
    await link(from, to);
  } catch (error) {
    if (!isMissing(error)) throw error;
    await mkdir(path.dirname(to), { recursive: true });
    await link(from, to);
  }
}

/** Removes a file that may already be gone (one call: no stat before it, as `rm` makes). */
export async function unlinkIfThere(file: string): Promise<void> {
  try {
    await unlink(file);
  } catch (error) {
    if (!isMissing(error)) throw error;
  }
}

/** A folder's entry names, sorted; none when the folder is not there (nothing stored yet). */
async function entriesOf(folder: string): Promise<string[]> {
  try {
    return (await readdir(folder)).sort();
  } catch (error) {
    if (isMissing(error)) return [];
    throw error;
  }
}
