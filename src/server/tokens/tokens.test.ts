import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, testEngines } from '../../../testkit/server';
import { sharedCampaign } from '../../../testkit/sharing';
import { pullAll, signedIn, type TestClient } from '../../../testkit/testClient';
import type { HistoryEntry } from '../../shared/history';
import type { ActivityEntry, Item, Paginated } from '../../shared/item';
import {
  type ApiToken,
  type ApiTokenCreated,
  MAX_LIVE_TOKENS,
  TOKEN_FORBIDDEN_MESSAGE,
  TOKEN_INVALID_MESSAGE,
  TOKEN_PATTERN,
  TOO_MANY_TOKENS_MESSAGE,
  type TokenCreateInput,
} from '../../shared/tokens';
import { buildApp } from '../app';
import { rows, sql } from '../db/client';

type Harness = Awaited<ReturnType<typeof createTestApp>>;

/** Makes a token as `owner` (a cookie session) and fails unless the server answers 201. */
async function mint(owner: TestClient, input: Partial<TokenCreateInput> = {}): Promise<ApiTokenCreated> {
  const response = await owner.post<ApiTokenCreated>('/api/tokens', {
    name: 'Script',
    scopes: ['read', 'write'],
    ...input,
  });
  expect(response.status, response.text).toBe(201);
  return response.body;
}

