/**
 * `npm run backup -- FILE`: one portable, consistent file of the whole database the environment
 * names (DATABASE_URL, else the embedded database in DATA_DIR) with the bytes of every file on items
 * from its file store (S3_BUCKET, else DATA_DIR/files), written 0600, while the server runs. The
 * embedded database serves one process: when a server holds DATA_DIR, it takes the backup and
 * streams it here through DATA_DIR/outpost.sock (src/server/backup/live.ts); else this opens it.
 */
import { createFileStore } from '../src/server/attachments/createFileStore';
import {
  backupToFile,
  describeDatabase,
  describeFileStore,
  openConfigured,
  progressLine,
} from '../src/server/backup/files';
import { liveBackup } from '../src/server/backup/live';
import { loadConfig } from '../src/server/env';
import { formatBytes } from '../src/shared/attachments';
import { progressPrinter } from './lib/progressPrinter';

const file = process.argv[2];
if (!file || process.argv.length > 3) {
  console.error('Usage: npm run backup -- FILE   (e.g. outpost-backup.jsonl.gz)');
  process.exit(2);
}
try {
  const config = loadConfig();
  const started = Date.now();
  if (!config.databaseUrl) {
    const live = await liveBackup(config.dataDir, file);
    if (live) {
      console.log(
        `Backed up ${live.rows.toLocaleString('en-US')} rows of ${live.tables} tables and ${live.files.toLocaleString('en-US')} file${live.files === 1 ? '' : 's'} (${formatBytes(live.bytes)}) from the server running on ${describeDatabase(config)} to ${file} in ${((Date.now() - started) / 1000).toFixed(1)} s.`,
      );
      process.exit(0);
    }
  }
  const files = createFileStore(config);
  await files.check();
  const database = await openConfigured(config);
  const printer = progressPrinter();
  try {
    const result = await backupToFile(database, file, {
      files,
      onProgress: (p) => printer.show(progressLine(p), p.done === p.total),
    });
    printer.done();
    console.log(
      `Backed up ${result.rows.toLocaleString('en-US')} rows of ${result.tables} tables from ${describeDatabase(config)} and ${result.files.toLocaleString('en-US')} file${result.files === 1 ? '' : 's'} (${formatBytes(result.bytes)}) from ${describeFileStore(config)} to ${file} in ${((Date.now() - started) / 1000).toFixed(1)} s.`,
    );
  } finally {
    await database.close();
  }
} catch (error) {
  console.error(`Backup failed: ${(error as Error).message}`);
  process.exit(1);
}
