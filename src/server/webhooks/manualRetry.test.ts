import type { FastifyInstance } from 'fastify';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { eventually } from '../../../testkit/pushReceiver';
import { openTestDatabase, testEngines } from '../../../testkit/server';
import { sharedCampaign } from '../../../testkit/sharing';
import { signedIn } from '../../../testkit/testClient';
import { startWebhookReceiver, type WebhookReceiver } from '../../../testkit/webhookReceiver';
import { addHook, hookDeliveries } from '../../../testkit/webhooks';
import type { Webhook, WebhookDelivery } from '../../shared/webhooks';
import { buildApp } from '../app';
import type { Database } from '../db/client';
import { type AppConfig, loadConfig } from '../env';

/** One failure, then the next automatic try a minute later: long enough to see a manual try move it. */
const SCHEDULE_MS = [60_000];

const build = (database: Database, overrides: Partial<AppConfig['webhooks']> = {}) =>
  buildApp({
    database,
    config: {
      seedSampleUsers: true,
      webhooks: {
        ...loadConfig({}).webhooks,
        allowLoopback: true,
        retryScheduleMs: SCHEDULE_MS,
        ...overrides,
      },
    },
  });

describe.each(testEngines())('webhook log and manual retry (%s)', (engine) => {
  let database: Database;
  let app: FastifyInstance;
  let receiver: WebhookReceiver;

  beforeAll(async () => {
    database = await openTestDatabase(engine);
    app = await build(database);
    await app.ready();
  });
  afterAll(async () => {
    await app?.close();
    await database?.close();
  });
  beforeEach(async () => {
    receiver = await startWebhookReceiver();
  });
  afterEach(async () => {
    await receiver.close();
  });

  it('a manual Retry that fails leaves the automatic schedule as it was: same attempts, same next try', async () => {
    const owner = await signedIn(app, 'Patient Owner');
    receiver.answer(() => ({ status: 503 }));
    const hook = await addHook(owner, `${receiver.url}/down`);
    await owner.create({ title: 'Waits for its retry', type: 'todo' });
    await eventually(async () => (await hookDeliveries(owner, hook.id))[0]?.attempts === 1);
    const [before] = await hookDeliveries(owner, hook.id);
    expect(before).toMatchObject({ status: 'pending', attempts: 1, last_status_code: 503 });
    expect(before!.next_attempt_at).not.toBeNull();

    receiver.answer(() => ({ status: 500 }));
    const retried = await owner.post<WebhookDelivery>(
      `/api/webhooks/${hook.id}/deliveries/${before!.id}/retry`,
    );
    expect(retried.status, retried.text).toBe(202);
    // The receiver was asked again and its answer shows, but the schedule did not move.
    expect(receiver.received).toHaveLength(2);
    expect(retried.body).toMatchObject({
      status: 'pending',
      attempts: 1,
      last_status_code: 500,
      next_attempt_at: before!.next_attempt_at,
    });
    await new Promise((resolve) => setTimeout(resolve, 150));
    const [after] = await hookDeliveries(owner, hook.id);
    expect(after).toMatchObject({ status: 'pending', attempts: 1, next_attempt_at: before!.next_attempt_at });
    expect(receiver.received).toHaveLength(2);
  });

  it('a manual Retry of a delivery that was given up stays given up when it fails, and is delivered when it lands', async () => {
    // Its own database: a sender with the minute-long schedule must not claim these deliveries.
    const quickDatabase = await openTestDatabase(engine);
    const quick = await build(quickDatabase, { retryScheduleMs: [20] });
    await quick.ready();
    try {
      const owner = await signedIn(quick, 'Gave Up');
      receiver.answer(() => ({ status: 503 }));
      const hook = await addHook(owner, `${receiver.url}/gone-quiet`);
      await owner.create({ title: 'Never lands', type: 'todo' });
      await eventually(async () => (await hookDeliveries(owner, hook.id))[0]?.status === 'failed');
      const [failed] = await hookDeliveries(owner, hook.id);
      expect(failed).toMatchObject({ attempts: 2, next_attempt_at: null });

      const again = await owner.post<WebhookDelivery>(
        `/api/webhooks/${hook.id}/deliveries/${failed!.id}/retry`,
      );
      expect(again.status, again.text).toBe(202);
      expect(again.body).toMatchObject({ status: 'failed', attempts: 2, next_attempt_at: null });
      expect(receiver.received).toHaveLength(3);

      receiver.answer(() => ({ status: 204 }));
      const landed = await owner.post<WebhookDelivery>(
        `/api/webhooks/${hook.id}/deliveries/${failed!.id}/retry`,
      );
      expect(landed.body).toMatchObject({ status: 'delivered', last_status_code: 204, last_error: null });
      expect(new Set(receiver.received.map((r) => r.id)).size).toBe(1);
    } finally {
      await quick.close();
      await quickDatabase.close();
    }
  });

  it('a manual Retry of a switched-off webhook’s delivery answers 409 and sends nothing', async () => {
    const owner = await signedIn(app, 'Switched Off');
    receiver.answer(() => ({ status: 503 }));
    const hook = await addHook(owner, `${receiver.url}/off`);
    await owner.create({ title: 'Held', type: 'todo' });
    await eventually(async () => (await hookDeliveries(owner, hook.id))[0]?.attempts === 1);
    expect((await owner.patch(`/api/webhooks/${hook.id}`, { enabled: false })).status).toBe(200);
    const [held] = await hookDeliveries(owner, hook.id);
    const refused = await owner.post(`/api/webhooks/${hook.id}/deliveries/${held!.id}/retry`);
    expect(refused.status, refused.text).toBe(409);
    expect(receiver.received).toHaveLength(1);
  });

  it('the log names each delivery’s item while the owner can see it, and the webhook its campaign', async () => {
    const owner = await signedIn(app, 'Campaign Owner');
    const member = await signedIn(app, 'Hook Member');
    const { campaign, task } = await sharedCampaign(owner, 'editor', member);
    const hook = await addHook(member, `${receiver.url}/member`, ['*'], campaign.id);
    expect(hook.campaign).toEqual({ id: campaign.id, title: 'Shared trip' });
    const everywhere = await addHook(member, `${receiver.url}/everything`);
    expect(everywhere.campaign).toBeNull();

    await owner.update(task.id, { title: 'Book the big hut' });
    await eventually(async () =>
      (await hookDeliveries(member, hook.id)).some((d) => d.event_type === 'item.updated'),
    );
    const updated = (await hookDeliveries(member, hook.id)).find((d) => d.event_type === 'item.updated');
    expect(updated!.item).toEqual({ id: task.id, title: 'Book the big hut' });
    const tested = await member.post<WebhookDelivery>(`/api/webhooks/${hook.id}/test`);
    expect(tested.body.item).toBeNull();

    // Removed from the campaign, the member learns nothing more of its items or of its name.
    const removed = await owner.delete(`/api/campaigns/${campaign.id}/members/${member.user!.id}`);
    expect(removed.status, removed.text).toBe(204);
    const log = await hookDeliveries(member, hook.id);
    expect(log.find((d) => d.id === updated!.id)!.item).toBeNull();
    expect(JSON.stringify(log)).not.toContain('Book the big hut');
    const listed = await member.get<{ webhooks: Webhook[] }>('/api/webhooks');
    const mine = listed.body.webhooks.find((w) => w.id === hook.id)!;
    expect(mine).toMatchObject({ campaign_id: campaign.id, campaign: null });
    expect(listed.text).not.toContain('Shared trip');
  });
});
