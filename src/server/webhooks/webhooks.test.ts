import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { Webhook } from 'standardwebhooks';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { postMultipart } from '../../../testkit/multipart';
import { eventually } from '../../../testkit/pushReceiver';
import { openTestDatabase, testEngines } from '../../../testkit/server';
import { share } from '../../../testkit/sharing';
import { signedIn } from '../../../testkit/testClient';
import {
  type ReceivedWebhook,
  startWebhookReceiver,
  type WebhookReceiver,
} from '../../../testkit/webhookReceiver';
import { addHook, hookDeliveries } from '../../../testkit/webhooks';
import type { Item } from '../../shared/item';
import { memberEventSchema, webhookPayloadSchemaOf } from '../../shared/webhookPayloads';
import { WEBHOOK_EVENTS, type WebhookDelivery, type WebhookEventType } from '../../shared/webhooks';
import { buildApp } from '../app';
import { createDiskStore } from '../attachments/diskStore';
import { type Database, rows, sql } from '../db/client';
import { type AppConfig, loadConfig } from '../env';

/** The webhooks config of a test: loopback allowed, retries after 50 ms instead of 5 s and on. */
const hooksConfig = (overrides: Partial<AppConfig['webhooks']> = {}): AppConfig['webhooks'] => ({
  ...loadConfig({}).webhooks,
  allowLoopback: true,
  retryScheduleMs: [50, 50, 50],
  ...overrides,
});

// Files on items (attachment.* events) go to a folder of the test's own, never ./data.
const filesRoot = mkdtempSync(path.join(tmpdir(), 'outpost-webhook-files-'));
const build = (database: Database, overrides: Partial<AppConfig['webhooks']> = {}) =>
  buildApp({
    database,
    files: createDiskStore(filesRoot),
    config: { seedSampleUsers: true, webhooks: hooksConfig(overrides) },
  });

/** Whether a received request verifies with `secret`. */
function isSignedBy(request: ReceivedWebhook, secret: string): boolean {
  try {
    new Webhook(secret).verify(request.body, {
      'webhook-id': request.id,
      'webhook-timestamp': request.timestamp,
      'webhook-signature': request.signature,
    });
    return true;
  } catch {
    return false;
  }
}

