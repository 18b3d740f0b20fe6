import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestApp, openTestDatabase, testEngines } from '../../../testkit/server';
import { TestClient } from '../../../testkit/testClient';
import type { Mutual } from '../../shared/item';
import { CONTACTS_PER_REQUEST } from '../../shared/schemas';
import { buildApp } from '../app';
import { NORMALIZE_CHUNK } from './routes';

// Every phone normalisation is recorded with the event-loop turn it ran in (the real function does
// the work), so a test can see whether one request hogs the loop for its whole address book.
const loop = vi.hoisted(() => ({ turn: 0, calls: [] as number[] }));
vi.mock('../../shared/phone', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../../shared/phone')>();
  return {
    ...actual,
    normalizePhone: (...args: Parameters<typeof actual.normalizePhone>) => {
      loop.calls.push(loop.turn);
      return actual.normalizePhone(...args);
    },
  };
});

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

  it('names the sample users the server seeded beside the mutuals, and none where it seeds none', async () => {
    const seeded = await ana.get<{ samples: Mutual[] }>('/api/contacts/mutuals');
    expect(seeded.body.samples.map((s) => s.name)).toEqual([
      'Alex Morgan',
      'Sam Rivera',
      'Jordan Lee',
      'Taylor Kim',
    ]);

    const database = await openTestDatabase(engine);
    const bare = await buildApp({ database, config: { seedSampleUsers: false } });
    try {
      const dee = new TestClient(bare);
      await dee.login('3035550199', 'Dee');
      const response = await dee.get<{ mutuals: Mutual[]; samples: Mutual[] }>('/api/contacts/mutuals');
      expect(response.status).toBe(200);
      expect(response.body).toEqual({ mutuals: [], samples: [] });
    } finally {
      await bare.close();
      await database.close();
    }
  });

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

  it(`takes ${CONTACTS_PER_REQUEST.toLocaleString('en-US')} contacts in one request and refuses 2,001 with 422 and a message`, async () => {
    const phones = (n: number) =>
      Array.from({ length: n }, (_, i) => `+1303556${String(i).padStart(4, '0')}`);
    const full = await cal.post<{ count: number }>('/api/contacts/sync', { contacts: phones(2000) });
    expect(full.status, full.text).toBe(200);
    expect(full.body).toEqual({ count: 2000 });
    const over = await cal.post<{ message: string; errors: Record<string, string[]> }>('/api/contacts/sync', {
      contacts: phones(2001),
    });
    expect(over.status, over.text).toBe(422);
    expect(over.body.message).toBe('At most 2,000 contacts can be sent at once.');
    expect(over.body.errors).toEqual({ contacts: ['At most 2,000 contacts can be sent at once.'] });
  });

  it('yields to the event loop while it normalises a full request, so other requests are not held up behind it', async () => {
    // 64 digits, the longest a contact may be, and among the slowest for the phone parser.
    const contacts = Array.from({ length: 2000 }, (_, i) => String(i).padStart(64, '1'));
    let ticking = true;
    const tick = () => {
      loop.turn++;
      if (ticking) setImmediate(tick);
    };
    setImmediate(tick);
    loop.calls.length = 0;
    const response = await cal.post<{ count: number }>('/api/contacts/sync', { contacts });
    ticking = false;
    expect(response.status, response.text).toBe(200);
    const perTurn = new Map<number, number>();
    for (const turn of loop.calls) perTurn.set(turn, (perTurn.get(turn) ?? 0) + 1);
    expect(loop.calls.length).toBe(2000);
    // Before the fix all 2,000 ran in one turn of the loop (up to 780 ms for 5,000).
    expect(Math.max(...perTurn.values())).toBeLessThanOrEqual(NORMALIZE_CHUNK);
    expect(perTurn.size).toBeGreaterThanOrEqual(2000 / NORMALIZE_CHUNK);
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
