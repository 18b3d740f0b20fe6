import path from 'node:path';
import type { AppConfig } from '../env';
import { createDiskStore } from './diskStore';
import type { FileStore } from './fileStore';
import { createS3Store } from './s3Store';

/**
 * The file store the configuration names (ARCHITECTURE §4 'Files on items'): the S3-compatible
 * bucket when `S3_BUCKET` is set, else `DATA_DIR/files/`.
 */
export function createFileStore(config: Pick<AppConfig, 'dataDir' | 's3'>): FileStore {
  if (config.s3) return createS3Store(config.s3, config.dataDir);
  return createDiskStore(path.join(config.dataDir, 'files'));
}
