import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase, testEngines } from '../../../testkit/server';
import { signedIn, TestClient, uniquePhone } from '../../../testkit/testClient';
import { buildApp } from '../app';
import type { Database } from '../db/client';
import { isApiPath, normalizedPath } from './paths';

const SECRET = 'top secret, outside the client folder';

describe('normalizedPath', () => {
  it.each([
    ['/api/me', '/api/me'],
    ['/API/Me', '/api/me'],
    ['//api/me', '/api/me'],
    ['/api//me/', '/api/me/'],
    ['/%61pi/me', '/api/me'],
    ['/%2561pi/me', '/api/me'],
    ['/api%2fme', '/api/me'],
    ['/x/%2e%2e/api/me', '/api/me'],
    ['/..\\api\\me', '/api/me'],
    ['/%2e%2e/%2e%2e/etc/passwd', '/etc/passwd'],
    ['/api/items?q=/x', '/api/items'],
    ['/%E0%A4%A', '/%e0%a4%a'],
    ['', '/'],
  ])('reads %j as %j', (url, expected) => {
    expect(normalizedPath(url)).toBe(expected);
  });

  it('tells /api paths from others', () => {
    expect(isApiPath('/api')).toBe(true);
    expect(isApiPath('/api/me')).toBe(true);
    expect(isApiPath('/apix')).toBe(false);
    expect(isApiPath('/tasks/1')).toBe(false);
  });
});

