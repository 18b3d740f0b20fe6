import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, testEngines } from '../../../testkit/server';
import { makeMutual, signedIn, type TestClient, writeDirectly } from '../../../testkit/testClient';
import {
  type Comment,
  isCommentTombstone,
  type SyncCommentChange,
  type SyncPageComments,
} from '../../shared/comments';
import { SYNC_PAGE_SIZE, type SyncChange, type SyncPage } from '../../shared/item';
import { type Database, rows, sql } from '../db/client';
import { decodeCursor } from './cursor';

let database: Database;

type Page = SyncPage & SyncPageComments;

/**
 * Pulls from `cursor` until it has passed the newest write of items, comments and grants, returning
 * every entry in order and the size of each page. Another database's open transaction can hold a
 * shared PostgreSQL cluster's horizon back for a moment: 'nothing more' alone is not 'caught up'.
 */
async function pull(client: TestClient, cursor = '') {
  const [newest] = await rows<{ xid: string }>(
    database.db,
    sql`SELECT GREATEST((SELECT COALESCE(max(change_xid), 0) FROM items),
                        (SELECT COALESCE(max(change_xid), 0) FROM comments),
                        (SELECT COALESCE(max(change_xid), 0) FROM campaign_members),
                        (SELECT COALESCE(max(change_xid), 0) FROM item_revocations))::text AS xid`,
  );
  const target = BigInt(newest?.xid ?? '0');
  const items: SyncChange[] = [];
  const comments: SyncCommentChange[] = [];
  const sizes: number[] = [];
  for (let pulls = 0; pulls < 500; pulls++) {
    const page = await client.get<Page>(`/api/sync?cursor=${encodeURIComponent(cursor)}`);
    expect(page.status, page.text).toBe(200);
    items.push(...page.body.items);
    comments.push(...(page.body.comments ?? []));
    sizes.push(page.body.items.length + (page.body.comments?.length ?? 0));
    cursor = page.body.cursor;
    if (!page.body.has_more && (decodeCursor(cursor)?.xid ?? 0n) > target)
      return { items, comments, cursor, sizes };
    if (!page.body.has_more) await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error('the sync cursor never caught up with the last write');
}

const say = (client: TestClient, itemId: number, body: string) =>
  client.post<Comment>(`/api/items/${itemId}/comments`, { body, uuid: randomUUID() }).then((r) => {
    expect(r.status, r.text).toBe(201);
    return r.body;
  });

describe.each(testEngines())('comments in sync pages on %s', (engine) => {
  let harness: Awaited<ReturnType<typeof createTestApp>>;
  beforeAll(async () => {
    harness = await createTestApp(engine);
    database = harness.database;
  });
  afterAll(() => harness.close());

  it('K13: a pull carries the comments on items the reader sees, edits again and deletes as bare tombstones', async () => {
    const alex = await signedIn(harness.app, 'Alex');
    const blair = await signedIn(harness.app, 'Blair');
    const stranger = await signedIn(harness.app, 'Stranger');
    await makeMutual(alex, blair);
    const todo = await alex.create({ title: 'Shared todo', type: 'todo', assigned_to: blair.user!.id });
    const first = await say(alex, todo.id, 'first');
    const boot = await pull(blair);
    expect(boot.comments).toEqual([
      expect.objectContaining({
        id: first.id,
        uuid: first.uuid,
        item_id: todo.id,
        item_uuid: todo.uuid,
        body: 'first',
        user: { id: alex.user!.id, name: 'Alex' },
      }),
    ]);

    await alex.patch(`/api/comments/${first.id}`, { body: 'first, edited' });
    const edited = await pull(blair, boot.cursor);
    expect(edited.comments).toEqual([
      expect.objectContaining({ id: first.id, body: 'first, edited', edited: true }),
    ]);

    await alex.delete(`/api/comments/${first.id}`);
    const deleted = await pull(blair, edited.cursor);
    // A tombstone says which comment, on which item, and when: nothing of what it said.
    expect(deleted.comments).toEqual([
      { id: first.id, uuid: first.uuid, item_id: todo.id, deleted_at: expect.any(String) },
    ]);
    expect(isCommentTombstone(deleted.comments[0]!)).toBe(true);

    // Whoever does not see the item learns nothing of its comments, not even that one went.
    await say(alex, todo.id, 'second');
    expect((await pull(stranger)).comments).toEqual([]);
    const fresh = (await pull(blair)).comments;
    expect(fresh.filter((c) => !isCommentTombstone(c))).toEqual([
      expect.objectContaining({ body: 'second' }),
    ]);
  });

  it('K18: a new assignee, or a move under an item someone sees, brings the earlier comments along', async () => {
    const alex = await signedIn(harness.app, 'Alex');
    const blair = await signedIn(harness.app, 'Blair');
    await makeMutual(alex, blair);
    const task = await alex.create({ title: 'Handover', type: 'task' });
    const todo = await alex.create({ title: 'Inside', type: 'todo', parent_id: task.id });
    const onTask = await say(alex, task.id, 'context for you');
    const onTodo = await say(alex, todo.id, 'and this detail');
    const gone = await say(alex, todo.id, 'taken back');
    await alex.delete(`/api/comments/${gone.id}`);
    const before = await pull(blair);
    expect(before.comments).toEqual([]);
    const assigned = await alex.post(`/api/items/${task.id}/assign`, { user_id: blair.user!.id });
    expect(assigned.status, assigned.text).toBe(200);
    const after = await pull(blair, before.cursor);
    expect(after.comments.map((c) => c.id).sort((a, b) => a - b)).toEqual([onTask.id, onTodo.id]);
    expect(after.comments.every((c) => !isCommentTombstone(c))).toBe(true);

    // A todo moved under the task Blair sees brings its comments too.
    const loose = await alex.create({ title: 'Loose', type: 'todo' });
    const onLoose = await say(alex, loose.id, 'moved with me');
    const moved = await alex.patch(`/api/items/${loose.id}`, { parent_id: task.id });
    expect(moved.status, moved.text).toBe(200);
    const later = await pull(blair, after.cursor);
    expect(later.comments.map((c) => c.id)).toEqual([onLoose.id]);
  });

  it('K13: comments count toward the page like items, and a page boundary inside one transaction loses and repeats none', async () => {
    const owner = await signedIn(harness.app, 'Busy');
    const userId = owner.user!.id;
    const todo = await owner.create({ title: 'Talked about', type: 'todo' });
    // One transaction writes 300 items and 450 comments: they share its xid, so pages must split
    // it by (kind, id), items first.
    await writeDirectly(harness.app, [userId], async (tx) => {
      await tx.execute(
        sql`INSERT INTO items (title, type, user_id) SELECT 'bulk ' || n, 'todo', ${userId} FROM generate_series(1, 300) n`,
      );
      await tx.execute(
        sql`INSERT INTO comments (uuid, item_id, user_id, body)
            SELECT gen_random_uuid(), ${todo.id}, ${userId}, 'note ' || n FROM generate_series(1, 450) n`,
      );
    });
    const all = await pull(owner);
    expect(Math.max(...all.sizes)).toBeLessThanOrEqual(SYNC_PAGE_SIZE);
    expect(all.sizes.length).toBeGreaterThan(1);
    const commentIds = all.comments.map((c) => c.id);
    expect(new Set(commentIds).size).toBe(450);
    expect(commentIds).toHaveLength(450);
    expect(new Set(all.items.map((i) => i.id)).size).toBe(301);
    expect(all.items).toHaveLength(301);
  });

  it('K14: a member added later gets the campaign tree’s earlier comments; losing it sends no more of them', async () => {
    const owner = await signedIn(harness.app, 'Owner');
    const member = await signedIn(harness.app, 'Member');
    await makeMutual(owner, member);
    const campaign = await owner.create({ title: 'Trip', type: 'campaign' });
    const task = await owner.create({ title: 'Ferry', type: 'task', parent_id: campaign.id });
    const early = await say(owner, task.id, 'before you joined');
    const before = await pull(member);
    expect(before.comments).toEqual([]);

    const added = await owner.post(`/api/campaigns/${campaign.id}/members`, {
      user_id: member.user!.id,
      role: 'editor',
    });
    expect(added.status, added.text).toBeLessThan(300);
    const granted = await pull(member, before.cursor);
    expect(granted.comments).toEqual([expect.objectContaining({ id: early.id, item_uuid: task.uuid })]);
    // A first sync after the grant meets the comment once (M2's horizon), not also as a grant row.
    const fresh = await pull(member);
    expect(fresh.comments.map((c) => c.id)).toEqual([early.id]);

    const removed = await owner.delete(`/api/campaigns/${campaign.id}/members/${member.user!.id}`);
    expect(removed.status, removed.text).toBeLessThan(300);
    await say(owner, task.id, 'after you left');
    const lost = await pull(member, granted.cursor);
    // The item goes as a tombstone (the device removes its comments); its comments never come.
    expect(lost.items).toEqual(
      expect.arrayContaining([expect.objectContaining({ id: task.id, deleted_at: expect.any(String) })]),
    );
    expect(lost.comments).toEqual([]);
  });
});
