import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually, startPushReceiver } from '../../../testkit/pushReceiver';
import { openTestDatabase, testEngines } from '../../../testkit/server';
import { makeMutual, signedIn, type TestClient } from '../../../testkit/testClient';
import { buildApp } from '../app';
import { type Database, rows, sql } from '../db/client';
import { loadConfig } from '../env';
import { addressAllowed, endpointProblem } from './push';

const push = (overrides: Partial<ReturnType<typeof loadConfig>['push']>) => ({
  ...loadConfig({}).push,
  ...overrides,
});

describe('push endpoints the server accepts', () => {
  it('refuses anything but https, and private, loopback and link-local hosts', () => {
    for (const endpoint of [
      'http://push.example.com/x',
      'ftp://push.example.com/x',
      'not a url',
      'https://127.0.0.1/x',
      'https://10.1.2.3/x',
      'https://192.168.0.1/x',
      'https://172.20.0.1/x',
      'https://169.254.169.254/latest',
      'https://[::1]/x',
      'https://[fe80::1]/x',
      'https://[fd00::1]/x',
      'https://[::ffff:10.0.0.1]/x',
      'https://localhost/x',
      'https://api.localhost/x',
      'https://0.0.0.0/x',
      'https://user:pw@push.example.com/x',
    ])
      expect(endpointProblem(endpoint, false), endpoint).not.toBeNull();
    expect(endpointProblem('https://fcm.googleapis.com/fcm/send/abc', false)).toBeNull();
    expect(endpointProblem('https://8.8.8.8/x', false)).toBeNull();
  });

  it('lets loopback over http through only when the tests ask for it', () => {
    expect(endpointProblem('http://127.0.0.1:9/x', true)).toBeNull();
    expect(endpointProblem('http://10.0.0.1/x', true)).not.toBeNull();
    expect(addressAllowed('127.0.0.1', true)).toBe(true);
    expect(addressAllowed('127.0.0.1', false)).toBe(false);
    expect(addressAllowed('93.184.216.34', false)).toBe(true);
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
    const started = Date.now();
    for (let i = 0; i < 5; i++)
      await alex.create({ title: `Hang ${i}`, type: 'todo', assigned_to: blair.user!.id });
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
