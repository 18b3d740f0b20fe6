import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../../../testkit/pushReceiver';
import { openTestDatabase, testEngines } from '../../../testkit/server';
import { signedIn, type TestClient } from '../../../testkit/testClient';
import { startWebhookReceiver, type WebhookReceiver } from '../../../testkit/webhookReceiver';
import type { WebhookCreated } from '../../shared/webhooks';
import { buildApp } from '../app';
import { type Database, rows, sql } from '../db/client';
import { loadConfig } from '../env';
import { sweepExpired } from './sweep';

/** Deliveries whose payload still says `word`, by status. */
async function deliveriesSaying(database: Database, word: string): Promise<number> {
  const [found] = await rows<{ n: number }>(
    database.db,
    sql`SELECT count(*)::int AS n FROM webhook_deliveries WHERE payload LIKE ${`%${word}%`}`,
  );
  return found?.n ?? 0;
}

describe.each(testEngines())('the webhook delivery log and the 30-day purge (%s)', (engine) => {
  let database: Database;
  let app: Awaited<ReturnType<typeof buildApp>>;
  let receiver: WebhookReceiver;
  let alex: TestClient;
  let hook: WebhookCreated;
  beforeAll(async () => {
    database = await openTestDatabase(engine);
    app = await buildApp({
      database,
      config: {
        seedSampleUsers: true,
        reminderTickMs: 0,
        webhooks: { ...loadConfig({}).webhooks, allowLoopback: true },
      },
    });
    await app.ready();
    receiver = await startWebhookReceiver();
    alex = await signedIn(app, 'Alex Hooks');
    const created = await alex.post<WebhookCreated>('/api/webhooks', { url: receiver.url, events: ['*'] });
    expect(created.status, created.text).toBe(201);
    hook = created.body;
  });
  afterAll(async () => {
    await app?.close();
    await receiver?.close();
    await database?.close();
  });

  /** Waits until every delivery so far is no longer pending (sent to the receiver). */
  const allSent = () =>
    eventually(async () => {
      const [left] = await rows<{ n: number }>(
        database.db,
        sql`SELECT count(*)::int AS n FROM webhook_deliveries WHERE status = 'pending'`,
      );
      return left?.n === 0;
    }, 15_000);

  /** How many deliveries there are about `itemId`. */
  const about = async (itemId: number) =>
    (
      await rows<{ n: number }>(
        database.db,
        sql`SELECT count(*)::int AS n FROM webhook_deliveries WHERE item_id = ${itemId}`,
      )
    )[0]?.n ?? 0;

  it('K26: the purge of an item deletes every delivery about it and its comments, and nothing else', async () => {
    const task = await alex.create({
      title: 'Surprise Zanzibar',
      type: 'task',
      description: 'Zanzibar flights',
    });
    await alex.post(`/api/items/${task.id}/comments`, { body: 'Zanzibar again' });
    const kept = await alex.create({ title: 'Keep Lisbon', type: 'task' });
    expect((await alex.delete(`/api/items/${task.id}`)).status).toBe(204);
    await allSent();
    expect(await deliveriesSaying(database, 'Zanzibar')).toBeGreaterThanOrEqual(3);
    const lisbon = await about(kept.id);
    expect(lisbon).toBeGreaterThan(0);

    // Within the trash's 30 days nothing about it goes: it may still be restored.
    await sweepExpired(database.db, new Date());
    expect(await deliveriesSaying(database, 'Zanzibar')).toBeGreaterThanOrEqual(3);

    // Its 30 days are over, while its deliveries are young (written late, or held by a webhook that was off).
    await database.db.execute(
      sql`UPDATE items SET deleted_at = now() - interval '31 days' WHERE id = ${task.id}`,
    );
    expect((await sweepExpired(database.db, new Date()))?.purgedItems).toBe(1);
    expect(await deliveriesSaying(database, 'Zanzibar')).toBe(0);
    expect(await about(task.id)).toBe(0);
    expect(await about(kept.id)).toBe(lisbon);
  });

  it('keeps a delivery 30 days, then deletes it with its payload, sent or still pending', async () => {
    const porto = await alex.create({ title: 'Old Porto plan', type: 'task' });
    await alex.update(porto.id, { description: 'Porto in May' });
    const fresh = await alex.create({ title: 'Fresh Madrid plan', type: 'task' });
    await allSent();
    const old = await about(porto.id);
    expect(old).toBeGreaterThanOrEqual(2);
    const madrid = await about(fresh.id);
    // Porto's deliveries were written 31 days ago; one of them still waits (its webhook was off).
    await database.db.execute(
      sql`UPDATE webhook_deliveries SET created_at = now() - interval '31 days' WHERE item_id = ${porto.id}`,
    );
    const [waiting] = await rows<{ id: number }>(
      database.db,
      sql`UPDATE webhook_deliveries SET status = 'pending', next_attempt_at = now() + interval '1 day'
          WHERE id = (SELECT min(id) FROM webhook_deliveries WHERE item_id = ${porto.id}) RETURNING id`,
    );

    // 29 days after they were written they stay.
    const result = await sweepExpired(database.db, new Date(Date.now() - 2 * 24 * 60 * 60 * 1000));
    expect(result?.webhookDeliveries).toBe(0);
    expect(await about(porto.id)).toBe(old);

    expect((await sweepExpired(database.db, new Date()))?.webhookDeliveries).toBe(old);
    expect(await deliveriesSaying(database, 'Porto')).toBe(0);
    expect(await about(fresh.id)).toBe(madrid);
    // Gone from the log a person reads, and nothing left to send again.
    const log = await alex.get<{ data: { id: number }[] }>(`/api/webhooks/${hook.id}/deliveries`);
    expect(log.body.data.map((d) => d.id)).not.toContain(waiting?.id);
    expect((await alex.post(`/api/webhooks/${hook.id}/deliveries/${waiting?.id}/retry`)).status).toBe(404);
    // Nothing more to do the second time.
    expect((await sweepExpired(database.db, new Date()))?.webhookDeliveries).toBe(0);
  });
});
