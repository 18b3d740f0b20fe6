import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase, testEngines } from '../../../testkit/server';
import { signedIn, type TestClient } from '../../../testkit/testClient';
import type { Comment } from '../../shared/comments';
import type { Item } from '../../shared/item';
import { buildApp } from '../app';
import type { Database } from '../db/client';

const INVISIBLES = [
  '\u200b',
  '\u200b\u200c\u200d',
  ' \u202e\u202c ',
  '\u2066\u2069',
  '\u200e\u200f\ufeff\u2060',
];

describe.each(testEngines())('control and invisible characters in text on %s', (engine) => {
  let database: Database;
  let app: FastifyInstance;
  let alex: TestClient;
  let task: Item;

  beforeAll(async () => {
    database = await openTestDatabase(engine);
    app = await buildApp({ database, config: { seedSampleUsers: true, reminderTickMs: 0 } });
    await app.ready();
    alex = await signedIn(app, 'Alex');
    task = await alex.create({ title: 'Plain', type: 'task' });
  });
  afterAll(async () => {
    await app.close();
    await database.close();
  });

  it('K27: strips control characters from titles, descriptions, labels and comments, keeping their lines', async () => {
    const created = await alex.post<Item>('/api/items', {
      title: 'Pay\u0007 rent\r\nnow\t\u001b[31m',
      type: 'todo',
      description: 'Line one\r\n\tLine two\u0007\u009b',
      labels: ['home\u0007', 'x\ty'],
    });
    expect(created.status, created.text).toBe(201);
    expect(created.body).toMatchObject({
      title: 'Pay rent now [31m',
      description: 'Line one\n\tLine two',
      labels: ['home', 'x y'],
    });
    const patched = await alex.patch<Item>(`/api/items/${created.body.id}`, { title: 'A\u0008B' });
    expect(patched.body.title).toBe('AB');
    expect((await alex.item(created.body.id)).title).toBe('AB');

    const comment = await alex.post<Comment>(`/api/items/${task.id}/comments`, {
      body: 'First\r\n\tsecond\u0007\u001b[2J\u0085third',
    });
    expect(comment.status, comment.text).toBe(201);
    expect(comment.body.body).toBe('First\n\tsecond[2J\nthird');
    const edited = await alex.patch<Comment>(`/api/comments/${comment.body.id}`, {
      body: 'Edited\u0007 once',
    });
    expect(edited.body.body).toBe('Edited once');
  });

  it('K27: refuses a comment or a label of invisible characters alone, as a title is refused', async () => {
    for (const blank of INVISIBLES) {
      const title = await alex.post('/api/items', { title: blank, type: 'todo' });
      expect(title.status).toBe(422);
      expect(title.body).toMatchObject({ errors: { title: ['The title is required.'] } });
      const comment = await alex.post(`/api/items/${task.id}/comments`, { body: blank });
      expect(comment.status, JSON.stringify(blank)).toBe(422);
      expect(comment.body).toMatchObject({ errors: { body: ['The comment is required.'] } });
      const label = await alex.patch(`/api/items/${task.id}`, { labels: [blank] });
      expect(label.status, JSON.stringify(blank)).toBe(422);
      expect(label.body).toMatchObject({ errors: { labels: ['A label cannot be empty.'] } });
    }
    // Control characters alone are as empty once stripped.
    const controls = await alex.post(`/api/items/${task.id}/comments`, { body: '\u0007\u001b\r\n' });
    expect(controls.status).toBe(422);
    expect((await alex.get<{ total: number }>(`/api/items/${task.id}/comments`)).body.total).toBe(1);
  });
});
