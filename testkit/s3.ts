import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import S3rver from 's3rver';
import type { S3Config } from '../src/server/env';

// The SDK's notice that its 2027 releases need Node 22 says nothing about a test's outcome.
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';

/** One request the test S3 service received. */
export interface S3Request {
  method: string;
  /** Path and query, e.g. `/outpost-files/ab12…?x-id=GetObject`. */
  url: string;
  headers: Record<string, string | string[] | undefined>;
  /** True when it carried a signature (an Authorization header or a presigned query). */
  signed: boolean;
}

/** A running test S3 service. */
export interface TestS3 {
  /** `http://127.0.0.1:{port}`. */
  endpoint: string;
  bucket: string;
  /** What `S3_*` would give the server for this service. */
  config: S3Config;
  /** Every request so far, in order. */
  requests: S3Request[];
  /** Stops the service and removes its folder. */
  stop(): Promise<void>;
}

/**
 * s3rver makes ListObjectsV2's continuation tokens with single DES, which OpenSSL 3 (Node 17+) no
 * longer offers, so every page after the first 1,000 keys fails with InternalError. Triple DES with
 * the one key three times is the same cipher, so s3rver's own `crypto` calls for 'des' are answered
 * by it (its tokens read as before); nothing else in the process asks for 'des'.
 */
function letS3rverPage(): void {
  const crypto = createRequire(import.meta.url)('node:crypto') as typeof import('node:crypto') & {
    outpostDesShim?: true;
  };
  if (crypto.outpostDesShim) return;
  const tripled = (key: Buffer) => Buffer.concat([key, key, key]);
  const { createCipheriv, createDecipheriv } = crypto;
  const asDes = (algorithm: string) => algorithm.toLowerCase() === 'des';
  Object.assign(crypto, {
    outpostDesShim: true,
    createCipheriv: (algorithm: string, key: Buffer, iv: Buffer | null, options?: never) =>
      asDes(algorithm)
        ? createCipheriv('des-ede3-cbc', tripled(key), iv)
        : createCipheriv(algorithm, key, iv, options),
    createDecipheriv: (algorithm: string, key: Buffer, iv: Buffer | null, options?: never) =>
      asDes(algorithm)
        ? createDecipheriv('des-ede3-cbc', tripled(key), iv)
        : createDecipheriv(algorithm, key, iv, options),
  });
}

/** s3rver's one account: it checks the key id, not the signature (v4). */
export const S3RVER_KEY = 'S3RVER';

const hasSignature = (query: Record<string, unknown>, headers: Record<string, unknown>) =>
  'authorization' in headers || 'Signature' in query || 'X-Amz-Algorithm' in query;

/** An ACL that lets anyone read, set on an object or the bucket by a header or an `?acl` call. */
function grantsPublicRead(headers: Record<string, string | string[] | undefined>): boolean {
  const acl = String(headers['x-amz-acl'] ?? '');
  const grant = String(headers['x-amz-grant-read'] ?? '') + String(headers['x-amz-grant-full-control'] ?? '');
  return (
    acl.startsWith('public-') || acl === 'authenticated-read' || /AllUsers|AuthenticatedUsers/.test(grant)
  );
}

/**
 * An S3-protocol service for tests: s3rver on a free port of 127.0.0.1, its objects in a temp folder,
 * with one bucket. s3rver itself has no access control (it answers an unsigned request), so a gate in
 * front behaves as Amazon S3 does by default: an unsigned request is `403 AccessDenied` unless the
 * object or bucket was made public by an ACL (a canned `x-amz-acl`, a grant header, or a `?acl`
 * call). Every request is kept, so a test sees whether any ACL was ever sent.
 */
export async function startS3(options: { bucket?: string } = {}): Promise<TestS3> {
  letS3rverPage();
  const bucket = options.bucket ?? 'outpost-files';
  const directory = mkdtempSync(path.join(tmpdir(), 'outpost-s3-'));
  const server = new S3rver({
    address: '127.0.0.1',
    port: 0,
    silent: true,
    directory,
    vhostBuckets: false,
    configureBuckets: [{ name: bucket }],
  });
  const requests: S3Request[] = [];
  const publicPaths = new Set<string>();
  server.middleware.unshift(async (ctx, next) => {
    const signed = hasSignature(ctx.query, ctx.headers);
    requests.push({ method: ctx.method, url: ctx.url, headers: { ...ctx.headers }, signed });
    if (signed) {
      const isAclCall = 'acl' in ctx.query;
      if ((ctx.method === 'PUT' && grantsPublicRead(ctx.headers)) || isAclCall) publicPaths.add(ctx.path);
      return next();
    }
    const bucketPath = `/${ctx.path.split('/')[1] ?? ''}`;
    if (publicPaths.has(ctx.path) || publicPaths.has(bucketPath)) return next();
    ctx.status = 403;
    ctx.type = 'application/xml';
    ctx.body =
      '<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>AccessDenied</Code><Message>Access Denied</Message></Error>';
  });
  const { port } = await server.run();
  const endpoint = `http://127.0.0.1:${port}`;
  return {
    endpoint,
    bucket,
    config: {
      bucket,
      endpoint,
      region: 'us-east-1',
      accessKeyId: S3RVER_KEY,
      secretAccessKey: S3RVER_KEY,
      forcePathStyle: true,
    },
    requests,
    async stop() {
      await server.close();
      rmSync(directory, { recursive: true, force: true });
    },
  };
}
