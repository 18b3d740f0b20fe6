import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, testEngines } from '../../../testkit/server';
import { makeMutual, pullAll, signedIn, writeDirectly } from '../../../testkit/testClient';
import {
  isTombstone,
  SYNC_FIRST_PAGE_SIZE,
  SYNC_PAGE_SIZE,
  type SyncChange,
  type SyncPage,
} from '../../shared/item';
import { ITEM_CHILDREN } from '../../shared/itemChildren';
import { SYNC_LISTS } from '../../shared/syncLists';
import { rows, sql } from '../db/client';
import { ITEM_FROM, visibleTo } from '../items/queries';

describe.each(testEngines())('sync (%s)', (engine) => {
  let harness: Awaited<ReturnType<typeof createTestApp>>;
  beforeAll(async () => {
    harness = await createTestApp(engine);
  });
  afterAll(() => harness?.close());

  /**
   * Every item the user may see now, straight from the database: its version, or 'deleted' for one
   * that sync must send as a tombstone (which carries no version).
   */
  const latestVersions = async (userId: number) => {
    const found = await rows<{ id: number; version: number; deleted: boolean }>(
      harness.database.db,
      sql`SELECT i.id, i.version, i.deleted_at IS NOT NULL AS deleted ${ITEM_FROM} WHERE ${visibleTo(userId)} ORDER BY i.id`,
    );
    return new Map(found.map((r) => [r.id, r.deleted ? ('deleted' as const) : r.version]));
  };
  const stateOf = (change: SyncChange | undefined) =>
    change === undefined ? undefined : isTombstone(change) ? 'deleted' : change.version;

  it('L2: bootstraps from an empty cursor, then sends only what changed', async () => {
    const c = await signedIn(harness.app);
    const a = await c.create({ title: 'a', type: 'todo' });
    const b = await c.create({ title: 'b', type: 'todo' });
    const first = await c.get<SyncPage>('/api/sync');
    expect(first.status).toBe(200);
    expect(first.body).toEqual({
      items: expect.any(Array),
      ...Object.fromEntries(ITEM_CHILDREN.map((child) => [child.name, []])),
      ...Object.fromEntries(SYNC_LISTS.map((name) => [name, []])),
      cursor: expect.any(String),
      has_more: false,
    });
    const bootstrap = await pullAll(c, harness.database);
    expect(bootstrap.items.map((i) => i.id).sort()).toEqual([a.id, b.id].sort());
    expect(bootstrap.items[0]).toMatchObject({ deleted_at: null, created_by: { id: c.user?.id } });

    const quiet = await c.get<SyncPage>(`/api/sync?cursor=${bootstrap.cursor}`);
    expect(quiet.body.items).toEqual([]);

    await c.update(b.id, { title: 'b2' });
    const changed = await pullAll(c, harness.database, quiet.body.cursor);
    expect(changed.items).toEqual([expect.objectContaining({ id: b.id, title: 'b2', version: 2 })]);
    expect(changed.cursor).not.toBe(quiet.body.cursor);
  });

  it('L4: sends a tombstone for a deleted item', async () => {
    const c = await signedIn(harness.app);
    const item = await c.create({ title: 'doomed', type: 'todo' });
    const { cursor } = await pullAll(c, harness.database);
    await c.delete(`/api/items/${item.id}`);
    const after = await pullAll(c, harness.database, cursor);
    expect(after.items).toHaveLength(1);
    // A tombstone says which item and when, nothing of what it was.
    expect(after.items[0]).toEqual({ id: item.id, uuid: item.uuid, deleted_at: expect.any(String) });
  });

  it('L3, L16: pages more than 500 changes across has_more pages, the first of 100, without losing or repeating one', async () => {
    const c = await signedIn(harness.app, 'Bulk');
    const userId = c.user?.id ?? 0;
    for (let n = 0; n < 80; n += 8) {
      await Promise.all(
        Array.from({ length: 8 }, (_, k) => c.post('/api/items', { title: `api ${n + k}`, type: 'todo' })),
      );
    }
    // 450 changes in one transaction share one transaction id, and the page boundary falls inside
    // them: the cursor must page within one transaction by id.
    await writeDirectly(harness.app, [userId], (tx) =>
      tx.execute(
        sql`INSERT INTO items (title, type, user_id) SELECT 'bulk ' || n, 'todo', ${userId} FROM generate_series(1, 950) n`,
      ),
    );
    const expected = await latestVersions(userId);
    expect(expected.size).toBe(1030);

    // Wait until the bootstrap can see every row, so page sizes do not depend on other databases'
    // transactions holding PostgreSQL's cluster-wide horizon back for a moment.
    await pullAll(c, harness.database);
    const pages: SyncPage[] = [];
    let cursor = '';
    for (;;) {
      const page = await c.get<SyncPage>(`/api/sync?cursor=${encodeURIComponent(cursor)}`);
      pages.push(page.body);
      cursor = page.body.cursor;
      if (!page.body.has_more) break;
    }
    // L16: a bootstrap's first page is the small one, the next full.
    expect(pages.map((p) => p.items.length)).toEqual([SYNC_FIRST_PAGE_SIZE, SYNC_PAGE_SIZE, 430]);
    expect(pages[0]?.has_more).toBe(true);
    const rest = await pullAll(c, harness.database, cursor);
    const ids = [...pages.flatMap((p) => p.items.map((i) => i.id)), ...rest.items.map((i) => i.id)];
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.sort((a, b) => a - b)).toEqual([...expected.keys()]);
    expect((await c.get<SyncPage>(`/api/sync?cursor=${rest.cursor}`)).body.items).toEqual([]);
  });

  it('L1: never skips a change when writes and pulls interleave in any order', async () => {
    const reader = await signedIn(harness.app, 'Reader');
    const writer = await signedIn(harness.app, 'Writer');
    await makeMutual(reader, writer);
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
        const seen = new Map<number, SyncChange>();
        // Pages come in change order: what arrives last is the item's latest state.
        const keep = (items: SyncChange[]) => {
          for (const item of items) seen.set(item.id, item);
        };
        // Plain pulls in between, as a client makes them; only the last one waits to catch up.
        const pull = async () => {
          for (;;) {
            const page = await reader.get<SyncPage>(`/api/sync?cursor=${encodeURIComponent(cursor)}`);
            expect(page.status).toBe(200);
            keep(page.body.items);
            cursor = page.body.cursor;
            if (!page.body.has_more) return;
          }
        };
        let cursor = '';
        const mine: number[] = [];
        for (const step of ops) {
          if (step.kind === 'pull') {
            await pull();
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
        await pull();
        keep((await pullAll(reader, harness.database, cursor)).items);
        const expected = await latestVersions(readerId);
        for (const [id, state] of expected) {
          expect(stateOf(seen.get(id)), `item ${id}`).toBe(state);
        }
      }),
      { numRuns: 8 },
    );
    // Eight programs of up to 25 requests each: on a loaded 2-core CI machine that outlasts the default 30 s.
  }, 180_000);

  it('L1: a pull that has drained stays drained while a change it may not hear of lands (an item taken away, then edited)', async () => {
    // CI's property run found this: the reader's drained pull is answered from the read cache, so
    // its cursor stays below the edit; what the reader must hear of has all been sent all the same.
    const reader = await signedIn(harness.app, 'Reader');
    const writer = await signedIn(harness.app, 'Writer');
    await makeMutual(reader, writer);
    const readerId = reader.user?.id ?? 0;
    const item = await writer.create({ title: 'Lent', type: 'todo', assigned_to: readerId });
    expect((await writer.post(`/api/items/${item.id}/assign`, { user_id: 0 })).status).toBe(200);
    const drained = await pullAll(reader, harness.database);
    expect(drained.items.map((change) => [change.id, isTombstone(change)])).toEqual([[item.id, true]]);
    await writer.patch(`/api/items/${item.id}`, { description: 'not for the reader' });
    const again = await pullAll(reader, harness.database, drained.cursor);
    expect(again.items).toEqual([]);
    expect(again.pulls).toBe(1);
  });

  it("L7: counts what remains after a page by the page's own rules: another user's items never, tombstones and revocations once", async () => {
    const c = await signedIn(harness.app, 'Counted');
    const other = await signedIn(harness.app, 'Uncounted');
    await makeMutual(c, other);
    const userId = c.user?.id ?? 0;
    const otherId = other.user?.id ?? 0;
    await writeDirectly(harness.app, [userId, otherId], async (tx) => {
      await tx.execute(
        sql`INSERT INTO items (title, type, user_id) SELECT 'mine ' || n, 'todo', ${userId} FROM generate_series(1, 520) n`,
      );
      // Another user's own items are none of this user's business, not even as a number.
      await tx.execute(
        sql`INSERT INTO items (title, type, user_id) SELECT 'theirs ' || n, 'todo', ${otherId} FROM generate_series(1, 40) n`,
      );
      await tx.execute(
        sql`INSERT INTO items (title, type, user_id, assigned_to) VALUES ('given to me', 'todo', ${otherId}, ${userId})`,
      );
    });
    // A deleted item travels as a tombstone, so it counts; so does an item taken away (a revocation).
    const doomed = await c.create({ title: 'deleted', type: 'todo' });
    await c.delete(`/api/items/${doomed.id}`);
    const lent = await other.create({ title: 'lent', type: 'todo', assigned_to: userId });
    await other.post(`/api/items/${lent.id}/assign`, { user_id: 0 });
    const expected = await latestVersions(userId);
    expect(expected.size).toBe(522);
    const entries = expected.size + 1;
    await pullAll(c, harness.database);

    const plain = (await c.get<SyncPage>('/api/sync')).body;
    expect(plain).not.toHaveProperty('remaining');
    const pages: SyncPage[] = [];
    let cursor = '';
    for (;;) {
      const page = await c.get<SyncPage>(`/api/sync?count=1&cursor=${encodeURIComponent(cursor)}`);
      expect(page.status).toBe(200);
      pages.push(page.body);
      cursor = page.body.cursor;
      if (!page.body.has_more) break;
    }
    expect(pages.map((p) => [p.items.length, p.remaining])).toEqual([
      [SYNC_FIRST_PAGE_SIZE, entries - SYNC_FIRST_PAGE_SIZE],
      [entries - SYNC_FIRST_PAGE_SIZE, 0],
    ]);
    const tombstones = pages.flatMap((p) => p.items).filter(isTombstone);
    expect(tombstones.map((t) => t.id).sort((a, b) => a - b)).toEqual([doomed.id, lent.id]);
    // From a cursor in the middle, only what comes after it.
    const middle = (await c.get<SyncPage>(`/api/sync?count=1&cursor=${encodeURIComponent(pages[0]!.cursor)}`))
      .body;
    expect(middle.remaining).toBe(0);
    expect((await c.get(`/api/sync?count=2`)).status).toBe(422);
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
