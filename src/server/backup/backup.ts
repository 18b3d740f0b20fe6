import { once } from 'node:events';
import type { Writable } from 'node:stream';
import type { FileStore } from '../attachments/fileStore';
import { type Database, rows, sql } from '../db/client';
import { appliedMigrations, type MigrationEntry } from '../db/migrations';
import { namedKeys, writeFileLines } from './fileLines';
import { ident, type TableShape, tableShapes } from './tables';

/** The first line's `format`: a file of ours. */
export const BACKUP_FORMAT = 'outpost-backup';
/**
 * The layout of the lines below; a reader refuses a version it does not know. Version 2 adds the
 * files on items after the tables (fileLines.ts); a version 1 file, which has none, still restores.
 */
export const BACKUP_VERSION = 2;
/** The versions a restore reads. */
export const READABLE_VERSIONS: readonly number[] = [1, 2];
/** Rows read from the database at a time (one FETCH), and written in one chunk. */
const FETCH_ROWS = 2_000;

/** A backup's first line. */
export interface BackupHeader {
  format: typeof BACKUP_FORMAT;
  /** BACKUP_VERSION when written; a restore reads any of READABLE_VERSIONS. */
  version: number;
  created_at: string;
  engine: Database['kind'];
  /** The migrations the database had applied: the schema its rows fit. */
  migrations: MigrationEntry[];
  /** Every table in the order its rows follow (referenced tables first), with its row count. */
  tables: { name: string; columns: string[]; rows: number }[];
  /** The files whose bytes may follow the tables (version 2); the end line says how many did. */
  files?: number;
}

/** The line that opens a table's rows. */
export interface TableLine {
  table: string;
  columns: string[];
  rows: number;
}

/** The last line: a file without it was cut short. */
export interface EndLine {
  end: true;
  rows: number;
  /** Files written (version 2). */
  files?: number;
}

/** Where a backup or restore has got to, for a progress line. */
export interface Progress {
  /** The table, or 'files' while the files on items are copied. */
  table: string;
  /** Rows of this table done, and its total (files, for 'files'). */
  done: number;
  total: number;
  /** Rows of every table done, and the total (files, for 'files'). */
  allDone: number;
  allTotal: number;
  /** Bytes of files copied so far, while files are copied. */
  bytes?: number;
}

/** What a backup or restore carried. */
export interface BackupResult {
  tables: number;
  rows: number;
  files: number;
  /** The files' bytes. */
  bytes: number;
}

/**
 * How a backup or restore is run: the file store whose files it carries (null: the rows alone, as
 * the pre-upgrade backup takes them; the files stay where they are), and who hears of progress.
 */
export interface BackupOptions {
  files: FileStore | null;
  onProgress?: (progress: Progress) => void;
}

/** The rows of one table as JSON text, parents before children where the table refers to itself. */
function tableQuery(shape: TableShape): string {
  const order = shape.key.length > 0 ? shape.key : shape.columns;
  const orderBy = order.map((c) => `t.${ident(c)}`).join(', ');
  if (!shape.selfRef)
    return `SELECT row_to_json(t)::text AS j FROM ${ident(shape.name)} t ORDER BY ${orderBy}`;
  const { column, references } = shape.selfRef;
  const table = ident(shape.name);
  // A row's depth below the rows that refer to no parent: inserting by depth never meets a missing parent.
  return `WITH RECURSIVE d AS (
      SELECT ${ident(references)} AS k, 0 AS depth FROM ${table} WHERE ${ident(column)} IS NULL
      UNION ALL SELECT c.${ident(references)}, d.depth + 1 FROM ${table} c JOIN d ON c.${ident(column)} = d.k)
    SELECT row_to_json(t)::text AS j FROM ${table} t JOIN d ON d.k = t.${ident(references)}
    ORDER BY d.depth, ${orderBy}`;
}

async function write(out: Writable, text: string): Promise<void> {
  if (!out.write(text)) await once(out, 'drain');
}

