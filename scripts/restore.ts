/**
 * `npm run restore -- FILE`: loads a backup into the empty database the environment names
 * (DATABASE_URL, else the embedded database in DATA_DIR), migrating it first; a database that holds
 * anything is refused by name. Either engine's backup restores into either engine.
 */
import { describeDatabase, openConfigured, progressLine, restoreFromFile } from '../src/server/backup/files';
import { loadConfig } from '../src/server/env';
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
  const database = await openConfigured(config);
  const printer = progressPrinter();
  try {
    const { tables, rows } = await restoreFromFile(database, file, where, (p) =>
      printer.show(progressLine(p), p.done === p.total),
    );
    printer.done();
    console.log(
      `Restored ${rows.toLocaleString('en-US')} rows of ${tables} tables from ${file} into ${where} in ${((Date.now() - started) / 1000).toFixed(1)} s.`,
    );
  } finally {
    await database.close();
  }
} catch (error) {
  console.error(`Restore failed: ${(error as Error).message}`);
  process.exit(1);
}