describe.each(testEngines())('anti-forgery, sessions and 404s follow the decoded path (%s)', (engine) => {
  let root: string;
  let database: Database;
  let app: FastifyInstance;
  beforeAll(async () => {
    // The client's folder inside a folder holding a file no request may reach.
    root = mkdtempSync(path.join(tmpdir(), 'outpost-paths-'));
    const clientDir = path.join(root, 'client');
    mkdirSync(path.join(clientDir, 'assets'), { recursive: true });
    writeFileSync(path.join(clientDir, 'index.html'), '<!doctype html><title>Outpost</title>');
    writeFileSync(path.join(clientDir, 'assets', 'app.js'), 'console.log(1)');
    writeFileSync(path.join(root, 'secret.txt'), SECRET);
    database = await openTestDatabase(engine);
    app = await buildApp({ database, config: { clientDir } });
    await app.ready();
  });
  afterAll(async () => {
    await app?.close();
    await database?.close();
    if (root) rmSync(root, { recursive: true, force: true });
  });

  it('answers POST /%61pi/login without the anti-forgery token with 419, not a sign-in', async () => {
    const phone = uniquePhone();
    const noCookie = await app.inject({
      method: 'POST',
      url: '/%61pi/login',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ phone, name: 'Forged' }),
    });
    expect(noCookie.statusCode, noCookie.body).toBe(419);
    expect(JSON.parse(noCookie.body)).toEqual({ message: 'CSRF token mismatch.' });
    expect(noCookie.cookies).toEqual([]);
    const stranger = new TestClient(app);
    await stranger.csrf();
    for (const url of ['/%61pi/login', '/%61%70%69/login', '/api/%6cogin']) {
      const response = await stranger.request({
        method: 'POST',
        url,
        body: { phone, name: 'Forged' },
        xsrf: false,
      });
      expect(response.status, url).toBe(419);
    }
    expect((await stranger.get('/api/me')).status).toBe(401);
  });

  it('applies the session check to encoded API paths as to plain ones', async () => {
    const stranger = new TestClient(app);
    await stranger.csrf();
    expect((await stranger.get('/%61pi/me')).status).toBe(401);
    expect(
      (await stranger.request({ method: 'POST', url: '/%61pi/items', body: { title: 'x', type: 'todo' } }))
        .status,
    ).toBe(401);
    const member = await signedIn(app, 'Member');
    expect((await member.get('/%61pi/me')).status).toBe(200);
    const forged = await member.request({
      method: 'POST',
      url: '/%61pi/items',
      body: { title: 'forged', type: 'todo' },
      xsrf: false,
    });
    expect(forged.status).toBe(419);
    expect(
      (await member.request({ method: 'POST', url: '/%61pi/items', body: { title: 'fine', type: 'todo' } }))
        .status,
    ).toBe(201);
  });

  it.each([
    '/API/me',
    '//api/me',
    '/api//me',
    '/Api/items',
    '/API',
    '/%2561pi/me',
    '/api%2fme',
    '/x/..%2fapi/me',
  ])('answers GET %s with a JSON 404, never the HTML page', async (url) => {
    for (const client of [new TestClient(app), await signedIn(app)]) {
      const response = await client.get<{ message: string }>(url);
      expect(response.status, `${url}: ${response.text}`).toBe(404);
      expect(response.headers['content-type'], url).toMatch(/application\/json/);
      expect(response.body.message).toEqual(expect.any(String));
      expect(response.text).not.toContain('<title>');
    }
  });

  it.each(['/%2e%2e/api/me', '/x/%2e%2e/api/me', '/%2e%2e/%2e%2e/api/me'])(
    'answers GET %s as the API does (JSON), never with the page',
    async (url) => {
      // Dot segments may be resolved before routing (a browser and the test injector do): then this is
      // /api/me itself, with its session check; otherwise it is an unknown /api path. JSON either way.
      const response = await new TestClient(app).get<{ message: string }>(url);
      expect([401, 404], `${url}: ${response.text}`).toContain(response.status);
      expect(response.headers['content-type'], url).toMatch(/application\/json/);
      expect(response.text).not.toContain('<title>');
    },
  );

  it('never signs in through an unknown spelling of the sign-in route', async () => {
    const stranger = new TestClient(app);
    await stranger.csrf();
    for (const url of ['/API/login', '//api/login', '/api//login', '/api/login/']) {
      const response = await stranger.post(url, { phone: uniquePhone(), name: 'Odd' });
      expect(response.status, url).toBe(404);
      expect(response.headers['content-type']).toMatch(/application\/json/);
    }
    expect((await stranger.get('/api/me')).status).toBe(401);
  });

  it('still serves the app for client routes and its files', async () => {
    for (const url of ['/', '/tasks/12', '/apiary', '/settings/contacts?x=/api/me']) {
      const response = await app.inject({ method: 'GET', url });
      expect(response.statusCode, url).toBe(200);
      expect(response.headers['content-type'], url).toMatch(/text\/html/);
    }
    expect((await app.inject({ method: 'GET', url: '/assets/app.js' })).body).toBe('console.log(1)');
  });

  it('never serves a file outside the client folder over a real socket, where no one resolves the dots', async () => {
    const address = new URL(await app.listen({ port: 0, host: '127.0.0.1' }));
    const raw = (rawPath: string) =>
      new Promise<{ status: number; body: string }>((resolve, reject) => {
        const request = http.request(
          { host: address.hostname, port: address.port, path: rawPath, method: 'GET' },
          (response) => {
            let body = '';
            response.setEncoding('utf8');
            response.on('data', (chunk) => {
              body += chunk;
            });
            response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
          },
        );
        request.on('error', reject);
        request.end();
      });
    for (const rawPath of [
      '/../secret.txt',
      '/assets/../../secret.txt',
      '/%2e%2e/secret.txt',
      '/assets/%2e%2e/%2e%2e/secret.txt',
      '/..%2fsecret.txt',
      '/..\\secret.txt',
      '/../api/me',
      '/%2e%2e/api/me',
    ]) {
      const response = await raw(rawPath);
      expect(response.status, rawPath).toBeLessThan(500);
      expect(response.body, rawPath).not.toContain(SECRET);
      if (rawPath.endsWith('api/me')) expect(response.body, rawPath).not.toContain('<title>');
    }
  });

  it.each([
    '/%2e%2e/secret.txt',
    '/..%2fsecret.txt',
    '/%2e%2e%2fsecret.txt',
    '/assets/%2e%2e/%2e%2e/secret.txt',
    '/assets/..%2f..%2fsecret.txt',
    '/%252e%252e/secret.txt',
    '/..%5csecret.txt',
    '/assets/%2e%2e%5c%2e%2e%5csecret.txt',
    '/%2e%2e/client/index.html',
  ])('never serves a file outside the client folder for %s', async (url) => {
    const response = await app.inject({ method: 'GET', url });
    expect(response.statusCode, url).toBeLessThan(500);
    expect(response.body, url).not.toContain(SECRET);
    if (response.statusCode >= 400) expect(JSON.parse(response.body).message).toEqual(expect.any(String));
  });
});