/**
 * Writes the whole database to `out` as JSON lines: a header (format, version, the applied
 * migrations, every table with its row count, the number of files), then each table's rows in
 * foreign-key order, each row one line of JSON as PostgreSQL itself renders it (lossless for every
 * type: int8, timestamps, arrays, jsonb), then the bytes of every file an attachment names (SYNC.md
 * A13, fileLines.ts), then an end line. The rows are read in one REPEATABLE READ, read-only
 * transaction: one snapshot, consistent while the server keeps writing, streamed through a cursor, a
 * FETCH at a time, never all in memory. The files are copied after it ends (the keys it named), so a
 * long copy never holds back the pulls that wait on the oldest open transaction; a file's bytes
 * never change under its key, and only the 30-day purge removes one.
 */
export async function writeBackup(
  database: Database,
  out: Writable,
  options: BackupOptions,
): Promise<BackupResult> {
  const { onProgress } = options;
  const {
    tables,
    rows: rowCount,
    keys,
  } = await database.db.transaction(
    async (tx) => {
      const shapes = await tableShapes(tx);
      const keys = options.files ? await namedKeys(tx, new Date()) : [];
      const counts = new Map<string, number>();
      for (const shape of shapes) {
        const [found] = await rows<{ n: number | string }>(
          tx,
          sql.raw(`SELECT count(*) AS n FROM ${ident(shape.name)}`),
        );
        counts.set(shape.name, Number(found?.n ?? 0));
      }
      const allTotal = [...counts.values()].reduce((a, b) => a + b, 0);
      const header: BackupHeader = {
        format: BACKUP_FORMAT,
        version: BACKUP_VERSION,
        created_at: new Date().toISOString(),
        engine: database.kind,
        migrations: await appliedMigrations(tx),
        tables: shapes.map((s) => ({ name: s.name, columns: s.columns, rows: counts.get(s.name)! })),
        files: keys.length,
      };
      await write(out, `${JSON.stringify(header)}\n`);
      let allDone = 0;
      for (const shape of shapes) {
        const total = counts.get(shape.name)!;
        const line: TableLine = { table: shape.name, columns: shape.columns, rows: total };
        await write(out, `${JSON.stringify(line)}\n`);
        await tx.execute(sql.raw(`DECLARE outpost_backup NO SCROLL CURSOR FOR ${tableQuery(shape)}`));
        let done = 0;
        for (;;) {
          const batch = await rows<{ j: string }>(tx, sql.raw(`FETCH ${FETCH_ROWS} FROM outpost_backup`));
          if (batch.length === 0) break;
          await write(out, `${batch.map((r) => r.j).join('\n')}\n`);
          done += batch.length;
          allDone += batch.length;
          onProgress?.({ table: shape.name, done, total, allDone, allTotal });
        }
        await tx.execute(sql.raw('CLOSE outpost_backup'));
        // Rows the parents-first walk never reached (a cycle of parents) would be lost silently.
        if (done !== total) {
          throw new Error(`Table ${shape.name}: ${done} rows read of ${total}; the backup is not written.`);
        }
        if (total === 0) onProgress?.({ table: shape.name, done, total, allDone, allTotal });
      }
      return { tables: shapes.length, rows: allDone, keys };
    },
    { isolationLevel: 'repeatable read', accessMode: 'read only' },
  );
  let bytes = 0;
  let written = 0;
  for (const [i, named] of keys.entries()) {
    // Keys are only named when there is a store (above).
    const size = await writeFileLines(options.files!, named, out);
    if (size !== null) {
      bytes += size;
      written += 1;
    }
    const done = i + 1;
    onProgress?.({ table: 'files', done, total: keys.length, allDone: done, allTotal: keys.length, bytes });
  }
  const end: EndLine = { end: true, rows: rowCount, files: written };
  await write(out, `${JSON.stringify(end)}\n`);
  return { tables, rows: rowCount, files: written, bytes };
}
