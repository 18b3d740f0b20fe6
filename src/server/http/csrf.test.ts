import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, openTestDatabase, testEngines } from '../../../testkit/server';
import { signedIn, type TestClient, uniquePhone } from '../../../testkit/testClient';
import type { Item } from '../../shared/item';
import { buildApp } from '../app';
import { type Database, rows, sql } from '../db/client';
import { anonymousToken } from './session';

const STATE_CHANGING = new Set(['POST', 'PATCH', 'PUT', 'DELETE']);
const MISMATCH = { message: 'CSRF token mismatch.' };

describe.each(testEngines())('anti-forgery (%s)', (engine) => {
  let harness: Awaited<ReturnType<typeof createTestApp>>;
  let client: TestClient;
  let item: Item;
  let routes: { method: string; url: string }[];
  beforeAll(async () => {
    harness = await createTestApp(engine);
    client = await signedIn(harness.app, 'Guarded');
    item = await client.create({ title: 'Guarded item', type: 'todo' });
    routes = harness.app.routeTable
      // A self-authenticated route's credential is its own, never the cookie: no cookie, no forgery.
      .filter((r) => STATE_CHANGING.has(r.method) && r.url.startsWith('/api/') && !r.selfAuthenticated)
      .map(({ method, url }) => ({ method, url }));
  });
  afterAll(() => harness?.close());

  const concrete = (url: string) => url.replace(':id', String(item.id));

  it('finds every state-changing API route in the route table', () => {
    const found = routes.map((r) => `${r.method} ${r.url}`);
    expect(found).toEqual(
      expect.arrayContaining([
        'POST /api/login',
        'POST /api/logout',
        'POST /api/items',
        'PATCH /api/items/:id',
        'DELETE /api/items/:id',
        'POST /api/items/:id/assign',
        'POST /api/contacts/sync',
      ]),
    );
  });

  it('answers 419 to every state-changing route without X-XSRF-TOKEN, even when signed in', async () => {
    for (const route of routes) {
      const response = await client.request({
        method: route.method,
        url: concrete(route.url),
        body: route.method === 'DELETE' ? undefined : {},
        xsrf: false,
      });
      expect(response.status, `${route.method} ${route.url}`).toBe(419);
      expect(response.body, `${route.method} ${route.url}`).toEqual(MISMATCH);
    }
  });

  it('answers 419 to every state-changing route with a wrong X-XSRF-TOKEN', async () => {
    const real = client.jar.get('XSRF-TOKEN') ?? '';
    const wrongs = [
      'wrong',
      `${real}x`,
      real.slice(0, -1),
      real.toUpperCase() === real ? 'a' : real.toUpperCase(),
    ];
    for (const route of routes) {
      for (const wrong of wrongs) {
        const response = await client.request({
          method: route.method,
          url: concrete(route.url),
          body: route.method === 'DELETE' ? undefined : {},
          xsrf: wrong,
        });
        expect(response.status, `${route.method} ${route.url} with ${wrong}`).toBe(419);
        expect(response.body).toEqual(MISMATCH);
      }
    }
  });

  it('changes nothing when a forged request is refused', async () => {
    expect(await client.item(item.id)).toMatchObject({
      title: 'Guarded item',
      version: 1,
      assigned_to: null,
    });
    expect((await client.get('/api/me')).status).toBe(200);
  });

  it("refuses another session's token", async () => {
    const other = await signedIn(harness.app, 'Other');
    const response = await client.request({
      method: 'PATCH',
      url: `/api/items/${item.id}`,
      body: { title: 'forged' },
      xsrf: other.jar.get('XSRF-TOKEN') ?? '',
    });
    expect(response.status).toBe(419);
  });

  it('refuses a write when the anti-forgery cookie was never fetched', async () => {
    const response = await harness.app.inject({
      method: 'POST',
      url: '/api/login',
      headers: { 'content-type': 'application/json', 'x-xsrf-token': 'anything' },
      payload: JSON.stringify({ phone: '5551234567', name: 'No cookie' }),
    });
    expect(response.statusCode).toBe(419);
    expect(JSON.parse(response.body)).toEqual(MISMATCH);
  });

  it('lets the same requests through with the right token', async () => {
    const response = await client.patch<Item>(`/api/items/${item.id}`, { title: 'Allowed' });
    expect(response.status).toBe(200);
    expect(response.body.title).toBe('Allowed');
  });
});

