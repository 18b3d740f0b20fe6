import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, testEngines } from '../../../testkit/server';
import { share } from '../../../testkit/sharing';
import { signedIn, type TestClient, writeDirectly } from '../../../testkit/testClient';
import { FILTER_GRAMMAR } from '../../shared/filter';
import type { View } from '../../shared/filter/views';
import { sql } from '../db/client';

type ErrorBody = { message: string; errors?: Record<string, string[]> };

describe.each(testEngines())('saved views (%s)', (engine) => {
  let harness: Awaited<ReturnType<typeof createTestApp>>;
  beforeAll(async () => {
    harness = await createTestApp(engine);
  });
  afterAll(() => harness?.close());

  const save = (c: TestClient, body: Record<string, unknown>) => c.post<View & ErrorBody>('/api/views', body);
  const listed = async (c: TestClient) =>
    (await c.get<{ views: View[] }>('/api/views')).body.views.map((v) => v.id);

  it('saves, lists, reads, changes and deletes a personal view; the same uuid again answers the same view', async () => {
    const alice = await signedIn(harness.app, 'Alice');
    const bob = await signedIn(harness.app, 'Bob');
    const uuid = randomUUID();
    const saved = await save(alice, { name: 'Urgent', query: 'p1 & overdue', uuid });
    expect(saved.status, saved.text).toBe(201);
    expect(saved.body).toMatchObject({
      uuid,
      name: 'Urgent',
      query: 'p1 & overdue',
      grammar: FILTER_GRAMMAR,
      sort: 'due',
      campaign_id: null,
      created_by: { id: alice.user!.id, name: 'Alice' },
    });
    const again = await save(alice, { name: 'Urgent twice', query: 'p2', uuid });
    expect(again.status, again.text).toBe(200);
    expect(again.body).toMatchObject({ id: saved.body.id, name: 'Urgent', query: 'p1 & overdue' });
    expect(await listed(alice)).toEqual([saved.body.id]);
    expect((await alice.get<View>(`/api/views/${saved.body.id}`)).body.name).toBe('Urgent');

    // Someone else: not listed, 404 everywhere.
    expect(await listed(bob)).toEqual([]);
    expect((await bob.get(`/api/views/${saved.body.id}`)).status).toBe(404);
    expect((await bob.patch(`/api/views/${saved.body.id}`, { name: 'Mine' })).status).toBe(404);
    expect((await bob.delete(`/api/views/${saved.body.id}`)).status).toBe(404);

    const changed = await alice.patch<View>(`/api/views/${saved.body.id}`, {
      name: 'Urgent work',
      query: 'p1 | +urgent',
      sort: 'priority',
    });
    expect(changed.status, changed.text).toBe(200);
    expect(changed.body).toMatchObject({ name: 'Urgent work', query: 'p1 | +urgent', sort: 'priority' });

    expect((await alice.delete(`/api/views/${saved.body.id}`)).status).toBe(204);
    expect(await listed(alice)).toEqual([]);
    expect((await alice.get(`/api/views/${saved.body.id}`)).status).toBe(404);
    // The deleted view's uuid is not given out again.
    expect((await save(alice, { name: 'Back', query: 'p1', uuid })).status).toBe(422);
  });

  it('a malformed query answers 422 naming the column under errors.query; names of 1–100 characters; a known sort', async () => {
    const alice = await signedIn(harness.app, 'Alice');
    const bad = await save(alice, { name: 'Soon', query: 'p1 & due before:' });
    expect(bad.status, bad.text).toBe(422);
    expect(bad.body.errors?.query?.[0]).toMatch(/^Expected a date .* at 17$/);
    expect(bad.body.message).toBe(bad.body.errors?.query?.[0]);
    const view = (await save(alice, { name: 'Fine', query: 'today' })).body;
    const badPatch = await alice.patch<ErrorBody>(`/api/views/${view.id}`, { query: '(p1' });
    expect(badPatch.status, badPatch.text).toBe(422);
    expect(badPatch.body.errors?.query?.[0]).toMatch(/at 4$/);
    expect((await save(alice, { name: 'Empty', query: '   ' })).status).toBe(422);
    expect((await save(alice, { name: 'Long', query: `search: ${'x'.repeat(500)}` })).status).toBe(422);
    expect((await save(alice, { name: '', query: 'p1' })).status).toBe(422);
    expect((await save(alice, { name: 'x'.repeat(101), query: 'p1' })).status).toBe(422);
    expect((await save(alice, { name: 'Sorted', query: 'p1', sort: 'colour' })).status).toBe(422);
    expect((await save(alice, { name: 'x'.repeat(100), query: 'p1', sort: 'title' })).status).toBe(201);
  });

  it('sharing: members see a campaign’s view, a viewer uses it but cannot change it, a non-member gets 404, a removed member loses it', async () => {
    const alice = await signedIn(harness.app, 'Alice');
    const bob = await signedIn(harness.app, 'Bob');
    const carol = await signedIn(harness.app, 'Carol');
    const dave = await signedIn(harness.app, 'Dave');
    const campaign = await alice.create({ title: 'Launch', type: 'campaign' });
    await share(alice, campaign, 'editor', bob);
    await share(alice, campaign, 'viewer', carol);
    const saved = await save(alice, {
      name: 'Launch this week',
      query: '#Launch & due before: in 7 days',
      campaign_id: campaign.id,
    });
    expect(saved.status, saved.text).toBe(201);
    const id = saved.body.id;
    expect(await listed(bob)).toContain(id);
    expect(await listed(carol)).toContain(id);
    expect(await listed(dave)).not.toContain(id);

    // The viewer opens it and may not change it.
    expect((await carol.get<View>(`/api/views/${id}`)).body.query).toBe('#Launch & due before: in 7 days');
    expect((await carol.patch(`/api/views/${id}`, { name: 'Carol’s' })).status).toBe(403);
    expect((await carol.delete(`/api/views/${id}`)).status).toBe(403);
    // Nor share views with the campaign herself; her own view stays hers.
    expect((await save(carol, { name: 'Shared', query: 'p1', campaign_id: campaign.id })).status).toBe(403);
    // A non-member: 404 for all, and cannot share with a campaign they cannot open.
    expect((await dave.get(`/api/views/${id}`)).status).toBe(404);
    expect((await dave.patch(`/api/views/${id}`, { name: 'Mine' })).status).toBe(404);
    expect((await dave.delete(`/api/views/${id}`)).status).toBe(404);
    const foreign = await save(dave, { name: 'In', query: 'p1', campaign_id: campaign.id });
    expect(foreign.status, foreign.text).toBe(422);
    expect(foreign.body.errors?.campaign_id).toBeDefined();

    // The editor changes it.
    const renamed = await bob.patch<View>(`/api/views/${id}`, { name: 'Launch week' });
    expect(renamed.status, renamed.text).toBe(200);
    expect(renamed.body.name).toBe('Launch week');

    // Removed, Carol loses it.
    expect((await alice.delete(`/api/campaigns/${campaign.id}/members/${carol.user!.id}`)).status).toBe(204);
    expect(await listed(carol)).not.toContain(id);
    expect((await carol.get(`/api/views/${id}`)).status).toBe(404);

    // Unshared, it is Alice's alone again.
    expect((await alice.patch(`/api/views/${id}`, { campaign_id: null })).status).toBe(200);
    expect(await listed(bob)).not.toContain(id);
    expect(await listed(alice)).toContain(id);
  });

  it('a view saved under grammar 0 (label:, due<, priority:) opens in the current grammar, quoted words untouched', async () => {
    const alice = await signedIn(harness.app, 'Alice');
    await writeDirectly(harness.app, [alice.user!.id], (tx) =>
      tx.execute(
        sql`INSERT INTO views (uuid, user_id, name, query, grammar, sort)
            VALUES (gen_random_uuid(), ${alice.user!.id}, 'Old', 'label:ops & (due<tomorrow | priority:1) & !label:"due<x"', 0, 'due')`,
      ),
    );
    const [view] = (await alice.get<{ views: View[] }>('/api/views')).body.views;
    expect(view).toMatchObject({
      name: 'Old',
      query: '+ops & (due before: tomorrow | p1) & !+"due<x"',
      grammar: FILTER_GRAMMAR,
    });
    // The migrated query is one the item list reads.
    const listedItems = await alice.get(`/api/items?filter=${encodeURIComponent(view!.query)}`);
    expect(listedItems.status, listedItems.text).toBe(200);
    // A device's old query sent with its grammar is stored migrated.
    const sent = await save(alice, { name: 'Sent old', query: 'label:home', grammar: 0 });
    expect(sent.status, sent.text).toBe(201);
    expect(sent.body).toMatchObject({ query: '+home', grammar: FILTER_GRAMMAR });
  });
});
