import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase, testEngines } from '../../../testkit/server';
import { makeMutual, signedIn, TestClient } from '../../../testkit/testClient';
import type { NotificationEntry, NotificationPage } from '../../shared/notifications';
import { buildApp } from '../app';
import { type Database, openDatabase, rows, sql } from '../db/client';

const quiet = { seedSampleUsers: true, reminderTickMs: 0 };

/** Reads every entry the client has (newest first). */
async function entries(client: TestClient): Promise<NotificationEntry[]> {
  const page = await client.get<NotificationPage>('/api/notifications?per_page=100');
  expect(page.status, page.text).toBe(200);
  return page.body.data;
}

/**
 * The kinds of the entries a client got since the last call for it (oldest first), each then read:
 * an unread entry takes the same person's next toggle of the item into itself (F3).
 */
async function watcher(client: TestClient) {
  let seen = Math.max(0, ...(await entries(client)).map((e) => e.id));
  return async () => {
    const all = await entries(client);
    const fresh = all.filter((e) => e.id > seen).reverse();
    seen = Math.max(seen, ...all.map((e) => e.id));
    if (fresh.length > 0) await client.post('/api/notifications/read', { ids: fresh.map((e) => e.id) });
    return fresh.map((e) => e.kind);
  };
}

describe.each(testEngines())('notifications on %s', (engine) => {
  let database: Database;
  let app: FastifyInstance;
  let alex: TestClient;
  let blair: TestClient;
  let casey: TestClient;

  beforeAll(async () => {
    database = await openTestDatabase(engine);
    app = await buildApp({ database, config: quiet });
    await app.ready();
    alex = await signedIn(app, 'Alex');
    blair = await signedIn(app, 'Blair');
    casey = await signedIn(app, 'Casey');
    await makeMutual(alex, blair, casey);
  });
  afterAll(async () => {
    await app.close();
    await database.close();
  });

  it('tells the creator and the assignee of every change someone else makes, and never the one who made it', async () => {
    const a = await watcher(alex);
    const b = await watcher(blair);
    const c = await watcher(casey);
    // Casey sees the todo through the campaign, but neither created it nor is assigned to it.
    const campaign = await alex.create({ title: 'Trip', type: 'campaign', assigned_to: casey.user!.id });
    const todo = await alex.create({
      title: 'Pack tents',
      type: 'todo',
      parent_id: campaign.id,
      assigned_to: blair.user!.id,
    });
    expect(await a()).toEqual([]);
    expect(await b()).toEqual(['assigned']);
    expect(await c()).toEqual(['assigned']); // the campaign itself was assigned to Casey

    await blair.update(todo.id, { title: 'Pack the tents' });
    expect([await a(), await b(), await c()]).toEqual([['updated'], [], []]);

    await casey.update(todo.id, { status: 'completed' });
    expect([await a(), await b(), await c()]).toEqual([['completed'], ['completed'], []]);

    await casey.update(todo.id, { status: 'pending' });
    expect([await a(), await b(), await c()]).toEqual([['reopened'], ['reopened'], []]);

    const unassign = await alex.post(`/api/items/${todo.id}/assign`, { user_id: 0 });
    expect(unassign.status, unassign.text).toBe(200);
    expect([await a(), await b(), await c()]).toEqual([[], ['unassigned'], []]);

    await alex.post(`/api/items/${todo.id}/assign`, { user_id: blair.user!.id });
    expect([await a(), await b(), await c()]).toEqual([[], ['assigned'], []]);

    // Reassigning from Blair to Casey: Blair loses it, Casey gets it.
    await alex.post(`/api/items/${todo.id}/assign`, { user_id: casey.user!.id });
    expect([await a(), await b(), await c()]).toEqual([[], ['unassigned'], ['assigned']]);

    const deleted = await alex.delete(`/api/items/${todo.id}`);
    expect(deleted.status, deleted.text).toBe(204);
    expect([await a(), await b(), await c()]).toEqual([[], [], ['deleted']]);
  });

  it('says nothing about changes people make to their own items', async () => {
    const a = await watcher(alex);
    const mine = await alex.create({ title: 'Mine', type: 'task', assigned_to: alex.user!.id });
    await alex.update(mine.id, { title: 'Still mine', status: 'completed' });
    await alex.delete(`/api/items/${mine.id}`);
    expect(await a()).toEqual([]);
  });

  it('makes a burst of edits by one person to one item one entry, and a new one once it is read', async () => {
    const a = await watcher(alex);
    const task = await alex.create({ title: 'Budget', type: 'task', assigned_to: blair.user!.id });
    await blair.update(task.id, { title: 'Budget v2' });
    await blair.update(task.id, { description: 'numbers' });
    await blair.update(task.id, { title: 'Budget v3' });
    const burst = await entries(alex);
    expect(await a()).toEqual(['updated']);
    expect(burst[0]?.text).toBe('Blair edited task “Budget v3”');
    // Casey's edit of the same item is someone else's burst.
    await alex.post(`/api/items/${task.id}/assign`, { user_id: casey.user!.id });
    await casey.update(task.id, { title: 'Budget v4' });
    expect(await a()).toEqual(['updated']);
    await alex.post('/api/notifications/read', {});
    await casey.update(task.id, { title: 'Budget v5' });
    expect(await a()).toEqual(['updated']);
  });

  it('makes 100 assign/unassign toggles one entry saying where they ended, and 10 complete/reopen pairs one more (F3)', async () => {
    const toggler = await signedIn(app, 'Toggler');
    const target = await signedIn(app, 'Target');
    await makeMutual(toggler, target);
    const todo = await toggler.create({ title: 'Flip', type: 'todo' });
    for (let n = 0; n < 50; n++) {
      await toggler.post(`/api/items/${todo.id}/assign`, { user_id: target.user!.id });
      await toggler.post(`/api/items/${todo.id}/assign`, { user_id: 0 });
    }
    let got = await entries(target);
    expect(got.map((e) => e.kind)).toEqual(['unassigned']);
    expect(got[0]?.text).toBe('Toggler unassigned you from todo “Flip”');
    await toggler.post(`/api/items/${todo.id}/assign`, { user_id: target.user!.id });
    for (let n = 0; n < 10; n++) {
      await toggler.update(todo.id, { status: 'completed' });
      await toggler.update(todo.id, { status: 'pending' });
    }
    got = await entries(target);
    // The re-assignment folded into the unread toggle entry; the pairs are one entry of their own.
    expect(got.map((e) => e.kind)).toEqual(['reopened', 'assigned']);
  });

  /** One entry each for `owner`: Alex edits each of these todos of theirs, made and assigned to him. */
  async function editedByAlex(owner: TestClient, titles: readonly string[]): Promise<void> {
    for (const title of titles) {
      const todo = await owner.create({
        title: `${title} (draft)`,
        type: 'todo',
        assigned_to: alex.user!.id,
      });
      await alex.update(todo.id, { title });
    }
  }

  it('P8: one person assigning another 1,000 items in batches is one entry that counts them and opens the first', async () => {
    const lead = await signedIn(app, 'Lead');
    const crew = await signedIn(app, 'Crew');
    await makeMutual(lead, crew);
    const uuids: string[] = [];
    for (let batch = 0; batch < 5; batch++) {
      const items = Array.from({ length: 200 }, (_, i) => {
        const uuid = randomUUID();
        uuids.push(uuid);
        return { uuid, title: `Job ${batch * 200 + i + 1}`, type: 'todo', assigned_to: crew.user!.id };
      });
      const sent = await lead.post('/api/items/batch', { items });
      expect(sent.status, sent.text).toBe(201);
    }
    const page = await crew.get<NotificationPage>('/api/notifications');
    expect(page.body).toMatchObject({ total: 1, unread: 1 });
    const [entry] = page.body.data;
    expect(entry).toMatchObject({
      kind: 'assigned',
      text: 'Lead assigned you 1,000 items: todo “Job 1” and 999 more',
      item_count: 1000,
      item: { type: 'todo', title: 'Job 1' },
      actor: { id: lead.user!.id, name: 'Lead' },
    });
  });

  it('P8: separate assignments by one person within a minute fold until read, and an unassignment stays its own entry', async () => {
    const lead = await signedIn(app, 'Lead two');
    const crew = await signedIn(app, 'Crew two');
    await makeMutual(lead, crew);
    const made = [];
    for (const title of ['Tents', 'Stoves', 'Maps']) made.push(await lead.create({ title, type: 'task' }));
    for (const item of made) {
      const assigned = await lead.post(`/api/items/${item.id}/assign`, { user_id: crew.user!.id });
      expect(assigned.status, assigned.text).toBe(200);
    }
    let listed = await entries(crew);
    expect(listed.map((e) => [e.kind, e.text, e.item_count])).toEqual([
      ['assigned', 'Lead two assigned you 3 items: task “Tents” and 2 more', 3],
    ]);
    // Unassigning the first item does not rewrite the run into its own undoing.
    await lead.post(`/api/items/${made[0]!.id}/assign`, { user_id: 0 });
    listed = await entries(crew);
    expect(listed.map((e) => [e.kind, e.item_count ?? 1])).toEqual([
      ['unassigned', 1],
      ['assigned', 3],
    ]);
    await crew.post('/api/notifications/read', {});
    const later = await lead.create({ title: 'Rope', type: 'task', assigned_to: crew.user!.id });
    listed = await entries(crew);
    expect(listed[0]).toMatchObject({
      kind: 'assigned',
      text: 'Lead two assigned you task “Rope”',
      item: { id: later.id },
    });
    expect(listed[0]!.item_count).toBeUndefined();
  });

  it('counts unread entries and marks some or all of them read', async () => {
    const reader = await signedIn(app, 'Reader');
    await makeMutual(alex, reader);
    // Edits of three items: assignments to one person would be one entry (P8).
    await editedByAlex(reader, ['one', 'two', 'three']);
    const page = await reader.get<NotificationPage>('/api/notifications');
    expect(page.body.unread).toBe(3);
    expect(page.body.data.map((e) => e.text)).toEqual([
      'Alex edited todo “three”',
      'Alex edited todo “two”',
      'Alex edited todo “one”',
    ]);
    const first = page.body.data[0]!;
    expect(first.actor).toEqual({ id: alex.user!.id, name: 'Alex' });
    expect(first.item).toMatchObject({ type: 'todo', title: 'three' });
    expect(first.read_at).toBeNull();

    const some = await reader.post<{ unread: number }>('/api/notifications/read', { ids: [first.id] });
    expect(some.status, some.text).toBe(200);
    expect(some.body).toEqual({ unread: 2 });
    const again = await reader.get<NotificationPage>('/api/notifications');
    expect(again.body.data[0]!.read_at).not.toBeNull();
    const all = await reader.post<{ unread: number }>('/api/notifications/read');
    expect(all.body).toEqual({ unread: 0 });
  });

  it('pages entries newest first, 20 a page by default', async () => {
    const many = await signedIn(app, 'Many');
    await makeMutual(alex, many);
    await editedByAlex(
      many,
      Array.from({ length: 25 }, (_, i) => `Item ${i + 1}`),
    );
    const first = await many.get<NotificationPage>('/api/notifications');
    expect(first.body).toMatchObject({ current_page: 1, last_page: 2, per_page: 20, total: 25, unread: 25 });
    expect(first.body.data).toHaveLength(20);
    expect(first.body.data[0]!.item?.title).toBe('Item 25');
    const second = await many.get<NotificationPage>('/api/notifications?page=2');
    expect(second.body.data.map((e) => e.item?.title)).toEqual([
      'Item 5',
      'Item 4',
      'Item 3',
      'Item 2',
      'Item 1',
    ]);
    const capped = await many.get<NotificationPage>('/api/notifications?per_page=1000');
    expect(capped.body.per_page).toBe(100);
  });

  it("keeps entries private: another user's ids are a 404 and bad input a 422", async () => {
    const own = await entries(blair);
    expect(own.length).toBeGreaterThan(0);
    const foreign = await casey.post('/api/notifications/read', { ids: [own[0]!.id] });
    expect(foreign.status).toBe(404);
    expect(foreign.body).toEqual({ message: 'Notification not found.' });
    const bad = await casey.post<{ message: string }>('/api/notifications/read', { ids: ['x'] });
    expect(bad.status).toBe(422);
    expect(bad.body.message).toMatch(/number/);
    const extra = await casey.post('/api/notifications/read', { all: true });
    expect(extra.status).toBe(422);
    const page = await casey.get('/api/notifications?page=abc');
    expect(page.status).toBe(422);
    const anonymous = await new TestClient(app).get('/api/notifications');
    expect(anonymous.status).toBe(401);
  });

  it('names the item only while the reader can still see it', async () => {
    const task = await alex.create({ title: 'Secret plan', type: 'task', assigned_to: blair.user!.id });
    // Read, so the unassignment is an entry of its own rather than the assignment's last word (F3).
    await blair.post('/api/notifications/read', {});
    await alex.post(`/api/items/${task.id}/assign`, { user_id: 0 });
    await alex.update(task.id, { title: 'Renamed plan' });
    const [unassigned, assigned] = await entries(blair);
    expect(unassigned).toMatchObject({ kind: 'unassigned', item: null });
    expect(unassigned!.text).toBe('Alex unassigned you from task “Secret plan”');
    expect(assigned).toMatchObject({ kind: 'assigned', item: null });
    expect(JSON.stringify(await entries(blair))).not.toContain('Renamed');
  });

  it('E2: sends the new unread count on the event stream', async () => {
    const url = await app.listen({ port: 0, host: '127.0.0.1' });
    const stream = await openStream(url, blair);
    await stream.waitFor(/event: notification\ndata: \{"unread":\d+\}/);
    const before = stream.text();
    await alex.create({ title: 'Ping', type: 'todo', assigned_to: blair.user!.id });
    const unread = (await blair.get<NotificationPage>('/api/notifications')).body.unread;
    await stream.waitFor(new RegExp(`event: notification\\ndata: \\{"unread":${unread}\\}`), before.length);
    stream.close();
  });
});

