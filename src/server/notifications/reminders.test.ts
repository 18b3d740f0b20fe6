import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually, startPushReceiver } from '../../../testkit/pushReceiver';
import { openTestDatabase, testEngines } from '../../../testkit/server';
import { makeMutual, signedIn, type TestClient } from '../../../testkit/testClient';
import { buildApp } from '../app';
import { type Database, openDatabase, rows, sql } from '../db/client';
import { loadConfig } from '../env';
import { sendDueReminders } from './reminders';

const dueEntries = (database: Database, itemId: number) =>
  rows<{ user_id: number }>(
    database.db,
    sql`SELECT user_id FROM notifications WHERE kind = 'due' AND item_id = ${itemId} ORDER BY user_id`,
  );

const inSeconds = (s: number) => new Date(Date.now() + s * 1000).toISOString();

describe.each(testEngines())('reminders on %s', (engine) => {
  let database: Database;
  let app: FastifyInstance;
  let alex: TestClient;
  let blair: TestClient;

  beforeAll(async () => {
    database = await openTestDatabase(engine);
    // The loop is off: these tests run the worker's step themselves, at the times they choose.
    app = await buildApp({ database, config: { seedSampleUsers: true, reminderTickMs: 0 } });
    await app.ready();
    alex = await signedIn(app, 'Alex');
    blair = await signedIn(app, 'Blair');
    await makeMutual(alex, blair);
  });
  afterAll(async () => {
    await app.close();
    await database.close();
  });

  it('sends a due reminder once to the creator and the assignee, when its time comes', async () => {
    const todo = await alex.create({
      title: 'Call the venue',
      type: 'todo',
      assigned_to: blair.user!.id,
      remind_at: inSeconds(60),
    });
    await sendDueReminders(database.db, new Date());
    expect(await dueEntries(database, todo.id)).toEqual([]);
    const later = new Date(Date.now() + 61_000);
    await sendDueReminders(database.db, later);
    await sendDueReminders(database.db, later);
    expect((await dueEntries(database, todo.id)).map((r) => r.user_id)).toEqual(
      [alex.user!.id, blair.user!.id].sort((a, b) => a - b),
    );
    const [entry] = (
      await blair.get<{ data: { kind: string; text: string; actor: unknown }[] }>('/api/notifications')
    ).body.data;
    expect(entry).toMatchObject({ kind: 'due', text: 'Reminder: todo “Call the venue”', actor: null });
  });

  it('re-arms when remind_at changes and cancels when the item is completed or deleted', async () => {
    const task = await alex.create({ title: 'Renew', type: 'task', remind_at: inSeconds(-5) });
    await sendDueReminders(database.db, new Date());
    expect(await dueEntries(database, task.id)).toHaveLength(1);
    await alex.update(task.id, { remind_at: inSeconds(-2) });
    await sendDueReminders(database.db, new Date());
    expect(await dueEntries(database, task.id)).toHaveLength(2);

    const done = await alex.create({ title: 'Done early', type: 'todo', remind_at: inSeconds(30) });
    await alex.update(done.id, { status: 'completed' });
    const gone = await alex.create({ title: 'Dropped', type: 'todo', remind_at: inSeconds(30) });
    await alex.delete(`/api/items/${gone.id}`);
    await sendDueReminders(database.db, new Date(Date.now() + 60_000));
    expect(await dueEntries(database, done.id)).toEqual([]);
    expect(await dueEntries(database, gone.id)).toEqual([]);
    // Reopened before its time, the reminder is armed again.
    await alex.update(done.id, { status: 'pending' });
    await sendDueReminders(database.db, new Date(Date.now() + 60_000));
    expect(await dueEntries(database, done.id)).toHaveLength(1);
  });

  it('a roll-up cancels and re-arms reminders as a direct change does: the tasks a campaign completes and the campaign its last task completes (F0)', async () => {
    const campaign = await alex.create({ title: 'Launch', type: 'campaign', remind_at: inSeconds(30) });
    const tasks = await Promise.all(
      [1, 2, 3].map((n) =>
        alex.create({ title: `Step ${n}`, type: 'task', parent_id: campaign.id, remind_at: inSeconds(30) }),
      ),
    );
    // Completing the campaign completes its tasks in one cascade: none of their reminders fires.
    await alex.update(campaign.id, { status: 'completed' });
    await sendDueReminders(database.db, new Date(Date.now() + 60_000));
    for (const task of tasks) expect(await dueEntries(database, task.id)).toEqual([]);
    expect(await dueEntries(database, campaign.id)).toEqual([]);
    // Reopening one task reopens the campaign by roll-up: the campaign's reminder is armed again.
    await alex.update(tasks[0]!.id, { status: 'pending' });
    await sendDueReminders(database.db, new Date(Date.now() + 60_000));
    expect(await dueEntries(database, campaign.id)).toHaveLength(1);
    expect(await dueEntries(database, tasks[1]!.id)).toEqual([]);
  });

  it('refuses a remind_at that is not an instant or is absurdly far away', async () => {
    for (const remind_at of [
      'tomorrow',
      '2031-05-01',
      '2031-05-01T09:30',
      '9999-01-01T00:00:00Z',
      '1900-01-01T00:00:00Z',
    ]) {
      const response = await alex.post<{ message: string; errors: Record<string, string[]> }>('/api/items', {
        title: 'Bad',
        type: 'todo',
        remind_at,
      });
      expect(response.status, remind_at).toBe(422);
      expect(response.body.errors.remind_at).toBeDefined();
    }
  });

  it('sends a reminder that came due while the server was stopped once it starts again, and only once', async () => {
    const todo = await alex.create({ title: 'While down', type: 'todo', remind_at: inSeconds(1) });
    await new Promise((resolve) => setTimeout(resolve, 1100));
    for (let restart = 0; restart < 2; restart++) {
      const started = await buildApp({ database, config: { seedSampleUsers: false, reminderTickMs: 100 } });
      await started.ready();
      await eventually(async () => (await dueEntries(database, todo.id)).length > 0);
      await new Promise((resolve) => setTimeout(resolve, 300));
      await started.close();
    }
    expect(await dueEntries(database, todo.id)).toHaveLength(1);
  });
});

