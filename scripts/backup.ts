/**
 * `npm run backup -- FILE`: one portable, consistent file of the whole database the environment
 * names (DATABASE_URL, else the embedded database in DATA_DIR), while the server runs on PostgreSQL;
 * the embedded database is backed up with the server stopped (README 'Backup and restore').
 */
import { backupToFile, describeDatabase, openConfigured, progressLine } from '../src/server/backup/files';
import { loadConfig } from '../src/server/env';
import { progressPrinter } from './lib/progressPrinter';

const file = process.argv[2];
if (!file || process.argv.length > 3) {
  console.error('Usage: npm run backup -- FILE   (e.g. outpost-backup.jsonl.gz)');
  process.exit(2);
}
try {
  const config = loadConfig();
  const started = Date.now();
  const database = await openConfigured(config);
  const printer = progressPrinter();
  try {
    const { tables, rows } = await backupToFile(database, file, (p) =>
      printer.show(progressLine(p), p.done === p.total),
    );
    printer.done();
    console.log(
      `Backed up ${rows.toLocaleString('en-US')} rows of ${tables} tables from ${describeDatabase(config)} to ${file} in ${((Date.now() - started) / 1000).toFixed(1)} s.`,
    );
  } finally {
    await database.close();
  }
} catch (error) {
  console.error(`Backup failed: ${(error as Error).message}`);
  process.exit(1);
}
