import { createHash, randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { createWriteStream, type WriteStream } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import type { Writable } from 'node:stream';
import { TRASH_KEEP_MS } from '../../shared/trash';
import { type FileStore, isStoreKey } from '../attachments/fileStore';
import { type Executor, rows, sql } from '../db/client';

/**
 * Files on items in a backup (SYNC.md A13): after the tables, each stored file as a line
 * `{"file":KEY}`, its bytes as lines of base64 (never a line that starts with `{`), and a line
 * `{"file_end":KEY,"size":N}`. The bytes are streamed from the store a chunk at a time, so a backup
 * of large files never holds one in memory, and a restore checks each file's sha256 against its key.
 */

/** Raw bytes per base64 line: a multiple of 3, so each line decodes alone. */
export const FILE_LINE_BYTES = 48 * 1024;

/** The line that opens a file's bytes. */
export interface FileLine {
  file: string;
}

/** The line that closes them. */
export interface FileEndLine {
  file_end: string;
  size: number;
}

/** A key a backup carries; `required` when a live file on a live item names it. */
export interface NamedKey {
  key: string;
  required: boolean;
}

/**
 * Every key the attachments rows name, in key order: each file's bytes, and its thumbnail's where
 * the row says it has one. A file in the trash, or on an item in the trash, names its bytes too
 * (A11: a restore from the trash finds them), but the 30-day purge may take those at any moment, so
 * they are carried when the store still holds them; a file deleted longer ago than the trash keeps
 * names none (purge.ts).
 */
export async function namedKeys(db: Executor, now: Date): Promise<NamedKey[]> {
  const deletedSince = new Date(now.getTime() - TRASH_KEEP_MS);
  const found = await rows<{ sha256: string; thumb: boolean; required: boolean }>(
    db,
    sql`SELECT a.sha256, bool_or(a.has_thumbnail) AS thumb,
          bool_or(a.deleted_at IS NULL AND i.deleted_at IS NULL) AS required
        FROM attachments a JOIN items i ON i.id = a.item_id
        WHERE a.deleted_at IS NULL OR a.deleted_at > ${deletedSince}
        GROUP BY a.sha256 ORDER BY a.sha256`,
  );
  return found.flatMap((r) => [
    { key: r.sha256, required: r.required },
    ...(r.thumb ? [{ key: `${r.sha256}.thumb`, required: r.required }] : []),
  ]);
}

async function write(out: Writable, text: string): Promise<void> {
  if (!out.write(text)) await once(out, 'drain');
}

/**
 * Writes the bytes of `key` from `files` to `out` as file lines; answers the byte count, or null for
 * a key the store does not hold that is not required. A required key the store lacks stops the
 * backup: a backup that silently lacks a live file is found out only when it is needed.
 */
export async function writeFileLines(
  files: FileStore,
  { key, required }: NamedKey,
  out: Writable,
): Promise<number | null> {
  const stream = await files.read(key);
  if (!stream) {
    if (!required) return null;
    throw new Error(
      `The file ${key} that an attachment names is not in the file store; the backup is not written.`,
    );
  }
  await write(out, `${JSON.stringify({ file: key } satisfies FileLine)}\n`);
  let size = 0;
  let held = Buffer.alloc(0);
  for await (const chunk of stream) {
    const bytes = Buffer.from(chunk as Uint8Array);
    size += bytes.length;
    held = held.length === 0 ? bytes : Buffer.concat([held, bytes]);
    let at = 0;
    while (held.length - at >= FILE_LINE_BYTES) {
      await write(out, `${held.subarray(at, at + FILE_LINE_BYTES).toString('base64')}\n`);
      at += FILE_LINE_BYTES;
    }
    held = held.subarray(at);
  }
  if (held.length > 0) await write(out, `${held.toString('base64')}\n`);
  await write(out, `${JSON.stringify({ file_end: key, size } satisfies FileEndLine)}\n`);
  return size;
}

/**
 * Takes a backup's file lines into a store: `open` at a file line, `line` for each base64 line, `close`
 * at its end line (the bytes are checked, then stored under the key). `discard` removes what this
 * restore added when it fails, so a failed restore leaves the store as it found it.
 */
export class FileReceiver {
  private current: {
    key: string;
    spool: string;
    out: WriteStream;
    hash: ReturnType<typeof createHash> | null;
    size: number;
  } | null = null;
  /** Keys this restore stored that the store did not hold before. */
  private readonly added: string[] = [];
  count = 0;
  bytes = 0;

  constructor(private readonly files: FileStore) {}

  get receiving(): boolean {
    return this.current !== null;
  }

  async open(line: FileLine): Promise<void> {
    if (this.current) throw new Error(`The backup's file ${this.current.key} has no end.`);
    if (!isStoreKey(line.file))
      throw new Error(
        `The backup names a file ${JSON.stringify(line.file).slice(0, 80)}, which is not a file key.`,
      );
    await mkdir(this.files.spoolDir, { recursive: true });
    const spool = path.join(this.files.spoolDir, `restore-${randomUUID()}`);
    this.current = {
      key: line.file,
      spool,
      out: createWriteStream(spool, { flags: 'wx' }),
      // A thumbnail's key is its image's sha256 with a suffix: only a file's own bytes can be checked.
      hash: line.file.endsWith('.thumb') ? null : createHash('sha256'),
      size: 0,
    };
  }

  async line(text: string): Promise<void> {
    const current = this.current!;
    const bytes = Buffer.from(text, 'base64');
    current.hash?.update(bytes);
    current.size += bytes.length;
    if (!current.out.write(bytes)) await once(current.out, 'drain');
  }

  async close(line: FileEndLine): Promise<void> {
    const current = this.current;
    if (!current || line.file_end !== current.key)
      throw new Error(`The backup's file ${line.file_end} has no start.`);
    current.out.end();
    await once(current.out, 'finish');
    this.current = null;
    if (current.size !== line.size) {
      await rm(current.spool, { force: true });
      throw new Error(
        `The backup's file ${current.key} holds ${current.size} bytes of ${line.size}; nothing was restored.`,
      );
    }
    if (current.hash && current.hash.digest('hex') !== current.key) {
      await rm(current.spool, { force: true });
      throw new Error(
        `The backup's file ${current.key} does not have the bytes its name promises; nothing was restored.`,
      );
    }
    const had = await this.files.has(current.key);
    await this.files.putFile(current.key, current.spool);
    if (!had) this.added.push(current.key);
    this.count += 1;
    this.bytes += current.size;
  }

  /** Removes the spool file under way and every key this restore added. */
  async discard(): Promise<void> {
    if (this.current) {
      this.current.out.destroy();
      await rm(this.current.spool, { force: true });
      this.current = null;
    }
    for (const key of this.added.splice(0)) await this.files.remove(key).catch(() => {});
  }
}
