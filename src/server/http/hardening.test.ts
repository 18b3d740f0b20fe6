import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase, testEngines } from '../../../testkit/server';
import { signedIn, TestClient, uniquePhone } from '../../../testkit/testClient';
import { buildApp } from '../app';
import type { Database } from '../db/client';
import { loadConfig } from '../env';

describe('security headers and session cookies', () => {
  let database: Database;
  let app: FastifyInstance;
  beforeAll(async () => {
    database = await openTestDatabase('pglite');
    app = await buildApp({ database, config: { trustProxy: 1, writesPerMinute: 5 } });
    await app.ready();
  });
  afterAll(async () => {
    await app.close();
    await database.close();
  });

  it('sends the security headers on API answers and errors', async () => {
    for (const url of ['/api/health', '/api/me', '/api/nothing']) {
      const response = await app.inject({ url });
      const csp = String(response.headers['content-security-policy']);
      expect(csp).toContain("object-src 'none'");
      expect(csp).toContain("base-uri 'none'");
      expect(csp).toContain("frame-ancestors 'none'");
      expect(csp).toMatch(/script-src 'self'(;|$)/);
      expect(response.headers['x-content-type-options']).toBe('nosniff');
      expect(response.headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
      expect(response.headers['strict-transport-security']).toBeUndefined();
    }
  });

  it('marks cookies HttpOnly and SameSite=Lax over plain HTTP', async () => {
    const response = await app.inject({ url: '/sanctum/csrf-cookie' });
    const cookies = ([] as string[]).concat(response.headers['set-cookie'] ?? []);
    const session = cookies.find((c) => c.startsWith('outpost_session='));
    expect(session).toMatch(/HttpOnly/);
    expect(session).toMatch(/SameSite=Lax/);
    expect(session).not.toMatch(/Secure/);
    const xsrf = cookies.find((c) => c.startsWith('XSRF-TOKEN='));
    expect(xsrf).not.toMatch(/HttpOnly/);
  });

  it('behind HTTPS uses a Secure __Host- session cookie and sends HSTS', async () => {
    const response = await app.inject({
      url: '/sanctum/csrf-cookie',
      headers: { 'x-forwarded-proto': 'https' },
    });
    const cookies = ([] as string[]).concat(response.headers['set-cookie'] ?? []);
    const session = cookies.find((c) => c.startsWith('__Host-outpost_session='));
    expect(session).toMatch(/Secure/);
    expect(session).toMatch(/Path=\//);
    expect(session).not.toMatch(/Domain=/);
    expect(response.headers['strict-transport-security']).toContain('max-age=');
  });

  it('limits writes per person with 429 and Retry-After, and leaves reads alone', async () => {
    const client = await signedIn(app, 'Busy');
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++)
      statuses.push((await client.post('/api/items', { title: `T${i}`, type: 'todo' })).status);
    expect(statuses).toEqual([201, 201, 201, 201, 201, 429]);
    const limited = await client.post<{ message: string }>('/api/items', { title: 'again', type: 'todo' });
    expect(limited.body.message).toMatch(/Too many/);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect((await client.get('/api/items')).status).toBe(200);
  });
});

describe('sessions expire after inactivity', () => {
  let database: Database;
  let app: FastifyInstance;
  beforeAll(async () => {
    database = await openTestDatabase('pglite');
    app = await buildApp({ database, config: { sessionIdleMinutes: 30, sessionCacheMs: 0 } });
    await app.ready();
  });
  afterAll(async () => {
    await app.close();
    await database.close();
  });

  it('answers 401 once the session has been idle longer than the limit', async () => {
    const client = new TestClient(app);
    await client.login(uniquePhone(), 'Idle');
    expect((await client.get('/api/me')).status).toBe(200);
    const { sql } = await import('drizzle-orm');
    await database.db.execute(sql`UPDATE sessions SET last_seen_at = now() - interval '31 minutes'`);
    expect((await client.get('/api/me')).status).toBe(401);
  });
});

describe('sign-in limit behind a proxy', () => {
  let database: Database;
  let app: FastifyInstance;
  beforeAll(async () => {
    database = await openTestDatabase('pglite');
    const { trustProxy } = loadConfig({ TRUST_PROXY: '1' });
    app = await buildApp({ database, config: { trustProxy, loginsPerMinute: 5 } });
    await app.ready();
  });
  afterAll(async () => {
    await app.close();
    await database.close();
  });

  /** Signs in once, as through a proxy that appends the address it saw to the client's X-Forwarded-For. */
  const signIn = async (claimed: string, seenByProxy: string) => {
    const client = new TestClient(app);
    await client.csrf();
    const response = await client.request({
      method: 'POST',
      url: '/api/login',
      body: { phone: uniquePhone(), name: 'Rotor' },
      headers: { 'x-forwarded-for': `${claimed}, ${seenByProxy}` },
    });
    return response;
  };

  it('counts sign-ins by the address the proxy saw, however the client rotates X-Forwarded-For, with TRUST_PROXY=1 (F12)', async () => {
    const statuses: number[] = [];
    for (let i = 1; i <= 7; i++) statuses.push((await signIn(`198.51.100.${i}`, '203.0.113.7')).status);
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429, 429]);
    const limited = await signIn('198.51.100.99', '203.0.113.7');
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    // Another client behind the same proxy has its own budget.
    expect((await signIn('198.51.100.1', '203.0.113.8')).status).toBe(200);
  });

  it('counts sign-ins by the address the listed proxy saw when TRUST_PROXY names the proxy (F12)', async () => {
    const { trustProxy } = loadConfig({ TRUST_PROXY: '127.0.0.1' });
    const listed = await buildApp({ database, config: { trustProxy, loginsPerMinute: 2 } });
    const statuses: number[] = [];
    for (let i = 1; i <= 3; i++) {
      const client = new TestClient(listed);
      await client.csrf();
      const response = await client.request({
        method: 'POST',
        url: '/api/login',
        body: { phone: uniquePhone(), name: 'Listed' },
        headers: { 'x-forwarded-for': `198.51.100.${i}, 203.0.113.9` },
      });
      statuses.push(response.status);
    }
    expect(statuses).toEqual([200, 200, 429]);
    await listed.close();
  });
});

describe.each(testEngines())('while the database is down (%s)', (engine) => {
  it('answers 503 with a message and Retry-After (F12)', async () => {
    const database = await openTestDatabase(engine);
    const app = await buildApp({ database, config: { sessionCacheMs: 0 } });
    await app.ready();
    const client = await signedIn(app, 'Patient');
    await database.close();
    for (const [method, url] of [
      ['GET', '/api/health'],
      ['GET', '/api/me'],
      ['POST', '/api/items'],
    ] as const) {
      const response = await client.request<{ message: string }>({
        method,
        url,
        ...(method === 'POST' ? { body: { title: 'x', type: 'todo' } } : {}),
      });
      expect(response.status, `${method} ${url}`).toBe(503);
      expect(response.body.message).toEqual(expect.any(String));
      expect(Number(response.headers['retry-after']), `${method} ${url}`).toBeGreaterThan(0);
    }
    await app.close();
  });
});
