import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fuzzRoutes } from '../../../testkit/fuzz';
import { createTestApp, testEngines } from '../../../testkit/server';
import { signedIn, TestClient } from '../../../testkit/testClient';
import type { Item } from '../../shared/item';
import { BODY_LIMIT } from '../app';

type ErrorBody = { message: string };

// Cases per route in the random sweep; FUZZ_RUNS=1000 for a long run under vitest.
const FUZZ_RUNS = Number(process.env.FUZZ_RUNS) > 0 ? Number(process.env.FUZZ_RUNS) : 30;

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

  it('answers a body nested thousands deep on a write with an Idempotency-Key without a 5xx', async () => {
    const payload = `${'['.repeat(20_000)}${']'.repeat(20_000)}`;
    for (const [method, url] of [
      ['DELETE', '/api/items/999999'],
      ['POST', '/api/items'],
      ['PATCH', '/api/items/999999'],
    ] as const) {
      const response = await c.request({
        method,
        url,
        payload,
        headers: { 'idempotency-key': crypto.randomUUID() },
      });
      expectClientError(response, `${method} ${url}`);
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
      // A NUL byte cannot be stored in PostgreSQL text; the fuzzer found it answering 503.
      { 'idempotency-key': 'a\u0000b' },
      { 'idempotency-key': 'tab\there' },
      // A lone surrogate after other non-ASCII text failed the embedded engine's insert (a 503).
      { 'idempotency-key': '{ /Ωb+"é\udc00' },
      { 'idempotency-key': 'Ω\udc00' },
      { 'content-type': 'application/json; charset=latin1' },
    ];
    for (const headers of headerSets) {
      const response = await c.patch(`/api/items/${item.id}`, { description: 'h' }, headers);
      expect(response.status, `${JSON.stringify(headers)}: ${response.text}`).toBeLessThan(500);
    }
  });

  // PostgreSQL text cannot hold NUL (the insert failed and the error handler said 503, which offline
  // clients retry forever), and a lone surrogate was stored as U+FFFD: both are a 422 naming the field.
  describe('text PostgreSQL cannot store', () => {
    type Invalid = { message: string; errors: Record<string, string[]> };
    const NUL = /NUL character/;
    const SURROGATE = /unpaired surrogate/;
    const expect422 = (
      response: { status: number; body: unknown; text: string },
      field: string,
      message: RegExp,
    ) => {
      expect(response.status, response.text).toBe(422);
      const body = response.body as Invalid;
      expect(body.message).toMatch(message);
      expect(body.errors, response.text).toEqual({ [field]: [expect.stringMatching(message)] });
    };

    it('answers a NUL in a title, description, name, phone, contact or search with 422, not 503', async () => {
      const before = await c.item(item.id);
      expect422(await c.post('/api/items', { title: 'a\u0000b', type: 'todo' }), 'title', NUL);
      expect422(
        await c.post('/api/items', { title: 'ok', type: 'todo', description: '\u0000' }),
        'description',
        NUL,
      );
      expect422(await c.patch(`/api/items/${item.id}`, { title: 'x\u0000' }), 'title', NUL);
      expect422(await c.patch(`/api/items/${item.id}`, { description: 'x\u0000y' }), 'description', NUL);
      expect422(
        await c.post('/api/contacts/sync', { contacts: ['+12025550100', '555\u00001234'] }),
        'contacts.1',
        NUL,
      );
      expect422(await c.get('/api/items/search?q=ab%00cd'), 'q', NUL);
      const stranger = new TestClient(harness.app);
      await stranger.csrf();
      expect422(await stranger.post('/api/login', { phone: '+12025550123', name: 'Eve\u0000' }), 'name', NUL);
      expect422(
        await stranger.post('/api/login', { phone: '+1202555\u00000123', name: 'Eve' }),
        'phone',
        NUL,
      );
      expect((await stranger.get('/api/me')).status).toBe(401);
      expect((await c.item(item.id)).version).toBe(before.version);
    });

    it.each([
      ['a high', '\\ud800'],
      ['a low', '\\udc00'],
      ['a reversed pair of', '\\ude00\\ud83d'],
    ])(
      'answers %s surrogate in a title, description or contact with 422 instead of storing U+FFFD',
      async (_, escaped) => {
        const before = await c.item(item.id);
        for (const [method, url, payload, field] of [
          ['POST', '/api/items', `{"title":"a${escaped}b","type":"todo"}`, 'title'],
          ['POST', '/api/items', `{"title":"ok","type":"todo","description":"${escaped}"}`, 'description'],
          ['PATCH', `/api/items/${item.id}`, `{"title":"${escaped}"}`, 'title'],
          ['POST', '/api/contacts/sync', `{"contacts":["${escaped}"]}`, 'contacts.0'],
        ] as const) {
          expect422(await c.request({ method, url, payload }), field, SURROGATE);
        }
        expect((await c.item(item.id)).version).toBe(before.version);
      },
    );

    it('still stores a real astral character', async () => {
      const created = await c.create({ title: 'Plan 🙂', type: 'todo', description: '\u{1f600}' });
      expect(created.title).toBe('Plan 🙂');
      expect(created.description).toBe('😀');
    });

    it.each([
      ['a zero-width space', '\u200b'],
      ['zero-width joiners and spaces', ' \u200c\u200d '],
      ['a word joiner and a byte order mark', '\u2060\ufeff'],
      ['white space', ' \t '],
    ])('treats a title of only %s as empty: The title is required.', async (_, title) => {
      const created = await c.post<Invalid>('/api/items', { title, type: 'todo' });
      expect(created.status, created.text).toBe(422);
      expect(created.body).toEqual({
        message: 'The title is required.',
        errors: { title: ['The title is required.'] },
      });
      const patched = await c.patch<Invalid>(`/api/items/${item.id}`, { title });
      expect(patched.status, patched.text).toBe(422);
      expect(patched.body.errors).toEqual({ title: ['The title is required.'] });
      expect((await c.item(item.id)).title).toBe('Target');
    });
  });

  it('refuses an anonymous body of 60,000 unknown keys with a short 400 instead of listing every key (F1)', async () => {
    const stranger = new TestClient(harness.app);
    await stranger.csrf();
    const body: Record<string, number> = {};
    for (let i = 0; i < 60_000; i++) body[`k${i}`] = 1;
    for (const url of ['/api/login/code', '/api/login']) {
      const response = await stranger.post<ErrorBody>(url, body);
      expect(response.status, url).toBe(400);
      expect(response.body.message).toMatch(/keys/);
      expect(response.text.length, url).toBeLessThan(300);
    }
    const signedInToo = await c.post<ErrorBody>('/api/items', { title: 'x', type: 'todo', ...body });
    expect(signedInToo.status).toBe(400);
    expect(signedInToo.text.length).toBeLessThan(300);
  });

  it('refuses a body whose keys are spread over many small objects when there are too many in all (F1)', async () => {
    const items = Array.from({ length: 190 }, (_, i) => {
      const entry: Record<string, number> = {};
      for (let k = 0; k < 60; k++) entry[`k${i}_${k}`] = 1;
      return entry;
    });
    const response = await c.post<ErrorBody>('/api/items/batch', { items });
    expect(response.status, response.text.slice(0, 200)).toBe(400);
    expect(response.text.length).toBeLessThan(300);
  });

  it('lists at most 20 fields in a 422 and counts the rest in its message (F1)', async () => {
    const body: Record<string, unknown> = { title: 'x', type: 'todo' };
    for (let i = 0; i < 150; i++) body[`extra${i}`] = 1;
    const response = await c.post<ErrorBody & { errors: Record<string, string[]> }>('/api/items', body);
    expect(response.status).toBe(422);
    expect(Object.keys(response.body.errors)).toHaveLength(20);
    expect(response.body.errors.extra0).toEqual(['The extra0 field is not allowed.']);
    expect(response.body.message).toBe('The extra0 field is not allowed. (and 149 more errors)');
    expect(response.text.length).toBeLessThan(2000);
  });

  it('never answers 5xx to random bodies, ids, queries and headers on any route of the route table', async () => {
    expect(harness.app.routeTable.length).toBeGreaterThan(15);
    // A few seconds here; `npm run bench -- fuzz` runs the same fuzzer at 1,000+ cases a route.
    const result = await fuzzRoutes(harness.app, { runsPerRoute: FUZZ_RUNS });
    const report = result.failures
      .map((f) => `${f.problem} ${f.status}: ${f.sent}\n  → ${f.answer}`)
      .join('\n');
    expect(result.cases).toBe(FUZZ_RUNS * harness.app.routeTable.length);
    // NUL and lone surrogates of both halves in every body field, query and path parameter.
    expect(result.sweepCases).toBeGreaterThan(harness.app.routeTable.length * 3);
    expect(result.serverErrors, report).toBe(0);
    expect(result.missingMessage, report).toBe(0);
    // Every route of the table, for every kind of caller: longer than the default on a busy machine.
  }, 120_000);
});
