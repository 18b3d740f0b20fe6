import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase, testEngines } from '../../../testkit/server';
import { makeMutual, pullAll, signedIn, TestClient } from '../../../testkit/testClient';
import type { Item, Paginated, SyncPage } from '../../shared/item';
import { buildApp } from '../app';
import { type Database, openDatabase } from '../db/client';
import { ReadCache } from './readCache';

describe('ReadCache', () => {
  it('serves an entry until the user it belongs to changes', () => {
    const cache = new ReadCache();
    const stamp = cache.stamp(1);
    cache.set(1, 'k', stamp, 'body');
    expect(cache.get(1, 'k')).toBe('body');
    cache.changed([2]);
    expect(cache.get(1, 'k')).toBe('body');
    cache.changed([1]);
    expect(cache.get(1, 'k')).toBeUndefined();
  });

  it('refuses an entry whose read overlapped a change', () => {
    const cache = new ReadCache();
    const stamp = cache.stamp(1);
    cache.changed([1]);
    cache.set(1, 'k', stamp, 'stale');
    expect(cache.get(1, 'k')).toBeUndefined();
  });

  it('forgets everything on reset and keeps at most its size', () => {
    const cache = new ReadCache(2);
    for (const key of ['a', 'b', 'c']) cache.set(1, key, cache.stamp(1), key);
    expect(cache.size()).toBe(2);
    expect(cache.get(1, 'a')).toBeUndefined();
    cache.reset();
    expect(cache.get(1, 'c')).toBeUndefined();
  });
});

const ids = (page: Paginated<Item>) => page.data.map((i) => i.id);

describe.each(testEngines())('cached reads stay correct on %s', (engine) => {
  let database: Database;
  let app: FastifyInstance;
  beforeAll(async () => {
    database = await openTestDatabase(engine);
    app = await buildApp({ database, config: { seedSampleUsers: true } });
    await app.ready();
  });
  afterAll(async () => {
    await app.close();
    await database.close();
  });

  it('shows a writer its own write on the very next read', async () => {
    const alex = await signedIn(app, 'Alex');
    expect(ids((await alex.get<Paginated<Item>>('/api/items')).body)).toEqual([]);
    const todo = await alex.create({ title: 'Fresh', type: 'todo' });
    expect(ids((await alex.get<Paginated<Item>>('/api/items')).body)).toEqual([todo.id]);
    await alex.update(todo.id, { title: 'Renamed' });
    expect((await alex.get<Paginated<Item>>('/api/items')).body.data[0]?.title).toBe('Renamed');
  });

  it('updates the lists of a user an item is assigned to and unassigned from', async () => {
    const owner = await signedIn(app, 'Owner');
    const helper = await signedIn(app, 'Helper');
    await makeMutual(owner, helper);
    const campaign = await owner.create({ title: 'Shared', type: 'campaign' });
    expect(ids((await helper.get<Paginated<Item>>('/api/items')).body)).toEqual([]);
    await owner.post(`/api/items/${campaign.id}/assign`, { user_id: helper.user!.id });
    await new Promise((r) => setTimeout(r, 100));
    expect(ids((await helper.get<Paginated<Item>>('/api/items')).body)).toEqual([campaign.id]);
    await owner.post(`/api/items/${campaign.id}/assign`, { user_id: 0 });
    await new Promise((r) => setTimeout(r, 100));
    expect(ids((await helper.get<Paginated<Item>>('/api/items')).body)).toEqual([]);
  });

  it('answers a pull from a current cursor with nothing, then with the next change', async () => {
    const alex = await signedIn(app, 'Puller');
    await alex.create({ title: 'One', type: 'todo' });
    // Caught up with that write first: on a shared cluster another database's open transaction may
    // hold it below the horizon for a moment, and it would then come with the next change.
    let { cursor } = await pullAll(alex, database);
    for (let i = 0; i < 3; i++) {
      const again = (await alex.get<SyncPage>(`/api/sync?cursor=${cursor}`)).body;
      // The cursor may still move on a shared cluster (other databases' transactions end), never the items.
      expect(again.items).toEqual([]);
      expect(again.has_more).toBe(false);
      cursor = again.cursor;
    }
    const two = await alex.create({ title: 'Two', type: 'todo' });
    // On a shared PostgreSQL cluster another database's open transaction may hold the horizon back
    // for a moment: the change must arrive, not necessarily on the very next pull.
    let next: SyncPage = { items: [], cursor, has_more: false };
    for (let i = 0; i < 300 && next.items.length === 0; i++) {
      next = (await alex.get<SyncPage>(`/api/sync?cursor=${cursor}`)).body;
      if (next.items.length === 0) await new Promise((r) => setTimeout(r, 10));
    }
    expect(next.items.map((i) => i.id)).toEqual([two.id]);
  });
});

describe.runIf(process.env.TEST_DATABASE_URL)('cached reads across instances sharing PostgreSQL', () => {
  let database: Database;
  let second: Database;
  let appA: FastifyInstance;
  let appB: FastifyInstance;
  beforeAll(async () => {
    database = await openTestDatabase('pg');
    second = await openDatabase({ url: database.url! });
    appA = await buildApp({ database, config: { seedSampleUsers: true } });
    appB = await buildApp({ database: second, config: { seedSampleUsers: false } });
    await Promise.all([appA.ready(), appB.ready()]);
    // The LISTEN connections start in the background.
    while (!appA.changes.isLive() || !appB.changes.isLive()) await new Promise((r) => setTimeout(r, 20));
  });
  afterAll(async () => {
    await appA.close();
    await appB.close();
    await second.close();
    await database.close();
  });

  it('drops B’s cached page once A’s write is announced', async () => {
    const onA = await signedIn(appA, 'Alex');
    const onB = new TestClient(appB);
    for (const [name, value] of onA.jar) onB.jar.set(name, value);
    expect(ids((await onB.get<Paginated<Item>>('/api/items')).body)).toEqual([]);
    const todo = await onA.create({ title: 'From A', type: 'todo' });
    const started = Date.now();
    let seen: number[] = [];
    while (Date.now() - started < 3000) {
      seen = ids((await onB.get<Paginated<Item>>('/api/items')).body);
      if (seen.length > 0) break;
      await new Promise((r) => setTimeout(r, 20));
    }
    expect(seen).toEqual([todo.id]);
  });
});
