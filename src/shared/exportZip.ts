import { strFromU8, strToU8, unzipSync, Zip, ZipDeflate, ZipPassThrough } from 'fflate';

/**
 * The layout of an Outpost export that carries files (ARCHITECTURE §5 'Import and export', §4 'Files
 * on items'): a zip holding `outpost.json` (the Outpost JSON document, each item's `attachments`
 * naming their `path`) and each file's bytes at `files/<uuid>-<name>`. Written as a stream, one file
 * at a time, so an export never holds every file at once; `outpost.json` goes last, once the export
 * knows which files it could include.
 */

/** The Outpost JSON document's name inside the zip. */
export const EXPORT_JSON_ENTRY = 'outpost.json';
/** The folder of the files' bytes inside the zip. */
export const EXPORT_FILES_DIR = 'files/';
/** The largest zip an import reads (its files are read one at a time from it). */
export const IMPORT_ZIP_MAX_BYTES = 1024 * 1024 * 1024;

/**
 * Where a file's bytes go in the zip: `files/<uuid>-<name>`, the name without what a folder or another
 * system's file names cannot hold (separators, `: * ? < > |`, control characters), so every
 * unzipper writes it where the export says, and the uuid keeps two files of one name apart.
 */
export function exportFilePath(uuid: string, name: string): string {
  const safe = [...name]
    .map((ch) => {
      const code = ch.codePointAt(0) ?? 0;
      return code < 0x20 || code === 0x7f || '/\\:*?"<>|'.includes(ch) ? '_' : ch;
    })
    .join('')
    .replace(/^\.+/, '_')
    .slice(0, 200);
  return `${EXPORT_FILES_DIR}${uuid}-${safe || 'file'}`;
}

/** True when `head` (a file's first bytes) begins as a zip does ('PK\x03\x04'). */
export function isZip(head: Uint8Array): boolean {
  return head[0] === 0x50 && head[1] === 0x4b && head[2] === 0x03 && head[3] === 0x04;
}

/** A zip being written: files one by one, then the document, which ends it. */
export interface ExportZipWriter {
  /** Adds one file's bytes, stored as they are (photos, PDFs and the like are compressed already). */
  addFile(path: string, bytes: Uint8Array): void;
  /** Adds `outpost.json` (compressed) and ends the zip: every chunk has been handed over. */
  end(json: string): void;
}

/**
 * Starts an export zip whose bytes are handed to `onChunk` as they are made (a Blob's parts on the
 * device); `mtime` is every entry's date (the export's).
 */
export function createExportZip(onChunk: (chunk: Uint8Array) => void, mtime: Date): ExportZipWriter {
  let failure: Error | null = null;
  const zip = new Zip((error, chunk) => {
    if (error) failure = error;
    else onChunk(chunk);
  });
  const check = () => {
    if (failure) throw failure;
  };
  return {
    addFile(path, bytes) {
      const entry = new ZipPassThrough(path);
      entry.mtime = mtime;
      zip.add(entry);
      entry.push(bytes, true);
      check();
    },
    end(json) {
      const entry = new ZipDeflate(EXPORT_JSON_ENTRY, { level: 6 });
      entry.mtime = mtime;
      zip.add(entry);
      entry.push(strToU8(json), true);
      zip.end();
      check();
    },
  };
}

/** What a zip holds for an import: its `outpost.json` as text (null without one) and its entries' sizes. */
export interface ExportZipContents {
  json: string | null;
  entries: Map<string, number>;
}

/**
 * Reads an export zip's document and the names of its entries, decompressing only the document; a zip
 * that cannot be read throws.
 */
export function readExportZip(bytes: Uint8Array): ExportZipContents {
  const entries = new Map<string, number>();
  const found = unzipSync(bytes, {
    filter: (file) => {
      entries.set(file.name, file.originalSize);
      return file.name === EXPORT_JSON_ENTRY;
    },
  });
  const json = found[EXPORT_JSON_ENTRY];
  return { json: json ? strFromU8(json) : null, entries };
}

/** One entry's bytes from an export zip, or null when it has none of that name. */
export function zipEntryBytes(bytes: Uint8Array, path: string): Uint8Array | null {
  return unzipSync(bytes, { filter: (file) => file.name === path })[path] ?? null;
}
