import { createHash, randomUUID } from 'node:crypto';
import { createWriteStream, fdatasync } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { MultipartFile } from '@fastify/multipart';
import type { FastifyRequest } from 'fastify';
import { cleanFileName, isImageType, THUMBNAIL_MAX_PX, tooLargeMessage } from '../../shared/attachments';
import { HttpError, unprocessable } from '../http/errors';
import { SNIFF_HEAD_BYTES, sniffType } from './sniff';

/** A file an upload brought, spooled to a local file whole, with what was read from its bytes. */
export interface SpooledFile {
  /** The spool file (under the store's spool folder); the caller stores or removes it. */
  path: string;
  name: string;
  size: number;
  sha256: string;
  /** Read from the bytes (sniff.ts), never from the part's Content-Type or the name. */
  type: string;
}

/** What an upload's form said, beside its file. */
export interface ReceivedUpload {
  file: SpooledFile;
  /** The `uuid` field, when the form had one. */
  uuidField: string | undefined;
}

/** The multipart field that carries the file, and the one that may carry its uuid. */
export const FILE_FIELD = 'file';
export const UUID_FIELD = 'uuid';

/** How many bytes of an upload are written between two flushes of its spool file to the disk. */
const FLUSH_EVERY_BYTES = 2 * 1024 * 1024;

const NO_FILE = `Send the file as multipart/form-data, in a part named “${FILE_FIELD}”.`;
const ONE_FILE = 'Send one file an upload.';
const UNREADABLE = 'The upload is not a well-formed multipart/form-data body.';
const TOO_MANY_PARTS = `Send the file and at most its “${UUID_FIELD}” beside it.`;

/** Whether an error is @fastify/multipart's with this code. */
const isCode = (error: unknown, code: string) => (error as { code?: unknown } | null)?.code === code;

/**
 * Reads an upload's form (ARCHITECTURE §4 'Files on items'): its one file part streamed to a spool
 * file while it is hashed and counted (never held in memory whole: backpressure reaches the socket),
 * the optional `uuid` field before or after it. A file past `maxBytes` is a 413 naming the limit once
 * the rest of the request has been read (so the client reads the answer), and nothing of it is kept.
 * Whatever goes wrong, no spool file is left behind.
 */
export async function receiveUpload(
  request: FastifyRequest,
  spoolDir: string,
  maxBytes: number,
): Promise<ReceivedUpload> {
  let spooled: SpooledFile | null = null;
  let uuidField: string | undefined;
  let tooLarge = false;
  try {
    for await (const part of request.parts()) {
      if (part.type === 'field') {
        if (part.fieldname === UUID_FIELD) uuidField = String(part.value);
        continue;
      }
      if (part.fieldname !== FILE_FIELD || spooled !== null || tooLarge) {
        part.file.resume();
        continue;
      }
      const written = await spool(part, spoolDir, maxBytes);
      if (written === null) tooLarge = true;
      else spooled = written;
    }
  } catch (error) {
    if (spooled) await rm(spooled.path, { force: true });
    if (isCode(error, 'FST_REQ_FILE_TOO_LARGE') || tooLarge)
      throw new HttpError(413, tooLargeMessage(maxBytes));
    if (isCode(error, 'FST_FILES_LIMIT')) throw unprocessable({ [FILE_FIELD]: [ONE_FILE] });
    if (isCode(error, 'FST_PARTS_LIMIT') || isCode(error, 'FST_FIELDS_LIMIT'))
      throw unprocessable({ [FILE_FIELD]: [TOO_MANY_PARTS] });
    if (error instanceof HttpError) throw error;
    throw new HttpError(400, UNREADABLE);
  }
  if (tooLarge) throw new HttpError(413, tooLargeMessage(maxBytes));
  if (!spooled) throw unprocessable({ [FILE_FIELD]: [NO_FILE] });
  return { file: spooled, uuidField };
}

/**
 * Streams one file part into a new spool file, hashing and counting it and keeping its head for the
 * type; null when the part was cut at `maxBytes` (the spool file removed).
 */
