import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase, testEngines } from '../../../testkit/server';
import { share } from '../../../testkit/sharing';
import { signedIn, type TestClient } from '../../../testkit/testClient';
import {
  COMMENT_NOTICES_PER_MINUTE,
  type Comment,
  MENTIONS_MAX,
  mentionToken,
  TOO_MANY_MENTIONS,
} from '../../shared/comments';
import type { Item } from '../../shared/item';
import type { NotificationPage } from '../../shared/notifications';
import { buildApp } from '../app';
import { type Database, rows, sql } from '../db/client';

const quiet = { seedSampleUsers: true, reminderTickMs: 0 };

/** The kinds of a client's unread entries about `itemIds`, and how many there are. */
async function unreadAbout(client: TestClient, itemIds: readonly number[]): Promise<string[]> {
  const page = await client.get<NotificationPage>('/api/notifications?per_page=100');
  return page.body.data
    .filter((e) => e.read_at === null && e.item !== null && itemIds.includes(e.item.id))
    .map((e) => e.kind);
}

describe.each(testEngines())('who a comment tells, and how much, on %s', (engine) => {
  let database: Database;
  let app: FastifyInstance;
  let alex: TestClient;
  let blair: TestClient;
  let casey: TestClient;
  let dana: TestClient;
  let campaign: Item;
  let task: Item;

  beforeAll(async () => {
    database = await openTestDatabase(engine);
    app = await buildApp({ database, config: quiet });
    await app.ready();
    alex = await signedIn(app, 'Alex');
    blair = await signedIn(app, 'Blair');
    casey = await signedIn(app, 'Casey');
    dana = await signedIn(app, 'Dana');
    campaign = await alex.create({ title: 'Trip', type: 'campaign' });
    task = await alex.create({ title: 'Book the ferry', type: 'task', parent_id: campaign.id });
    await share(alex, campaign, 'editor', blair, casey, dana);
  });
  afterAll(async () => {
    await app.close();
    await database.close();
  });

  const comment = (client: TestClient, itemId: number, body: unknown) =>
    client.post<Comment>(`/api/items/${itemId}/comments`, body);

  it(`K25: counts the body's @[id] tokens toward the cap of ${MENTIONS_MAX} mentions, with the listed ones`, async () => {
    // Fifty-one people who all see the item: each mention alone would be allowed.
    const people = await rows<{ id: number }>(
      database.db,
      sql`WITH made AS (
            INSERT INTO users (name, phone)
            SELECT 'Member ' || k, '+1303555' || lpad(k::text, 4, '0') FROM generate_series(1, ${MENTIONS_MAX + 1}) k
            RETURNING id)
          INSERT INTO campaign_members (campaign_id, user_id, role)
          SELECT ${campaign.id}, id, 'viewer' FROM made RETURNING user_id AS id`,
    );
    const ids = people.map((p) => p.id);
    const tokens = (list: number[]) => list.map(mentionToken).join(' ');

    const allowed = await comment(blair, task.id, { body: `Hi ${tokens(ids.slice(0, MENTIONS_MAX))}` });
    expect(allowed.status, allowed.text).toBe(201);
    expect(allowed.body.mentions).toHaveLength(MENTIONS_MAX);

    const inBody = await comment(blair, task.id, { body: `Hi ${tokens(ids)}` });
    expect(inBody.status, inBody.text).toBe(422);
    expect(inBody.body).toMatchObject({ errors: { mentions: [TOO_MANY_MENTIONS] } });

    const mixed = await comment(blair, task.id, {
      body: `Hi ${tokens(ids.slice(0, 30))}`,
      mentions: ids.slice(30),
    });
    expect(mixed.status, mixed.text).toBe(422);
    expect(mixed.body).toMatchObject({ errors: { mentions: [TOO_MANY_MENTIONS] } });

    // The same person twice counts once.
    const repeated = await comment(blair, task.id, {
      body: `Hi ${tokens(ids.slice(0, MENTIONS_MAX))}`,
      mentions: ids.slice(0, 10),
    });
    expect(repeated.status, repeated.text).toBe(201);

    const edited = await blair.patch(`/api/comments/${allowed.body.id}`, { body: `Hi ${tokens(ids)}` });
    expect(edited.status, edited.text).toBe(422);
    expect(edited.body).toMatchObject({ errors: { body: [TOO_MANY_MENTIONS] } });
    await database.db.execute(
      sql`DELETE FROM campaign_members WHERE campaign_id = ${campaign.id} AND user_id = ANY(${`{${ids.join(',')}}`}::int[])`,
    );
  });

  it(`K24: lists at most ${COMMENT_NOTICES_PER_MINUTE} comment entries a minute for one person, mentions included`, async () => {
    // Entries from the tests before are a minute old: the bound starts empty.
    await database.db.execute(sql`UPDATE notifications SET created_at = created_at - interval '2 minutes'`);
    const items: Item[] = [];
    for (let n = 0; n < COMMENT_NOTICES_PER_MINUTE + 3; n++)
      items.push(await alex.create({ title: `Todo ${n}`, type: 'todo', parent_id: task.id }));
    const ids = items.map((i) => i.id);
    // A comment on each (one entry each: a run on one item would fold), mentioning Casey.
    for (const item of items) {
      const made = await comment(blair, item.id, { body: `See ${mentionToken(casey.user!.id)}` });
      expect(made.status, made.text).toBe(201);
    }
    expect(await unreadAbout(alex, ids)).toHaveLength(COMMENT_NOTICES_PER_MINUTE);
    const caseys = await unreadAbout(casey, ids);
    expect(caseys).toHaveLength(COMMENT_NOTICES_PER_MINUTE);
    expect(new Set(caseys)).toEqual(new Set(['mentioned']));
    // Every comment is there all the same.
    for (const item of items) expect((await alex.item(item.id)).comments_count).toBe(1);
    // A minute later the bound is free again (the entries are made older, as a minute passing would).
    await database.db.execute(
      sql`UPDATE notifications SET created_at = created_at - interval '2 minutes'
          WHERE item_id = ANY(${`{${ids.join(',')}}`}::int[])`,
    );
    await comment(dana, items[0]!.id, { body: 'Later' });
    expect(await unreadAbout(alex, ids)).toHaveLength(COMMENT_NOTICES_PER_MINUTE + 1);
  });

  it('K23: tells nobody who no longer sees the item: a removed member who created it or commented on it', async () => {
    const mine = await dana.create({ title: 'Dana’s task', type: 'task', parent_id: campaign.id });
    expect((await comment(casey, mine.id, { body: 'Early' })).status).toBe(201);
    expect((await comment(dana, mine.id, { body: 'Mine' })).status).toBe(201);
    expect((await alex.delete(`/api/campaigns/${campaign.id}/members/${dana.user!.id}`)).status).toBe(204);
    expect((await alex.delete(`/api/campaigns/${campaign.id}/members/${casey.user!.id}`)).status).toBe(204);
    // Read from the table: the list itself hides the item of an entry its reader no longer sees.
    const stored = async (client: TestClient) =>
      (
        await rows<{ n: number }>(
          database.db,
          sql`SELECT count(*)::int AS n FROM notifications WHERE user_id = ${client.user!.id} AND item_id = ${mine.id}`,
        )
      )[0]?.n;
    const dana0 = await stored(dana);
    const casey0 = await stored(casey);
    expect((await comment(blair, mine.id, { body: 'After they left' })).status).toBe(201);
    expect(await stored(dana)).toBe(dana0);
    expect(await stored(casey)).toBe(casey0);
    // Alex, the campaign's owner, commented on nothing and created nothing here: nothing either.
    expect(await stored(alex)).toBe(0);
    await share(alex, campaign, 'editor', casey, dana);
  });
});
