import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Item } from '../../shared/item';
import { signedIn, type TestClient } from '../testClient';
import { createTestApp, testEngines } from '../testing';

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
      .filter((r) => STATE_CHANGING.has(r.method) && r.url.startsWith('/api/'))
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
