import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, testEngines } from '../../../testkit/server';
import { makeMutual, signedIn, type TestClient } from '../../../testkit/testClient';
import type { SyncChange, SyncPage } from '../../shared/item';
import { type Database, rows, sql } from '../db/client';
import { decodeCursor } from './cursor';

let database: Database;

/**
 * Pulls from `cursor` until the cursor has passed the newest write, returning every entry in order.
 * On a shared PostgreSQL cluster another database's open transaction can hold the horizon back for
 * a moment, so "nothing more" alone does not mean "caught up".
 */
async function pull(client: TestClient, cursor = ''): Promise<{ items: SyncChange[]; cursor: string }> {
  const [newest] = await rows<{ xid: string }>(
    database.db,
    sql`SELECT GREATEST((SELECT COALESCE(max(change_xid), 0) FROM items),
                        (SELECT COALESCE(max(change_xid), 0) FROM item_revocations))::text AS xid`,
  );
  const target = BigInt(newest?.xid ?? '0');
  const items: SyncChange[] = [];
  for (let pulls = 0; pulls < 500; pulls++) {
    const page = (await client.get<SyncPage>(`/api/sync?cursor=${cursor}`)).body;
    items.push(...page.items);
    cursor = page.cursor;
    if (!page.has_more && (decodeCursor(cursor)?.xid ?? 0n) > target) return { items, cursor };
    if (!page.has_more) await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error('the sync cursor never caught up with the last write');
}

describe.each(testEngines())('losing access reaches the client through sync on %s', (engine) => {
  let harness: Awaited<ReturnType<typeof createTestApp>>;
  beforeAll(async () => {
    harness = await createTestApp(engine);
    database = harness.database;
  });
  afterAll(() => harness.close());

  it('L5: sends a tombstone for an item and everything under it once its assignee is removed', async () => {
    const owner = await signedIn(harness.app, 'Owner');
    const helper = await signedIn(harness.app, 'Helper');
    await makeMutual(owner, helper);
    const campaign = await owner.create({ title: 'Shared', type: 'campaign', assigned_to: helper.user!.id });
    const task = await owner.create({ title: 'Inside', type: 'task', parent_id: campaign.id });
    const first = await pull(helper);
    expect(first.items.map((i) => i.id).sort()).toEqual([campaign.id, task.id].sort());

    await owner.post(`/api/items/${campaign.id}/assign`, { user_id: 0 });
    const second = await pull(helper, first.cursor);
    const gone = new Map(second.items.map((i) => [i.id, i.deleted_at]));
    expect(gone.get(campaign.id)).toBeTruthy();
    expect(gone.get(task.id)).toBeTruthy();
    expect((await helper.get(`/api/items/${campaign.id}`)).status).toBe(404);
  });

  it('L5: keeps what the user still sees through their own assignment', async () => {
    const owner = await signedIn(harness.app, 'Owner');
    const helper = await signedIn(harness.app, 'Helper');
    await makeMutual(owner, helper);
    const campaign = await owner.create({ title: 'Shared', type: 'campaign', assigned_to: helper.user!.id });
    const mine = await owner.create({
      title: 'Theirs to do',
      type: 'todo',
      parent_id: campaign.id,
      assigned_to: helper.user!.id,
    });
    const first = await pull(helper);
    await owner.post(`/api/items/${campaign.id}/assign`, { user_id: 0 });
    const second = await pull(helper, first.cursor);
    const byId = new Map(second.items.map((i) => [i.id, i]));
    expect(byId.get(campaign.id)?.deleted_at).toBeTruthy();
    expect(byId.get(mine.id)?.deleted_at ?? null).toBeNull();
  });

  it('L5: brings an item back when access returns, also in a bootstrap pull', async () => {
    const owner = await signedIn(harness.app, 'Owner');
    const helper = await signedIn(harness.app, 'Helper');
    await makeMutual(owner, helper);
    const todo = await owner.create({ title: 'Back and forth', type: 'todo', assigned_to: helper.user!.id });
    const first = await pull(helper);
    await owner.post(`/api/items/${todo.id}/assign`, { user_id: 0 });
    const revoked = await pull(helper, first.cursor);
    expect(revoked.items.find((i) => i.id === todo.id)?.deleted_at).toBeTruthy();
    await owner.post(`/api/items/${todo.id}/assign`, { user_id: helper.user!.id });
    const regained = await pull(helper, revoked.cursor);
    expect(regained.items.find((i) => i.id === todo.id)?.deleted_at ?? null).toBeNull();
    const bootstrap = await pull(helper);
    const entries = bootstrap.items.filter((i) => i.id === todo.id);
    expect(entries.at(-1)?.deleted_at ?? null).toBeNull();
  });

  it('L4, L5: tells a user who lost access only the id, uuid and time, from an old cursor and from scratch', async () => {
    const owner = await signedIn(harness.app, 'Owner');
    const helper = await signedIn(harness.app, 'Helper');
    await makeMutual(owner, helper);
    const secret = await owner.create({ title: 'Shared for now', type: 'campaign' });
    const task = await owner.create({
      title: 'Assigned for now',
      type: 'task',
      parent_id: secret.id,
      assigned_to: helper.user!.id,
    });
    const before = await pull(helper);
    expect(before.items.map((i) => i.id)).toEqual([task.id]);

    await owner.post(`/api/items/${task.id}/assign`, { user_id: 0 });
    await owner.update(task.id, {
      title: 'Layoffs plan',
      description: 'Confidential',
      status: 'in_progress',
    });
    const tombstone = { id: task.id, uuid: task.uuid, deleted_at: expect.any(String) };
    // Every time it is asked, from where the helper was and from the very beginning.
    for (let round = 0; round < 2; round++) {
      const fromOld = await pull(helper, before.cursor);
      expect(fromOld.items.filter((i) => i.id === task.id)).toEqual([tombstone]);
      const fromScratch = await pull(helper);
      expect(fromScratch.items.filter((i) => i.id === task.id)).toEqual([tombstone]);
      expect(JSON.stringify(fromScratch.items)).not.toMatch(/Layoffs|Confidential|Shared for now/);
    }
  });

  it('sends nothing extra to users who keep their access', async () => {
    const owner = await signedIn(harness.app, 'Owner');
    const campaign = await owner.create({ title: 'Mine', type: 'campaign' });
    const task = await owner.create({ title: 'Moving', type: 'task', parent_id: campaign.id });
    const first = await pull(owner);
    await owner.update(task.id, { parent_id: null });
    const second = await pull(owner, first.cursor);
    expect(second.items.every((i) => i.deleted_at === null)).toBe(true);
  });
});
