import { readdir, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { TRASH_KEEP_MS } from '../../shared/trash';
import type { Executor } from '../db/client';
import type { FileStore } from './fileStore';
import { holdFilesAlone, namedShas } from './store';

/** A spool file this old belongs to no upload still under way (one that crashed, or lost its client). */
export const SPOOL_KEEP_MS = 24 * 60 * 60 * 1000;
/** Keys looked at per statement. */
const BATCH = 200;
/** Keys removed per hold of the files lock: an upload waits for at most this many removals. */
const REMOVALS_PER_LOCK = 20;

type Transactional = Executor & { transaction<T>(run: (tx: Executor) => Promise<T>): Promise<T> };

export interface FilePurgeResult {
  /** Keys removed (contents and thumbnails) because no attachment row names their sha256. */
  removed: number;
  /** Spool files left behind by uploads that never finished. */
  spool: number;
}

/**
 * Removes the bytes no attachment row names (SYNC.md A11): the rows of an item purged 30 days after
 * its delete went with it (the sweep's declared purge); a file deleted on its own names its bytes for
 * the trash's 30 days, after which its row is only the sync tombstone it stays (like a comment's:
 * a device that was away longer still learns the file is gone), naming bytes no more; and an upload
 * refused after its bytes were stored left them unnamed. A live row keeps its bytes whatever its
 * item, so a restore from the trash finds its files.
 *
 * The race with an upload (its bytes stored, its row not yet committed) is closed by a lock, not by
 * a grace period, because neither store's key listing is bound to say when a key was written: each
 * batch of unnamed keys is checked again and removed holding the files lock alone, and an upload
 * holds it shared from its check that its bytes are stored until its row commits, putting them back
 * from its spool file if this removed them meanwhile (routes.ts). Keys with a row are never locked
 * for, and the rest are removed a few at a time, so an upload waits at most for a few removals. The
 * purge's transactions only read, so they hold back no pull's horizon.
 */
export async function purgeUnnamedFiles(
  db: Transactional,
  files: FileStore,
  now: Date,
): Promise<FilePurgeResult> {
  const deletedSince = new Date(now.getTime() - TRASH_KEEP_MS);
  let removed = 0;
  let batch: string[] = [];
  const flush = async () => {
    const keys = batch;
    batch = [];
    const shaOf = (key: string) => key.slice(0, 64);
    const named = await namedShas(db, [...new Set(keys.map(shaOf))], deletedSince);
    const unnamed = keys.filter((key) => !named.has(shaOf(key)));
    for (let at = 0; at < unnamed.length; at += REMOVALS_PER_LOCK) {
      const chunk = unnamed.slice(at, at + REMOVALS_PER_LOCK);
      removed += await db.transaction(async (tx) => {
        await holdFilesAlone(tx);
        const stillNamed = await namedShas(tx, [...new Set(chunk.map(shaOf))], deletedSince);
        let count = 0;
        for (const key of chunk) {
          if (stillNamed.has(shaOf(key))) continue;
          await files.remove(key);
          count++;
        }
        return count;
      });
    }
  };
  for await (const key of files.keys()) {
    batch.push(key);
    if (batch.length >= BATCH) await flush();
  }
  if (batch.length > 0) await flush();
  return { removed, spool: await clearSpool(files.spoolDir, now) };
}

/** Removes spool files older than SPOOL_KEEP_MS (an upload takes minutes at most); answers how many. */
async function clearSpool(spoolDir: string, now: Date): Promise<number> {
  let names: string[];
  try {
    names = await readdir(spoolDir);
  } catch {
    return 0;
  }
  let count = 0;
  for (const name of names) {
    const file = path.join(spoolDir, name);
    try {
      const info = await stat(file);
      if (info.isFile() && info.mtimeMs < now.getTime() - SPOOL_KEEP_MS) {
        await rm(file, { force: true });
        count++;
      }
    } catch {
      // Gone meanwhile: its upload finished.
    }
  }
  return count;
}
