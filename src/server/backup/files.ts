import { createReadStream, createWriteStream, renameSync, rmSync } from 'node:fs';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { createGunzip, createGzip } from 'node:zlib';
import { formatBytes } from '../../shared/attachments';
import type { FileStore } from '../attachments/fileStore';
import { type Database, openDatabase } from '../db/client';
import type { AppConfig } from '../env';
import { type BackupOptions, type BackupResult, type Progress, writeBackup } from './backup';
import { restoreBackup } from './restore';

/** The database a config names, for messages: the PostgreSQL URL without its password, or the folder. */
export function describeDatabase(config: Pick<AppConfig, 'databaseUrl' | 'dataDir'>): string {
  if (!config.databaseUrl) return config.dataDir;
  const url = new URL(config.databaseUrl);
  if (url.password) url.password = '***';
  return url.toString();
}

/** Where a config keeps files on items, for messages: the bucket and its service, or the folder. */
export function describeFileStore(config: Pick<AppConfig, 'dataDir' | 's3'>): string {
  if (!config.s3) return path.join(config.dataDir, 'files');
  return `bucket ${config.s3.bucket} at ${config.s3.endpoint ?? 'Amazon S3'}`;
}

/**
 * One line of progress, e.g. "items: 45,000 of 100,000 rows (61% of all)", or while files are
 * copied "files: 12 of 40 (3.2 MB)".
 */
export function progressLine(p: Progress): string {
  if (p.table === 'files' && p.bytes !== undefined) {
    return `files: ${p.done.toLocaleString('en-US')} of ${p.total.toLocaleString('en-US')} (${formatBytes(p.bytes)})`;
  }
  const all = p.allTotal === 0 ? 100 : Math.floor((p.allDone / p.allTotal) * 100);
  return `${p.table}: ${p.done.toLocaleString('en-US')} of ${p.total.toLocaleString('en-US')} rows (${all}% of all)`;
}

/** Opens the database a config names, migrated, without the server's background upkeep. */
export function openConfigured(
  config: Pick<AppConfig, 'databaseUrl' | 'dataDir'> & Partial<Pick<AppConfig, 'embeddedSharedBuffers'>>,
): Promise<Database> {
  return openDatabase({
    url: config.databaseUrl,
    dataDir: config.dataDir,
    sharedBuffers: config.embeddedSharedBuffers,
    autovacuum: false,
  });
}

/**
 * `npm run backup -- FILE`: the whole database the config names and the files on items in its file
 * store, gzipped JSON lines (backup.ts), written beside FILE and renamed into place once complete,
 * so a failed backup leaves no half file.
 */
export async function backupToFile(
  database: Database,
  file: string,
  options: BackupOptions,
): Promise<BackupResult> {
  const partial = `${file}.partial`;
  const gzip = createGzip({ level: 6 });
  // Readable by its owner alone: it holds every session, token hash and webhook secret (README).
  rmSync(partial, { force: true });
  const written = pipeline(gzip, createWriteStream(partial, { mode: 0o600, flags: 'wx' }));
  try {
    const result = await writeBackup(database, gzip, options);
    gzip.end();
    await written;
    renameSync(partial, file);
    return result;
  } catch (error) {
    gzip.destroy();
    await written.catch(() => {});
    rmSync(partial, { force: true });
    throw error;
  }
}

/** `npm run restore -- FILE`: loads a backup into the (empty) database `where` names, its files into the store. */
export async function restoreFromFile(
  database: Database,
  file: string,
  where: string,
  options: BackupOptions & { files: FileStore },
): Promise<BackupResult> {
  const input = createReadStream(file).pipe(createGunzip());
  try {
    return await restoreBackup(database, input, where, options);
  } finally {
    input.destroy();
  }
}
