import type { Readable } from 'node:stream';

/**
 * Where the bytes of files on items live (ARCHITECTURE §4 'Files on items'): `DATA_DIR/files/` by
 * default (diskStore.ts), any S3-compatible store with `S3_BUCKET` (s3Store.ts). Keys are a file's
 * sha256 in hex (`contentKey`) or its thumbnail's (`thumbnailKey`), so the same bytes are stored
 * once and a key's bytes never change. Nothing here checks who may read: only the checked content
 * route hands bytes out, and an S3 object is never publicly readable.
 */
export interface FileStore {
  readonly kind: 'disk' | 's3';
  /**
   * Moves a finished spool file (a local path, written under `spoolDir`) into the store under `key`.
   * A key already present keeps its bytes (they are the same bytes); the spool file is gone after.
   */
  putFile(key: string, spoolPath: string): Promise<void>;
  /** Stores small bytes (a thumbnail) under `key`. */
  putBytes(key: string, bytes: Uint8Array, type: string): Promise<void>;
  /** True when `key` is stored. */
  has(key: string): Promise<boolean>;
  /** The bytes of `key` (`range` inclusive, as HTTP counts), or null when it is not stored. */
  read(key: string, range?: { start: number; end: number }): Promise<Readable | null>;
  /** Removes `key`; a missing key is no error. */
  remove(key: string): Promise<void>;
  /** Every stored key (the purge and the backup walk them). */
  keys(): AsyncIterable<string>;
  /** Throws with a message naming the setting when the store cannot be used (readiness, start-up). */
  check(): Promise<void>;
  /** A local directory for spool files, on the same file system as the store where there is one. */
  readonly spoolDir: string;
}

/** The key of a file's bytes. */
export const contentKey = (sha256: string): string => sha256;
/** The key of an image's thumbnail. */
export const thumbnailKey = (sha256: string): string => `${sha256}.thumb`;
/** True for a key the store may hold: a sha256, or one with the thumbnail suffix (no path can be named). */
export const isStoreKey = (key: string): boolean => /^[0-9a-f]{64}(\.thumb)?$/.test(key);