async function spool(part: MultipartFile, spoolDir: string, maxBytes: number): Promise<SpooledFile | null> {
  await mkdir(spoolDir, { recursive: true });
  const target = path.join(spoolDir, `upload-${randomUUID()}`);
  const hash = createHash('sha256');
  const head: Buffer[] = [];
  let headLength = 0;
  let size = 0;
  // Flushed before it is stored (`flush`): the key it becomes must never name bytes a crash lost.
  const out = createWriteStream(target, { flags: 'wx', flush: true });
  // The bytes also reach the disk while they arrive, a slice at a time (one flush in flight), so the
  // flush at the end finds little left to write.
  let flushedAt = 0;
  let flushing: Promise<void> | null = null;
  let fd: number | null = null;
  out.once('open', (opened: number) => {
    fd = opened;
  });
  out.once('close', () => {
    fd = null;
  });
  const flushSoFar = () => {
    const opened = fd;
    if (flushing || opened === null || size - flushedAt < FLUSH_EVERY_BYTES) return;
    flushedAt = size;
    flushing = new Promise<void>((resolve) => fdatasync(opened, () => resolve())).finally(() => {
      flushing = null;
    });
  };
  const meter = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      flushSoFar();
      size += chunk.length;
      // Busboy stops the part at the limit; this guards the limit whatever the parser does.
      if (size > maxBytes) {
        done(new HttpError(413, tooLargeMessage(maxBytes)));
        return;
      }
      hash.update(chunk);
      if (headLength < SNIFF_HEAD_BYTES) {
        const taken = chunk.subarray(0, SNIFF_HEAD_BYTES - headLength);
        head.push(Buffer.from(taken));
        headLength += taken.length;
      }
      done(null, chunk);
    },
    // No flush of the file is in flight when the stream closes it.
    flush(done) {
      void (flushing ?? Promise.resolve()).then(() => done());
    },
  });
  try {
    await pipeline(part.file, meter, out);
  } catch (error) {
    await flushing;
    await rm(target, { force: true });
    if (error instanceof HttpError && error.statusCode === 413) {
      part.file.resume();
      return null;
    }
    throw error;
  }
  if (part.file.truncated) {
    await rm(target, { force: true });
    return null;
  }
  try {
    const headBytes = Buffer.concat(head);
    return {
      path: target,
      name: cleanFileName(part.filename ?? ''),
      size,
      sha256: hash.digest('hex'),
      type: await sniffType(target, headBytes, size <= headBytes.length),
    };
  } catch (error) {
    await rm(target, { force: true });
    throw error;
  }
}

/** What an image's bytes tell: its size as shown (EXIF orientation applied) and a WebP thumbnail. */
export interface ImageFacts {
  width: number | null;
  height: number | null;
  thumbnail: Buffer | null;
}

/**
 * An image's width, height and thumbnail (at most THUMBNAIL_MAX_PX on its longest side, WebP),
 * read with sharp. A file of an image type that sharp cannot read is still a file: no size, no
 * thumbnail. Any other type has none.
 */
export async function imageFacts(filePath: string, type: string): Promise<ImageFacts> {
  const none: ImageFacts = { width: null, height: null, thumbnail: null };
  if (!isImageType(type)) return none;
  // Loaded with the first image, outside the tries: a missing library is an error, not 'no size'.
  const { default: sharp } = await import('sharp');
  let width: number | null = null;
  let height: number | null = null;
  try {
    const meta = await sharp(filePath, { failOn: 'error' }).metadata();
    width = meta.autoOrient?.width ?? meta.width ?? null;
    height = meta.autoOrient?.height ?? meta.height ?? null;
  } catch {
    return none;
  }
  try {
    const thumbnail = await sharp(filePath, { failOn: 'error' })
      .autoOrient()
      .resize({ width: THUMBNAIL_MAX_PX, height: THUMBNAIL_MAX_PX, fit: 'inside', withoutEnlargement: true })
      .webp({ quality: 80 })
      .toBuffer();
    return { width, height, thumbnail };
  } catch {
    return { width, height, thumbnail: null };
  }
}
