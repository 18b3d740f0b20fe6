import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startS3, type TestS3 } from '../../../testkit/s3';
import { createTestApp } from '../../../testkit/server';
import { createS3Store } from '../attachments/s3Store';

let s3: TestS3;
let dataDir: string;
beforeAll(async () => {
  s3 = await startS3();
  dataDir = mkdtempSync(path.join(tmpdir(), 'outpost-ready-'));
});
afterAll(async () => {
  await s3?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

const ready = async (app: Awaited<ReturnType<typeof createTestApp>>['app']) => {
  const response = await app.inject({ method: 'GET', url: '/api/health/ready' });
  return { status: response.statusCode, body: response.json() as { ready: boolean; message?: string } };
};

describe('readiness asks the file store (ARCHITECTURE "Running it": S3_* makes readiness 503 naming the variable)', () => {
  it('answers 200 with a bucket that answers', async () => {
    const t = await createTestApp('pglite', { files: createS3Store(s3.config, dataDir) });
    try {
      expect(await ready(t.app)).toEqual({ status: 200, body: { ready: true } });
    } finally {
      await t.close();
    }
  }, 120_000);

  it('answers 503 naming S3_BUCKET for a bucket that is not there, and S3_ENDPOINT for a service that does not answer', async () => {
    const missing = await createTestApp('pglite', {
      files: createS3Store({ ...s3.config, bucket: 'no-such-bucket' }, dataDir),
    });
    const away = await createTestApp('pglite', {
      files: createS3Store({ ...s3.config, endpoint: 'http://127.0.0.1:1' }, dataDir),
    });
    try {
      expect(await ready(missing.app)).toEqual({
        status: 503,
        body: { ready: false, message: `S3_BUCKET: ${s3.endpoint} has no bucket named no-such-bucket.` },
      });
      const answer = await ready(away.app);
      expect(answer.status).toBe(503);
      expect(answer.body.message).toMatch(/^S3_ENDPOINT: http:\/\/127\.0\.0\.1:1 /);
      // The database still answers: liveness is not the file store's to decide.
      expect((await away.app.inject({ method: 'GET', url: '/api/health' })).statusCode).toBe(200);
    } finally {
      await missing.close();
      await away.close();
    }
  }, 120_000);

  it('asks the bucket once for probes close together', async () => {
    const t = await createTestApp('pglite', { files: createS3Store(s3.config, dataDir) });
    try {
      const before = s3.requests.length;
      for (let i = 0; i < 5; i++) expect((await ready(t.app)).status).toBe(200);
      expect(s3.requests.slice(before).filter((r) => r.method === 'HEAD')).toHaveLength(1);
    } finally {
      await t.close();
    }
  }, 120_000);
});
