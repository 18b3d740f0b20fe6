/**
 * `npm run restore -- FILE`: loads a backup into the empty database the environment names
 * (DATABASE_URL, else the embedded database in DATA_DIR), migrating it first, and its files into the
 * file store the environment names (S3_BUCKET, else DATA_DIR/files); a database that holds anything
 * is refused by name. Either engine's backup restores into either engine, either store's into either.
 */
import { createFileStore } from '../src/server/attachments/createFileStore';
import {
  describeDatabase,
  describeFileStore,
  openConfigured,
  progressLine,
  restoreFromFile,
} from '../src/server/backup/files';
import { loadConfig } from '../src/server/env';
import { formatBytes } from '../src/shared/attachments';
import { progressPrinter } from './lib/progressPrinter';

const file = process.argv[2];
if (!file || process.argv.length > 3) {
  console.error('Usage: npm run restore -- FILE');
  process.exit(2);
}
try {
  const config = loadConfig();
  const started = Date.now();
  const where = describeDatabase(config);
  const files = createFileStore(config);
  await files.check();
  const database = await openConfigured(config);
  const printer = progressPrinter();
  try {
    const result = await restoreFromFile(database, file, where, {
      files,
      onProgress: (p) => printer.show(progressLine(p), p.done === p.total),
    });
    printer.done();
    console.log(
      `Restored ${result.rows.toLocaleString('en-US')} rows of ${result.tables} tables into ${where} and ${result.files.toLocaleString('en-US')} file${result.files === 1 ? '' : 's'} (${formatBytes(result.bytes)}) into ${describeFileStore(config)} from ${file} in ${((Date.now() - started) / 1000).toFixed(1)} s.`,
    );
  } finally {
    await database.close();
  }
} catch (error) {
  console.error(`Restore failed: ${(error as Error).message}`);
  process.exit(1);
}
