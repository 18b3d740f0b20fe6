import type { FastifyInstance } from 'fastify';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestApp, openTestDatabase, testEngines } from '../../../testkit/server';
import { signedIn, TestClient, uniquePhone } from '../../../testkit/testClient';
import type { Item } from '../../shared/item';
import { BODY_LIMIT, buildApp } from '../app';
import type { Database } from '../db/client';
import { MAX_JSON_DEPTH } from './jsonBody';

type ErrorBody = { message: string };

/** The probe's body: 1 MB of JSON nested 520,000 levels deep. */
const DEEP = `${'['.repeat(520_000)}${']'.repeat(520_000)}`;

/** Records the length of every text JSON.parse gets, so a test can tell whether a big body was parsed. */
function watchJsonParse() {
  const lengths: number[] = [];
  const original = JSON.parse;
  const spy = vi
    .spyOn(JSON, 'parse')
    .mockImplementation((text: string, reviver?: Parameters<typeof JSON.parse>[1]) => {
      lengths.push(String(text).length);
      return original(text, reviver);
    });
  return { parsedBig: () => lengths.some((n) => n >= 1_000_000), restore: () => spy.mockRestore() };
}

describe.each(testEngines())('refusals come before the body is read (%s)', (engine) => {
  let harness: Awaited<ReturnType<typeof createTestApp>>;
  let member: TestClient;
  let item: Item;
  beforeAll(async () => {
    harness = await createTestApp(engine);
    member = await signedIn(harness.app, 'Member');
    item = await member.create({ title: 'Kept', type: 'todo' });
  });
  afterAll(() => harness?.close());
  afterEach(() => vi.restoreAllMocks());

  it('answers an unauthenticated POST with a malformed JSON body 419, not 400: it never parsed it', async () => {
    expect(DEEP.length).toBeLessThanOrEqual(BODY_LIMIT);
    const stranger = new TestClient(harness.app);
    // No cookie at all, then the anonymous session's cookie without the header.
    expect((await stranger.request({ method: 'POST', url: '/api/items', payload: '{' })).status).toBe(419);
    await stranger.csrf();
    for (const [method, url] of [
      ['POST', '/api/items'],
      ['PATCH', `/api/items/${item.id}`],
      ['POST', '/api/login'],
      ['POST', '/api/contacts/sync'],
    ] as const) {
      const response = await stranger.request<ErrorBody>({ method, url, payload: '{"title":', xsrf: false });
      expect(response.status, `${method} ${url}`).toBe(419);
      expect(response.body).toEqual({ message: 'CSRF token mismatch.' });
    }
    // With the token but without a signed-in session: 401, still before the body.
    const noSession = await stranger.request<ErrorBody>({ method: 'POST', url: '/api/items', payload: '{' });
    expect(noSession.status).toBe(401);
    expect(noSession.body).toEqual({ message: 'Unauthenticated.' });
    // A signed-in caller with the token gets as far as the parser.
    expect((await member.request({ method: 'POST', url: '/api/items', payload: '{' })).status).toBe(400);
    // The sign-in route is public: with the token its body is read, and a broken one is a 400.
    expect((await stranger.request({ method: 'POST', url: '/api/login', payload: '{' })).status).toBe(400);
  });

  it('refuses a 1 MB body nested 520,000 levels deep from a caller without a session without parsing it', async () => {
    const watch = watchJsonParse();
    const stranger = new TestClient(harness.app);
    const forged = await stranger.request<ErrorBody>({ method: 'POST', url: '/api/items', payload: DEEP });
    await stranger.csrf();
    const withoutToken = await stranger.request<ErrorBody>({
      method: 'POST',
      url: '/api/login',
      payload: DEEP,
      xsrf: false,
    });
    const withoutSession = await stranger.request<ErrorBody>({
      method: 'PATCH',
      url: `/api/items/${item.id}`,
      payload: DEEP,
    });
    watch.restore();
    expect(forged.status).toBe(419);
    expect(withoutToken.status).toBe(419);
    expect(withoutSession.status).toBe(401);
    expect(watch.parsedBig(), 'a refused body was handed to JSON.parse').toBe(false);
  });

  it('answers JSON nested deeper than the limit with 400 and a message before parsing it, for anyone', async () => {
    const watch = watchJsonParse();
    const started = performance.now();
    const deep = await member.request<ErrorBody>({ method: 'POST', url: '/api/items', payload: DEEP });
    const elapsed = performance.now() - started;
    watch.restore();
    expect(deep.status).toBe(400);
    expect(deep.body.message).toBe(`The JSON body is nested deeper than ${MAX_JSON_DEPTH} levels.`);
    expect(watch.parsedBig()).toBe(false);
    // Parsing it took ~200 ms of CPU; the scan stops at level 65. Generous, for a busy machine.
    expect(elapsed).toBeLessThan(150);
    const login = new TestClient(harness.app);
    await login.csrf();
    const publicRoute = await login.request<ErrorBody>({ method: 'POST', url: '/api/login', payload: DEEP });
    expect(publicRoute.status).toBe(400);
    expect(publicRoute.body.message).toMatch(/nested deeper/);
  });

  it('counts only brackets outside strings, and takes nesting up to the limit', async () => {
    const nested = (depth: number) => `${'['.repeat(depth - 1)}${']'.repeat(depth - 1)}`;
    // Depth 64 in all (the object and 63 arrays) reaches the schema, which refuses the type: 422.
    const atLimit = await member.request<{ errors: Record<string, string[]> }>({
      method: 'POST',
      url: '/api/items',
      payload: `{"title":"x","type":"todo","description":${nested(MAX_JSON_DEPTH)}}`,
    });
    expect(atLimit.status, atLimit.text).toBe(422);
    expect(Object.keys(atLimit.body.errors)).toEqual(['description']);
    const overLimit = await member.request({
      method: 'POST',
      url: '/api/items',
      payload: `{"title":"x","type":"todo","description":${nested(MAX_JSON_DEPTH + 1)}}`,
    });
    expect(overLimit.status).toBe(400);
    // Brackets, braces, quotes and backslashes inside strings are text, not nesting.
    const title = `${'[{'.repeat(100)}\\"[[ \\\\`;
    const created = await member.post<Item>('/api/items', {
      title,
      type: 'todo',
      description: '}'.repeat(80),
    });
    expect(created.status, created.text).toBe(201);
    expect(created.body.title).toBe(title);
  });

  it('still refuses __proto__ and constructor.prototype keys and empty JSON bodies with 400', async () => {
    for (const payload of [
      '{"title":"x","type":"todo","__proto__":{"a":1}}',
      '{"constructor":{"prototype":{}}}',
      '',
    ]) {
      const response = await member.request<ErrorBody>({ method: 'POST', url: '/api/items', payload });
      expect(response.status, payload).toBe(400);
      expect(response.body.message).toEqual(expect.any(String));
    }
  });

  it('answers an unknown route with a JSON 404 before reading its body, signed in or not', async () => {
    const watch = watchJsonParse();
    const anonymous = await harness.app.inject({
      method: 'POST',
      url: '/api/nothing',
      headers: { 'content-type': 'application/json' },
      payload: DEEP,
    });
    const known = await member.request<ErrorBody>({ method: 'PUT', url: '/api/items/1/x', payload: DEEP });
    watch.restore();
    expect(anonymous.statusCode).toBe(404);
    expect(JSON.parse(anonymous.body).message).toBe('No route POST /api/nothing.');
    expect(known.status).toBe(404);
    expect(watch.parsedBig()).toBe(false);
  });
});

