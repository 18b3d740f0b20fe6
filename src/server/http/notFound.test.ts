import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, openTestDatabase, testEngines } from '../../../testkit/server';
import { signedIn } from '../../../testkit/testClient';
import { buildApp } from '../app';
import type { Database } from '../db/client';

describe.each(testEngines())('unknown routes (%s)', (engine) => {
  let harness: Awaited<ReturnType<typeof createTestApp>>;
  beforeAll(async () => {
    harness = await createTestApp(engine);
  });
  afterAll(() => harness?.close());

  it('answers an unknown /api route with a JSON 404 that has a message', async () => {
    const c = await signedIn(harness.app);
    for (const [method, url] of [
      ['GET', '/api/nothing-here'],
      ['GET', '/api/items/1/children'],
      ['POST', '/api/items/1/archive'],
      ['PUT', '/api/items/1'],
      ['GET', '/api'],
    ] as const) {
      const response = await c.request<{ message: string }>({
        method,
        url,
        body: method === 'GET' ? undefined : {},
      });
      expect(response.status, `${method} ${url}`).toBe(404);
      expect(response.headers['content-type']).toMatch(/application\/json/);
      expect(response.body.message).toEqual(expect.any(String));
    }
  });

  it('answers an unknown /api route without a session with a JSON 404 too, never with a page', async () => {
    const response = await harness.app.inject({ method: 'GET', url: '/api/nothing-here' });
    expect(response.statusCode).toBe(404);
    expect(response.headers['content-type']).toMatch(/application\/json/);
    expect(JSON.parse(response.body).message).toEqual(expect.any(String));
  });
});

describe('client routes next to the API', () => {
  let database: Database;
  let app: FastifyInstance;
  let clientDir: string;
  beforeAll(async () => {
    clientDir = mkdtempSync(path.join(tmpdir(), 'outpost-client-'));
    writeFileSync(path.join(clientDir, 'index.html'), '<!doctype html><title>Outpost</title>');
    database = await openTestDatabase('pglite');
    app = await buildApp({ database, config: { clientDir } });
    await app.ready();
  });
  afterAll(async () => {
    await app?.close();
    await database?.close();
    rmSync(clientDir, { recursive: true, force: true });
  });

  it('serves the single-page app, not JSON, for a client route', async () => {
    for (const url of ['/', '/tasks/12', '/campaigns', '/settings/contacts?x=1']) {
      const response = await app.inject({ method: 'GET', url });
      expect(response.statusCode, url).toBe(200);
      expect(response.headers['content-type']).toMatch(/text\/html/);
      expect(response.body).toContain('<title>Outpost</title>');
    }
  });

  it('still answers an unknown /api route with JSON when the client is served', async () => {
    const c = await signedIn(app);
    const response = await c.get<{ message: string }>('/api/tasks/12');
    expect(response.status).toBe(404);
    expect(response.headers['content-type']).toMatch(/application\/json/);
    expect(response.body.message).toEqual(expect.any(String));
  });
});
