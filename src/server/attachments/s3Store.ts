import { createReadStream, mkdirSync } from 'node:fs';
import { rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { PassThrough, type Readable } from 'node:stream';
import type { S3Client } from '@aws-sdk/client-s3';
import type { S3Config } from '../env';
import { type FileStore, isStoreKey } from './fileStore';

/** How long the readiness and start-up check waits for the bucket to answer. */
export const S3_CHECK_TIMEOUT_MS = 5_000;

/** The fields of an SDK error we read: its name (the S3 error code) and HTTP status. */
interface SdkError {
  name?: string;
  code?: string;
  $metadata?: { httpStatusCode?: number };
  message?: string;
}

const statusOf = (error: unknown) => (error as SdkError).$metadata?.httpStatusCode;
const isMissing = (error: unknown) => {
  const name = (error as SdkError).name;
  return name === 'NoSuchKey' || name === 'NotFound' || statusOf(error) === 404;
};

function assertKey(key: string): void {
  if (!isStoreKey(key)) throw new Error(`Not a file store key: ${JSON.stringify(key)}`);
}

type S3Sdk = typeof import('@aws-sdk/client-s3');
let sdk: Promise<S3Sdk> | undefined;

/**
 * The SDK, loaded when a bucket is first used: a server without S3 never pays for it (23 MB of an
 * idle container's memory, issue 68).
 */
function loadSdk(): Promise<S3Sdk> {
  sdk ??= import('@aws-sdk/client-s3');
  return sdk;
}

/** The client for a config, in the shape any S3-compatible service accepts. */
export async function s3Client(config: S3Config): Promise<S3Client> {
  const { S3Client } = await loadSdk();
  return new S3Client({
    region: config.region,
    ...(config.endpoint ? { endpoint: config.endpoint } : {}),
    forcePathStyle: config.forcePathStyle,
    credentials: { accessKeyId: config.accessKeyId, secretAccessKey: config.secretAccessKey },
    // The SDK's default CRC trailers (aws-chunked bodies) are refused or stored wrongly by many
    // S3-compatible services; a checksum is sent only where an operation requires one.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
    // A service that stops answering mid-transfer fails the request instead of holding it forever.
    requestHandler: { connectionTimeout: 10_000, requestTimeout: 60_000 },
  });
}

/**
 * The asked bytes of an answer to a ranged GET. HTTP lets a server ignore `Range` (a 200 with the
 * whole object) and some S3-compatible ones shorten it wrongly (s3rver reads `bytes=0-0` as
 * `bytes=0-`), so the bytes before the range are skipped and the stream ends at its last byte.
 */
function exactRange(body: Readable, range: { start: number; end: number }, contentRange?: string): Readable {
  const from = /^bytes (\d+)-/.exec(contentRange ?? '');
  let skip = range.start - (from ? Number(from[1]) : 0);
  if (skip < 0) {
    body.destroy();
    throw new Error(`The store answered ${contentRange} for bytes ${range.start}-${range.end}.`);
  }
  let left = range.end - range.start + 1;
  if (skip === 0 && contentRange?.startsWith(`bytes ${range.start}-${range.end}/`)) return body;
  const out = new PassThrough();
  body.on('error', (error) => out.destroy(error));
  out.on('close', () => body.destroy());
  body.on('data', (chunk: Buffer) => {
    let part = chunk;
    if (skip > 0) {
      const dropped = Math.min(skip, part.length);
      skip -= dropped;
      part = part.subarray(dropped);
    }
    if (part.length === 0 || left === 0) return;
    const kept = part.subarray(0, left);
    left -= kept.length;
    if (!out.write(kept)) body.pause();
    if (left === 0) {
      out.end();
      body.destroy();
    }
  });
  out.on('drain', () => body.resume());
  body.on('end', () => {
    if (!out.writableEnded) out.end();
  });
  return out;
}

/** Why the bucket cannot be used, in words that name the setting to fix. */
export function s3Problem(config: S3Config, error: unknown): string {
  const e = error as SdkError;
  const where = config.endpoint ?? 'Amazon S3';
  const status = statusOf(error);
  const detail =
    e.name && !['Error', 'Unknown', 'UnknownError'].includes(e.name) ? e.name : (e.code ?? e.message ?? '');
  if (e.name === 'TimeoutError' || e.name === 'AbortError') {
    return `S3_ENDPOINT: ${where} did not answer within ${S3_CHECK_TIMEOUT_MS / 1000} s.`;
  }
  if (status === undefined) {
    return `S3_ENDPOINT: ${where} cannot be reached (${e.code ?? e.message ?? e.name ?? 'no answer'}).`;
  }
  if (status === 404 || e.name === 'NoSuchBucket') {
    return `S3_BUCKET: ${where} has no bucket named ${config.bucket}.`;
  }
  if (status === 401 || status === 403) {
    return `S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY: ${where} refused them for bucket ${config.bucket} (${status}${detail ? ` ${detail}` : ''}).`;
  }
  if (status === 301 || e.name === 'PermanentRedirect' || e.name === 'AuthorizationHeaderMalformed') {
    return `S3_REGION: bucket ${config.bucket} is not in ${config.region} at ${where} (${detail || status}).`;
  }
  return `S3_BUCKET, S3_ENDPOINT: bucket ${config.bucket} at ${where} answered ${status}${detail ? ` ${detail}` : ''}.`;
}

/**
 * Files on items in an S3-compatible bucket (ARCHITECTURE §4, SYNC.md A8): objects named by their key
 * alone, written without any ACL so they stay as private as the bucket (never public), read only by
 * this server. Uploads are spooled to `DATA_DIR/files/.spool` first, so the bytes are sniffed and
 * hashed before one PutObject streams them with their known length.
 */
export function createS3Store(
  config: S3Config,
  dataDir: string,
  options: { client?: S3Client; listPageSize?: number } = {},
): FileStore {
  const ready = Promise.all([options.client ?? s3Client(config), loadSdk()]);
  // A failure to load surfaces in the call that needed it, not as an unhandled rejection.
  ready.catch(() => {});
  const spoolDir = path.join(dataDir, 'files', '.spool');
  mkdirSync(spoolDir, { recursive: true });
  const Bucket = config.bucket;

  const has = async (key: string): Promise<boolean> => {
    assertKey(key);
    const [client, s3] = await ready;
    try {
      await client.send(new s3.HeadObjectCommand({ Bucket, Key: key }));
      return true;
    } catch (error) {
      if (isMissing(error)) return false;
      throw error;
    }
  };

  return {
    kind: 's3',
    spoolDir,
    has,
    async putFile(key, spoolPath) {
      assertKey(key);
      try {
        // The same key holds the same bytes: a second upload of them sends nothing.
        if (await has(key)) return;
        const { size } = await stat(spoolPath);
        const [client, s3] = await ready;
        await client.send(
          new s3.PutObjectCommand({
            Bucket,
            Key: key,
            Body: createReadStream(spoolPath),
            ContentLength: size,
            ContentType: 'application/octet-stream',
          }),
        );
      } finally {
        await rm(spoolPath, { force: true });
      }
    },
    async putBytes(key, bytes, type) {
      assertKey(key);
      const [client, s3] = await ready;
      await client.send(
        new s3.PutObjectCommand({
          Bucket,
          Key: key,
          Body: bytes,
          ContentLength: bytes.byteLength,
          ContentType: type,
        }),
      );
    },
    async read(key, range) {
      assertKey(key);
      const [client, s3] = await ready;
      try {
        const answer = await client.send(
          new s3.GetObjectCommand({
            Bucket,
            Key: key,
            ...(range ? { Range: `bytes=${range.start}-${range.end}` } : {}),
          }),
        );
        // In Node the SDK's body is the HTTP response itself, a Readable.
        const body = (answer.Body as Readable | undefined) ?? null;
        if (!body || !range) return body;
        return exactRange(body, range, answer.ContentRange);
      } catch (error) {
        if (isMissing(error)) return null;
        throw error;
      }
    },
    async remove(key) {
      assertKey(key);
      const [client, s3] = await ready;
      await client.send(new s3.DeleteObjectCommand({ Bucket, Key: key }));
    },
    async *keys() {
      const [client, s3] = await ready;
      let ContinuationToken: string | undefined;
      do {
        const page = await client.send(
          new s3.ListObjectsV2Command({
            Bucket,
            ContinuationToken,
            ...(options.listPageSize ? { MaxKeys: options.listPageSize } : {}),
          }),
        );
        for (const object of page.Contents ?? []) {
          // A shared bucket may hold other things: only our keys are ours to list (and purge).
          if (object.Key && isStoreKey(object.Key)) yield object.Key;
        }
        ContinuationToken = page.IsTruncated ? page.NextContinuationToken : undefined;
      } while (ContinuationToken);
    },
    async check() {
      try {
        const [client, s3] = await ready;
        await client.send(new s3.HeadBucketCommand({ Bucket }), {
          abortSignal: AbortSignal.timeout(S3_CHECK_TIMEOUT_MS),
        });
      } catch (error) {
        throw new Error(s3Problem(config, error));
      }
    },
  };
}
