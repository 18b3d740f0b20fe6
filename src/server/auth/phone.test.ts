import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Engine, openTestDatabase, testEngines } from '../../../testkit/server';
import { pullAll, TestClient, uniquePhone } from '../../../testkit/testClient';
import type { UserSummary } from '../../shared/item';
import { PHONE_ALREADY_SET, PHONE_TAKEN } from '../../shared/profile';
import { buildApp } from '../app';
import { type Database, sql } from '../db/client';

/*
 * N15: a person who came by single sign-on (no phone) adds one later, proven by a texted code. The
 * person without a phone is made by signing in with a code and taking the phone away in the
 * database, as an OpenID sign-in leaves them (the whole OpenID flow is src/server/oidc/oidc.test.ts).
 */
describe.each(testEngines())('adding a phone after single sign-on (%s)', (engine: Engine) => {
  let database: Database;
  let app: FastifyInstance;
  const sent: { to: string; message: string }[] = [];

  beforeAll(async () => {
    database = await openTestDatabase(engine);
    app = await buildApp({
      database,
      // No session cache: the phone taken away in the database is what the next request sees.
      config: { authMode: 'otp', loginsPerMinute: 1000, sessionCacheMs: 0 },
      sms: { send: async (to, message) => void sent.push({ to, message }) },
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

  async function signIn(name: string, phone = uniquePhone()): Promise<TestClient> {
    const client = new TestClient(app);
    await client.csrf();
    expect((await client.post('/api/login/code', { phone })).status).toBe(200);
    const login = await client.post<{ user: UserSummary }>('/api/login', {
      phone,
      name,
      code: codeFor(phone),
    });
    expect(login.status, login.text).toBe(200);
    client.user = login.body.user;
    return client;
  }

  /** Signed in, with no phone: as a person who came by single sign-on. */
  async function withoutPhone(name: string): Promise<TestClient> {
    const client = await signIn(name);
    await database.db.execute(sql`UPDATE users SET phone = NULL WHERE id = ${client.user!.id}`);
    client.user = { ...client.user!, phone: '' };
    return client;
  }

  const me = async (client: TestClient) => (await client.get<{ user: UserSummary }>('/api/me')).body.user;

  it('N15: a person with no phone adds one by its texted code; their items are pulled again with it, contacts find them', async () => {
    const ann = await withoutPhone('Ann Sso');
    const todo = await ann.create({ type: 'todo', title: 'Made before the phone' });
    const { cursor } = await pullAll(ann, database);
    expect((await me(ann)).phone).toBe('');

    const phone = '+12025550188';
    const asked = await ann.post<{ sent: boolean }>('/api/me/phone/code', { phone: '(202) 555-0188' });
    expect(asked.status, asked.text).toBe(200);
    expect(asked.body.sent).toBe(true);
    expect(sent.at(-1)?.message).toMatch(/code to add this phone/);
    const wrong = codeFor(phone) === '000000' ? '111111' : '000000';
    const refused = await ann.post('/api/me/phone', { phone, code: wrong });
    expect(refused.status).toBe(422);
    expect(refused.text).toMatch(/not correct/);
    expect((await me(ann)).phone).toBe('');

    const added = await ann.post<{ user: UserSummary }>('/api/me/phone', { phone, code: codeFor(phone) });
    expect(added.status, added.text).toBe(200);
    expect(added.body.user.phone).toBe(phone);
    expect((await me(ann)).phone).toBe(phone);
    ann.user = added.body.user;

    // N14's path: the todo comes again in the next pull, carrying the phone.
    const { items } = await pullAll(ann, database, cursor);
    const again = items.find((item) => item.id === todo.id) as { created_by?: UserSummary } | undefined;
    expect(again?.created_by?.phone).toBe(phone);

    const ben = await signIn('Ben Phone');
    expect((await ben.post('/api/contacts/sync', { contacts: [phone] })).status).toBe(200);
    expect((await ann.post('/api/contacts/sync', { contacts: [ben.user!.phone] })).status).toBe(200);
    const mutuals = await ben.get<{ mutuals: { id: number; phone: string }[] }>('/api/contacts/mutuals');
    expect(mutuals.body.mutuals).toContainEqual(expect.objectContaining({ id: ann.user.id, phone }));
  });

  it('N15: another account’s phone is refused only after its right code, with a 409 that says no more', async () => {
    const dana = await signIn('Dana Taken');
    const carl = await withoutPhone('Carl Sso');
    const taken = dana.user!.phone;
    // Without the code, the answer is the one any phone gets: nothing about an account.
    const guessed = await carl.post('/api/me/phone', { phone: taken, code: '123456' });
    expect(guessed.status).toBe(422);
    expect(guessed.text).not.toMatch(/account/i);
    expect((await carl.post('/api/me/phone/code', { phone: taken })).status).toBe(200);
    const refused = await carl.post<{ message: string }>('/api/me/phone', {
      phone: taken,
      code: codeFor(taken),
    });
    expect(refused.status).toBe(409);
    expect(refused.body).toEqual({ message: PHONE_TAKEN });
    expect((await me(carl)).phone).toBe('');
    expect((await me(dana)).phone).toBe(taken);
  });

  it('N15: an account with a phone gets 409, bad input 422, and nobody signed out gets in', async () => {
    const eve = await signIn('Eve Phone');
    const other = uniquePhone();
    const again = await eve.post<{ message: string }>('/api/me/phone', { phone: other, code: '123456' });
    expect(again.status).toBe(409);
    expect(again.body.message).toBe(PHONE_ALREADY_SET);

    const fay = await withoutPhone('Fay Sso');
    for (const body of [
      {},
      { phone: 'not a phone', code: '123456' },
      { phone: other },
      { phone: other, code: 'abc' },
      { phone: other, code: '123456', extra: 1 },
    ]) {
      const answer = await fay.post('/api/me/phone', body);
      expect(answer.status, JSON.stringify(body)).toBe(422);
    }
    expect((await fay.post('/api/me/phone/code', { phone: 'nope' })).status).toBe(422);

    const stranger = new TestClient(app);
    await stranger.csrf();
    expect((await stranger.post('/api/me/phone/code', { phone: other })).status).toBe(401);
    expect((await stranger.post('/api/me/phone', { phone: other, code: '123456' })).status).toBe(401);
  });
});