/** An open event stream; `waitFor` resolves once its text (after `from`) matches. */
async function openStream(baseUrl: string, client: TestClient) {
  const controller = new AbortController();
  const response = await fetch(`${baseUrl}/api/events`, {
    headers: { cookie: client.cookieHeader(), accept: 'text/event-stream' },
    signal: controller.signal,
  });
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  let text = '';
  void (async () => {
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) return;
        text += decoder.decode(value, { stream: true });
      }
    } catch {
      // Aborted at the end of the test.
    }
  })();
  return {
    text: () => text,
    async waitFor(pattern: RegExp, from = 0, ms = 5000) {
      const started = Date.now();
      while (!pattern.test(text.slice(from))) {
        if (Date.now() - started > ms)
          throw new Error(`no ${pattern} in ${JSON.stringify(text.slice(from))}`);
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
    },
    close: () => controller.abort(),
  };
}

describe.runIf(process.env.TEST_DATABASE_URL)('notifications across instances', () => {
  it('E2: sends the notification event on the instance the recipient is connected to', async () => {
    const database = await openTestDatabase('pg');
    const second = await openDatabase({ url: database.url! });
    const appA = await buildApp({ database, config: quiet });
    const appB = await buildApp({ database: second, config: quiet });
    try {
      await appA.ready();
      const urlB = await appB.listen({ port: 0, host: '127.0.0.1' });
      const alex = await signedIn(appA, 'Alex');
      const blair = await signedIn(appA, 'Blair');
      await makeMutual(alex, blair);
      const onB = new TestClient(appB);
      for (const [name, value] of blair.jar) onB.jar.set(name, value);
      const stream = await openStream(urlB, onB);
      await stream.waitFor(/event: notification\ndata: \{"unread":0\}/);
      await alex.create({ title: 'Across', type: 'todo', assigned_to: blair.user!.id });
      await stream.waitFor(/event: notification\ndata: \{"unread":1\}/);
      const [row] = await rows<{ n: number }>(
        second.db,
        sql`SELECT count(*)::int AS n FROM notifications WHERE kind = 'assigned'`,
      );
      expect(row?.n).toBe(1);
      stream.close();
    } finally {
      await appB.close();
      await appA.close();
      await second.close();
      await database.close();
    }
  });
});
