import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createDiskStore } from '../src/server/attachments/diskStore';
import type { FileStore } from '../src/server/attachments/fileStore';

/** A disk file store in a fresh temporary folder, and how to remove the folder afterwards. */
export async function tempDiskStore(): Promise<{ store: FileStore; root: string; close(): Promise<void> }> {
  const folder = await mkdtemp(path.join(tmpdir(), 'outpost-files-'));
  const root = path.join(folder, 'files');
  return {
    store: createDiskStore(root),
    root,
    close: () => rm(folder, { recursive: true, force: true }),
  };
}
