import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase, testEngines } from '../../../testkit/server';
import { share } from '../../../testkit/sharing';
import { signedIn, type TestClient } from '../../../testkit/testClient';
import type { Comment } from '../../shared/comments';
import type { Item } from '../../shared/item';
import { buildApp } from '../app';
import { type Database, rows, sql } from '../db/client';

const ROUNDS = 30;

describe.each(testEngines())('a comment racing its author’s removal on %s', (engine) => {
  let database: Database;
  let app: FastifyInstance;
  let owner: TestClient;
  let member: TestClient;
  let campaign: Item;
  let task: Item;

  beforeAll(async () => {
    database = await openTestDatabase(engine);
    app = await buildApp({ database, config: { seedSampleUsers: true, reminderTickMs: 0 } });
    await app.ready();
    owner = await signedIn(app, 'Owner');
    member = await signedIn(app, 'Member');
    campaign = await owner.create({ title: 'Trip', type: 'campaign' });
    task = await owner.create({ title: 'Book the hut', type: 'task', parent_id: campaign.id });
    // Items in the tree make the removal's revocations take a while, as a real campaign's do.
    for (let n = 0; n < 20; n++) await owner.create({ title: `Todo ${n}`, type: 'todo', parent_id: task.id });
  });
  afterAll(async () => {
    await app.close();
    await database.close();
  });

  it(`M5: a comment and its author's removal run one after the other (${ROUNDS} parallel rounds)`, async () => {
    for (let round = 0; round < ROUNDS; round++) {
      await share(owner, campaign, 'editor', member);
      const [removed, commented] = await Promise.all([
        owner.delete(`/api/campaigns/${campaign.id}/members/${member.user!.id}`),
        member.post<Comment>(`/api/items/${task.id}/comments`, { body: `Round ${round}` }),
      ]);
      expect(removed.status, removed.text).toBe(204);
      expect([201, 404], commented.text).toContain(commented.status);
      // The feed's ids are drawn in the order the writes reach them; under the family's lock a
      // comment and a removal never interleave, so a comment that landed was written before it.
      const [order] = await rows<{ removal: number; comment: number | null }>(
        database.db,
        sql`SELECT
              (SELECT max(id) FROM activities WHERE action = 'member_removed' AND item_id = ${campaign.id}) AS removal,
              (SELECT max(a.id) FROM activities a JOIN comments c ON c.id = (a.metadata->>'comment_id')::int
                WHERE a.action = 'commented' AND c.body = ${`Round ${round}`}) AS comment`,
      );
      if (commented.status === 201) {
        expect(order!.comment, `round ${round}: the comment was written after the removal`).toBeLessThan(
          order!.removal,
        );
      } else {
        expect(order!.comment).toBeNull();
      }
    }
  });
});