describe.each(testEngines())('anonymous sessions cost no row (%s)', (engine) => {
  let database: Database;
  let app: FastifyInstance;
  beforeAll(async () => {
    database = await openTestDatabase(engine);
    // Demo sign-in, with the per-address sign-in limit off so 200 sign-ins from one address pass.
    app = await buildApp({ database, config: { authMode: 'demo', loginsPerMinute: 0 } });
    await app.ready();
  });
  afterAll(async () => {
    await app.close();
    await database.close();
  });

  const sessionRows = async () =>
    (await rows<{ n: number }>(database.db, sql`SELECT count(*)::int AS n FROM sessions`))[0]?.n ?? -1;

  /** The cookie and anti-forgery token a cookieless visitor gets. */
  async function visit(): Promise<{ cookie: string; xsrf: string }> {
    const response = await app.inject({ method: 'GET', url: '/sanctum/csrf-cookie' });
    expect(response.statusCode).toBe(204);
    const session = response.cookies.find((c) => c.name === 'outpost_session')?.value ?? '';
    const xsrf = response.cookies.find((c) => c.name === 'XSRF-TOKEN')?.value ?? '';
    return { cookie: `outpost_session=${session}; XSRF-TOKEN=${xsrf}`, xsrf: decodeURIComponent(xsrf) };
  }

  const signIn = (visitor: { cookie: string; xsrf: string }, phone = uniquePhone()) =>
    app.inject({
      method: 'POST',
      url: '/api/login',
      headers: { cookie: visitor.cookie, 'x-xsrf-token': visitor.xsrf, 'content-type': 'application/json' },
      payload: JSON.stringify({ phone, name: 'Visitor' }),
    });

  it('creates no session row for 200 cookieless csrf-cookie requests, and each token signs in', async () => {
    const before = await sessionRows();
    const visitors = await Promise.all(Array.from({ length: 200 }, () => visit()));
    expect(await sessionRows()).toBe(before);
    expect(new Set(visitors.map((v) => v.cookie)).size).toBe(200);
    for (const visitor of visitors) {
      const response = await signIn(visitor);
      expect(response.statusCode, response.body).toBe(200);
    }
    // Each sign-in made one row (its session) and retired its anonymous token (one more).
    expect(await sessionRows()).toBe(before + 400);
  });

  it('keeps the token of a visitor who asks again, still without a row', async () => {
    const visitor = await visit();
    const before = await sessionRows();
    const again = await app.inject({
      method: 'GET',
      url: '/sanctum/csrf-cookie',
      headers: { cookie: visitor.cookie },
    });
    expect(again.statusCode).toBe(204);
    expect(decodeURIComponent(again.cookies.find((c) => c.name === 'XSRF-TOKEN')?.value ?? '')).toBe(
      visitor.xsrf,
    );
    expect(again.cookies.find((c) => c.name === 'outpost_session')).toBeUndefined();
    expect(await sessionRows()).toBe(before);
  });

  it('answers 419 to a forged anonymous token', async () => {
    const visitor = await visit();
    const token = /outpost_session=([^;]*)/.exec(visitor.cookie)?.[1] ?? '';
    const parts = token.split('.');
    const forgeries = [
      // Another random part under the same MAC.
      [parts[0], parts[1], `${parts[2]?.slice(0, -1)}${parts[2]?.endsWith('A') ? 'B' : 'A'}`, parts[3]].join(
        '.',
      ),
      // A later issue time under the same MAC.
      [parts[0], (Number.parseInt(parts[1] ?? '0', 36) + 1).toString(36), parts[2], parts[3]].join('.'),
      // No MAC at all.
      [parts[0], parts[1], parts[2]].join('.'),
      'a.0.0.0',
    ];
    for (const forged of forgeries) {
      const response = await signIn({ cookie: `outpost_session=${forged}`, xsrf: visitor.xsrf });
      expect(response.statusCode, forged).toBe(419);
      expect(JSON.parse(response.body)).toEqual(MISMATCH);
    }
  });

  it('answers 419 to an anonymous token past its 2 hours, or issued in the future', async () => {
    const [secret] = await rows<{ value: string }>(
      database.db,
      sql`SELECT value FROM server_secrets WHERE name = 'anonymous_session_key'`,
    );
    const key = Buffer.from(secret?.value ?? '', 'base64url');
    const withToken = ({ token, xsrfToken }: { token: string; xsrfToken: string }) => ({
      cookie: `outpost_session=${token}`,
      xsrf: xsrfToken,
    });
    const hour = 60 * 60 * 1000;
    // A token minted with the server's key a moment ago works: what follows fails for its age alone.
    expect((await signIn(withToken(anonymousToken(key, Date.now() - 2 * hour + 60_000)))).statusCode).toBe(
      200,
    );
    for (const issuedAt of [Date.now() - 2 * hour - 1000, Date.now() - 24 * hour, Date.now() + hour]) {
      const response = await signIn(withToken(anonymousToken(key, issuedAt)));
      expect(response.statusCode, new Date(issuedAt).toISOString()).toBe(419);
      expect(JSON.parse(response.body)).toEqual(MISMATCH);
    }
  });

  it('refuses a write with an anonymous token that a sign-in has retired, and gives a fresh one', async () => {
    const visitor = await visit();
    expect((await signIn(visitor)).statusCode).toBe(200);
    expect((await signIn(visitor)).statusCode).toBe(419);
    const fresh = await app.inject({
      method: 'GET',
      url: '/sanctum/csrf-cookie',
      headers: { cookie: visitor.cookie },
    });
    const token = fresh.cookies.find((c) => c.name === 'outpost_session')?.value;
    expect(token).toBeTruthy();
    expect(visitor.cookie).not.toContain(token);
  });
});
