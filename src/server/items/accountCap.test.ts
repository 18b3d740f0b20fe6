import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase, testEngines } from '../../../testkit/server';
import { signedIn } from '../../../testkit/testClient';
import { buildApp } from '../app';
import type { Database } from '../db/client';
import { accountFullMessage } from './batch';

type ErrorBody = { message: string; errors?: Record<string, string[]> };

const todos = (count: number, title = 'Todo') =>
  Array.from({ length: count }, (_, n) => ({ uuid: randomUUID(), title: `${title} ${n}`, type: 'todo' }));

// Issue 29 F0: one account may own at most USER_MAX_ITEMS live items (250,000 by default; 6 here).
describe.each(testEngines())('an account owns at most userMaxItems live items (%s)', (engine) => {
  let database: Database;
  let app: FastifyInstance;
  beforeAll(async () => {
    database = await openTestDatabase(engine);
    app = await buildApp({ database, config: { seedSampleUsers: true, userMaxItems: 6 } });
    await app.ready();
  });
  afterAll(async () => {
    await app?.close();
    await database?.close();
  });

  it('refuses a batch past the cap with a 422 that says so, creates none of it, and takes one that fits (F0)', async () => {
    const c = await signedIn(app, 'Hoarder');
    expect((await c.post('/api/items/batch', { items: todos(4) })).status).toBe(201);
    const over = await c.post<ErrorBody>('/api/items/batch', { items: todos(3, 'Over') });
    expect(over.status).toBe(422);
    expect(over.body.errors?.items).toEqual([accountFullMessage(6)]);
    expect(over.body.message).toContain('holds the most items it may (6)');
    const listed = await c.get<{ total: number }>('/api/items?type=todo');
    expect(listed.body.total).toBe(4);
    expect((await c.post('/api/items/batch', { items: todos(2, 'Fits') })).status).toBe(201);
    // Deleted items do not count: a delete makes room again.
    const one = await c.get<{ data: { id: number }[] }>('/api/items?type=todo');
    expect((await c.delete(`/api/items/${one.body.data[0]!.id}`)).status).toBe(204);
    expect((await c.post('/api/items/batch', { items: todos(1, 'Again') })).status).toBe(201);
    // Another account has its own room.
    const other = await signedIn(app, 'Neighbour');
    expect((await other.post('/api/items/batch', { items: todos(6) })).status).toBe(201);
  });
});
