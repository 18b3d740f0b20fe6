import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Item } from '../../shared/item';
import { BODY_LIMIT } from '../app';
import { signedIn, type TestClient } from '../testClient';
import { createTestApp, testEngines } from '../testing';

type ErrorBody = { message: string };

const BAD_IDS = ['abc', '-1', '0', '1.5', '99999999999999999999', '1e999', '%20', 'NaN', '0x10', "1'--"];

describe.each(testEngines())('bad input never makes a 5xx (%s)', (engine) => {
  let harness: Awaited<ReturnType<typeof createTestApp>>;
  let c: TestClient;
  let item: Item;
  beforeAll(async () => {
    harness = await createTestApp(engine);
    c = await signedIn(harness.app, 'Fuzzer');
    item = await c.create({ title: 'Target', type: 'campaign' });
  });
  afterAll(() => harness?.close());

  const expectClientError = (response: { status: number; body: unknown; text: string }, what: string) => {
    expect(response.status, `${what}: ${response.text}`).toBeGreaterThanOrEqual(400);
    expect(response.status, `${what}: ${response.text}`).toBeLessThan(500);
    expect((response.body as ErrorBody | undefined)?.message, what).toEqual(expect.any(String));
  };

  it('answers malformed JSON with 400 and a message', async () => {
    for (const payload of ['{', '{"title":', "{'title':'x'}", 'nope', '{"a":1}}']) {
      const response = await c.request({ method: 'POST', url: '/api/items', payload });
      expect(response.status, payload).toBe(400);
      expect((response.body as ErrorBody).message).toEqual(expect.any(String));
    }
  });

  it('answers arrays, strings, numbers and null as bodies with 4xx', async () => {
    const targets = [
      ['POST', '/api/items'],
      ['PATCH', `/api/items/${item.id}`],
      ['POST', `/api/items/${item.id}/assign`],
      ['POST', '/api/contacts/sync'],
      ['POST', '/api/login'],
    ] as const;
    for (const [method, url] of targets) {
      for (const body of [[], [1, 2], 'text', 42, null, true, {}]) {
        const response = await c.request({ method, url, body });
        expectClientError(response, `${method} ${url} ${JSON.stringify(body)}`);
      }
    }
    expect((await c.item(item.id)).version).toBe(1);
  });

  it('answers wrong types and unknown fields with 422', async () => {
    const bodies: Record<string, unknown>[] = [
      { title: 5, type: 'todo' },
      { title: ['a'], type: 'todo' },
      { title: 'x', type: 'todo', parent_id: 'one' },
      { title: 'x', type: 'todo', parent_id: 1.5 },
      { title: 'x', type: 'todo', parent_id: -3 },
      { title: 'x', type: 'todo', assigned_to: 99999999999 },
      { title: 'x', type: 'todo', due_date: 12 },
      { title: 'x', type: 'todo', due_date: '2024-13-45' },
      { title: 'x', type: 'todo', description: { a: 1 } },
      { title: 'x', type: 'todo', constructor: 'y' },
      { title: 'x', type: 'todo', toString: 'z', hasOwnProperty: 1 },
      { title: 'x', type: 'todo', id: 1 },
      { title: 'x', type: 'todo', version: 9 },
    ];
    for (const body of bodies) {
      const response = await c.post('/api/items', body);
      expect(response.status, JSON.stringify(body)).toBe(422);
      expectClientError(response, JSON.stringify(body));
    }
  });

  it('refuses a __proto__ key in a body without a 5xx', async () => {
    for (const payload of [
      '{"title":"x","type":"todo","__proto__":{"admin":true}}',
      '{"constructor":{"prototype":1}}',
    ]) {
      const response = await c.request({ method: 'POST', url: '/api/items', payload });
      expectClientError(response, payload);
    }
  });

  it('answers a body over 1 MB with 413 and a message', async () => {
    const response = await c.post<ErrorBody>('/api/items', {
      title: 'big',
      type: 'todo',
      description: 'x'.repeat(BODY_LIMIT + 10),
    });
    expect(response.status).toBe(413);
    expect(response.body.message).toMatch(/1 MB/);
  });

  it('answers a body that is not JSON with 415 and a message', async () => {
    const response = await c.request({
      method: 'POST',
      url: '/api/items',
      payload: 'title=x&type=todo',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expectClientError(response, 'form body');
  });

  it.each(BAD_IDS)('answers the id %j with 404 on every item route', async (id) => {
    const encoded = encodeURIComponent(id);
    const attempts = [
      await c.get(`/api/items/${encoded}`),
      await c.patch(`/api/items/${encoded}`, { title: 'x' }),
      await c.delete(`/api/items/${encoded}`),
      await c.post(`/api/items/${encoded}/assign`, { user_id: 0 }),
      await c.get(`/api/campaigns/${encoded}/activity`),
    ];
    for (const response of attempts) {
      expect(response.status, `${id}: ${response.text}`).toBe(404);
      expectClientError(response, id);
    }
  });

  it.each([
    '/api/items?type=task&type=todo',
    '/api/items?status=done',
    '/api/items?page=0',
    '/api/items?page=-1',
    '/api/items?page=99999999999999999999',
    '/api/items?page=1e400',
    '/api/items?per_page=0',
    '/api/items?per_page=abc',
    '/api/items?per_page=99999999999999999999999',
    '/api/items?parent_id=-5',
    '/api/items?parent_id=99999999999999999999',
    '/api/items?parent_id[]=1',
    '/api/items?page=1&page=2',
    '/api/items?foo=bar',
    '/api/items/search?q=ab&q=cd',
    `/api/items/search?q=${'x'.repeat(500)}`,
    '/api/sync?cursor=garbage',
    '/api/sync?cursor=c1.zzzzzzzzzzzzzz.zzzzzzz',
    '/api/sync?cursor=a&cursor=b',
    '/api/campaigns/1/activity?page=abc',
    '/api/campaigns/1/activity?page=99999999999999999999',
  ])('answers the query %s with a 4xx and a message, or a normal answer', async (url) => {
    const response = await c.get(url);
    expect(response.status, response.text).toBeLessThan(500);
    if (response.status >= 400) expectClientError(response, url);
  });

  it('ignores or refuses strange headers without a 5xx', async () => {
    const headerSets: Record<string, string>[] = [
      { 'if-match': 'garbage' },
      { 'if-match': '"99999999999999999999"' },
      { 'if-match': 'W/"1"' },
      { 'idempotency-key': '' },
      { 'idempotency-key': ' ' },
      { 'content-type': 'application/json; charset=latin1' },
    ];
    for (const headers of headerSets) {
      const response = await c.patch(`/api/items/${item.id}`, { description: 'h' }, headers);
      expect(response.status, `${JSON.stringify(headers)}: ${response.text}`).toBeLessThan(500);
    }
  });

  it('never answers 5xx to random bodies, ids, queries and headers on any route of the route table', async () => {
    const routes = harness.app.routeTable
      .filter((r) => r.url.startsWith('/api/') || r.url.startsWith('/sanctum/'))
      // Signing out would only turn the rest of the run into 401s; it is covered on its own.
      .filter((r) => r.url !== '/api/logout' && r.url !== '/api/events');
    expect(routes.length).toBeGreaterThan(15);
    const printable = fc.string({
      unit: fc.constantFrom(...Array.from('abcXYZ019 -_%.,:"\'/\\{}[]<>éΩ🙂')),
      maxLength: 40,
    });
    const id = fc.oneof(
      fc.constantFrom(...BAD_IDS, String(item.id), '1', '2147483647', '2147483648'),
      fc.integer().map(String),
      printable.filter((s) => s.length > 0),
    );
    const query = fc.array(
      fc.tuple(
        fc.constantFrom('type', 'status', 'parent_id', 'page', 'per_page', 'q', 'cursor', 'x', 'user_id'),
        fc.oneof(printable, fc.integer().map(String), fc.double().map(String), fc.constant('')),
      ),
      { maxLength: 4 },
    );
    const body = fc.oneof(
      fc.jsonValue({ maxDepth: 3 }),
      fc.record(
        {
          title: fc.oneof(printable, fc.jsonValue({ maxDepth: 1 })),
          type: fc.oneof(fc.constantFrom('campaign', 'task', 'todo'), printable),
          status: fc.oneof(
            fc.constantFrom('pending', 'in_progress', 'completed'),
            fc.jsonValue({ maxDepth: 1 }),
          ),
          parent_id: fc.oneof(fc.integer(), fc.constant(item.id), fc.jsonValue({ maxDepth: 1 })),
          assigned_to: fc.oneof(fc.integer({ min: -2, max: 6 }), fc.jsonValue({ maxDepth: 1 })),
          user_id: fc.oneof(fc.integer({ min: -2, max: 6 }), fc.jsonValue({ maxDepth: 1 })),
          due_date: fc.oneof(
            printable,
            fc.date({ noInvalidDate: true }).map((d) => d.toISOString()),
          ),
          contacts: fc.array(fc.oneof(printable, fc.jsonValue({ maxDepth: 1 })), { maxLength: 5 }),
          phone: printable,
          name: printable,
        },
        { requiredKeys: [] },
      ),
    );
    const headers = fc.record(
      {
        'if-match': fc.oneof(
          printable,
          fc.nat().map((n) => `"${n}"`),
        ),
        'idempotency-key': printable,
      },
      { requiredKeys: [] },
    );

    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...routes),
        id,
        query,
        body,
        headers,
        fc.boolean(),
        async (route, rawId, params, json, extra, withBody) => {
          const path = route.url.replace(':id', encodeURIComponent(rawId));
          const search = params
            .map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`)
            .join('&');
          const url = search ? `${path}?${search}` : path;
          const sendsBody = withBody && route.method !== 'GET' && route.method !== 'HEAD';
          const response = await c.request({
            method: route.method,
            url,
            headers: extra,
            ...(sendsBody ? { body: json } : {}),
          });
          expect(
            response.status,
            `${route.method} ${url} ${JSON.stringify(json)}: ${response.text}`,
          ).toBeLessThan(500);
          if (response.status >= 400 && route.method !== 'HEAD') {
            expect((response.body as ErrorBody | undefined)?.message, `${route.method} ${url}`).toEqual(
              expect.any(String),
            );
          }
          if (route.url === '/api/login' && response.status === 200) await c.login(c.user?.phone ?? '', 'x');
        },
      ),
      { numRuns: 150 },
    );
  });
});
