import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Mutual } from '../../shared/item';
import { TestClient } from '../testClient';
import { createTestApp, testEngines } from '../testing';

describe.each(testEngines())('contacts (%s)', (engine) => {
  let harness: Awaited<ReturnType<typeof createTestApp>>;
  let ana: TestClient;
  let ben: TestClient;
  let cal: TestClient;
  beforeAll(async () => {
    harness = await createTestApp(engine);
    ana = new TestClient(harness.app);
    ben = new TestClient(harness.app);
    cal = new TestClient(harness.app);
    await ana.login('(303) 555-0101', 'Ana');
    await ben.login('303-555-0102', 'Ben');
    await cal.login('3035550103', 'Cal');
  });
  afterAll(() => harness?.close());

  const mutuals = async (client: TestClient) => {
    const response = await client.get<{ mutuals: Mutual[] }>('/api/contacts/mutuals');
    expect(response.status).toBe(200);
    return response.body.mutuals;
  };

  it('counts the distinct normalised phones, ignoring duplicates and non-phones', async () => {
    const response = await ana.post<{ count: number }>('/api/contacts/sync', {
      contacts: [
        '+1 (303) 555-0102',
        '3035550102',
        '303.555.0102',
        '3035550103',
        'not a phone',
        '12',
        '',
        '3035550199',
      ],
    });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ count: 3 });
  });

  it('answers count 0 for an empty list', async () => {
    const response = await cal.post<{ count: number }>('/api/contacts/sync', { contacts: [] });
    expect(response.body).toEqual({ count: 0 });
  });

  it('lists as mutuals only people who have each other', async () => {
    // Ana has Ben and Cal; nobody has Ana yet.
    expect(await mutuals(ana)).toEqual([]);
    await ben.post('/api/contacts/sync', { contacts: ['303 555 0101'] });
    expect(await mutuals(ana)).toEqual([{ id: ben.user?.id, name: 'Ben', phone: '+13035550102' }]);
    expect(await mutuals(ben)).toEqual([{ id: ana.user?.id, name: 'Ana', phone: '+13035550101' }]);
    // Cal is in Ana's book but has not added Ana: one-way is not mutual.
    expect(await mutuals(cal)).toEqual([]);
    await cal.post('/api/contacts/sync', { contacts: ['+13035550101'] });
    expect((await mutuals(ana)).map((m) => m.name)).toEqual(['Ben', 'Cal']);
    expect((await mutuals(ben)).map((m) => m.name)).toEqual(['Ana']);
  });

  it.each([
    ['no contacts field', {}],
    ['contacts that are not a list', { contacts: '3035550102' }],
    ['contacts that are not strings', { contacts: [3035550102] }],
    ['an unknown field', { contacts: [], extra: true }],
  ])('refuses %s with 422', async (_case, body) => {
    const response = await ana.post<{ message: string }>('/api/contacts/sync', body);
    expect(response.status).toBe(422);
    expect(response.body.message).toEqual(expect.any(String));
  });
});
