import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, testEngines } from '../../../testkit/server';
import { TestClient, uniquePhone } from '../../../testkit/testClient';
import type { UserSummary } from '../../shared/item';
import { isVisitorXsrf } from '../../shared/visitorXsrf';

describe.each(testEngines())('sign-in and sessions (%s)', (engine) => {
  let harness: Awaited<ReturnType<typeof createTestApp>>;
  beforeAll(async () => {
    harness = await createTestApp(engine);
  });
  afterAll(() => harness?.close());

  const client = () => new TestClient(harness.app);

  it('answers the csrf-cookie call with 204 and a script-readable XSRF-TOKEN cookie', async () => {
    const response = await harness.app.inject({ method: 'GET', url: '/sanctum/csrf-cookie' });
    expect(response.statusCode).toBe(204);
    const xsrf = response.cookies.find((c) => c.name === 'XSRF-TOKEN');
    expect(xsrf?.value).toBeTruthy();
    expect(xsrf?.httpOnly).toBeFalsy();
    expect(String(xsrf?.sameSite).toLowerCase()).toBe('lax');
    const session = response.cookies.find((c) => c.name === 'outpost_session');
    expect(session?.httpOnly).toBe(true);
  });

  it("marks a visitor's anti-forgery token as a visitor's, and a signed-in one not, so the client asks no GET /api/me for a visitor", async () => {
    const c = client();
    await c.csrf();
    expect(isVisitorXsrf(c.jar.get('XSRF-TOKEN') ?? '')).toBe(true);
    await c.post('/api/login', { phone: uniquePhone(), name: 'Marked' });
    const signedIn = c.jar.get('XSRF-TOKEN') ?? '';
    expect(signedIn).not.toBe('');
    expect(isVisitorXsrf(signedIn)).toBe(false);
  });

  it('keeps the same anti-forgery token when the csrf-cookie call is repeated in one session', async () => {
    const c = client();
    await c.csrf();
    const first = c.jar.get('XSRF-TOKEN');
    await c.csrf();
    expect(c.jar.get('XSRF-TOKEN')).toBe(first);
  });

  it('signs in with a phone and a name and answers with the user', async () => {
    const c = client();
    await c.csrf();
    const phone = uniquePhone();
    const response = await c.post<{ user: UserSummary }>('/api/login', { phone, name: 'Alex' });
    expect(response.status).toBe(200);
    expect(response.body.user).toMatchObject({ name: 'Alex', phone });
    expect(response.body.user.id).toBeGreaterThan(4);
    expect(typeof response.body.user.created_at).toBe('string');
    const me = await c.get<{ user: UserSummary }>('/api/me');
    expect(me.status).toBe(200);
    expect(me.body.user).toEqual(response.body.user);
  });

  it.each([
    ['the phone is missing', { name: 'Alex' }, 'phone'],
    ['the name is missing', { phone: '5551234567' }, 'name'],
    ['the phone is blank', { phone: '   ', name: 'Alex' }, 'phone'],
    ['the name is blank', { phone: '5551234567', name: ' ' }, 'name'],
    ['the phone is words', { phone: 'not a phone', name: 'Alex' }, 'phone'],
    ['the phone is too short', { phone: '12', name: 'Alex' }, 'phone'],
  ])('refuses sign-in with 422 when %s', async (_case, body, field) => {
    const c = client();
    await c.csrf();
    const response = await c.post<{ message: string; errors: Record<string, string[]> }>('/api/login', body);
    expect(response.status).toBe(422);
    expect(response.body.message).toEqual(expect.any(String));
    expect(response.body.errors[field]?.length).toBeGreaterThan(0);
    expect((await c.get('/api/me')).status).toBe(401);
  });

  it('gives a new session id and a new anti-forgery token at sign-in, so the old cookie dies', async () => {
    const c = client();
    await c.csrf();
    const before = c.cookieHeader();
    const anonymousSession = c.jar.get('outpost_session');
    const anonymousToken = c.jar.get('XSRF-TOKEN');
    await c.post('/api/login', { phone: uniquePhone(), name: 'Fixation' });
    expect(c.jar.get('outpost_session')).not.toBe(anonymousSession);
    expect(c.jar.get('XSRF-TOKEN')).not.toBe(anonymousToken);
    // The pre-login session is gone on the server: its cookie and token are refused.
    const old = await harness.app.inject({
      method: 'POST',
      url: '/api/items',
      headers: { cookie: before, 'x-xsrf-token': anonymousToken ?? '', 'content-type': 'application/json' },
      payload: JSON.stringify({ title: 'x', type: 'todo' }),
    });
    expect(old.statusCode).toBe(419);
  });

  it('ends the previous signed-in session when signing in again', async () => {
    const c = client();
    await c.login(uniquePhone(), 'First');
    const oldCookie = c.cookieHeader();
    await c.post('/api/login', { phone: uniquePhone(), name: 'Second' });
    const stale = await harness.app.inject({ method: 'GET', url: '/api/me', headers: { cookie: oldCookie } });
    expect(stale.statusCode).toBe(401);
    expect((await c.get<{ user: UserSummary }>('/api/me')).body.user.name).toBe('Second');
  });

  it('keeps the stored name on later sign-ins with the same phone', async () => {
    const phone = uniquePhone();
    const first = await client().login(phone, 'Jamie Fox');
    const again = await client().login(phone, 'Placeholder');
    expect(again.id).toBe(first.id);
    expect(again.name).toBe('Jamie Fox');
  });

  it("treats '+1 (555) 123-4567' and '5551234567' as the same user, stored in E.164", async () => {
    const a = await client().login('+1 (555) 123-4567', 'Pat');
    const b = await client().login('5551234567', 'Someone else');
    expect(b.id).toBe(a.id);
    expect(a.phone).toBe('+15551234567');
  });

  it('answers /api/me with 401 and a message without a session', async () => {
    const response = await client().get<{ message: string }>('/api/me');
    expect(response.status).toBe(401);
    expect(response.body).toEqual({ message: 'Unauthenticated.' });
  });

  it('answers /api/me with 401 for a session cookie the server never issued', async () => {
    const response = await harness.app.inject({
      method: 'GET',
      url: '/api/me',
      headers: { cookie: 'outpost_session=forged-token' },
    });
    expect(response.statusCode).toBe(401);
  });

  it('signs out with 204 and the old cookie then gets 401', async () => {
    const c = client();
    await c.login(uniquePhone(), 'Leaving');
    const cookie = c.cookieHeader();
    const out = await c.post('/api/logout');
    expect(out.status).toBe(204);
    expect(out.text).toBe('');
    expect(c.jar.has('outpost_session')).toBe(false);
    const replayed = await harness.app.inject({ method: 'GET', url: '/api/me', headers: { cookie } });
    expect(replayed.statusCode).toBe(401);
    expect(JSON.parse(replayed.body)).toEqual({ message: 'Unauthenticated.' });
  });

  it('requires a session for every item, contact and sync route', async () => {
    const c = client();
    await c.csrf();
    for (const url of [
      '/api/items',
      '/api/items/1',
      '/api/items/search?q=ab',
      '/api/campaigns/1/activity',
      '/api/contacts/mutuals',
      '/api/sync',
    ]) {
      const response = await c.get<{ message: string }>(url);
      expect(response.status, url).toBe(401);
      expect(response.body.message).toBe('Unauthenticated.');
    }
    const created = await c.post('/api/items', { title: 'x', type: 'todo' });
    expect(created.status).toBe(401);
  });
});
