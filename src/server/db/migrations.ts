import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Executor, rows, sql } from './client';

/** The committed migrations folder (drizzle-kit's output), beside src/. */
export const MIGRATIONS_FOLDER = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '../../../drizzle',
);

/** One committed migration: its file's tag and the time drizzle-kit stamped it with. */
export interface MigrationEntry {
  tag: string;
  when: number;
}

let journal: MigrationEntry[] | null = null;

/** The migrations this code ships, oldest first (drizzle/meta/_journal.json). */
export function committedMigrations(): MigrationEntry[] {
  journal ??= (
    JSON.parse(readFileSync(path.join(MIGRATIONS_FOLDER, 'meta/_journal.json'), 'utf8')) as {
      entries: { tag: string; when: number }[];
    }
  ).entries.map(({ tag, when }) => ({ tag, when }));
  return journal;
}

/**
 * The committed migrations a database has applied, oldest first. drizzle's migrator records each by
 * its stamp (`created_at`) and applies every file stamped after the newest row, so a stamp at or
 * below the newest row counts as applied, exactly as the migrator itself decides.
 */
export async function appliedMigrations(db: Executor): Promise<MigrationEntry[]> {
  const found = await rows<{ newest: string | number | null }>(
    db,
    sql`SELECT max(created_at)::text AS newest FROM drizzle.__drizzle_migrations`,
  );
  const newest = Number(found[0]?.newest ?? 0);
  return committedMigrations().filter((m) => m.when <= newest);
}

/** The committed migrations a database has not applied yet (none on a database the app opened). */
export async function pendingMigrations(db: Executor): Promise<MigrationEntry[]> {
  const applied = new Set((await appliedMigrations(db)).map((m) => m.tag));
  return committedMigrations().filter((m) => !applied.has(m.tag));
}