/** A request with only `Authorization: Bearer`: no cookie, no anti-forgery token, as curl sends it. */
async function bearer(
  harness: Harness,
  token: string,
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
  url: string,
  body?: unknown,
  headers: Record<string, string> = {},
) {
  const response = await harness.app.inject({
    method,
    url,
    headers: {
      authorization: `Bearer ${token}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...headers,
    },
    ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
  });
  const text = response.body;
  const parsed =
    text && String(response.headers['content-type']).includes('json') ? JSON.parse(text) : undefined;
  return { status: response.statusCode, body: parsed, text, headers: response.headers };
}

describe.each(testEngines())('personal access tokens (%s)', (engine) => {
  let harness: Harness;
  beforeAll(async () => {
    harness = await createTestApp(engine);
  });
  afterAll(() => harness?.close());

  it('creates, lists and revokes a token; the secret is in the create answer only', async () => {
    const owner = await signedIn(harness.app, 'Token Owner');
    const created = await owner.post<ApiTokenCreated>('/api/tokens', {
      name: '  CI bot  ',
      scopes: ['write', 'read'],
    });
    expect(created.status, created.text).toBe(201);
    expect(created.headers['cache-control']).toBe('no-store');
    expect(created.body.token).toMatch(TOKEN_PATTERN);
    expect(created.body).toMatchObject({ name: 'CI bot', scopes: ['read', 'write'], last_used_at: null });
    const days = (Date.parse(created.body.expires_at) - Date.parse(created.body.created_at)) / 86_400_000;
    expect(days).toBeCloseTo(90, 3);

    const listed = await owner.get<{ tokens: ApiToken[] }>('/api/tokens');
    expect(listed.status).toBe(200);
    expect(listed.body.tokens.map((t) => t.id)).toEqual([created.body.id]);
    expect(Object.keys(listed.body.tokens[0]!).sort()).toEqual(
      ['created_at', 'expires_at', 'id', 'last_used_at', 'name', 'scopes'].sort(),
    );
    expect(listed.text).not.toContain(created.body.token);
    expect(listed.text).not.toContain(created.body.token.slice(4));

    const revoked = await owner.delete(`/api/tokens/${created.body.id}`);
    expect(revoked.status).toBe(204);
    expect((await owner.get<{ tokens: ApiToken[] }>('/api/tokens')).body.tokens).toEqual([]);
    expect((await owner.delete(`/api/tokens/${created.body.id}`)).status).toBe(404);
  });

  it('keeps only the SHA-256 of the secret at rest', async () => {
    const owner = await signedIn(harness.app, 'Hash Owner');
    const { id, token } = await mint(owner);
    const [row] = await rows<Record<string, unknown>>(
      harness.database.db,
      sql`SELECT * FROM personal_access_tokens WHERE id = ${id}`,
    );
    expect(row!.token_hash).toBe(createHash('sha256').update(token).digest('hex'));
    const stored = JSON.stringify(row);
    expect(stored).not.toContain(token);
    expect(stored).not.toContain(token.slice(4));
  });

  it('answers bad input with 422 naming the field', async () => {
    const owner = await signedIn(harness.app, 'Picky Owner');
    const bad: [Record<string, unknown>, string][] = [
      [{ name: '', scopes: ['read'] }, 'name'],
      [{ name: '   ', scopes: ['read'] }, 'name'],
      [{ name: 'x'.repeat(61), scopes: ['read'] }, 'name'],
      [{ name: 'a\u0000b', scopes: ['read'] }, 'name'],
      [{ name: 'ok', scopes: [] }, 'scopes'],
      [{ name: 'ok', scopes: ['admin'] }, 'scopes.0'],
      [{ name: 'ok', scopes: 'read' }, 'scopes'],
      [{ name: 'ok', scopes: ['read'], expires_in_days: 0 }, 'expires_in_days'],
      [{ name: 'ok', scopes: ['read'], expires_in_days: 366 }, 'expires_in_days'],
      [{ name: 'ok', scopes: ['read'], expires_in_days: 1.5 }, 'expires_in_days'],
      [{ name: 'ok', scopes: ['read'], user_id: 1 }, 'user_id'],
    ];
    for (const [body, field] of bad) {
      const response = await owner.post<{ message: string; errors: Record<string, string[]> }>(
        '/api/tokens',
        body,
      );
      expect(response.status, JSON.stringify(body)).toBe(422);
      expect(Object.keys(response.body.errors), JSON.stringify(body)).toContain(field);
    }
    const longest = await mint(owner, { name: 'n'.repeat(60), expires_in_days: 365 });
    expect(longest.name).toHaveLength(60);
    expect((Date.parse(longest.expires_at) - Date.parse(longest.created_at)) / 86_400_000).toBeCloseTo(
      365,
      3,
    );
  });

  it('authenticates any permitted /api route as the token user, without cookie or anti-forgery token', async () => {
    const owner = await signedIn(harness.app, 'Bearer Owner');
    const { token } = await mint(owner);
    const me = await bearer(harness, token, 'GET', '/api/me');
    expect(me.status, me.text).toBe(200);
    expect(me.body.user.id).toBe(owner.user!.id);
    const made = await bearer(harness, token, 'POST', '/api/items', { title: 'From a script', type: 'todo' });
    expect(made.status, made.text).toBe(201);
    expect(made.body.user_id).toBe(owner.user!.id);
    expect(made.headers['set-cookie']).toBeUndefined();
    const patched = await bearer(harness, token, 'PATCH', `/api/items/${made.body.id}`, {
      status: 'completed',
      labels: ['ci'],
    });
    expect(patched.status, patched.text).toBe(200);
    const comment = await bearer(harness, token, 'POST', `/api/items/${made.body.id}/comments`, {
      body: 'Built',
    });
    expect(comment.status, comment.text).toBe(201);
    expect((await bearer(harness, token, 'DELETE', `/api/items/${made.body.id}`)).status).toBe(204);
  });

  it('answers 403 naming the scope a token lacks', async () => {
    const owner = await signedIn(harness.app, 'Scoped Owner');
    const reader = await mint(owner, { scopes: ['read'] });
    const writer = await mint(owner, { scopes: ['write'] });
    const hooks = await mint(owner, { scopes: ['webhooks'] });
    const item = await owner.create({ title: 'Scoped', type: 'todo' });

    expect((await bearer(harness, reader.token, 'GET', '/api/items')).status).toBe(200);
    for (const [method, url, body] of [
      ['POST', '/api/items', { title: 'No', type: 'todo' }],
      ['PATCH', `/api/items/${item.id}`, { title: 'No' }],
      ['DELETE', `/api/items/${item.id}`, undefined],
      ['POST', `/api/items/${item.id}/comments`, { body: 'No' }],
    ] as const) {
      const refused = await bearer(harness, reader.token, method, url, body);
      expect(refused.status, `${method} ${url}`).toBe(403);
      expect(refused.body).toEqual({ message: "This token lacks the 'write' scope" });
    }
    const blind = await bearer(harness, writer.token, 'GET', `/api/items/${item.id}`);
    expect(blind.status).toBe(403);
    expect(blind.body).toEqual({ message: "This token lacks the 'read' scope" });
    expect(
      (await bearer(harness, writer.token, 'PATCH', `/api/items/${item.id}`, { title: 'Yes' })).status,
    ).toBe(200);
    expect((await bearer(harness, hooks.token, 'GET', '/api/items')).body).toEqual({
      message: "This token lacks the 'read' scope",
    });
    expect((await owner.item(item.id)).title).toBe('Yes');
  });

  it('answers an unknown, revoked, expired or malformed token with one 401', async () => {
    const owner = await signedIn(harness.app, 'Lapsed Owner');
    const revoked = await mint(owner);
    expect((await owner.delete(`/api/tokens/${revoked.id}`)).status).toBe(204);
    const expired = await mint(owner);
    await harness.database.db.execute(
      sql`UPDATE personal_access_tokens SET expires_at = now() - interval '1 second' WHERE id = ${expired.id}`,
    );
    const live = await mint(owner);
    // The token was used (and cached) before it was revoked: revoking still ends it at once.
    expect((await bearer(harness, live.token, 'GET', '/api/me')).status).toBe(200);
    expect((await owner.delete(`/api/tokens/${live.id}`)).status).toBe(204);

    const unknown = `opk_${'A'.repeat(43)}`;
    const answers = [];
    for (const token of [unknown, revoked.token, expired.token, live.token, 'opk_short', 'nonsense', '']) {
      for (const [method, url] of [
        ['GET', '/api/items'],
        ['POST', '/api/items'],
      ] as const) {
        const response = await bearer(
          harness,
          token,
          method,
          url,
          method === 'POST' ? { title: 'x', type: 'todo' } : undefined,
        );
        answers.push(response);
        expect(response.status, `${token} ${method}`).toBe(401);
        expect(response.headers['www-authenticate']).toContain('invalid_token');
      }
    }
    expect(new Set(answers.map((a) => a.text))).toEqual(
      new Set([JSON.stringify({ message: TOKEN_INVALID_MESSAGE })]),
    );
  });

  it('never lets a token mint, list or revoke tokens, nor touch members, invites, sessions or the account', async () => {
    const owner = await signedIn(harness.app, 'Guarded Owner');
    const all = await mint(owner, { scopes: ['read', 'write', 'webhooks'] });
    const campaign = await owner.create({ title: 'Guarded campaign', type: 'campaign' });
    const item = await owner.create({ title: 'Guarded item', type: 'todo' });
    const forbidden: [method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, body?: unknown][] = [
      ['POST', '/api/tokens', { name: 'Escalate', scopes: ['read'] }],
      ['GET', '/api/tokens'],
      ['DELETE', `/api/tokens/${all.id}`],
      ['GET', `/api/campaigns/${campaign.id}/members`],
      ['POST', `/api/campaigns/${campaign.id}/members`, { user_id: 1, role: 'editor' }],
      ['DELETE', `/api/campaigns/${campaign.id}/members/${owner.user!.id}`],
      ['POST', `/api/campaigns/${campaign.id}/invites`, { role: 'editor' }],
      ['GET', `/api/campaigns/${campaign.id}/invites`],
      ['GET', '/api/invites/abcdefghijklmnopqrstuv'],
      ['POST', '/api/invites/abcdefghijklmnopqrstuv/accept', {}],
      ['POST', '/api/logout', {}],
      ['PATCH', '/api/me', { name: 'Renamed by a script' }],
      ['POST', '/api/login', { phone: owner.user!.phone, name: 'x' }],
      ['POST', '/api/contacts/sync', { contacts: ['+12025550100'] }],
      ['GET', '/api/contacts/mutuals'],
      ['GET', '/api/calendar/token'],
      ['POST', '/api/calendar/token', {}],
      [
        'POST',
        '/api/push/subscriptions',
        { endpoint: 'https://push.example.com/x', keys: { p256dh: 'a', auth: 'b' } },
      ],
      ['POST', '/api/notifications/read', {}],
      ['POST', `/api/items/${item.id}/mute`, {}],
      ['GET', '/api/events'],
    ];
    for (const [method, url, body] of forbidden) {
      const response = await bearer(harness, all.token, method, url, body);
      expect(response.status, `${method} ${url}: ${response.text}`).toBe(403);
      expect(response.body).toEqual({ message: TOKEN_FORBIDDEN_MESSAGE });
    }
    // Nothing happened: still one token, the name unchanged, the cookie session still signed in.
    const listed = await owner.get<{ tokens: ApiToken[] }>('/api/tokens');
    expect(listed.body.tokens.map((t) => t.id)).toEqual([all.id]);
    const me = await owner.get<{ user: { name: string } }>('/api/me');
    expect(me.status).toBe(200);
    expect(me.body.user.name).toBe('Guarded Owner');
  });

  it('ignores cookies on a bearer request: the token alone says who and what', async () => {
    const owner = await signedIn(harness.app, 'Cookie Owner');
    const other = await signedIn(harness.app, 'Token Other');
    const reader = await mint(owner, { scopes: ['read'] });
    const othersWriter = await mint(other, { scopes: ['read', 'write'] });
    // The owner's cookie and anti-forgery token, plus the owner's read-only token: no write.
    const refused = await owner.request({
      method: 'POST',
      url: '/api/items',
      body: { title: 'Cookie plus token', type: 'todo' },
      headers: { authorization: `Bearer ${reader.token}` },
    });
    expect(refused.status).toBe(403);
    // The owner's cookie with another person's token acts as that person, never as the owner.
    const made = await owner.request<Item>({
      method: 'POST',
      url: '/api/items',
      body: { title: 'Whose is it', type: 'todo' },
      headers: { authorization: `Bearer ${othersWriter.token}` },
    });
    expect(made.status).toBe(201);
    expect(made.body.user_id).toBe(other.user!.id);
    // And the owner's session could never be ended through a token.
    const logout = await owner.request({
      method: 'POST',
      url: '/api/logout',
      headers: { authorization: `Bearer ${othersWriter.token}` },
    });
    expect(logout.status).toBe(403);
    expect((await owner.get('/api/me')).status).toBe(200);
  });

  it('writes with a token through the app write funnel: the item syncs to the device and shows in activity', async () => {
    const owner = await signedIn(harness.app, 'Funnel Owner');
    const campaign = await owner.create({ title: 'Builds', type: 'campaign' });
    const { cursor } = await pullAll(owner, harness.database);
    const { token } = await mint(owner);
    const made = await bearer(harness, token, 'POST', '/api/items', {
      title: 'Build 812 broke',
      type: 'task',
      parent_id: campaign.id,
    });
    expect(made.status, made.text).toBe(201);
    const pulled = await pullAll(owner, harness.database, cursor);
    expect(pulled.items.map((i) => i.id)).toContain(made.body.id);
    const activity = await owner.get<Paginated<ActivityEntry>>(`/api/campaigns/${campaign.id}/activity`);
    const entry = activity.body.data.find((e) => e.item?.id === made.body.id && e.action === 'created');
    expect(entry?.user.id).toBe(owner.user!.id);
    // An Idempotency-Key repeat answers with the same item, as for the app.
    const key = { 'idempotency-key': 'ci-812' };
    const first = await bearer(harness, token, 'POST', '/api/items', { title: 'Once', type: 'todo' }, key);
    const again = await bearer(harness, token, 'POST', '/api/items', { title: 'Once', type: 'todo' }, key);
    expect(again.body.id).toBe(first.body.id);
  });

  it('says which token made a change: the feed, the item history and a comment entry name it; app writes none', async () => {
    const owner = await signedIn(harness.app, 'Via Owner');
    const mia = await signedIn(harness.app, 'Via Member');
    const { campaign, task } = await sharedCampaign(owner, 'editor', mia);
    const { token, id } = await mint(owner, { name: 'Nightly build' });
    const made = await bearer(harness, token, 'POST', '/api/items', {
      title: 'Build 813 broke',
      type: 'todo',
      parent_id: task.id,
    });
    expect(made.status, made.text).toBe(201);
    expect(
      (await bearer(harness, token, 'PATCH', `/api/items/${made.body.id}`, { priority: 1 })).status,
    ).toBe(200);
    expect(
      (await bearer(harness, token, 'POST', `/api/items/${made.body.id}/comments`, { body: 'Log attached' }))
        .status,
    ).toBe(201);
    await owner.update(made.body.id, { title: 'Build 813 fixed' });

    // A member reads the token's name, as the issue asks: it names the script, not a secret.
    const feed = await mia.get<Paginated<ActivityEntry>>(`/api/campaigns/${campaign.id}/activity`);
    const mine = feed.body.data.filter((e) => e.item.id === made.body.id);
    expect(mine.map((e) => [e.action, e.via])).toEqual([
      ['updated', null],
      ['commented', 'Nightly build'],
      ['updated', 'Nightly build'],
      ['created', 'Nightly build'],
    ]);
    expect(mine.every((e) => e.user.id === owner.user!.id)).toBe(true);
    const history = await mia.get<Paginated<HistoryEntry>>(`/api/items/${made.body.id}/history`);
    expect(history.body.data.map((e) => e.via)).toEqual([null, 'Nightly build', 'Nightly build']);
    // Revoked (and its row purged later), the token still names what it wrote.
    expect((await owner.delete(`/api/tokens/${id}`)).status).toBe(204);
    await rows(harness.database.db, sql`DELETE FROM personal_access_tokens WHERE id = ${id}`);
    const after = await mia.get<Paginated<ActivityEntry>>(`/api/campaigns/${campaign.id}/activity`);
    expect(after.body.data.find((e) => e.item.id === made.body.id && e.action === 'created')?.via).toBe(
      'Nightly build',
    );
  });

  it("answers 404 for another person's token and for ids that are not ids", async () => {
    const owner = await signedIn(harness.app, 'Owner One');
    const stranger = await signedIn(harness.app, 'Stranger');
    const { id, token } = await mint(owner);
    const response = await stranger.delete(`/api/tokens/${id}`);
    expect(response.status).toBe(404);
    expect((await stranger.get<{ tokens: ApiToken[] }>('/api/tokens')).body.tokens).toEqual([]);
    expect((await bearer(harness, token, 'GET', '/api/me')).status).toBe(200);
    for (const bad of ['abc', '0', '-1', '1.5', '99999999999']) {
      expect((await owner.delete(`/api/tokens/${bad}`)).status, bad).toBe(404);
    }
  });

  it('moves last_used_at at most once a minute', async () => {
    const owner = await signedIn(harness.app, 'Busy Owner');
    const { id, token } = await mint(owner);
    const lastUsed = async () => {
      const [row] = await rows<{ last_used_at: Date | string | null }>(
        harness.database.db,
        sql`SELECT last_used_at FROM personal_access_tokens WHERE id = ${id}`,
      );
      return row?.last_used_at === null || row?.last_used_at === undefined
        ? null
        : new Date(row.last_used_at).getTime();
    };
    const forget = () =>
      harness.app.sessionCache.delete(`pat:${createHash('sha256').update(token).digest('hex')}`);
    expect(await lastUsed()).toBeNull();
    await bearer(harness, token, 'GET', '/api/me');
    const first = await lastUsed();
    expect(first).not.toBeNull();
    for (let i = 0; i < 3; i++) {
      forget();
      await bearer(harness, token, 'GET', '/api/me');
    }
    expect(await lastUsed()).toBe(first);
    await harness.database.db.execute(
      sql`UPDATE personal_access_tokens SET last_used_at = now() - interval '2 minutes' WHERE id = ${id}`,
    );
    forget();
    await bearer(harness, token, 'GET', '/api/me');
    expect(await lastUsed()).toBeGreaterThan(first! - 1000);
    const listed = await owner.get<{ tokens: ApiToken[] }>('/api/tokens');
    expect(listed.body.tokens[0]!.last_used_at).not.toBeNull();
  });

  it(`keeps at most ${MAX_LIVE_TOKENS} live tokens, even when 60 creates race`, async () => {
    const owner = await signedIn(harness.app, 'Racing Owner');
    const answers = await Promise.all(
      Array.from({ length: 60 }, (_, i) =>
        owner.post<{ message: string }>('/api/tokens', { name: `Race ${i}`, scopes: ['read'] }),
      ),
    );
    const made = answers.filter((a) => a.status === 201);
    const refused = answers.filter((a) => a.status !== 201);
    expect(made).toHaveLength(MAX_LIVE_TOKENS);
    expect(refused).toHaveLength(10);
    for (const answer of refused) {
      expect(answer.status).toBe(422);
      expect(answer.body.message).toBe(TOO_MANY_TOKENS_MESSAGE);
    }
    const [count] = await rows<{ n: number }>(
      harness.database.db,
      sql`SELECT count(*)::int AS n FROM personal_access_tokens WHERE user_id = ${owner.user!.id} AND revoked_at IS NULL`,
    );
    expect(count!.n).toBe(MAX_LIVE_TOKENS);
    // Revoking one makes room for one; an expired token does not count.
    const first = (made[0]!.body as unknown as ApiTokenCreated).id;
    expect((await owner.delete(`/api/tokens/${first}`)).status).toBe(204);
    await mint(owner);
    expect((await owner.post('/api/tokens', { name: 'One too many', scopes: ['read'] })).status).toBe(422);
    await harness.database.db.execute(
      sql`UPDATE personal_access_tokens SET expires_at = now() - interval '1 second'
          WHERE id = (SELECT max(id) FROM personal_access_tokens WHERE user_id = ${owner.user!.id})`,
    );
    await mint(owner);
  });
});

describe.each(testEngines())('token limits and default deny (%s)', (engine) => {
  let harness: Harness;
  beforeAll(async () => {
    harness = await createTestApp(engine);
  });
  afterAll(() => harness?.close());

  it('gives each token its own write budget', async () => {
    const app = await buildApp({ database: harness.database, config: { tokenWritesPerMinute: 2 } });
    await app.ready();
    try {
      const scoped = { ...harness, app };
      const owner = await signedIn(app, 'Budget Owner');
      const a = await mint(owner);
      const b = await mint(owner);
      const write = (token: string) =>
        bearer(scoped, token, 'POST', '/api/items', { title: 'Tick', type: 'todo' });
      expect((await write(a.token)).status).toBe(201);
      expect((await write(a.token)).status).toBe(201);
      const limited = await write(a.token);
      expect(limited.status).toBe(429);
      expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
      // Reads are not writes; another token and the person's own session keep their budgets.
      expect((await bearer(scoped, a.token, 'GET', '/api/items')).status).toBe(200);
      expect((await write(b.token)).status).toBe(201);
      await owner.create({ title: 'From the app', type: 'todo' });
    } finally {
      await app.close();
    }
  });

  it('refuses tokens on a route that declares no token policy', async () => {
    const app = await buildApp({ database: harness.database });
    app.get('/api/undeclared-test-route', async () => ({ ok: true }));
    await app.ready();
    try {
      expect(app.routeTable.find((r) => r.url === '/api/undeclared-test-route')?.tokenAccess).toBeNull();
      const owner = await signedIn(app, 'Undeclared Owner');
      const { token } = await mint(owner, { scopes: ['read', 'write', 'webhooks'] });
      const refused = await bearer({ ...harness, app }, token, 'GET', '/api/undeclared-test-route');
      expect(refused.status).toBe(403);
      expect(refused.body).toEqual({ message: TOKEN_FORBIDDEN_MESSAGE });
      expect((await owner.get('/api/undeclared-test-route')).status).toBe(200);
    } finally {
      await app.close();
    }
  });
});