describe.each(testEngines())('writes without a session are rate limited per address (%s)', (engine) => {
  let database: Database;
  let app: FastifyInstance;
  beforeAll(async () => {
    database = await openTestDatabase(engine);
    app = await buildApp({ database, config: { anonymousWritesPerMinute: 3 } });
    await app.ready();
  });
  afterAll(async () => {
    await app?.close();
    await database?.close();
  });

  it('does not count sign-ins that work', async () => {
    for (let i = 0; i < 8; i++) await new TestClient(app).login(uniquePhone(), `Signer ${i}`);
  });

  it('answers 429 with Retry-After past the limit of refused writes, and leaves signed-in callers alone', async () => {
    const member = await signedIn(app, 'Member');
    const flood = new TestClient(app);
    const statuses: number[] = [];
    for (let i = 0; i < 3; i++) {
      statuses.push((await flood.request({ method: 'POST', url: '/api/items', payload: '{' })).status);
    }
    expect(statuses).toEqual([419, 419, 419]);
    const limited = await flood.request<ErrorBody>({ method: 'POST', url: '/api/items', payload: '{' });
    expect(limited.status).toBe(429);
    expect(limited.body.message).toMatch(/^Too many refused requests from this address/);
    const retryAfter = Number(limited.headers['retry-after']);
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(60);
    // Every write without a session from the address waits now, a sign-in included …
    const stranger = new TestClient(app);
    await stranger.csrf();
    const signIn = await stranger.post('/api/login', { phone: uniquePhone(), name: 'Late' });
    expect(signIn.status).toBe(429);
    expect(signIn.headers['retry-after']).toEqual(expect.any(String));
    // … but reads, and a signed-in caller's writes, go on.
    expect((await stranger.get('/api/auth/mode')).status).toBe(200);
    expect((await member.post('/api/items', { title: 'Still fine', type: 'todo' })).status).toBe(201);
  });
});

describe('the anonymous write limit with the default settings', () => {
  let database: Database;
  let app: FastifyInstance;
  beforeAll(async () => {
    database = await openTestDatabase('pglite');
    app = await buildApp({ database });
    await app.ready();
  });
  afterAll(async () => {
    await app?.close();
    await database?.close();
  });

  it('lets one address sign in 40 people in a minute, as demo mode needs', async () => {
    expect(app.config.anonymousWritesPerMinute).toBe(120);
    for (let i = 0; i < 40; i++) await new TestClient(app).login(uniquePhone(), `Demo ${i}`);
  });
});
