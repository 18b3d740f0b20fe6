import { createInterface } from 'node:readline';
import type { Readable } from 'node:stream';
import type { FileStore } from '../attachments/fileStore';
import { type Database, type Executor, rows, sql } from '../db/client';
import { committedMigrations } from '../db/migrations';
import {
  BACKUP_FORMAT,
  BACKUP_VERSION,
  type BackupHeader,
  type BackupOptions,
  type BackupResult,
  type EndLine,
  READABLE_VERSIONS,
  type TableLine,
} from './backup';
import { type FileEndLine, type FileLine, FileReceiver } from './fileLines';
import { ident, type TableShape, TRANSACTION_STAMPS, tableShapes } from './tables';

/** Rows inserted by one statement (one JSON array parameter), bounded by bytes too. */
const INSERT_ROWS = 1_000;
const INSERT_BYTES = 4 * 1024 * 1024;

/** A restore refused before anything was written, with the reason for people. */
export class RestoreRefused extends Error {}

/** Why the target cannot take a restore: the first table holding rows, by name and count. */
async function notEmpty(db: Executor, shapes: TableShape[], where: string): Promise<string | null> {
  for (const shape of shapes) {
    const [found] = await rows<{ n: number | string }>(
      db,
      sql.raw(`SELECT count(*) AS n FROM ${ident(shape.name)}`),
    );
    const n = Number(found?.n ?? 0);
    if (n > 0) {
      return `The database at ${where} already holds ${n.toLocaleString('en-US')} ${shape.name.replaceAll('_', ' ')}; restore needs an empty database.`;
    }
  }
  return null;
}

function parseHeader(line: string | undefined): BackupHeader {
  let header: Partial<BackupHeader>;
  try {
    header = JSON.parse(line ?? '') as Partial<BackupHeader>;
  } catch {
    throw new RestoreRefused('This is not an Outpost backup (its first line is not JSON).');
  }
  if (header.format !== BACKUP_FORMAT) throw new RestoreRefused('This is not an Outpost backup.');
  if (typeof header.version !== 'number' || !READABLE_VERSIONS.includes(header.version)) {
    throw new RestoreRefused(
      `This backup's format version is ${header.version}; this Outpost reads versions up to ${BACKUP_VERSION}.`,
    );
  }
  return header as BackupHeader;
}

/**
 * Loads a backup (writeBackup's lines, already decompressed) into `database`, which must be
 * migrated and empty: every table's rows in the file's order, in one transaction (all or nothing),
 * then each sequence set past the highest id restored so new rows never collide. Rows keep their
 * ids; their transaction stamps (`change_xid`) are the restore's own (tables.ts TRANSACTION_STAMPS).
 * The files' bytes go into `options.files`, each checked against its sha256, before the rows
 * commit (SYNC.md A13). Refused, with a message, when the file is not ours, comes from a newer
 * schema, or the target holds data (`where` names it). A file cut short rolls everything back and
 * takes away the files it had stored.
 */
