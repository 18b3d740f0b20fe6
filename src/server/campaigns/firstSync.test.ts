import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, pullsCaughtUp, testEngines } from '../../../testkit/server';
import { share, sharedCampaign } from '../../../testkit/sharing';
import { pullAll, signedIn, type TestClient } from '../../../testkit/testClient';
import { SYNC_PAGE_SIZE, type SyncPage } from '../../shared/item';
import { sql } from '../db/client';

describe.each(testEngines())('a member’s first sync on %s', (engine) => {
  let harness: Awaited<ReturnType<typeof createTestApp>>;
  beforeAll(async () => {
    harness = await createTestApp(engine);
  });
  afterAll(() => harness.close());

  /** `count` todos under the item by one INSERT, as a long-lived campaign holds them. */
  async function addTodos(userId: number, parentId: number, count: number): Promise<void> {
    await harness.database.db.execute(sql`
      INSERT INTO items (uuid, title, type, status, user_id, parent_id)
      SELECT gen_random_uuid(), 'Step ' || g, 'todo', 'pending', ${userId}, ${parentId}
      FROM generate_series(1, ${count}::int) g`);
  }

  /** Every page from the empty cursor, as a fresh device reads them (the first with count=1). */
  async function pages(client: TestClient): Promise<SyncPage[]> {
    const read: SyncPage[] = [];
    let cursor = '';
    for (;;) {
      const count = read.length === 0 ? '&count=1' : '';
      const page = await client.get<SyncPage>(`/api/sync?cursor=${encodeURIComponent(cursor)}${count}`);
      expect(page.status, page.text).toBe(200);
      read.push(page.body);
      cursor = page.body.cursor;
      if (!page.body.has_more) return read;
    }
  }

  it('M2: sends each item of a shared tree once, over several pages, and counts it once', async () => {
    const owner = await signedIn(harness.app, 'Olive');
    const member = await signedIn(harness.app, 'Mia');
    const { campaign, task } = await sharedCampaign(owner, 'editor');
    await addTodos(owner.user!.id, task.id, SYNC_PAGE_SIZE + 200);
    await share(owner, campaign, 'editor', member);
    // A transaction open in another test's database holds the pull's horizon back (SYNC.md L1).
    await pullsCaughtUp(harness.database);

    const read = await pages(member);
    const ids = read.flatMap((p) => p.items.map((i) => i.id));
    const tree = SYNC_PAGE_SIZE + 200 + 3;
    expect(read.length).toBeGreaterThan(1);
    expect(new Set(ids).size).toBe(tree);
    // Before, the grant sent the whole tree again after its rows: every item twice.
    expect(ids.length).toBe(tree);
    expect(read[0]!.remaining).toBe(tree - read[0]!.items.length);
  });

  it('M2: a grant committed while a first sync is under way still brings the tree', async () => {
    const owner = await signedIn(harness.app, 'Olive');
    const member = await signedIn(harness.app, 'Max');
    const { campaign, task, todo } = await sharedCampaign(owner, 'viewer');
    // The member's own rows come after the campaign's: their first page passes its rows unseen.
    const own = await member.create({ title: 'Own task', type: 'task' });
    await addTodos(member.user!.id, own.id, SYNC_PAGE_SIZE + 50);
    // A transaction open in another test's database holds the pull's horizon back (SYNC.md L1).
    await pullsCaughtUp(harness.database);
    const first = await member.get<SyncPage>('/api/sync?cursor=');
    expect(first.body.has_more).toBe(true);
    expect(first.body.items.map((i) => i.id)).not.toContain(campaign.id);

    await share(owner, campaign, 'viewer', member);
    const rest = await pullAll(member, harness.database, first.body.cursor);
    expect(rest.items.map((i) => i.id)).toEqual(expect.arrayContaining([campaign.id, task.id, todo.id]));
  });
});
