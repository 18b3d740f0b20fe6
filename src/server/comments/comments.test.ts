import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { openTestDatabase, testEngines } from '../../../testkit/server';
import { makeMutual, signedIn, type TestClient } from '../../../testkit/testClient';
import { type Comment, MENTION_NOT_ALLOWED, mentionToken } from '../../shared/comments';
import type { HistoryEntry } from '../../shared/history';
import type { Item, Paginated } from '../../shared/item';
import type { NotificationPage } from '../../shared/notifications';
import { buildApp } from '../app';
import type { Database } from '../db/client';

const quiet = { seedSampleUsers: true, reminderTickMs: 0 };

/** The kinds of the unread entries a client has, oldest first, then marks them read. */
async function freshKinds(client: TestClient): Promise<string[]> {
  const page = await client.get<NotificationPage>('/api/notifications?per_page=100');
  const unread = page.body.data.filter((e) => e.read_at === null).reverse();
  if (unread.length > 0) await client.post('/api/notifications/read', { ids: unread.map((e) => e.id) });
  return unread.map((e) => e.kind);
}

describe.each(testEngines())('comments and history on %s', (engine) => {
  let database: Database;
  let app: FastifyInstance;
  let alex: TestClient;
  let blair: TestClient;
  let casey: TestClient;
  let stranger: TestClient;
  let campaign: Item;
  let task: Item;

  beforeAll(async () => {
    database = await openTestDatabase(engine);
    app = await buildApp({ database, config: quiet });
    await app.ready();
    alex = await signedIn(app, 'Alex');
    blair = await signedIn(app, 'Blair');
    casey = await signedIn(app, 'Casey');
    stranger = await signedIn(app, 'Stranger');
    await makeMutual(alex, blair, casey);
    // Blair sees the task as its assignee; Casey through the campaign it lies in.
    campaign = await alex.create({ title: 'Trip', type: 'campaign', assigned_to: casey.user!.id });
    task = await alex.create({
      title: 'Book the ferry',
      type: 'task',
      parent_id: campaign.id,
      assigned_to: blair.user!.id,
    });
    await freshKinds(blair);
    await freshKinds(casey);
  });
  afterAll(async () => {
    await app.close();
    await database.close();
  });

  const comment = (client: TestClient, itemId: number, body: unknown, headers?: Record<string, string>) =>
    client.post<Comment>(`/api/items/${itemId}/comments`, body, headers);

  it('K4: stores a comment once however often its uuid or Idempotency-Key is replayed', async () => {
    const uuid = randomUUID();
    const first = await comment(alex, task.id, { body: '  Ferry at 9?  ', uuid });
    expect(first.status, first.text).toBe(201);
    expect(first.body).toMatchObject({
      uuid,
      item_id: task.id,
      body: 'Ferry at 9?',
      user: { id: alex.user!.id, name: 'Alex' },
      mentions: [],
      edited: false,
    });
    const replays = await Promise.all([
      comment(alex, task.id, { body: 'Ferry at 9?', uuid }),
      comment(alex, task.id, { body: 'Ferry at 9?', uuid }),
    ]);
    for (const replay of replays) {
      expect(replay.status, replay.text).toBe(200);
      expect(replay.body.id).toBe(first.body.id);
    }
    const key = { 'Idempotency-Key': randomUUID() };
    const keyed = await comment(alex, task.id, { body: 'Keyed' }, key);
    const again = await comment(alex, task.id, { body: 'Keyed' }, key);
    expect(again.body.id).toBe(keyed.body.id);
    const list = await alex.get<Paginated<Comment>>(`/api/items/${task.id}/comments`);
    expect(list.body.data.map((c) => c.body)).toEqual(['Ferry at 9?', 'Keyed']);
    expect(list.body).toMatchObject({ total: 2, per_page: 50, current_page: 1, last_page: 1 });
    await freshKinds(blair);
  });

  it('K5: answers whoever cannot see the item with the same 404 as for no item, on every comment route', async () => {
    const mine = await comment(alex, task.id, { body: 'Private' });
    const missing = 2_000_000;
    for (const [id, commentId] of [
      [task.id, mine.body.id],
      [missing, missing],
    ] as const) {
      expect((await stranger.get(`/api/items/${id}/comments`)).status).toBe(404);
      expect((await comment(stranger, id, { body: 'Hi' })).status).toBe(404);
      expect((await stranger.patch(`/api/comments/${commentId}`, { body: 'x' })).status).toBe(404);
      expect((await stranger.delete(`/api/comments/${commentId}`)).status).toBe(404);
      expect((await stranger.get(`/api/items/${id}/history`)).status).toBe(404);
      expect((await stranger.post(`/api/items/${id}/mute`)).status).toBe(404);
    }
    expect((await stranger.get('/api/items/abc/comments')).status).toBe(404);
    // Casey sees the task through the campaign: reads and writes.
    const seen = await casey.get<Paginated<Comment>>(`/api/items/${task.id}/comments`);
    expect(seen.body.data.map((c) => c.body)).toContain('Private');
    await freshKinds(blair);
  });

  it('refuses an empty, too long or NUL body, and an unknown field, with 422 and a message', async () => {
    for (const body of [
      { body: ' ' },
      { body: 'a'.repeat(5001) },
      { body: 'a\u0000' },
      { body: 'a', x: 1 },
    ]) {
      const answer = await comment(alex, task.id, body);
      expect(answer.status, answer.text).toBe(422);
      expect((answer.body as unknown as { message: string }).message).toBeTruthy();
    }
  });

  it('K6: lets people mention only those who see the item, with one message for every reason', async () => {
    for (const id of [stranger.user!.id, 2_000_000]) {
      const refused = await comment(alex, task.id, { body: `Hey ${mentionToken(id)}` });
      expect(refused.status).toBe(422);
      expect(refused.body).toMatchObject({ errors: { mentions: [MENTION_NOT_ALLOWED] } });
      const listed = await comment(alex, task.id, { body: 'Hey', mentions: [id] });
      expect(listed.body).toMatchObject({ errors: { mentions: [MENTION_NOT_ALLOWED] } });
    }
    const ok = await comment(alex, task.id, { body: `Ask ${mentionToken(casey.user!.id)}` });
    expect(ok.status, ok.text).toBe(201);
    expect(ok.body.mentions).toEqual([{ id: casey.user!.id, name: 'Casey' }]);
    // The picker offers exactly the people who see the item.
    const people = await blair.get<{ people: { name: string }[] }>(`/api/items/${task.id}/people`);
    expect(people.body.people.map((p) => p.name)).toEqual(['Alex', 'Blair', 'Casey']);
    expect((await stranger.get(`/api/items/${task.id}/people`)).status).toBe(404);
    await freshKinds(blair);
    await freshKinds(casey);
  });

  it('K1: tells the mentioned `mentioned`, the creator, assignee and commenters `commented`, the author nothing', async () => {
    // Blair sees the todo through the task, Casey through the campaign above it.
    const todo = await alex.create({ title: 'Tickets', type: 'todo', parent_id: task.id });
    await comment(casey, todo.id, { body: 'On it' });
    expect(await freshKinds(alex)).toEqual(['commented']);
    expect(await freshKinds(casey)).toEqual([]);

    await comment(blair, todo.id, { body: `${mentionToken(casey.user!.id)} done?` });
    expect(await freshKinds(casey)).toEqual(['mentioned']);
    expect(await freshKinds(alex)).toEqual(['commented']);
    expect(await freshKinds(blair)).toEqual([]);

    const entries = await casey.get<NotificationPage>('/api/notifications');
    expect(entries.body.data[0]).toMatchObject({
      kind: 'mentioned',
      text: 'Blair mentioned you on todo “Tickets”',
      item: { id: todo.id },
    });
    expect(entries.body.data[0]?.comment_id).toBeGreaterThan(0);

    // A muted item sends no `commented`, and no `updated`; a mention still arrives.
    expect((await alex.post(`/api/items/${todo.id}/mute`)).body).toEqual({ muted: true });
    expect((await alex.get(`/api/items/${todo.id}/mute`)).body).toEqual({ muted: true });
    await comment(casey, todo.id, { body: 'Bought' });
    await casey.update(todo.id, { title: 'Tickets bought' });
    expect(await freshKinds(alex)).toEqual([]);
    await comment(casey, todo.id, { body: `${mentionToken(alex.user!.id)} fyi` });
    expect(await freshKinds(alex)).toEqual(['mentioned']);
    expect((await alex.delete(`/api/items/${todo.id}/mute`)).body).toEqual({ muted: false });
    await comment(blair, todo.id, { body: 'Thanks' });
    expect(await freshKinds(alex)).toEqual(['commented']);
  });

  it('K2: lets only the author edit, and the author or the campaign’s owner delete', async () => {
    const blairs = await comment(blair, task.id, { body: 'Typo hree' });
    const edited = await blair.patch<Comment>(`/api/comments/${blairs.body.id}`, { body: 'Typo here' });
    expect(edited.status, edited.text).toBe(200);
    expect(edited.body).toMatchObject({ body: 'Typo here', edited: true });
    const byOther = await casey.patch(`/api/comments/${blairs.body.id}`, { body: 'Mine now' });
    expect(byOther.status).toBe(403);
    expect((await alex.patch(`/api/comments/${blairs.body.id}`, { body: 'x' })).status).toBe(403);

    expect((await casey.delete(`/api/comments/${blairs.body.id}`)).status).toBe(403);
    // Alex owns the campaign the task lies in.
    expect((await alex.delete(`/api/comments/${blairs.body.id}`)).status).toBe(204);
    expect((await blair.patch(`/api/comments/${blairs.body.id}`, { body: 'x' })).status).toBe(404);
    const caseys = await comment(casey, task.id, { body: 'Mine' });
    expect((await casey.delete(`/api/comments/${caseys.body.id}`)).status).toBe(204);
    const list = await alex.get<Paginated<Comment>>(`/api/items/${task.id}/comments`);
    expect(list.body.data.map((c) => c.body)).not.toContain('Typo here');
  });

  it('K7: announces a comment to everyone who sees the item, on its commit', async () => {
    const heard: string[] = [];
    const stops = [alex, blair, casey, stranger].map((c) =>
      app.changes.subscribe(c.user!.id, () => heard.push(c.user!.name)),
    );
    await comment(blair, task.id, { body: 'Live' });
    // PostgreSQL delivers through LISTEN/NOTIFY, a moment after the commit.
    await vi.waitFor(() => expect(new Set(heard)).toEqual(new Set(['Alex', 'Blair', 'Casey'])));
    for (const stop of stops) stop();
  });

  it('pages comments oldest first, 50 a page', async () => {
    const item = await alex.create({ title: 'Chatty', type: 'task' });
    for (let i = 1; i <= 52; i++) await comment(alex, item.id, { body: `#${i}` });
    const second = await alex.get<Paginated<Comment>>(`/api/items/${item.id}/comments?page=2`);
    expect(second.body.data.map((c) => c.body)).toEqual(['#51', '#52']);
    expect(second.body).toMatchObject({ total: 52, last_page: 2 });
  });

  it('K3: restores an old title and leaves a field changed since alone, naming it', async () => {
    const item = await alex.create({ title: 'Draft', type: 'task', parent_id: campaign.id });
    await alex.update(item.id, { title: 'Final', priority: 2 });
    await casey.update(item.id, { priority: 1 });
    await comment(alex, item.id, { body: 'Not history' });
    const history = await alex.get<Paginated<HistoryEntry>>(`/api/items/${item.id}/history`);
    expect(history.status, history.text).toBe(200);
    expect(history.body.data.map((e) => [e.user.name, e.action, e.changes])).toEqual([
      ['Casey', 'updated', { priority: { from: 2, to: 1 } }],
      ['Alex', 'updated', { title: { from: 'Draft', to: 'Final' }, priority: { from: 4, to: 2 } }],
      ['Alex', 'created', {}],
    ]);
    const edit = history.body.data[1]!;
    const reverted = await casey.post<Item & { skipped: string[] }>(
      `/api/items/${item.id}/history/${edit.id}/revert`,
    );
    expect(reverted.status, reverted.text).toBe(200);
    expect(reverted.body).toMatchObject({ title: 'Draft', priority: 1, skipped: ['priority'] });
    // A restore is itself a change, in the history and the item's version (the comment moved it too, K11).
    const after = await alex.get<Paginated<HistoryEntry>>(`/api/items/${item.id}/history`);
    expect(after.body.data[0]).toMatchObject({
      user: { name: 'Casey' },
      changes: { title: { from: 'Final', to: 'Draft' } },
    });
    expect((await alex.item(item.id)).version).toBe(item.version + 4);

    const created = history.body.data[2]!;
    expect((await alex.post(`/api/items/${item.id}/history/${created.id}/revert`)).status).toBe(422);
    expect((await alex.post(`/api/items/${item.id}/history/999999/revert`)).status).toBe(404);
    expect((await alex.post(`/api/items/${task.id}/history/${edit.id}/revert`)).status).toBe(404);
    expect((await stranger.post(`/api/items/${item.id}/history/${edit.id}/revert`)).status).toBe(404);
  });

  it('lists comment entries in the campaign’s activity', async () => {
    const feed = await alex.get<Paginated<{ action: string; description: string }>>(
      `/api/campaigns/${campaign.id}/activity?page=1`,
    );
    expect(
      feed.body.data.some((e) => e.action === 'commented' && e.description.includes('commented on')),
    ).toBe(true);
  });
});
