import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Engine, openTestDatabase, testEngines } from '../../../testkit/server';
import { TestClient, uniquePhone } from '../../../testkit/testClient';
import { buildApp } from '../app';
import { type Database, openDatabase, rows, sql } from '../db/client';
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

  it('keeps the count of wrong tries when a new code is sent: after 3 wrong, 2 tries are left', async () => {
    const client = new TestClient(app);
    const phone = uniquePhone();
    await requestCode(client, phone);
    const wrongFor = (right: string) => (right === '000000' ? '111111' : '000000');
    for (let i = 0; i < 3; i++) {
      const wrong = await client.post('/api/login', { phone, name: 'Again', code: wrongFor(codeFor(phone)) });
      expect(wrong.status).toBe(422);
    }
    expect((await requestCode(client, phone)).status).toBe(200);
    const right = codeFor(phone);
    const fourth = await client.post<{ message: string }>('/api/login', {
      phone,
      name: 'Again',
      code: wrongFor(right),
    });
    expect(fourth.status).toBe(422);
    expect(fourth.body.message).toMatch(/not correct\. 1 try left/);
    const fifth = await client.post('/api/login', { phone, name: 'Again', code: wrongFor(right) });
    expect(fifth.status).toBe(429);
    // Locked: even the code just sent is refused, and no new code is sent.
    expect((await client.post('/api/login', { phone, name: 'Again', code: right })).status).toBe(429);
    expect((await requestCode(client, phone)).status).toBe(429);
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

/** A client that speaks real HTTP to a listening server, with its own anonymous session. */
async function httpClient(baseUrl: string) {
  const jar = new Map<string, string>();
  const remember = (response: Response) => {
    for (const line of response.headers.getSetCookie()) {
      const [pair = ''] = line.split(';');
      const eq = pair.indexOf('=');
      jar.set(pair.slice(0, eq), pair.slice(eq + 1));
    }
  };
  remember(await fetch(`${baseUrl}/sanctum/csrf-cookie`));
  return {
    async post(
      url: string,
      body: unknown,
    ): Promise<{ status: number; headers: Headers; body: { message?: string } }> {
      const response = await fetch(`${baseUrl}${url}`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          cookie: [...jar].map(([name, value]) => `${name}=${value}`).join('; '),
          'x-xsrf-token': decodeURIComponent(jar.get('XSRF-TOKEN') ?? ''),
        },
        body: JSON.stringify(body),
      });
      remember(response);
      const parsed = (await response.json().catch(() => ({}))) as { message?: string };
      return { status: response.status, headers: response.headers, body: parsed };
    },
  };
}

/** Each engine's app, listening on a real port, with the codes it sends captured. */
async function otpServer(engine: Engine, database?: Database) {
  const db = database ?? (await openTestDatabase(engine));
  const sent: { to: string; message: string }[] = [];
  const app = await buildApp({
    database: db,
    config: { authMode: 'otp', loginsPerMinute: 0 },
    sms: { send: async (to, message) => void sent.push({ to, message }) },
  });
  const url = await app.listen({ port: 0, host: '127.0.0.1' });
  return {
    app,
    url,
    database: db,
    codeFor(phone: string) {
      const last = [...sent].reverse().find((s) => s.to === phone);
      return /(\d{6})/.exec(last?.message ?? '')?.[1] ?? '';
    },
  };
}

describe.each(testEngines())('one-time codes under concurrency (AUTH_MODE=otp) on %s', (engine) => {
  let server: Awaited<ReturnType<typeof otpServer>>;
  beforeAll(async () => {
    server = await otpServer(engine);
  });
  afterAll(async () => {
    await server.app.close();
    await server.database.close();
  });

  it('compares at most 5 of 40 parallel wrong codes, then refuses the right one (locked)', async () => {
    const phone = uniquePhone();
    const owner = await httpClient(server.url);
    expect((await owner.post('/api/login/code', { phone })).status).toBe(200);
    const right = server.codeFor(phone);
    const wrongs = Array.from({ length: 40 }, (_, i) =>
      String((Number(right) + 1 + i) % 1_000_000).padStart(6, '0'),
    );
    const guessers = await Promise.all(wrongs.map(() => httpClient(server.url)));
    // Real requests on real connections, all in flight at once.
    const answers = await Promise.all(
      guessers.map((guesser, i) => guesser.post('/api/login', { phone, name: 'Guess', code: wrongs[i] })),
    );

    const [row] = await rows<{ attempts: number; code_hash: string | null; locked_until: Date | null }>(
      server.database.db,
      sql`SELECT attempts, code_hash, locked_until FROM login_codes WHERE phone = ${phone}`,
    );
    // Every comparison is counted before it is made, and the count stops at 5.
    expect(row?.attempts).toBe(5);
    expect(row?.code_hash).toBeNull();
    expect(row?.locked_until).not.toBeNull();
    const notCorrect = answers.filter((a) => a.status === 422 && /not correct/.test(a.body.message ?? ''));
    expect(notCorrect).toHaveLength(4);
    expect(answers.filter((a) => a.status === 429)).toHaveLength(36);
    expect(answers.filter((a) => a.status === 200)).toHaveLength(0);

    const late = await owner.post('/api/login', { phone, name: 'Owner', code: right });
    expect(late.status).toBe(429);
    expect(late.body.message).toMatch(/Too many wrong codes/);
  });

  it('signs in exactly once when the right code arrives many times at once', async () => {
    const phone = uniquePhone();
    const owner = await httpClient(server.url);
    expect((await owner.post('/api/login/code', { phone })).status).toBe(200);
    const right = server.codeFor(phone);
    const clients = await Promise.all(Array.from({ length: 4 }, () => httpClient(server.url)));
    const answers = await Promise.all(
      clients.map((c) => c.post('/api/login', { phone, name: 'Twice', code: right })),
    );
    expect(answers.filter((a) => a.status === 200)).toHaveLength(1);
    expect(answers.filter((a) => a.status === 422)).toHaveLength(3);
  });
});

describe.each(testEngines())('the per-phone code-request limit across instances on %s', (engine) => {
  let a: Awaited<ReturnType<typeof otpServer>>;
  let b: Awaited<ReturnType<typeof otpServer>>;
  let second: Database | null = null;
  beforeAll(async () => {
    a = await otpServer(engine);
    // Two instances on one database: a second pool on PostgreSQL, the same handle on PGlite.
    second = a.database.url ? await openDatabase({ url: a.database.url }) : null;
    b = await otpServer(engine, second ?? a.database);
  });
  afterAll(async () => {
    await b.app.close();
    await a.app.close();
    await second?.close();
    await a.database.close();
  });

  it('allows 5 code requests per phone in 15 minutes in all, wherever they arrive', async () => {
    const phone = uniquePhone();
    const onA = await httpClient(a.url);
    const onB = await httpClient(b.url);
    const statuses: number[] = [];
    for (const client of [onA, onB, onA, onB, onA]) {
      statuses.push((await client.post('/api/login/code', { phone })).status);
    }
    expect(statuses).toEqual([200, 200, 200, 200, 200]);

    for (const client of [onB, onA]) {
      const limited = await client.post('/api/login/code', { phone });
      expect(limited.status).toBe(429);
      expect(limited.body.message).toMatch(/Too many code requests for this phone/);
      // The rest of the shared window.
      const retryAfter = Number(limited.headers.get('retry-after'));
      expect(retryAfter).toBeGreaterThan(0);
      expect(retryAfter).toBeLessThanOrEqual(15 * 60);
    }
    // Another phone has its own budget.
    expect((await onB.post('/api/login/code', { phone: uniquePhone() })).status).toBe(200);
  });
});
