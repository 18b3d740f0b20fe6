import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app';
import type { Database } from '../db/client';
import { TestClient, uniquePhone } from '../testClient';
import { openTestDatabase, testEngines } from '../testing';
import { CODE_TTL_MS, LOCKOUT_MS } from './loginCodes';

describe.each(testEngines())('sign-in with one-time codes (AUTH_MODE=otp) on %s', (engine) => {
  let database: Database;
  let app: FastifyInstance;
  const sent: { to: string; message: string }[] = [];
  let now = new Date('2026-11-21T10:00:00Z');

  beforeAll(async () => {
    database = await openTestDatabase(engine);
    app = await buildApp({
      database,
      config: { authMode: 'otp', loginsPerMinute: 1000 },
      sms: { send: async (to, message) => void sent.push({ to, message }) },
      clock: () => now,
    });
    await app.ready();
  });
  afterAll(async () => {
    await app.close();
    await database.close();
  });

  const codeFor = (phone: string) => {
    const last = [...sent].reverse().find((s) => s.to === phone);
    return /(\d{6})/.exec(last?.message ?? '')?.[1] ?? '';
  };

  async function requestCode(client: TestClient, phone: string) {
    await client.csrf();
    return client.post<{ sent: boolean }>('/api/login/code', { phone });
  }

  it('says which sign-in mode is on without a session', async () => {
    const response = await new TestClient(app).get('/api/auth/mode');
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ mode: 'otp' });
  });

  it('sends a 6-digit code and signs in with it once', async () => {
    const client = new TestClient(app);
    const phone = uniquePhone();
    const response = await requestCode(client, phone);
    expect(response.status).toBe(200);
    expect(response.body.sent).toBe(true);
    const code = codeFor(phone);
    expect(code).toMatch(/^\d{6}$/);

    const login = await client.post('/api/login', { phone, name: 'Otto', code });
    expect(login.status).toBe(200);

    const again = new TestClient(app);
    await again.csrf();
    const reused = await again.post<{ message: string }>('/api/login', { phone, name: 'Otto', code });
    expect(reused.status).toBe(422);
    expect(reused.body.message).toMatch(/expired or was never sent/);
  });

  it('stores codes hashed, never in plain text', async () => {
    const client = new TestClient(app);
    const phone = uniquePhone();
    await requestCode(client, phone);
    const code = codeFor(phone);
    const result = (await database.db.execute(
      (
        await import('drizzle-orm')
      ).sql`SELECT code_hash FROM login_codes WHERE phone = ${phone}`,
    )) as unknown as { rows: { code_hash: string }[] };
    expect(result.rows[0]?.code_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(result.rows[0]?.code_hash).not.toContain(code);
  });

  it('requires the code in otp mode', async () => {
    const client = new TestClient(app);
    await client.csrf();
    const response = await client.post<{ errors: Record<string, string[]> }>('/api/login', {
      phone: uniquePhone(),
      name: 'No code',
    });
    expect(response.status).toBe(422);
    expect(response.body.errors.code).toBeDefined();
  });

  it('refuses a wrong code and says how many tries are left', async () => {
    const client = new TestClient(app);
    const phone = uniquePhone();
    await requestCode(client, phone);
    const wrong = codeFor(phone) === '000000' ? '111111' : '000000';
    const response = await client.post<{ message: string }>('/api/login', { phone, name: 'W', code: wrong });
    expect(response.status).toBe(422);
    expect(response.body.message).toMatch(/not correct\. 4 tries left/);
  });

  it('refuses an expired code', async () => {
    const client = new TestClient(app);
    const phone = uniquePhone();
    await requestCode(client, phone);
    const code = codeFor(phone);
    now = new Date(now.getTime() + CODE_TTL_MS + 1000);
    const response = await client.post('/api/login', { phone, name: 'Late', code });
    expect(response.status).toBe(422);
  });

  it('locks the phone for 15 minutes after 5 wrong codes, then lets it in again', async () => {
    const client = new TestClient(app);
    const phone = uniquePhone();
    await requestCode(client, phone);
    const right = codeFor(phone);
    const wrong = right === '000000' ? '111111' : '000000';
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) {
      statuses.push((await client.post('/api/login', { phone, name: 'Guess', code: wrong })).status);
    }
    expect(statuses).toEqual([422, 422, 422, 422, 429]);

    const locked = await client.post<{ message: string }>('/api/login', {
      phone,
      name: 'Guess',
      code: right,
    });
    expect(locked.status).toBe(429);
    expect(Number(locked.headers['retry-after'])).toBeGreaterThan(0);
    expect((await requestCode(client, phone)).status).toBe(429);

    now = new Date(now.getTime() + LOCKOUT_MS + 1000);
    expect((await requestCode(client, phone)).status).toBe(200);
    const login = await client.post('/api/login', { phone, name: 'Guess', code: codeFor(phone) });
    expect(login.status).toBe(200);
  });

  it('rate-limits code requests per phone with Retry-After', async () => {
    const client = new TestClient(app);
    const phone = uniquePhone();
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) statuses.push((await requestCode(client, phone)).status);
    expect(statuses.slice(0, 5)).toEqual([200, 200, 200, 200, 200]);
    expect(statuses[5]).toBe(429);
    const limited = await requestCode(client, phone);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
  });

  it('refuses a code request for something that is not a phone', async () => {
    const client = new TestClient(app);
    await client.csrf();
    expect((await client.post('/api/login/code', { phone: 'not a phone' })).status).toBe(422);
    expect((await client.post('/api/login/code', { phone: '+15551234567', extra: 1 })).status).toBe(422);
  });
});

describe('sign-in in demo mode', () => {
  let database: Database;
  let app: FastifyInstance;
  beforeAll(async () => {
    database = await openTestDatabase('pglite');
    app = await buildApp({ database, config: { loginsPerMinute: 30 } });
    await app.ready();
  });
  afterAll(async () => {
    await app.close();
    await database.close();
  });

  it('needs no code and sends none', async () => {
    const client = new TestClient(app);
    expect((await client.get('/api/auth/mode')).body).toEqual({ mode: 'demo' });
    await client.csrf();
    const response = await client.post<{ sent: boolean }>('/api/login/code', { phone: uniquePhone() });
    expect(response.status).toBe(200);
    expect(response.body.sent).toBe(false);
    await client.login(uniquePhone(), 'Demo');
  });

  it('allows at least 30 sign-ins a minute from one address, then answers 429 with Retry-After', async () => {
    const client = new TestClient(app);
    const statuses: number[] = [];
    for (let i = 0; i < 32; i++) {
      await client.csrf();
      statuses.push((await client.post('/api/login', { phone: uniquePhone(), name: 'Many' })).status);
    }
    // One sign-in already happened in the test above.
    expect(statuses.slice(0, 29).every((s) => s === 200)).toBe(true);
    expect(statuses.at(-1)).toBe(429);
  });
});
