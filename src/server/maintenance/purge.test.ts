import { readFile } from 'node:fs/promises';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase, testEngines } from '../../../testkit/server';
import { share } from '../../../testkit/sharing';
import { signedIn, type TestClient } from '../../../testkit/testClient';
import { mentionToken } from '../../shared/comments';
import type { Item } from '../../shared/item';
import { TRASH_KEEP_MS } from '../../shared/trash';
import { buildApp } from '../app';
import { type Database, rows, sql } from '../db/client';
import { PURGED_LINE, sweepExpired } from './sweep';

/** Where a word may still be written once an item is purged: every table that repeats its content. */
async function tracesOf(database: Database, word: string): Promise<Record<string, number>> {
  const like = `%${word}%`;
  const [found] = await rows<Record<string, number>>(
    database.db,
    sql`SELECT
          (SELECT count(*)::int FROM items WHERE title LIKE ${like} OR description LIKE ${like}
             OR array_to_string(labels, ' ') LIKE ${like}) AS items,
          (SELECT count(*)::int FROM activities WHERE item_title LIKE ${like} OR description LIKE ${like}
             OR metadata::text LIKE ${like}) AS activities,
          (SELECT count(*)::int FROM notifications WHERE text LIKE ${like} OR item_title LIKE ${like}) AS notifications,
          (SELECT count(*)::int FROM comments WHERE body LIKE ${like}) AS comments,
          (SELECT count(*)::int FROM time_entries WHERE note LIKE ${like}) AS time_entries`,
  );
  return found ?? {};
}

const NOTHING = { items: 0, activities: 0, notifications: 0, comments: 0, time_entries: 0 };

describe.each(testEngines())('the 30-day purge on %s', (engine) => {
  let database: Database;
  let app: FastifyInstance;
  let alex: TestClient;
  let blair: TestClient;
  let campaign: Item;

  beforeAll(async () => {
    database = await openTestDatabase(engine);
    app = await buildApp({ database, config: { seedSampleUsers: true, reminderTickMs: 0 } });
    await app.ready();
    alex = await signedIn(app, 'Alex');
    blair = await signedIn(app, 'Blair');
    campaign = await alex.create({ title: 'Trip', type: 'campaign' });
    await share(alex, campaign, 'editor', blair);
  });
  afterAll(async () => {
    await app.close();
    await database.close();
  });

  it('K26: erases a purged item’s feed entries, notifications, comments, time entries’ notes and labels, and nothing else', async () => {
    const task = await blair.create({
      title: 'Surprise Zanzibar',
      type: 'task',
      parent_id: campaign.id,
      description: 'Zanzibar flights',
      labels: ['Zanzibar-secret'],
    });
    const todo = await blair.create({ title: 'Zanzibar visa', type: 'todo', parent_id: task.id });
    await blair.update(task.id, { title: 'Surprise Zanzibar trip' });
    await alex.post(`/api/items/${todo.id}/comments`, { body: `Zanzibar! ${mentionToken(blair.user!.id)}` });
    await alex.post(`/api/items/${task.id}/comments`, { body: 'Zanzibar again' });
    const hour = 3600_000;
    const spent = {
      started_at: new Date(Date.now() - 3 * hour).toISOString(),
      ended_at: new Date(Date.now() - 2 * hour).toISOString(),
    };
    expect(
      (await blair.post(`/api/items/${todo.id}/time_entries`, { ...spent, note: 'Zanzibar fares' })).status,
    ).toBe(201);
    await alex.update(task.id, { status: 'completed' });
    const kept = await blair.create({
      title: 'Keep Lisbon',
      type: 'task',
      parent_id: campaign.id,
      labels: ['Lisbon'],
    });
    await alex.post(`/api/items/${kept.id}/comments`, { body: 'Lisbon stays' });
    expect((await blair.delete(`/api/items/${task.id}`)).status).toBe(204);
    const before = await tracesOf(database, 'Zanzibar');
    expect(before.activities).toBeGreaterThan(0);
    expect(before.notifications).toBeGreaterThan(0);
    expect(before.comments).toBe(2);
    expect(before.time_entries).toBe(1);

    // Within the trash's 30 days nothing is erased: the item may still be restored.
    expect((await sweepExpired(database.db, new Date()))?.purgedItems).toBe(0);
    expect(await tracesOf(database, 'Zanzibar')).toEqual(before);

    const later = new Date(Date.now() + TRASH_KEEP_MS + 60_000);
    expect((await sweepExpired(database.db, later))?.purgedItems).toBe(2);
    expect(await tracesOf(database, 'Zanzibar')).toEqual(NOTHING);
    // The entry's span stays: its owner's later entries still may not overlap it (X2).
    const [entry] = await rows<{ n: number }>(
      database.db,
      sql`SELECT count(*)::int AS n FROM time_entries WHERE item_id = ${todo.id} AND note = ''`,
    );
    expect(entry?.n).toBe(1);
    // The sweep 30 days ahead ended the sessions too.
    for (const client of [alex, blair]) await client.login(client.user!.phone, client.user!.name);
    // Through the API too: the campaign's activity and the notifications say only that it was erased.
    const feed = await alex.get(`/api/campaigns/${campaign.id}/activity?page=1`);
    expect(feed.status).toBe(200);
    expect(feed.text).not.toContain('Zanzibar');
    expect(feed.text).toContain(PURGED_LINE);
    for (const client of [alex, blair]) {
      const notifications = await client.get('/api/notifications?per_page=100');
      expect(notifications.text).not.toContain('Zanzibar');
    }
    // Who did what, and when, stays in the feed.
    const [entries] = await rows<{ n: number }>(
      database.db,
      sql`SELECT count(*)::int AS n FROM activities WHERE item_id IN (${task.id}, ${todo.id})`,
    );
    expect(entries?.n).toBeGreaterThanOrEqual(4);
    // The live item keeps everything; the campaign's own entries too.
    expect(await tracesOf(database, 'Lisbon')).toMatchObject({ items: 1, comments: 1 });
    expect((await alex.item(kept.id)).labels).toEqual(['Lisbon']);
    expect(await tracesOf(database, 'Trip')).toMatchObject({ items: 1 });

    // A second sweep has nothing left to do.
    expect((await sweepExpired(database.db, later))?.purgedItems).toBe(0);
  });

  it('K26: migration 0022 erases the traces of items purged before the sweep did', async () => {
    const task = await blair.create({
      title: 'Old Reykjavik',
      type: 'task',
      parent_id: campaign.id,
      labels: ['Reykjavik'],
    });
    await alex.post(`/api/items/${task.id}/comments`, { body: 'Reykjavik!' });
    await alex.update(task.id, { title: 'Old Reykjavik plan' });
    await blair.delete(`/api/items/${task.id}`);
    // As the old sweep left it: the item erased (its labels kept), its traces not.
    await database.db.execute(
      sql`UPDATE items SET title = '', description = NULL, deleted_at = now() - interval '40 days' WHERE id = ${task.id}`,
    );
    expect((await tracesOf(database, 'Reykjavik')).activities).toBeGreaterThan(0);
    const migration = await readFile(
      new URL('../../../drizzle/0022_purge_traces.sql', import.meta.url),
      'utf8',
    );
    await database.db.execute(sql.raw(migration));
    expect(await tracesOf(database, 'Reykjavik')).toEqual(NOTHING);
    expect(await tracesOf(database, 'Lisbon')).toMatchObject({ items: 1, comments: 1 });
  });
});