export async function restoreBackup(
  database: Database,
  input: Readable,
  where: string,
  options: BackupOptions & { files: FileStore },
): Promise<BackupResult> {
  const { onProgress } = options;
  const lines = createInterface({ input, crlfDelay: Number.POSITIVE_INFINITY })[Symbol.asyncIterator]();
  const first = await lines.next();
  const header = parseHeader(first.done ? undefined : first.value);
  const known = new Set(committedMigrations().map((m) => m.tag));
  const newer = header.migrations.filter((m) => !known.has(m.tag));
  if (newer.length > 0) {
    throw new RestoreRefused(
      `This backup comes from a newer Outpost (migration ${newer.map((m) => m.tag).join(', ')}); update Outpost, then restore.`,
    );
  }
  const shapes = new Map((await tableShapes(database.db)).map((s) => [s.name, s]));
  for (const table of header.tables) {
    const shape = shapes.get(table.name);
    const missing = shape ? table.columns.filter((c) => !shape.columns.includes(c)) : [];
    if (!shape || missing.length > 0) {
      throw new RestoreRefused(
        `This backup has ${shape ? `columns ${missing.join(', ')} of table ${table.name}` : `table ${table.name}`}, which this Outpost's database does not: update Outpost, then restore.`,
      );
    }
  }
  // People first: 'already holds 12 users' says most about whose database it is.
  const byInterest = [...shapes.values()].sort(
    (a, b) =>
      Number(b.name === 'users') - Number(a.name === 'users') ||
      Number(b.name === 'items') - Number(a.name === 'items'),
  );
  const problem = await notEmpty(database.db, byInterest, where);
  if (problem) throw new RestoreRefused(problem);

  const allTotal = header.tables.reduce((n, t) => n + t.rows, 0);
  const filesTotal = header.files ?? 0;
  const received = new FileReceiver(options.files);
  try {
    return await restoreRows();
  } catch (error) {
    await received.discard();
    throw error;
  }

  function restoreRows(): Promise<BackupResult> {
    return database.db.transaction(async (tx) => {
      let allDone = 0;
      let current: { line: TableLine; insert: string; done: number } | null = null;
      let batch: string[] = [];
      let bytes = 0;
      let ended = false;
      // The file's line under way (the header was line 1), for messages that name where it is damaged.
      let lineNo = 1;
      let batchFrom = 0;
      let batchTo = 0;
      /** A marker line's JSON, or a refusal naming the line. */
      const marker = <T>(text: string): T => {
        try {
          return JSON.parse(text) as T;
        } catch {
          throw new RestoreRefused(
            `The backup is damaged at line ${lineNo}: it is not the JSON line expected there; nothing was restored.`,
          );
        }
      };
      const flush = async () => {
        if (!current || batch.length === 0) return;
        try {
          await tx.execute(sql`${sql.raw(current.insert)}${`[${batch.join(',')}]`}::json)`);
        } catch (error) {
          // The database's reason alone: the failed statement's text would be every row of the batch.
          const cause = ((error as { cause?: unknown }).cause ?? error) as Error;
          const lines = batchFrom === batchTo ? `line ${batchFrom}` : `lines ${batchFrom}-${batchTo}`;
          throw new RestoreRefused(
            `The backup is damaged: a row of table ${current.line.table} on ${lines} cannot be restored (${cause.message}); nothing was restored.`,
          );
        }
        current.done += batch.length;
        allDone += batch.length;
        batch = [];
        bytes = 0;
        onProgress?.({
          table: current.line.table,
          done: current.done,
          total: current.line.rows,
          allDone,
          allTotal,
        });
      };
      const finishTable = async () => {
        await flush();
        if (current && current.done !== current.line.rows) {
          throw new Error(
            `Table ${current.line.table}: the backup holds ${current.done} rows of ${current.line.rows}.`,
          );
        }
      };
      for (;;) {
        const next = await lines.next();
        if (next.done) break;
        const text = next.value;
        lineNo += 1;
        if (received.receiving) {
          // Base64 never starts with '{': only the file's end line does.
          if (text.startsWith('{')) {
            await received.close(marker<FileEndLine>(text));
            onProgress?.({
              table: 'files',
              done: received.count,
              total: filesTotal,
              allDone: received.count,
              allTotal: filesTotal,
              bytes: received.bytes,
            });
          } else await received.line(text);
          continue;
        }
        if (text.startsWith('{"file":')) {
          // The files follow every table: a row after them is a damaged file.
          await finishTable();
          current = null;
          await received.open(marker<FileLine>(text));
          continue;
        }
        if (text.startsWith('{"table":') || text.startsWith('{"end":')) {
          const opened = marker<TableLine | EndLine>(text);
          await finishTable();
          if ('end' in opened) {
            if (opened.rows !== allDone)
              throw new Error(`The backup ends after ${allDone} rows of ${opened.rows}.`);
            if ((opened.files ?? 0) !== received.count)
              throw new Error(`The backup ends after ${received.count} files of ${opened.files}.`);
            ended = true;
            break;
          }
          if (received.count > 0) throw new Error('The backup has a table after its files.');
          const shape = shapes.get(opened.table);
          if (!shape || !Array.isArray(opened.columns)) {
            throw new RestoreRefused(
              `The backup is damaged at line ${lineNo}: it opens a table the header does not name; nothing was restored.`,
            );
          }
          const columns = opened.columns.filter(
            (c) => !TRANSACTION_STAMPS.has(c) && shape.columns.includes(c),
          );
          const list = columns.map(ident).join(', ');
          // json_populate_recordset reads each value as the column's own type from PostgreSQL's JSON.
          const insert = `INSERT INTO ${ident(shape.name)} (${list}) SELECT ${list} FROM json_populate_recordset(NULL::${ident(shape.name)}, `;
          current = { line: opened, insert, done: 0 };
          if (opened.rows === 0) {
            onProgress?.({ table: opened.table, done: 0, total: 0, allDone, allTotal });
          }
          continue;
        }
        if (!current) throw new Error('The backup has rows before any table.');
        // Each row must be one JSON object: a damaged line is named here, not found in a batch of 1,000.
        if (!text.startsWith('{') || !isJsonObject(text)) {
          throw new RestoreRefused(
            `The backup is damaged at line ${lineNo}: a row of table ${current.line.table} that is not a JSON object; nothing was restored.`,
          );
        }
        if (batch.length === 0) batchFrom = lineNo;
        batchTo = lineNo;
        batch.push(text);
        bytes += text.length;
        if (batch.length >= INSERT_ROWS || bytes >= INSERT_BYTES) await flush();
      }
      if (!ended) {
        throw new Error(
          received.count > 0 || received.receiving
            ? `The backup is cut short after ${received.count} of ${filesTotal} files; nothing was restored.`
            : `The backup is cut short after ${allDone} of ${allTotal} rows; nothing was restored.`,
        );
      }
      // New rows take ids past every restored one.
      for (const shape of shapes.values()) {
        for (const { column, sequence } of shape.sequences) {
          await tx.execute(
            sql.raw(
              `SELECT setval('${sequence.replaceAll("'", "''")}', COALESCE((SELECT max(${ident(column)}) FROM ${ident(shape.name)}), 0) + 1, false)`,
            ),
          );
        }
      }
      return { tables: header.tables.length, rows: allDone, files: received.count, bytes: received.bytes };
    });
  }
}

function isJsonObject(text: string): boolean {
  try {
    const value: unknown = JSON.parse(text);
    return value !== null && typeof value === 'object' && !Array.isArray(value);
  } catch {
    return false;
  }
}
