import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { type SQL, sql } from 'drizzle-orm';

/**
 * The committed migrations folder (drizzle-kit's output): the nearest `drizzle/` with a journal above
 * this module, so the same code finds it from src/server/db and compiled into dist/server (the image).
 */
export const MIGRATIONS_FOLDER = findMigrations(path.dirname(fileURLToPath(import.meta.url)));

function findMigrations(from: string): string {
  for (let dir = from; ; dir = path.dirname(dir)) {
    const candidate = path.join(dir, 'drizzle');
    if (existsSync(path.join(candidate, 'meta/_journal.json'))) return candidate;
    if (path.dirname(dir) === dir) throw new Error(`No drizzle/meta/_journal.json above ${from}.`);
  }
}

/** One committed migration: its file's tag and the time drizzle-kit stamped it with. */
export interface MigrationEntry {
  tag: string;
  when: number;
}

/**
 * What runs SQL here: the database or a transaction (client.ts's Executor, which imports this file,
 * so it is not named here: that would be an import circle).
 */
interface Runs {
  execute(query: SQL): PromiseLike<unknown>;
}

async function rowsOf<T>(db: Runs, query: SQL): Promise<T[]> {
  return ((await db.execute(query)) as { rows: T[] }).rows;
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

/** The newest stamp drizzle's migrator recorded in a database, 0 when it recorded none. */
async function newestStamp(db: Runs): Promise<number> {
  const found = await rowsOf<{ newest: string | number | null }>(
    db,
    sql`SELECT max(created_at)::text AS newest FROM drizzle.__drizzle_migrations`,
  );
  return Number(found[0]?.newest ?? 0);
}

/**
 * The committed migrations a database has applied, oldest first. drizzle's migrator records each by
 * its stamp (`created_at`) and applies every file stamped after the newest row, so a stamp at or
 * below the newest row counts as applied, exactly as the migrator itself decides.
 */
export async function appliedMigrations(db: Runs): Promise<MigrationEntry[]> {
  const newest = await newestStamp(db);
  return committedMigrations().filter((m) => m.when <= newest);
}

/** The committed migrations a database has not applied yet (none on a database the app opened). */
export async function pendingMigrations(db: Runs): Promise<MigrationEntry[]> {
  const applied = new Set((await appliedMigrations(db)).map((m) => m.tag));
  return committedMigrations().filter((m) => !applied.has(m.tag));
}

/** Where a database stands before the migrator runs. */
export interface MigrationPlan {
  /** Committed migrations it has (none for a new database). */
  applied: MigrationEntry[];
  /** Committed migrations the migrator is about to apply. */
  pending: MigrationEntry[];
  /** Migrations it recorded after this code's newest: a newer Outpost migrated it. */
  newer: number;
}

/**
 * Where a database stands, read before migrating: a new database (no migrations table yet) has
 * applied none and misses all.
 */
export async function migrationPlan(db: Runs): Promise<MigrationPlan> {
  const [table] = await rowsOf<{ found: string | null }>(
    db,
    sql`SELECT to_regclass('drizzle.__drizzle_migrations')::text AS found`,
  );
  if (!table?.found) return { applied: [], pending: committedMigrations(), newer: 0 };
  const newest = committedMigrations().at(-1)?.when ?? 0;
  const [later] = await rowsOf<{ n: string | number }>(
    db,
    sql`SELECT count(*) AS n FROM drizzle.__drizzle_migrations WHERE created_at > ${newest}`,
  );
  const applied = await appliedMigrations(db);
  const done = new Set(applied.map((m) => m.tag));
  return {
    applied,
    pending: committedMigrations().filter((m) => !done.has(m.tag)),
    newer: Number(later?.n ?? 0),
  };
}

/** A database migrated by a newer Outpost than this one: starting on it could damage it. */
export class NewerDatabaseError extends Error {}

/**
 * Refuses a database a newer Outpost migrated: this code would not know its tables (the migrator
 * applies nothing and says nothing, as every file it has is older than the newest it recorded).
 */
export function refuseNewerDatabase(plan: MigrationPlan, where: string): void {
  if (plan.newer === 0) return;
  const ours = committedMigrations().at(-1)?.tag ?? 'none';
  throw new NewerDatabaseError(
    `The database at ${where} was upgraded by a newer Outpost: it has ${plan.newer} migration${plan.newer > 1 ? 's' : ''} this version does not know (this version's newest is ${ours}). Run that newer Outpost again, or restore a backup made before the upgrade into an empty database; this version will not start on it, so as not to damage it.`,
  );
}
