import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Item, SYNC_PAGE_SIZE, type SyncPage } from '../../shared/item';
import { rows, sql } from '../db/client';
import { ITEM_FROM, visibleTo } from '../items/queries';
import { signedIn, type TestClient } from '../testClient';
import { createTestApp, testEngines } from '../testing';

/** Pulls from `cursor` until the server says there is no more, keeping the newest version of each item. */
async function drain(client: TestClient, cursor: string, seen: Map<number, Item>) {
  let pages = 0;
  for (;;) {
    const response = await client.get<SyncPage>(`/api/sync?cursor=${encodeURIComponent(cursor)}`);
    expect(response.status, response.text).toBe(200);
    pages += 1;
    for (const item of response.body.items) {
      const known = seen.get(item.id);
      if (!known || known.version <= item.version) seen.set(item.id, item);
    }
    cursor = response.body.cursor;
    if (!response.body.has_more) return { cursor, pages };
  }
}

describe.each(testEngines())('sync (%s)', (engine) => {
  let harness: Awaited<ReturnType<typeof createTestApp>>;
  beforeAll(async () => {
    harness = await createTestApp(engine);
  });
  afterAll(() => harness?.close());

  /** Every item the user may see now (tombstones included) with its version, straight from the database. */
  const latestVersions = async (userId: number) => {
    const found = await rows<{ id: number; version: number }>(
      harness.database.db,
      sql`SELECT i.id, i.version ${ITEM_FROM} WHERE ${visibleTo(userId)} ORDER BY i.id`,
    );
    return new Map(found.map((r) => [r.id, r.version]));
  };

  it('bootstraps from an empty cursor, then sends only what changed', async () => {
    const c = await signedIn(harness.app);
    const a = await c.create({ title: 'a', type: 'todo' });
    const b = await c.create({ title: 'b', type: 'todo' });
    const first = await c.get<SyncPage>('/api/sync');
    expect(first.status).toBe(200);
    expect(first.body.has_more).toBe(false);
    expect(first.body.cursor).toEqual(expect.any(String));
    expect(first.body.items.map((i) => i.id).sort()).toEqual([a.id, b.id].sort());
    expect(first.body.items[0]).toMatchObject({ deleted_at: null, created_by: { id: c.user?.id } });

    const quiet = await c.get<SyncPage>(`/api/sync?cursor=${first.body.cursor}`);
    expect(quiet.body.items).toEqual([]);

    await c.update(b.id, { title: 'b2' });
    const changed = await c.get<SyncPage>(`/api/sync?cursor=${quiet.body.cursor}`);
    expect(changed.body.items.map((i) => [i.id, i.title, i.version])).toEqual([[b.id, 'b2', 2]]);
    expect(changed.body.cursor).not.toBe(quiet.body.cursor);
  });

  it('sends a tombstone for a deleted item', async () => {
    const c = await signedIn(harness.app);
    const item = await c.create({ title: 'doomed', type: 'todo' });
    const { cursor } = await drain(c, '', new Map());
    await c.delete(`/api/items/${item.id}`);
    const page = await c.get<SyncPage>(`/api/sync?cursor=${cursor}`);
    expect(page.body.items).toHaveLength(1);
    expect(page.body.items[0]).toMatchObject({ id: item.id, deleted_at: expect.any(String), version: 2 });
  });

  it('pages more than 500 changes across has_more pages without losing or repeating one', async () => {
    const c = await signedIn(harness.app, 'Bulk');
    const userId = c.user?.id ?? 0;
    // 300 changes in one transaction share one transaction id: the cursor must page inside it by id.
    await harness.database.db.execute(
      sql`INSERT INTO items (title, type, user_id) SELECT 'bulk ' || n, 'todo', ${userId} FROM generate_series(1, 300) n`,
    );
    for (let n = 0; n < 240; n += 8) {
      await Promise.all(
        Array.from({ length: 8 }, (_, k) => c.post('/api/items', { title: `api ${n + k}`, type: 'todo' })),
      );
    }
    const expected = await latestVersions(userId);
    expect(expected.size).toBe(540);

    const pages: SyncPage[] = [];
    let cursor = '';
    for (;;) {
      const page = await c.get<SyncPage>(`/api/sync?cursor=${encodeURIComponent(cursor)}`);
      pages.push(page.body);
      cursor = page.body.cursor;
      if (!page.body.has_more) break;
    }
    expect(pages.map((p) => p.items.length)).toEqual([SYNC_PAGE_SIZE, 540 - SYNC_PAGE_SIZE]);
    expect(pages[0]?.has_more).toBe(true);
    const ids = pages.flatMap((p) => p.items.map((i) => i.id));
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.sort((a, b) => a - b)).toEqual([...expected.keys()]);
    expect((await c.get<SyncPage>(`/api/sync?cursor=${cursor}`)).body.items).toEqual([]);
  });

  it('never skips a change when writes and pulls interleave in any order', async () => {
    const reader = await signedIn(harness.app, 'Reader');
    const writer = await signedIn(harness.app, 'Writer');
    const readerId = reader.user?.id ?? 0;
    const campaign = await writer.create({ title: 'Shared', type: 'campaign', assigned_to: readerId });

    type Op =
      | { kind: 'create'; by: 0 | 1; under: boolean }
      | { kind: 'update' | 'complete' | 'reopen' | 'delete' | 'assign' | 'unassign'; pick: number }
      | { kind: 'pull' };
    const op: fc.Arbitrary<Op> = fc.oneof(
      fc.record({
        kind: fc.constant('create' as const),
        by: fc.constantFrom(0 as const, 1 as const),
        under: fc.boolean(),
      }),
      fc.record({
        kind: fc.constantFrom('update', 'complete', 'reopen', 'delete', 'assign', 'unassign'),
        pick: fc.nat(),
      }),
      fc.constant({ kind: 'pull' as const }),
    );

    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 5, maxLength: 25 }), async (ops) => {
        const seen = new Map<number, Item>();
        let { cursor } = await drain(reader, '', seen);
        const mine: number[] = [];
        for (const step of ops) {
          if (step.kind === 'pull') {
            cursor = (await drain(reader, cursor, seen)).cursor;
          } else if (step.kind === 'create') {
            const client = step.by === 0 ? reader : writer;
            const item = await client.create({
              title: `op ${mine.length}`,
              type: 'todo',
              ...(step.under ? { parent_id: campaign.id } : {}),
              ...(step.by === 1 && !step.under ? { assigned_to: readerId } : {}),
            });
            mine.push(item.id);
          } else if (mine.length > 0) {
            const id = mine[step.pick % mine.length] ?? 0;
            const path = `/api/items/${id}`;
            if (step.kind === 'update') await writer.patch(path, { description: `d${step.pick}` });
            if (step.kind === 'complete') await writer.patch(path, { status: 'completed' });
            if (step.kind === 'reopen') await writer.patch(path, { status: 'pending' });
            if (step.kind === 'delete') await writer.delete(path);
            if (step.kind === 'assign') await writer.post(`${path}/assign`, { user_id: readerId });
            if (step.kind === 'unassign') await writer.post(`${path}/assign`, { user_id: 0 });
          }
        }
        await drain(reader, cursor, seen);
        const expected = await latestVersions(readerId);
        for (const [id, version] of expected) {
          expect(seen.get(id)?.version, `item ${id}`).toBe(version);
        }
      }),
      { numRuns: 12 },
    );
  });

  it('refuses a cursor the server never gave out with 422', async () => {
    const c = await signedIn(harness.app);
    for (const cursor of ['garbage', 'c1.', 'c2.1.1', 'c1.zzzzzzzzzzzzzz.1', 'c1.1.zzzzzzz']) {
      const response = await c.get<{ message: string }>(`/api/sync?cursor=${cursor}`);
      expect(response.status, cursor).toBe(422);
      expect(response.body.message).toEqual(expect.any(String));
    }
  });
});