describe.runIf(process.env.TEST_DATABASE_URL)('reminders with two instances on one PostgreSQL', () => {
  it('sends each due reminder exactly once, with one push, however the instances race', async () => {
    const receiver = await startPushReceiver();
    const database = await openTestDatabase('pg');
    const second = await openDatabase({ url: database.url! });
    const config = {
      seedSampleUsers: false,
      reminderTickMs: 20,
      push: { ...loadConfig({}).push, allowLoopback: true, timeoutMs: 2000 },
    };
    const appA = await buildApp({ database, config });
    const appB = await buildApp({ database: second, config });
    try {
      await appA.ready();
      await appB.ready();
      const alex = await signedIn(appA, 'Alex');
      const subscription = receiver.subscription('ok');
      expect((await alex.post('/api/push/subscriptions', subscription)).status).toBe(201);
      const ids: number[] = [];
      for (let i = 0; i < 15; i++)
        ids.push((await alex.create({ title: `Race ${i}`, type: 'todo', remind_at: inSeconds(1.5) })).id);
      await eventually(async () => {
        const [row] = await rows<{ n: number }>(
          database.db,
          sql`SELECT count(*)::int AS n FROM notifications WHERE kind = 'due'`,
        );
        return row?.n === 15;
      }, 8000);
      await eventually(() => receiver.received.length >= 15, 8000);
      await new Promise((resolve) => setTimeout(resolve, 500));
      const [row] = await rows<{ n: number }>(
        database.db,
        sql`SELECT count(*)::int AS n FROM notifications WHERE kind = 'due'`,
      );
      expect(row?.n).toBe(15);
      expect(receiver.received).toHaveLength(15);
      const titles = receiver.received.map((r) => (r.payload as { body: string }).body).sort();
      expect(new Set(titles).size).toBe(15);
    } finally {
      await appB.close();
      await appA.close();
      await second.close();
      await database.close();
      await receiver.close();
    }
  });

  it('fires within 5 seconds of remind_at with the default tick', async () => {
    const database = await openTestDatabase('pg');
    const app = await buildApp({ database, config: { seedSampleUsers: false } });
    try {
      await app.ready();
      const alex = await signedIn(app, 'Alex');
      const at = Date.now() + 1500;
      const todo = await alex.create({
        title: 'On time',
        type: 'todo',
        remind_at: new Date(at).toISOString(),
      });
      await eventually(async () => (await dueEntries(database, todo.id)).length === 1, 7000);
      expect(Date.now() - at).toBeLessThan(5000);
    } finally {
      await app.close();
      await database.close();
    }
  });
});
