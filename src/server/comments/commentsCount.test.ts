import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase, testEngines } from '../../../testkit/server';
import { makeMutual, pullAll, signedIn, type TestClient } from '../../../testkit/testClient';
import type { Comment } from '../../shared/comments';
import { type Item, isTombstone, type Paginated } from '../../shared/item';
import { rebase } from '../../shared/merge';
import { buildApp } from '../app';
import { type Database, rows, sql } from '../db/client';

const quiet = { seedSampleUsers: true, reminderTickMs: 0 };

describe.each(testEngines())('comments_count on %s', (engine) => {
  let database: Database;
  let app: FastifyInstance;
  let alex: TestClient;
  let blair: TestClient;
  let casey: TestClient;
  let campaign: Item;

  beforeAll(async () => {
    database = await openTestDatabase(engine);
    app = await buildApp({ database, config: quiet });
    await app.ready();
    alex = await signedIn(app, 'Alex');
    blair = await signedIn(app, 'Blair');
    casey = await signedIn(app, 'Casey');
    await makeMutual(alex, blair, casey);
    campaign = await alex.create({ title: 'Trip', type: 'campaign' });
  });
  afterAll(async () => {
    await app.close();
    await database.close();
  });

  /** A task in the campaign that Blair (its assignee) and Casey (the todo's assignee) also see. */
  async function sharedTodo(): Promise<Item> {
    const task = await alex.create({
      title: 'Book the ferry',
      type: 'task',
      parent_id: campaign.id,
      assigned_to: blair.user!.id,
    });
    return alex.create({ title: 'Ask about bikes', type: 'todo', parent_id: task.id });
  }

  const comment = (client: TestClient, itemId: number, body: string, uuid?: string) =>
    client.post<Comment>(`/api/items/${itemId}/comments`, uuid ? { body, uuid } : { body });

  it('K10: counts live comments on the item, its page and its list; replays and deletes kept exact', async () => {
    const todo = await sharedTodo();
    expect(todo.comments_count).toBe(0);
    const uuid = randomUUID();
    const first = await comment(alex, todo.id, 'Bikes are €5', uuid);
    expect(first.status, first.text).toBe(201);
    // A replay answers with the stored comment and counts nothing.
    expect((await comment(alex, todo.id, 'Bikes are €5', uuid)).status).toBe(200);
    const second = await comment(blair, todo.id, 'Booked two');
    expect(second.status, second.text).toBe(201);
    expect((await alex.item(todo.id)).comments_count).toBe(2);

    expect((await alex.delete(`/api/comments/${first.body.id}`)).status).toBe(204);
    // A second delete of the same comment is a 404 and counts off nothing.
    expect((await alex.delete(`/api/comments/${first.body.id}`)).status).toBe(404);
    expect((await blair.item(todo.id)).comments_count).toBe(1);
    const list = await alex.get<Paginated<Item>>(`/api/items?parent_id=${todo.parent_id}`);
    expect(list.status, list.text).toBe(200);
    expect(list.body.data.find((i) => i.id === todo.id)?.comments_count).toBe(1);
    const comments = await alex.get<Paginated<Comment>>(`/api/items/${todo.id}/comments`);
    expect(comments.body.total).toBe(1);
  });

  it('K10: parallel comments from three people on one item are all counted (none lost to a race)', async () => {
    const todo = await sharedTodo();
    const writers = [alex, blair, alex, blair, alex, blair, alex, blair, alex, blair, alex, blair];
    const answers = await Promise.all(writers.map((who, n) => comment(who, todo.id, `Note ${n}`)));
    for (const answer of answers) expect(answer.status, answer.text).toBe(201);
    expect((await alex.item(todo.id)).comments_count).toBe(writers.length);

    // Parallel deletes of distinct comments, and racing deletes of one comment, count each comment once.
    const [a, b, c] = answers.map((r) => r.body);
    const deletes = await Promise.all([
      (a!.user.id === alex.user!.id ? alex : blair).delete(`/api/comments/${a!.id}`),
      (b!.user.id === alex.user!.id ? alex : blair).delete(`/api/comments/${b!.id}`),
      (c!.user.id === alex.user!.id ? alex : blair).delete(`/api/comments/${c!.id}`),
      (c!.user.id === alex.user!.id ? alex : blair).delete(`/api/comments/${c!.id}`),
      // The campaign's owner may delete any comment: a third racer on the same one.
      alex.delete(`/api/comments/${c!.id}`),
    ]);
    // A racer that read the comment live before the winner committed still answers 204; a later one 404.
    for (const r of deletes) expect([204, 404]).toContain(r.status);
    const [stored] = await rows<{ n: number; live: number }>(
      database.db,
      sql`SELECT comments_count AS n, (SELECT count(*)::int FROM comments
            WHERE item_id = ${todo.id} AND deleted_at IS NULL) AS live FROM items WHERE id = ${todo.id}`,
    );
    expect(stored).toEqual({ n: writers.length - 3, live: writers.length - 3 });
  });

  it('K11: a comment moves the item version, so another device pulls the new count', async () => {
    const todo = await sharedTodo();
    const before = await pullAll(blair, database);
    const answer = await comment(alex, todo.id, 'See you at 9');
    expect(answer.status, answer.text).toBe(201);
    const after = await pullAll(blair, database, before.cursor);
    const pulled = after.items.find((i) => i.id === todo.id);
    if (!pulled || isTombstone(pulled)) throw new Error('the todo was not pulled');
    expect(pulled.comments_count).toBe(1);
    expect(pulled.version).toBe(todo.version + 1);

    expect((await alex.delete(`/api/comments/${answer.body.id}`)).status).toBe(204);
    const again = await pullAll(blair, database, after.cursor);
    const gone = again.items.find((i) => i.id === todo.id);
    if (!gone || isTombstone(gone)) throw new Error('the todo was not pulled');
    expect(gone.comments_count).toBe(0);
    expect(gone.version).toBe(todo.version + 2);
  });

  it('K12: no client sets comments_count (422 on create, patch and batch)', async () => {
    const todo = await sharedTodo();
    const created = await alex.post('/api/items', { title: 'Forged', type: 'todo', comments_count: 99 });
    expect(created.status, created.text).toBe(422);
    const patched = await alex.patch(`/api/items/${todo.id}`, { comments_count: 99 });
    expect(patched.status, patched.text).toBe(422);
    const batch = await alex.post('/api/items/batch', {
      items: [{ title: 'Forged', type: 'todo', comments_count: 99 }],
    });
    expect(batch.status, batch.text).toBe(422);
    expect((await alex.item(todo.id)).comments_count).toBe(0);
  });

  it('K12: an edit based on the version before a comment merges over it without a conflict', async () => {
    const todo = await sharedTodo();
    // Casey's device holds the todo at its current version and edits the title offline...
    const base = await alex.item(todo.id);
    expect((await comment(blair, todo.id, 'Ferry is full')).status).toBe(201);
    // ...and its queued PATCH, sent with the old version, meets the comment's newer one.
    const stale = await alex.patch<{ item: Item }>(
      `/api/items/${todo.id}`,
      { title: 'Ask about bikes and seats' },
      { 'If-Match': `"${base.version}"` },
    );
    expect(stale.status, stale.text).toBe(412);
    const remote = stale.body.item;
    expect(remote.comments_count).toBe(1);
    const local = { ...base, title: 'Ask about bikes and seats' };
    const rebased = rebase({ item: local, base, dirty: ['title'], deleted: false }, remote);
    expect(rebased.kind).toBe('merged');
    if (rebased.kind !== 'merged') return;
    expect(rebased.item).toMatchObject({ title: 'Ask about bikes and seats', comments_count: 1 });
    const resent = await alex.patch<Item>(
      `/api/items/${todo.id}`,
      { title: 'Ask about bikes and seats' },
      { 'If-Match': `"${rebased.base.version}"` },
    );
    expect(resent.status, resent.text).toBe(200);
    expect(resent.body).toMatchObject({ title: 'Ask about bikes and seats', comments_count: 1 });
  });
});