describe.each(testEngines())('webhooks (%s)', (engine) => {
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

  /** outpost_webhook_deliveries_total{result} as the metrics registry holds it now. */
  const deliveryCount = async (result: string) =>
    (await app.metrics.webhookDeliveries.get()).values.find((v) => v.labels.result === result)?.value ?? 0;
  const outboxDepth = async () =>
    (await app.metrics.registry.getSingleMetric('outpost_webhook_outbox_depth')?.get())?.values[0]?.value;

  it('creates a webhook with its secret shown once, lists it without, and answers 404 for someone else’s', async () => {
    const owner = await signedIn(app, 'Owner');
    const stranger = await signedIn(app, 'Stranger');
    const hook = await addHook(owner, `${receiver.url}/hook`, ['item.created']);
    expect(hook.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(Buffer.from(hook.secret.slice(6), 'base64')).toHaveLength(32);
    const listed = await owner.get<{ webhooks: Record<string, unknown>[] }>('/api/webhooks');
    expect(listed.body.webhooks).toHaveLength(1);
    expect(listed.text).not.toContain(hook.secret.slice(6));
    expect(listed.body.webhooks[0]).not.toHaveProperty('secret');
    expect((await stranger.get<{ webhooks: unknown[] }>('/api/webhooks')).body.webhooks).toEqual([]);
    for (const [method, url] of [
      ['PATCH', `/api/webhooks/${hook.id}`],
      ['DELETE', `/api/webhooks/${hook.id}`],
      ['POST', `/api/webhooks/${hook.id}/rotate`],
      ['POST', `/api/webhooks/${hook.id}/test`],
      ['GET', `/api/webhooks/${hook.id}/deliveries`],
      ['POST', `/api/webhooks/${hook.id}/deliveries/1/retry`],
    ] as const) {
      const response = await stranger.request({
        method,
        url,
        body: method === 'PATCH' ? { enabled: false } : undefined,
      });
      expect(response.status, `${method} ${url}`).toBe(404);
    }
    const patched = await owner.patch<{ enabled: boolean; events: string[] }>(`/api/webhooks/${hook.id}`, {
      enabled: false,
      events: ['item.created', 'comment.created'],
    });
    expect(patched.status, patched.text).toBe(200);
    expect(patched.body).toMatchObject({ enabled: false, events: ['item.created', 'comment.created'] });
    expect(patched.text).not.toContain('whsec_');
    expect((await owner.delete(`/api/webhooks/${hook.id}`)).status).toBe(204);
    expect((await owner.get<{ webhooks: unknown[] }>('/api/webhooks')).body.webhooks).toEqual([]);
  });

  it('refuses URLs that are not https or that point at private, loopback or link-local addresses', async () => {
    const owner = await signedIn(app, 'Careful');
    for (const url of [
      'http://example.com/hook',
      'https://10.0.0.1/hook',
      'https://169.254.169.254/latest',
      'https://[fe80::1]/x',
      'https://[::ffff:10.0.0.1]/x',
      'https://intranet/hook',
      'ftp://example.com',
      'not a url',
    ]) {
      const response = await owner.post<{ errors: Record<string, string[]> }>('/api/webhooks', {
        url,
        events: ['*'],
      });
      expect(response.status, url).toBe(422);
      expect(response.body.errors.url, url).toBeDefined();
    }
    const hook = await addHook(owner, 'https://hooks.example.com/in');
    const moved = await owner.patch(`/api/webhooks/${hook.id}`, { url: 'https://192.168.1.1/x' });
    expect(moved.status).toBe(422);
  });

  it('keeps at most 20 webhooks a person, even when 25 are asked for at once', async () => {
    const owner = await signedIn(app, 'Greedy');
    const answers = await Promise.all(
      Array.from({ length: 25 }, (_, i) =>
        owner.post('/api/webhooks', { url: `https://hooks.example.com/${i}`, events: ['item.created'] }),
      ),
    );
    expect(answers.filter((a) => a.status === 201)).toHaveLength(20);
    expect(answers.filter((a) => a.status === 422)).toHaveLength(5);
    const [count] = await rows<{ n: number }>(
      database.db,
      sql`SELECT count(*)::int AS n FROM webhooks WHERE user_id = ${owner.user!.id}`,
    );
    expect(count!.n).toBe(20);
  });

  it('delivers created, updated, completed and deleted in order, signed, in the API’s shapes, the owner’s own changes included', async () => {
    const owner = await signedIn(app, 'Alex');
    const hook = await addHook(owner, `${receiver.url}/in`, [
      'item.created',
      'item.updated',
      'item.completed',
      'item.deleted',
    ]);
    const todo = await owner.create({ title: 'Water the plants', type: 'todo' });
    await owner.update(todo.id, { title: 'Water the ferns' });
    await owner.update(todo.id, { status: 'completed' });
    expect((await owner.delete(`/api/items/${todo.id}`)).status).toBe(204);
    await eventually(() => receiver.received.length >= 4);
    const types = receiver.received.map((r) => r.json.type);
    expect(types).toEqual(['item.created', 'item.updated', 'item.completed', 'item.deleted']);
    for (const request of receiver.received) {
      const payload = receiver.verify(request, hook.secret) as {
        actor: unknown;
        data: { item: Item };
        timestamp: string;
      };
      expect(request.id).toMatch(/^msg_[0-9a-f]{32}$/);
      expect(request.headers['content-type']).toBe('application/json');
      expect(Number(request.timestamp)).toBeCloseTo(Date.now() / 1000, -2);
      expect(payload.actor).toEqual({ id: owner.user!.id, name: 'Alex' });
      expect(payload.data.item.id).toBe(todo.id);
      expect(new Date(payload.timestamp).toISOString()).toBe(payload.timestamp);
      expect(Buffer.byteLength(request.body)).toBeLessThan(20 * 1024);
    }
    const items = receiver.received.map((r) => (r.json.data as { item: Item }).item);
    expect(items[0]!.title).toBe('Water the plants');
    expect(items[1]!.title).toBe('Water the ferns');
    expect(items[2]!.status).toBe('completed');
    expect(items[3]!.deleted_at).not.toBeNull();
    expect(new Set(receiver.received.map((r) => r.id)).size).toBe(4);
    await eventually(async () =>
      (await hookDeliveries(owner, hook.id)).every((d) => d.status === 'delivered'),
    );
    const log = await hookDeliveries(owner, hook.id);
    expect(log.map((d) => d.event_type)).toEqual([
      'item.deleted',
      'item.completed',
      'item.updated',
      'item.created',
    ]);
    expect(log[0]).toMatchObject({
      attempts: 1,
      last_status_code: 204,
      last_error: null,
      next_attempt_at: null,
    });
  });

  it('hears nothing of an item its owner cannot see, and hears it once the owner joins the campaign', async () => {
    const alice = await signedIn(app, 'Alice');
    const bob = await signedIn(app, 'Bob');
    const hook = await addHook(bob, `${receiver.url}/bob`, ['item.created', 'item.updated', 'member.added']);
    const campaign = await alice.create({ title: 'Private plans', type: 'campaign' });
    const task = await alice.create({ title: 'Secret task', type: 'task', parent_id: campaign.id });
    await alice.update(task.id, { title: 'Still secret' });
    // Alice's own webhook proves the events go out; Bob's hears none of them.
    const probe = await addHook(alice, `${receiver.url}/alice`, ['item.updated']);
    await alice.update(task.id, { title: 'Now for Alice' });
    await eventually(async () =>
      (await hookDeliveries(alice, probe.id)).some((d) => d.status === 'delivered'),
    );
    expect(await hookDeliveries(bob, hook.id)).toEqual([]);
    await share(alice, campaign, 'editor', bob);
    await alice.update(task.id, { title: 'Shared now' });
    await eventually(async () => (await hookDeliveries(bob, hook.id)).length >= 2);
    await eventually(async () => (await hookDeliveries(bob, hook.id)).every((d) => d.status === 'delivered'));
    const heard = (await hookDeliveries(bob, hook.id)).map((d) => d.event_type).sort();
    expect(heard).toEqual(['item.updated', 'member.added']);
    const bobs = receiver.received.filter(
      (r) => r.headers['webhook-signature'] && isSignedBy(r, hook.secret),
    );
    expect(bobs).toHaveLength(2);
    const item = bobs.map((r) => (r.json.data as { item?: Item }).item).find(Boolean);
    expect(item?.title).toBe('Shared now');
  });

  it('with a campaign, hears only what happens inside it', async () => {
    const owner = await signedIn(app, 'Scoped');
    const inside = await owner.create({ title: 'Inside', type: 'campaign' });
    const outside = await owner.create({ title: 'Outside', type: 'campaign' });
    const hook = await addHook(owner, `${receiver.url}/scoped`, ['item.created'], inside.id);
    await owner.create({ title: 'Out here', type: 'task', parent_id: outside.id });
    const task = await owner.create({ title: 'In here', type: 'task', parent_id: inside.id });
    await eventually(async () => (await hookDeliveries(owner, hook.id)).length >= 1);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(await hookDeliveries(owner, hook.id)).toHaveLength(1);
    await eventually(() => receiver.received.length >= 1);
    expect((receiver.received[0]!.json.data as { item: Item }).item.id).toBe(task.id);
  });

  it('tells of comments and members with the comment and member shapes', async () => {
    const owner = await signedIn(app, 'Chatty');
    const hook = await addHook(owner, `${receiver.url}/talk`, ['comment.created', 'comment.deleted']);
    const todo = await owner.create({ title: 'Talk about it', type: 'todo' });
    const comment = await owner.post<{ id: number }>(`/api/items/${todo.id}/comments`, { body: 'First!' });
    expect(comment.status, comment.text).toBe(201);
    expect((await owner.delete(`/api/comments/${comment.body.id}`)).status).toBe(204);
    await eventually(() => receiver.received.length >= 2);
    expect(receiver.received.map((r) => r.json.type)).toEqual(['comment.created', 'comment.deleted']);
    const created = receiver.verify(receiver.received[0]!, hook.secret) as {
      data: { comment: Record<string, unknown> };
    };
    expect(created.data.comment).toMatchObject({ id: comment.body.id, item_id: todo.id, body: 'First!' });
  });

  it('tells a role change as member.updated with the new and the previous role, to the owner and the member', async () => {
    const owner = await signedIn(app, 'Roles');
    const member = await signedIn(app, 'Rolled');
    const campaign = await owner.create({ title: 'Who does what', type: 'campaign' });
    const ownerHook = await addHook(owner, `${receiver.url}/owner`, ['member.updated']);
    const memberHook = await addHook(member, `${receiver.url}/member`, ['member.updated']);
    await share(owner, campaign, 'editor', member);
    const url = `/api/campaigns/${campaign.id}/members/${member.user!.id}`;
    expect((await owner.patch(url, { role: 'viewer' })).status).toBe(200);
    // The same role again changes nothing, so it tells nothing.
    expect((await owner.patch(url, { role: 'viewer' })).status).toBe(200);
    await eventually(() => receiver.received.length >= 2);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(receiver.received).toHaveLength(2);
    for (const hook of [ownerHook, memberHook]) {
      const [delivery] = await hookDeliveries(hook === ownerHook ? owner : member, hook.id);
      expect(delivery?.event_type).toBe('member.updated');
      const request = receiver.received.find((r) => isSignedBy(r, hook.secret));
      const body = receiver.verify(request!, hook.secret) as {
        actor: { name: string };
        data: { member: Record<string, unknown>; campaign: { id: number } };
      };
      expect(body.actor.name).toBe('Roles');
      expect(body.data.campaign.id).toBe(campaign.id);
      expect(body.data.member).toMatchObject({
        user: { id: member.user!.id, name: 'Rolled' },
        role: 'viewer',
      });
      expect(body.data).toMatchObject({ previous_role: 'editor' });
      expect(memberEventSchema.safeParse(body).error).toBeUndefined();
    }
  });

  it('tells member events with the member exactly as the members list shows it to the webhook’s owner', async () => {
    const owner = await signedIn(app, 'Host');
    const member = await signedIn(app, 'Guest');
    const campaign = await owner.create({ title: 'Guest list', type: 'campaign' });
    const hook = await addHook(owner, `${receiver.url}/members`, [
      'member.added',
      'member.updated',
      'member.removed',
    ]);
    await share(owner, campaign, 'editor', member);
    const membersUrl = `/api/campaigns/${campaign.id}/members`;
    const listed = await owner.get<{ members: { user: { id: number } }[] }>(membersUrl);
    const asListed = listed.body.members.find((m) => m.user.id === member.user!.id);
    expect(asListed).toMatchObject({ user: { name: 'Guest' }, role: 'editor' });
    expect((await owner.patch(`${membersUrl}/${member.user!.id}`, { role: 'viewer' })).status).toBe(200);
    expect((await owner.delete(`${membersUrl}/${member.user!.id}`)).status).toBe(204);
    await eventually(() => receiver.received.length >= 3);
    const bodies = receiver.received.map(
      (r) =>
        receiver.verify(r, hook.secret) as {
          type: string;
          data: { member: unknown; campaign: unknown; previous_role?: string };
        },
    );
    expect(bodies.map((b) => b.type)).toEqual(['member.added', 'member.updated', 'member.removed']);
    for (const body of bodies) expect(memberEventSchema.safeParse(body).error, body.type).toBeUndefined();
    const [added, updated, removed] = bodies;
    expect(added!.data).toEqual({ member: asListed, campaign: { id: campaign.id, title: 'Guest list' } });
    expect(updated!.data).toEqual({
      member: { ...asListed, role: 'viewer' },
      campaign: { id: campaign.id, title: 'Guest list' },
      previous_role: 'editor',
    });
    // Removed: as they were, with the role they had and when they joined.
    expect(removed!.data).toEqual({
      member: { ...asListed, role: 'viewer' },
      campaign: { id: campaign.id, title: 'Guest list' },
    });
  });

  it('sends every event with the body the OpenAPI document’s webhooks section describes', async () => {
    const owner = await signedIn(app, 'Everything');
    const member = await signedIn(app, 'Everyone');
    const hook = await addHook(owner, `${receiver.url}/all`, ['*']);
    const campaign = await owner.create({ title: 'All of it', type: 'campaign' });
    const todo = await owner.create({ title: 'Each event', type: 'todo', parent_id: campaign.id });
    expect((await owner.patch(`/api/items/${todo.id}`, { title: 'Each event, once' })).status).toBe(200);
    expect((await owner.patch(`/api/items/${todo.id}`, { status: 'completed' })).status).toBe(200);
    expect((await owner.delete(`/api/items/${todo.id}`)).status).toBe(204);
    expect((await owner.post(`/api/items/${todo.id}/restore`)).status).toBe(200);
    const comment = await owner.post<{ id: number }>(`/api/items/${todo.id}/comments`, { body: 'Said' });
    expect(comment.status, comment.text).toBe(201);
    expect((await owner.patch(`/api/comments/${comment.body.id}`, { body: 'Said again' })).status).toBe(200);
    expect((await owner.delete(`/api/comments/${comment.body.id}`)).status).toBe(204);
    const entry = await owner.post(`/api/items/${todo.id}/time_entries`, {
      started_at: new Date(Date.now() - 60 * 60_000).toISOString(),
      ended_at: new Date(Date.now() - 30 * 60_000).toISOString(),
    });
    expect(entry.status, entry.text).toBe(201);
    const file = await postMultipart<{ id: number }>(app, owner, `/api/items/${todo.id}/attachments`, [
      { file: 'file', bytes: Buffer.from('a note'), name: 'note.txt', type: 'text/plain' },
    ]);
    expect(file.status, file.text).toBe(201);
    expect((await owner.delete(`/api/attachments/${file.body.id}`)).status).toBe(204);
    await share(owner, campaign, 'editor', member);
    const membersUrl = `/api/campaigns/${campaign.id}/members/${member.user!.id}`;
    expect((await owner.patch(membersUrl, { role: 'viewer' })).status).toBe(200);
    expect((await owner.delete(membersUrl)).status).toBe(204);
    expect((await owner.post(`/api/webhooks/${hook.id}/test`)).status).toBe(200);
    const every = [...WEBHOOK_EVENTS, 'webhook.test'] as const;
    await eventually(() => new Set(receiver.received.map((r) => r.json.type)).size >= every.length);
    expect(new Set(receiver.received.map((r) => r.json.type))).toEqual(new Set(every));
    for (const request of receiver.received) {
      const body = receiver.verify(request, hook.secret) as { type: WebhookEventType };
      const problem = webhookPayloadSchemaOf(body.type).safeParse(body).error;
      expect(problem?.issues, body.type).toBeUndefined();
    }
  });

  it('a receiver answering 500 then 204 gets the same webhook-id twice, and the delivery is delivered', async () => {
    const owner = await signedIn(app, 'Retry');
    receiver.answer((_r, index) => ({ status: index === 0 ? 500 : 204 }));
    const retryingBefore = await deliveryCount('retrying');
    const deliveredBefore = await deliveryCount('delivered');
    const hook = await addHook(owner, `${receiver.url}/flaky`, ['item.created']);
    await owner.create({ title: 'Twice', type: 'todo' });
    await eventually(async () => (await hookDeliveries(owner, hook.id))[0]?.status === 'delivered');
    expect(receiver.received).toHaveLength(2);
    expect(receiver.received[0]!.id).toBe(receiver.received[1]!.id);
    expect(receiver.received[0]!.body).toBe(receiver.received[1]!.body);
    const [delivery] = await hookDeliveries(owner, hook.id);
    expect(delivery).toMatchObject({ attempts: 2, last_status_code: 204 });
    // The metrics count both sends by what came of them, and nothing waits in the outbox after.
    expect(await deliveryCount('retrying')).toBe(retryingBefore + 1);
    expect(await deliveryCount('delivered')).toBe(deliveredBefore + 1);
    expect(await outboxDepth()).toBe(0);
  });

  it('gives up after the schedule and marks the delivery failed; Retry sends it again (202)', async () => {
    const owner = await signedIn(app, 'Patient');
    receiver.answer(() => ({ status: 503 }));
    const hook = await addHook(owner, `${receiver.url}/down`, ['item.created']);
    await owner.create({ title: 'Never lands', type: 'todo' });
    await eventually(async () => (await hookDeliveries(owner, hook.id))[0]?.status === 'failed');
    const [failed] = await hookDeliveries(owner, hook.id);
    expect(failed).toMatchObject({ attempts: 4, last_status_code: 503, next_attempt_at: null });
    expect(failed!.last_error).toContain('503');
    receiver.answer(() => ({ status: 200 }));
    const retried = await owner.post(`/api/webhooks/${hook.id}/deliveries/${failed!.id}/retry`);
    expect(retried.status, retried.text).toBe(202);
    await eventually(async () => (await hookDeliveries(owner, hook.id))[0]?.status === 'delivered');
    expect(receiver.received).toHaveLength(5);
    expect(new Set(receiver.received.map((r) => r.id)).size).toBe(1);
  });

  it('a 410 disables the webhook', async () => {
    const owner = await signedIn(app, 'Gone');
    receiver.answer(() => ({ status: 410 }));
    const hook = await addHook(owner, `${receiver.url}/gone`, ['item.created']);
    await owner.create({ title: 'Unwanted', type: 'todo' });
    await eventually(async () => (await hookDeliveries(owner, hook.id))[0]?.status === 'failed');
    const listed = await owner.get<{ webhooks: { enabled: boolean; disabled_reason: string | null }[] }>(
      '/api/webhooks',
    );
    expect(listed.body.webhooks[0]).toMatchObject({
      enabled: false,
      disabled_reason: expect.stringContaining('410'),
    });
    await owner.create({ title: 'Not sent', type: 'todo' });
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(receiver.received).toHaveLength(1);
    expect(await hookDeliveries(owner, hook.id)).toHaveLength(1);
  });

  it('does not follow a redirect: a 302 is a failure', async () => {
    const owner = await signedIn(app, 'Redirected');
    receiver.answer((r) =>
      r.headers.host && r.body && receiver.received.length === 1
        ? { status: 302, headers: { location: `${receiver.url}/elsewhere` } }
        : { status: 204 },
    );
    const hook = await addHook(owner, `${receiver.url}/first`, ['item.created']);
    await owner.create({ title: 'Moved', type: 'todo' });
    await eventually(async () => (await hookDeliveries(owner, hook.id))[0]?.attempts === 1);
    const [delivery] = await hookDeliveries(owner, hook.id);
    expect(delivery).toMatchObject({ last_status_code: 302, status: 'pending' });
    expect(delivery!.last_error).toContain('not followed');
    expect(receiver.received.filter((r) => r.headers.host && r.body === '')).toHaveLength(0);
    await eventually(async () => (await hookDeliveries(owner, hook.id))[0]?.status === 'delivered');
  });

  it('after a rotation, deliveries carry two signatures, one for each secret', async () => {
    const owner = await signedIn(app, 'Rotator');
    const hook = await addHook(owner, `${receiver.url}/rotate`, ['item.created']);
    const rotated = await owner.post<{ secret: string }>(`/api/webhooks/${hook.id}/rotate`);
    expect(rotated.status).toBe(200);
    expect(rotated.body.secret).not.toBe(hook.secret);
    await owner.create({ title: 'Signed twice', type: 'todo' });
    await eventually(() => receiver.received.length >= 1);
    const [request] = receiver.received;
    expect(request!.signature.split(' ')).toHaveLength(2);
    expect(() => receiver.verify(request!, hook.secret)).not.toThrow();
    expect(() => receiver.verify(request!, rotated.body.secret)).not.toThrow();
    // A day later only the new secret signs.
    await database.db.execute(
      sql`UPDATE webhooks SET rotated_at = now() - interval '25 hours' WHERE id = ${hook.id}`,
    );
    await owner.create({ title: 'Signed once', type: 'todo' });
    await eventually(() => receiver.received.length >= 2);
    expect(receiver.received[1]!.signature.split(' ')).toHaveLength(1);
    expect(() => receiver.verify(receiver.received[1]!, hook.secret)).toThrow();
  });

  it('Send test delivers webhook.test at once and answers with its delivery', async () => {
    const owner = await signedIn(app, 'Tester');
    const hook = await addHook(owner, `${receiver.url}/test`, ['comment.created']);
    const tested = await owner.post<WebhookDelivery>(`/api/webhooks/${hook.id}/test`);
    expect(tested.status, tested.text).toBe(200);
    expect(tested.body).toMatchObject({
      event_type: 'webhook.test',
      status: 'delivered',
      attempts: 1,
      last_status_code: 204,
    });
    expect(receiver.received).toHaveLength(1);
    const payload = receiver.verify(receiver.received[0]!, hook.secret) as { type: string; actor: unknown };
    expect(payload).toMatchObject({ type: 'webhook.test', actor: { id: owner.user!.id, name: 'Tester' } });
  });

  it('keeps its secrets out of every answer but the create and rotate ones', async () => {
    const owner = await signedIn(app, 'Quiet');
    const hook = await addHook(owner, `${receiver.url}/quiet`);
    const secretPart = hook.secret.slice(6);
    for (const response of [
      await owner.get('/api/webhooks'),
      await owner.patch(`/api/webhooks/${hook.id}`, { enabled: true }),
      await owner.post(`/api/webhooks/${hook.id}/test`),
      await owner.get(`/api/webhooks/${hook.id}/deliveries`),
    ])
      expect(response.text).not.toContain(secretPart);
  });
});

describe.each(testEngines())('webhook deliveries across restarts (%s)', (engine) => {
  let receiver: WebhookReceiver;
  beforeEach(async () => {
    receiver = await startWebhookReceiver();
  });
  afterEach(async () => {
    await receiver.close();
  });

  it('deliveries left pending by a stopped server are sent by the next one on the same database', async () => {
    const database = await openTestDatabase(engine);
    try {
      receiver.answer(() => ({ status: 503 }));
      const first = await build(database, { retryScheduleMs: [60_000] });
      await first.ready();
      const owner = await signedIn(first, 'Restarted');
      const hook = await addHook(owner, `${receiver.url}/later`, ['item.created']);
      await owner.create({ title: 'Waits for a restart', type: 'todo' });
      await eventually(() => receiver.received.length === 1);
      await first.close();
      // It is due now, as it would be a minute later; the next server sends it at start.
      await database.db.execute(sql`UPDATE webhook_deliveries SET next_attempt_at = now()`);
      receiver.answer(() => ({ status: 204 }));
      const second = await build(database);
      await second.ready();
      await eventually(() => receiver.received.length === 2);
      expect(receiver.received[1]!.id).toBe(receiver.received[0]!.id);
      expect(receiver.verify(receiver.received[1]!, hook.secret)).toMatchObject({ type: 'item.created' });
      await eventually(async () => {
        const [row] = await rows<{ status: string }>(
          database.db,
          sql`SELECT status FROM webhook_deliveries WHERE webhook_id = ${hook.id}`,
        );
        return row?.status === 'delivered';
      });
      await second.close();
    } finally {
      await database.close();
    }
  });

  it('a delivery whose sender died mid-send is sent again once its claim runs out', async () => {
    const database = await openTestDatabase(engine);
    try {
      // The first sender never hears back (it is 'killed' while waiting); its claim lasts 300 ms.
      receiver.answer((_r, index) => (index === 0 ? 'hang' : { status: 204 }));
      const first = await build(database, { leaseMs: 300, timeoutMs: 5_000 });
      await first.ready();
      const owner = await signedIn(first, 'Crashed');
      const hook = await addHook(owner, `${receiver.url}/again`, ['item.created']);
      await owner.create({ title: 'Sent again', type: 'todo' });
      await eventually(() => receiver.received.length === 1);
      const second = await build(database, { leaseMs: 300 });
      await second.ready();
      await eventually(() => receiver.received.length === 2, 5000);
      expect(receiver.received[1]!.id).toBe(receiver.received[0]!.id);
      await eventually(async () => {
        const [row] = await rows<{ status: string }>(
          database.db,
          sql`SELECT status FROM webhook_deliveries WHERE webhook_id = ${hook.id}`,
        );
        return row?.status === 'delivered';
      });
      await receiver.close();
      await Promise.all([first.close(), second.close()]);
      // The first sender's late failure does not undo the delivery the second one made.
      const [row] = await rows<{ status: string }>(
        database.db,
        sql`SELECT status FROM webhook_deliveries WHERE webhook_id = ${hook.id}`,
      );
      expect(row?.status).toBe('delivered');
    } finally {
      await database.close();
    }
  });
});

describe.runIf(process.env.TEST_DATABASE_URL)('two instances draining one outbox (PostgreSQL)', () => {
  it('never sends one delivery twice at once, and never more than 5 at once to one endpoint', async () => {
    const receiver = await startWebhookReceiver();
    const database = await openTestDatabase('pg');
    // Each instance its own pool on the same database, as two servers would have.
    const other = await (await import('../db/client')).openDatabase({ url: database.url! });
    const apps: FastifyInstance[] = [];
    try {
      let open = 0;
      let most = 0;
      const inFlight = new Map<string, number>();
      let twice = 0;
      receiver.answer(() => ({ status: 204 }));
      const a = await build(database);
      const b = await build(other);
      apps.push(a, b);
      await Promise.all([a.ready(), b.ready()]);
      const owner = await signedIn(a, 'Busy');
      // A slow receiver, so deliveries overlap: counted as they arrive and as they are answered.
      const slow = await startSlowReceiver((id) => {
        open += 1;
        most = Math.max(most, open);
        const n = (inFlight.get(id) ?? 0) + 1;
        if (n > 1) twice += 1;
        inFlight.set(id, n);
        return () => {
          open -= 1;
          inFlight.set(id, (inFlight.get(id) ?? 1) - 1);
        };
      });
      try {
        const hook = await addHook(owner, `${slow.url}/busy`, ['item.created']);
        const ownerB = new (await import('../../../testkit/testClient')).TestClient(b);
        for (const [k, v] of owner.jar) ownerB.jar.set(k, v);
        await Promise.all(
          Array.from({ length: 30 }, (_, i) =>
            (i % 2 ? owner : ownerB).create({ title: `Job ${i}`, type: 'todo' }),
          ),
        );
        await eventually(async () => {
          const [row] = await rows<{ n: number }>(
            database.db,
            sql`SELECT count(*)::int AS n FROM webhook_deliveries WHERE webhook_id = ${hook.id} AND status = 'delivered'`,
          );
          return row?.n === 30;
        }, 20_000);
        expect(twice).toBe(0);
        expect(most).toBeLessThanOrEqual(5);
        expect(slow.ids().size).toBe(30);
      } finally {
        await slow.close();
      }
    } finally {
      for (const app of apps) await app.close();
      await other.close();
      await database.close();
      await receiver.close();
    }
  }, 40_000);
});

/** A receiver that answers each request after 50 ms, reporting each start and end. */
async function startSlowReceiver(onStart: (id: string) => () => void) {
  const http = await import('node:http');
  const seen = new Set<string>();
  const server = http.createServer((req, res) => {
    const id = String(req.headers['webhook-id']);
    seen.add(id);
    const done = onStart(id);
    req.resume();
    setTimeout(() => {
      done();
      res.writeHead(204).end();
    }, 50);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    ids: () => seen,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
