import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Database } from '../db/client';
import type { MigrationPlan } from '../db/migrations';
import type { AppConfig } from '../env';
import { backupToFile, describeDatabase } from './files';

/** Where the embedded database's automatic backups go: beside the data, in DATA_DIR/backups. */
export function backupsDir(dataDir: string): string {
  return path.join(dataDir, 'backups');
}

/** A time for a file name: 2026-11-29T17-30-05Z (no colons, which some file systems refuse). */
function fileStamp(at: Date): string {
  return at
    .toISOString()
    .replace(/\.\d+Z$/, 'Z')
    .replaceAll(':', '-');
}

/** The pre-upgrade backup's file name: the migrations it goes from and to, and when. */
export function preUpgradeFileName(plan: MigrationPlan, at: Date): string {
  const from = plan.applied.at(-1)?.tag ?? 'new';
  const to = plan.pending.at(-1)?.tag ?? from;
  return `pre-upgrade-${from}-${to}-${fileStamp(at)}.outpost`;
}

/**
 * What the server does before the first migration of a new version (openDatabase's beforeUpgrade):
 * on the embedded database, writes a backup of every row to DATA_DIR/backups (0600) and says where;
 * a backup that cannot be written stops the start, as migrating without it is what it guards
 * against. The files on items are not copied: migrations never touch them. On PostgreSQL, whose
 * backups are the operator's (and which other instances share), it says how to take one.
 */
export function preUpgradeBackup(
  config: Pick<AppConfig, 'dataDir' | 'databaseUrl'>,
  log: (line: string) => void,
  clock: () => Date = () => new Date(),
): (database: Database, plan: MigrationPlan) => Promise<void> {
  return async (database, plan) => {
    const from = plan.applied.at(-1)?.tag;
    const to = plan.pending.at(-1)?.tag;
    const steps = `${plan.pending.length} migration${plan.pending.length > 1 ? 's' : ''}, ${from} to ${to}`;
    const where = describeDatabase(config);
    if (database.kind === 'pg') {
      log(
        `Upgrading the PostgreSQL database at ${where} (${steps}). Outpost does not copy a PostgreSQL database itself: if you have no backup from before this upgrade, stop now and take one with the version you ran before (npm run backup -- FILE, or pg_dump --format=custom --file=outpost.dump "$DATABASE_URL").`,
      );
      return;
    }
    if (config.dataDir.startsWith('memory://')) return;
    const dir = backupsDir(config.dataDir);
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const file = path.join(dir, preUpgradeFileName(plan, clock()));
    const started = Date.now();
    try {
      const result = await backupToFile(database, file, { files: null });
      log(
        `Upgrading the embedded database in ${where} (${steps}): backed up ${result.rows.toLocaleString('en-US')} rows first to ${file} in ${((Date.now() - started) / 1000).toFixed(1)} s. To go back, run the previous version with an empty DATA_DIR and npm run restore -- ${file}.`,
      );
    } catch (error) {
      throw new Error(
        `Not upgrading the embedded database in ${where} (${steps}): its backup to ${file} failed: ${(error as Error).message}`,
      );
    }
  };
}
