import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase } from '../../../testkit/server';
import { signedIn, TestClient, uniquePhone } from '../../../testkit/testClient';
import { buildApp } from '../app';
import type { Database } from '../db/client';

describe('security headers and session cookies', () => {
  let database: Database;
  let app: FastifyInstance;
  beforeAll(async () => {
    database = await openTestDatabase('pglite');
    app = await buildApp({ database, config: { trustProxy: true, writesPerMinute: 5 } });
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

  it('limits writes per session with 429 and Retry-After, and leaves reads alone', async () => {
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
