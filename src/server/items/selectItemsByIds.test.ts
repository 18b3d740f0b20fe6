import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, testEngines } from '../../../testkit/server';
import { share } from '../../../testkit/sharing';
import { makeMutual, signedIn } from '../../../testkit/testClient';
import type { Item, SyncChange } from '../../shared/item';
import { sql } from '../db/client';
import { selectItems, selectItemsByIds, syncItemsJson } from './queries';

describe.each(testEngines())('selectItemsByIds (%s)', (engine) => {
  let harness: Awaited<ReturnType<typeof createTestApp>>;
  beforeAll(async () => {
    harness = await createTestApp(engine);
  });
  afterAll(() => harness?.close());

  const byId = (items: Item[]) => [...items].sort((a, b) => a.id - b.id);

  it('gives every item exactly as selectItems does, JSON text included, for each viewer', async () => {
    const owner = await signedIn(harness.app, 'Owner');
    const member = await signedIn(harness.app, 'Member');
    const helper = await signedIn(harness.app, 'Helper');
    await makeMutual(owner, helper);
    const campaign = await owner.create({
      title: 'Trip',
      type: 'campaign',
      description: 'Up "north"\n\ttabs',
    });
    const task = await owner.create({
      title: 'Book the hut ✓',
      type: 'task',
      parent_id: campaign.id,
      labels: ['Travel', 'urgent'],
      priority: 1,
      due_date: '2026-03-01',
    });
    const done = await owner.create({
      title: 'Pack',
      type: 'todo',
      parent_id: task.id,
      estimate_minutes: 30,
    });
    await owner.update(done.id, { status: 'completed' });
    // The helper sees this todo but not its task: no parent summary for them.
    const assigned = await owner.create({
      title: 'Call',
      type: 'todo',
      parent_id: task.id,
      estimate_minutes: 15,
    });
    // X14: estimates roll up from live children only, and an own estimate wins over the children's.
    const dropped = await owner.create({
      title: 'Dropped',
      type: 'todo',
      parent_id: task.id,
      estimate_minutes: 500,
    });
    expect((await owner.delete(`/api/items/${dropped.id}`)).status).toBe(204);
    const planned = await owner.create({
      title: 'Tickets',
      type: 'task',
      parent_id: campaign.id,
      estimate_minutes: 60,
    });
    await owner.create({ title: 'Print', type: 'todo', parent_id: planned.id, estimate_minutes: 5 });
    await owner.update(assigned.id, { assigned_to: helper.user!.id });
    const gone = await owner.create({ title: 'Gone', type: 'todo' });
    expect((await owner.delete(`/api/items/${gone.id}`)).status).toBe(204);
    const loose = await owner.create({ title: 'Loose', type: 'todo' });
    // Microseconds that iso() truncates to milliseconds.
    await harness.database.db.execute(
      sql`UPDATE items SET remind_at = '2026-03-01 10:00:00.123987+00', updated_at = '2026-02-01 00:00:00.999999+00'
          WHERE id = ${loose.id}`,
    );
    await share(owner, campaign, 'viewer', member);

    const ids = [campaign.id, task.id, done.id, assigned.id, gone.id, loose.id, planned.id];
    for (const viewer of [owner, member, helper]) {
      const userId = viewer.user!.id;
      const expected = byId(
        await selectItems(
          harness.database.db,
          userId,
          sql`i.id IN (${sql.join(
            ids.map((id) => sql`${id}`),
            sql`, `,
          )})`,
          sql``,
        ),
      );
      const actual = byId(await selectItemsByIds(harness.database.db, userId, ids));
      expect(actual).toEqual(expected);
      expect(JSON.stringify(actual)).toBe(JSON.stringify(expected));
    }
    // What the cases above are meant to cover is there.
    const seenByHelper = byId(await selectItemsByIds(harness.database.db, helper.user!.id, ids));
    const helperCall = seenByHelper.find((i) => i.id === assigned.id);
    expect(helperCall?.parent).toBeNull();
    const ownerItems = byId(await selectItemsByIds(harness.database.db, owner.user!.id, ids));
    expect(ownerItems.find((i) => i.id === campaign.id)).toMatchObject({
      members_count: 2,
      my_role: 'owner',
    });
    expect(ownerItems.find((i) => i.id === task.id)).toMatchObject({
      children_count: 2,
      completed_count: 1,
      estimate_total_minutes: 45,
    });
    expect(ownerItems.find((i) => i.id === campaign.id)?.estimate_total_minutes).toBe(105);
    expect(ownerItems.find((i) => i.id === planned.id)?.estimate_total_minutes).toBe(60);
    expect(ownerItems.find((i) => i.id === assigned.id)?.assignedUser?.phone).toBe(helper.user!.phone);
    expect(ownerItems.find((i) => i.id === gone.id)?.deleted_at).toEqual(expect.any(String));
    expect(ownerItems.find((i) => i.id === loose.id)?.remind_at).toBe('2026-03-01T10:00:00.123Z');
    const memberItems = byId(await selectItemsByIds(harness.database.db, member.user!.id, ids));
    expect(memberItems.find((i) => i.id === task.id)?.my_role).toBe('viewer');
    expect(await selectItemsByIds(harness.database.db, owner.user!.id, [])).toEqual([]);
  });
  it('L4: writes a sync page in the order given, tombstones bare, ids with no row left out', async () => {
    const owner = await signedIn(harness.app, 'Owner');
    const kept = await owner.create({ title: 'Kept', type: 'todo', labels: ['a'] });
    const lost = await owner.create({ title: 'Secret title', type: 'todo' });
    const gone = await owner.create({ title: 'Gone', type: 'todo' });
    expect((await owner.delete(`/api/items/${gone.id}`)).status).toBe(204);
    const userId = owner.user!.id;
    const db = harness.database.db;
    const text = await syncItemsJson(
      db,
      userId,
      [gone.id, 2_000_000_000, lost.id, kept.id],
      [null, null, '2026-01-02T03:04:05.678Z', null],
    );
    const page = JSON.parse(text) as SyncChange[];
    const [goneNow, keptNow] = await Promise.all([
      selectItemsByIds(db, userId, [gone.id]),
      selectItemsByIds(db, userId, [kept.id]),
    ]);
    expect(page).toEqual([
      { id: gone.id, uuid: gone.uuid, deleted_at: goneNow[0]!.deleted_at },
      { id: lost.id, uuid: lost.uuid, deleted_at: '2026-01-02T03:04:05.678Z' },
      keptNow[0],
    ]);
    expect(text).not.toContain('Secret title');
    expect(await syncItemsJson(db, userId, [], [])).toBe('[]');
  });
});
