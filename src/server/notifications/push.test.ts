import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually, startPushReceiver } from '../../../testkit/pushReceiver';
import { openTestDatabase, testEngines } from '../../../testkit/server';
import { makeMutual, signedIn, type TestClient } from '../../../testkit/testClient';
import { PUSHES_PER_MINUTE } from '../../shared/notifications';
import { buildApp } from '../app';
import { type Database, rows, sql } from '../db/client';
import { loadConfig } from '../env';
import { retryAfterMs } from './push';

const push = (overrides: Partial<ReturnType<typeof loadConfig>['push']>) => ({
  ...loadConfig({}).push,
  ...overrides,
});

describe('push answers', () => {
  it('reads Retry-After as seconds or as an HTTP date, and nothing else (F4)', () => {
    const now = Date.parse('2026-11-24T10:00:00Z');
    expect(retryAfterMs('120', now)).toBe(120_000);
    expect(retryAfterMs('Tue, 24 Nov 2026 10:00:30 GMT', now)).toBe(30_000);
    expect(retryAfterMs('Tue, 24 Nov 2026 09:00:00 GMT', now)).toBe(0);
    expect(retryAfterMs(undefined, now)).toBeNull();
    expect(retryAfterMs('soon', now)).toBeNull();
  });
});

describe.each(testEngines())('Web Push on %s', (engine) => {
  let database: Database;
  let app: FastifyInstance;
  let receiver: Awaited<ReturnType<typeof startPushReceiver>>;
  let alex: TestClient;
  let blair: TestClient;

  beforeAll(async () => {
    receiver = await startPushReceiver();
    database = await openTestDatabase(engine);
    app = await buildApp({
      database,
      config: {
        seedSampleUsers: true,
        reminderTickMs: 0,
        push: push({ allowLoopback: true, timeoutMs: 1500 }),
      },
    });
    await app.ready();
    alex = await signedIn(app, 'Alex');
    blair = await signedIn(app, 'Blair');
    await makeMutual(alex, blair);
  });
  afterAll(async () => {
    await app.close();
    await database.close();
    await receiver.close();
  });

  const subscriptions = async (userId: number) =>
    rows<{ endpoint: string }>(
      database.db,
      sql`SELECT endpoint FROM push_subscriptions WHERE user_id = ${userId}`,
    );

  it('hands out one public VAPID key, generated once and kept', async () => {
    const first = await blair.get<{ publicKey: string }>('/api/push/key');
    expect(first.status).toBe(200);
    expect(Buffer.from(first.body.publicKey, 'base64url')).toHaveLength(65);
    const other = await buildApp({ database, config: { seedSampleUsers: false, reminderTickMs: 0 } });
    const client = await signedIn(other, 'Other');
    expect((await client.get<{ publicKey: string }>('/api/push/key')).body).toEqual(first.body);
    await other.close();
  });

  it('pushes a person at most PUSHES_PER_MINUTE new entries a minute and lists the rest (F3)', async () => {
    const busy = await signedIn(app, 'Busy');
    const watched = await signedIn(app, 'Watched');
    await makeMutual(busy, watched);
    const subscription = receiver.subscription('ok');
    expect((await watched.post('/api/push/subscriptions', subscription)).status).toBe(201);
    const path = new URL(subscription.endpoint).pathname;
    // Edits of Watched's own todos, one entry each (assignments to Watched would fold into one, P8).
    for (let n = 0; n < PUSHES_PER_MINUTE + 15; n++) {
      const todo = await watched.create({ title: `Job ${n}`, type: 'todo', assigned_to: busy.user!.id });
      await busy.update(todo.id, { title: `Job ${n} done` });
    }
    await eventually(() => receiver.received.filter((r) => r.path === path).length >= PUSHES_PER_MINUTE);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(receiver.received.filter((r) => r.path === path)).toHaveLength(PUSHES_PER_MINUTE);
    const listed = await watched.get<{ total: number; unread: number }>('/api/notifications');
    expect(listed.body).toMatchObject({ total: PUSHES_PER_MINUTE + 15, unread: PUSHES_PER_MINUTE + 15 });
  });

  it('P8: a batch create assigning 150 items to one person pushes them once, with the count', async () => {
    const lead = await signedIn(app, 'Lead');
    const crew = await signedIn(app, 'Crew');
    await makeMutual(lead, crew);
    const subscription = receiver.subscription('ok');
    expect((await crew.post('/api/push/subscriptions', subscription)).status).toBe(201);
    const path = new URL(subscription.endpoint).pathname;
    const items = Array.from({ length: 150 }, (_, n) => ({
      uuid: randomUUID(),
      title: `Crate ${n + 1}`,
      type: 'todo',
      assigned_to: crew.user!.id,
    }));
    const sent = await lead.post<{ items: { id: number }[] }>('/api/items/batch', { items });
    expect(sent.status, sent.text).toBe(201);
    await eventually(() => receiver.received.some((r) => r.path === path));
    await new Promise((resolve) => setTimeout(resolve, 300));
    const pushed = receiver.received.filter((r) => r.path === path);
    expect(pushed).toHaveLength(1);
    expect(pushed[0]!.payload).toMatchObject({
      kind: 'assigned',
      body: 'Lead assigned you 150 items: todo “Crate 1” and 149 more',
      url: `/todos/${sent.body.items[0]!.id}`,
    });
  });

  it('tries a push again after a 429 (when Retry-After says) and after a 503, and delivers it once (F4)', async () => {
    const busy = receiver.subscription('busy');
    const flaky = receiver.subscription('flaky');
    const retrier = await signedIn(app, 'Retrier');
    const sender = await signedIn(app, 'Sender');
    await makeMutual(retrier, sender);
    for (const subscription of [busy, flaky])
      expect((await retrier.post('/api/push/subscriptions', subscription)).status).toBe(201);
    const started = Date.now();
    await sender.create({ title: 'Try again', type: 'todo', assigned_to: retrier.user!.id });
    const paths = [busy, flaky].map((s) => new URL(s.endpoint).pathname);
    await eventually(() => paths.every((path) => receiver.received.some((r) => r.path === path)), 8000);
    // The 429 asked for a second: the retry waited for it.
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
    for (const path of paths) {
      expect(receiver.hits.filter((hit) => hit === path)).toHaveLength(2);
      expect(receiver.received.filter((r) => r.path === path)).toHaveLength(1);
    }
  });

  it('keeps at most maxConcurrent pushes under way, and maxPerEndpoint to one endpoint, and delivers them all (F4)', async () => {
    const ownDatabase = await openTestDatabase(engine);
    const strict = await buildApp({
      database: ownDatabase,
      config: {
        seedSampleUsers: false,
        reminderTickMs: 0,
        push: push({ allowLoopback: true, timeoutMs: 3000, maxConcurrent: 3, maxPerEndpoint: 1 }),
      },
    });
    try {
      await strict.ready();
      const watched = await signedIn(strict, 'Watched');
      const changer = await signedIn(strict, 'Changer');
      await makeMutual(watched, changer);
      const subscriptions = [1, 2, 3, 4].map(() => receiver.subscription('slow'));
      for (const subscription of subscriptions)
        expect((await watched.post('/api/push/subscriptions', subscription)).status).toBe(201);
      // Five entries at once, each for four devices: twenty pushes to a push service that is slow.
      // Edits of five of Watched's todos (five assignments to Watched would be one entry, P8).
      const todos = [];
      for (const n of [1, 2, 3, 4, 5])
        todos.push(await watched.create({ title: `Job ${n}`, type: 'todo', assigned_to: changer.user!.id }));
      await Promise.all(todos.map((todo) => changer.update(todo.id, { title: `${todo.title} done` })));
      const paths = new Set(subscriptions.map((s) => new URL(s.endpoint).pathname));
      await eventually(() => receiver.received.filter((r) => paths.has(r.path)).length === 20, 10_000).catch(
        (e) => {
          console.log(
            'DEBUG received',
            receiver.received.filter((r) => paths.has(r.path)).length,
            JSON.stringify(receiver.peak),
          );
          throw e;
        },
      );
      expect(receiver.peak.all).toBeLessThanOrEqual(3);
      expect(receiver.peak.perPath).toBe(1);
    } finally {
      await strict.close();
      await ownDatabase.close();
    }
    // Its own database and app (the suite's app would drain the same outbox uncapped): a fresh set of
    // migrations, which on a loaded CI machine takes longer than the default 30 s.
  }, 120_000);

  it('pushes each notification to the subscriber, encrypted for its keys', async () => {
    const subscription = receiver.subscription('ok');
    const created = await blair.post('/api/push/subscriptions', subscription);
    expect(created.status, created.text).toBe(201);
    const task = await alex.create({ title: 'Pack tents', type: 'task', assigned_to: blair.user!.id });
    await eventually(() => receiver.received.some((r) => r.path === new URL(subscription.endpoint).pathname));
    const got = receiver.received.find((r) => r.path === new URL(subscription.endpoint).pathname)!;
    expect(got.payload).toMatchObject({
      kind: 'assigned',
      body: 'Alex assigned you task “Pack tents”',
      url: `/tasks/${task.id}`,
    });
    expect(String(got.headers.authorization)).toMatch(/^vapid t=.+, k=.+/);
    expect(got.headers['content-encoding']).toBe('aes128gcm');
    // Once only, also after more commits drained the outbox again.
    await alex.create({ title: 'Unrelated', type: 'todo' });
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(receiver.received.filter((r) => r.path === got.path)).toHaveLength(1);

    const removed = await blair.delete('/api/push/subscriptions');
    expect(removed.status).toBe(422);
    const gone = await blair.request({
      method: 'DELETE',
      url: '/api/push/subscriptions',
      body: { endpoint: subscription.endpoint },
    });
    expect(gone.status).toBe(204);
    expect(await subscriptions(blair.user!.id)).toEqual([]);
  });

  it.each(['gone', 'missing'] as const)(
    'deletes a subscription the push service says is %s (410, 404)',
    async (kind) => {
      const subscription = receiver.subscription(kind);
      const kept = receiver.subscription('ok');
      expect((await blair.post('/api/push/subscriptions', subscription)).status).toBe(201);
      expect((await blair.post('/api/push/subscriptions', kept)).status).toBe(201);
      // Read first: an unread assignment from Alex would take this one in without a push (P8).
      await blair.post('/api/notifications/read', {});
      await alex.create({ title: `Gone ${kind}`, type: 'todo', assigned_to: blair.user!.id });
      await eventually(async () => (await subscriptions(blair.user!.id)).length === 1);
      expect(receiver.hits).toContain(new URL(subscription.endpoint).pathname);
      expect((await subscriptions(blair.user!.id)).map((s) => s.endpoint)).toEqual([kept.endpoint]);
      await blair.request({
        method: 'DELETE',
        url: '/api/push/subscriptions',
        body: { endpoint: kept.endpoint },
      });
    },
  );

  it('never makes a write wait for a push service that hangs', async () => {
    const subscription = receiver.subscription('hang');
    expect((await blair.post('/api/push/subscriptions', subscription)).status).toBe(201);
    // Five entries: edits of Blair's todos (five assignments to Blair would be one entry, P8).
    const todos = [];
    for (let i = 0; i < 5; i++)
      todos.push(await blair.create({ title: `Hang ${i}`, type: 'todo', assigned_to: alex.user!.id }));
    await blair.post('/api/notifications/read', {});
    const started = Date.now();
    for (const todo of todos) await alex.update(todo.id, { title: `${todo.title} edited` });
    const elapsed = Date.now() - started;
    await eventually(() => receiver.hits.includes(new URL(subscription.endpoint).pathname));
    // Five pushes hang for the 1.5 s timeout each; the writes never waited for any of them.
    expect(elapsed).toBeLessThan(1500);
    const after = Date.now();
    await alex.create({ title: 'Still quick', type: 'todo', assigned_to: blair.user!.id });
    expect(Date.now() - after).toBeLessThan(1000);
    await blair.request({
      method: 'DELETE',
      url: '/api/push/subscriptions',
      body: { endpoint: subscription.endpoint },
    });
  });

  it("refuses another user's endpoint with a 409 that does not say whose it is, and leaves it with its holder (F7)", async () => {
    const subscription = receiver.subscription('ok');
    expect((await blair.post('/api/push/subscriptions', subscription)).status).toBe(201);
    const thief = await signedIn(app, 'Casey');
    const taken = await thief.post<{ message: string }>('/api/push/subscriptions', {
      endpoint: subscription.endpoint,
      keys: receiver.subscription('ok').keys,
    });
    expect(taken.status, taken.text).toBe(409);
    expect(taken.body.message.length).toBeGreaterThan(0);
    expect(taken.text).not.toContain('Blair');
    expect(taken.text).not.toContain(String(blair.user!.id));
    expect(await subscriptions(thief.user!.id)).toEqual([]);
    const held = await rows<{ user_id: number; p256dh: string }>(
      database.db,
      sql`SELECT user_id, p256dh FROM push_subscriptions WHERE endpoint = ${subscription.endpoint}`,
    );
    expect(held).toEqual([{ user_id: blair.user!.id, p256dh: subscription.keys.p256dh }]);
    // Its holder may still send it again (a browser renewing its keys) and remove it.
    expect((await blair.post('/api/push/subscriptions', subscription)).status).toBe(201);
    const removed = await blair.request({
      method: 'DELETE',
      url: '/api/push/subscriptions',
      body: { endpoint: subscription.endpoint },
    });
    expect(removed.status).toBe(204);
    // Once its holder let it go, the endpoint is free for the next one to sign in on that browser.
    expect((await thief.post('/api/push/subscriptions', subscription)).status).toBe(201);
    expect((await subscriptions(thief.user!.id)).map((s) => s.endpoint)).toEqual([subscription.endpoint]);
    await thief.request({
      method: 'DELETE',
      url: '/api/push/subscriptions',
      body: { endpoint: subscription.endpoint },
    });
  });

  it('refuses endpoints that reach loopback through IPv6 transition forms or local names with a 422 (F8)', async () => {
    const strict = await buildApp({ database, config: { seedSampleUsers: false, reminderTickMs: 0 } });
    const client = await signedIn(strict, 'Strict');
    const { keys } = receiver.subscription('ok');
    for (const endpoint of [
      'https://[::127.0.0.1]/x',
      'https://[::ffff:127.0.0.1]/x',
      'https://[64:ff9b::7f00:1]/x',
      'https://[2002:7f00:1::]/x',
      'https://localhost.localdomain/x',
      'https://ip6-localhost/x',
      'https://LOCALHOST./x',
    ]) {
      const response = await client.post<{ message: string; errors: Record<string, string[]> }>(
        '/api/push/subscriptions',
        { endpoint, keys },
      );
      expect(response.status, endpoint).toBe(422);
      expect(response.body.errors.endpoint?.[0], endpoint).toEqual(expect.any(String));
    }
    const [row] = await rows<{ n: number }>(
      database.db,
      sql`SELECT count(*)::int AS n FROM push_subscriptions WHERE user_id = ${client.user!.id}`,
    );
    expect(row?.n).toBe(0);
    await strict.close();
  });

  it('refuses bad subscriptions with a 422 and a message', async () => {
    const strict = await buildApp({ database, config: { seedSampleUsers: false, reminderTickMs: 0 } });
    const client = await signedIn(strict, 'Strict');
    const good = receiver.subscription('ok');
    const cases: unknown[] = [
      { ...good }, // loopback and http without PUSH_ALLOW_LOOPBACK
      { ...good, endpoint: 'https://169.254.169.254/latest/meta-data' },
      { ...good, endpoint: 'https://10.0.0.8/push' },
      { ...good, endpoint: 'http://push.example.com/x' },
      { endpoint: 'https://push.example.com/x', keys: { p256dh: 'A'.repeat(5000), auth: good.keys.auth } },
      { endpoint: 'https://push.example.com/x', keys: { p256dh: good.keys.p256dh, auth: 'B'.repeat(500) } },
      { endpoint: 'https://push.example.com/x', keys: { p256dh: 'AAAA', auth: good.keys.auth } },
      { endpoint: `https://push.example.com/${'x'.repeat(3000)}`, keys: good.keys },
      { endpoint: 'https://push.example.com/x' },
      {},
    ];
    for (const body of cases) {
      const response = await client.post<{ message: string }>('/api/push/subscriptions', body);
      expect(response.status, JSON.stringify(body).slice(0, 80)).toBe(422);
      expect(response.body.message.length).toBeGreaterThan(0);
    }
    await strict.close();
  });
});
