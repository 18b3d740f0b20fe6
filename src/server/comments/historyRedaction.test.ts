import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, testEngines } from '../../../testkit/server';
import { sharedCampaign } from '../../../testkit/sharing';
import { signedIn, type TestClient } from '../../../testkit/testClient';
import { HIDDEN_TEXT, type HistoryEntry } from '../../shared/history';
import type { ActivityEntry, Item, Paginated } from '../../shared/item';

const SECRETS = /Secret plans|Fire Bob|Private notes|Old todo words/;

async function history(c: TestClient, id: number) {
  const res = await c.get<Paginated<HistoryEntry>>(`/api/items/${id}/history`);
  expect(res.status, res.text).toBe(200);
  return res;
}

describe.each(testEngines())('history as each reader may read it (%s)', (engine) => {
  let harness: Awaited<ReturnType<typeof createTestApp>>;
  beforeAll(async () => {
    harness = await createTestApp(engine);
  });
  afterAll(() => harness?.close());

  it('K22: a member reads a moved-in item’s earlier parent and text as hidden, and what came after as written', async () => {
    const alice = await signedIn(harness.app, 'Alice');
    const bob = await signedIn(harness.app, 'Bob');
    const { campaign, task: shared } = await sharedCampaign(alice, 'editor', bob);
    const secret = await alice.create({ title: 'Secret plans', type: 'campaign' });
    const task = await alice.create({
      title: 'Fire Bob',
      description: 'Private notes',
      type: 'task',
      parent_id: secret.id,
    });
    const todo = await alice.create({ title: 'Old todo words', type: 'todo', parent_id: task.id });
    await alice.update(todo.id, { title: 'Book a table' });
    await alice.update(task.id, { title: 'Team outing', description: 'Outing details' });
    await alice.update(task.id, { parent_id: campaign.id });
    await alice.update(task.id, { title: 'Team outing in May' });

    const read = await history(bob, task.id);
    expect(read.text).not.toMatch(SECRETS);
    const changes = read.body.data.map((e) => e.changes);
    expect(changes).toContainEqual({ title: { from: 'Team outing', to: 'Team outing in May' } });
    expect(changes).toContainEqual(
      expect.objectContaining({ parent: { from: HIDDEN_TEXT, to: 'Shared trip' } }),
    );
    expect(changes).toContainEqual({
      title: { from: HIDDEN_TEXT, to: HIDDEN_TEXT },
      description: { from: HIDDEN_TEXT, to: HIDDEN_TEXT },
    });
    // A todo that came in with its task: its earlier words are hidden too.
    const todoRead = await history(bob, todo.id);
    expect(todoRead.text).not.toMatch(SECRETS);
    expect(todoRead.body.data.map((e) => e.changes)).toContainEqual({
      title: { from: HIDDEN_TEXT, to: HIDDEN_TEXT },
    });

    // The campaign's activity names the place it came from only to whoever sees it.
    const feed = await bob.get<Paginated<ActivityEntry>>(`/api/campaigns/${campaign.id}/activity`);
    expect(feed.status).toBe(200);
    expect(feed.text).not.toMatch(/Secret plans/);
    expect(feed.body.data.map((e) => e.metadata.parent)).toContainEqual({
      old: HIDDEN_TEXT,
      new: 'Shared trip',
    });
    const ownFeed = await alice.get<Paginated<ActivityEntry>>(`/api/campaigns/${campaign.id}/activity`);
    expect(ownFeed.body.data.map((e) => e.metadata.parent)).toContainEqual({
      old: 'Secret plans',
      new: 'Shared trip',
    });

    // Its owner reads every word.
    const own = await history(alice, task.id);
    expect(own.body.data.map((e) => e.changes)).toContainEqual(
      expect.objectContaining({ parent: { from: 'Secret plans', to: 'Shared trip' } }),
    );
    expect(own.body.data.map((e) => e.changes)).toContainEqual({
      title: { from: 'Fire Bob', to: 'Team outing' },
      description: { from: 'Private notes', to: 'Outing details' },
    });

    // A restore by the member cannot bring back what they may not read.
    const early = read.body.data.find((e) => e.changes.title?.from === HIDDEN_TEXT)!;
    const restored = await bob.post<Item & { skipped: string[] }>(
      `/api/items/${task.id}/history/${early.id}/revert`,
    );
    expect(restored.status, restored.text).toBe(200);
    expect(restored.body.skipped).toEqual(expect.arrayContaining(['title', 'description']));
    expect(restored.text).not.toMatch(SECRETS);
    expect((await alice.item(task.id)).title).toBe('Team outing in May');

    // A move inside the campaign names places the member sees.
    await alice.update(todo.id, { parent_id: shared.id });
    const within = await history(bob, todo.id);
    expect(within.body.data[0]!.changes).toMatchObject({
      parent: { from: 'Team outing in May', to: 'Book the hut' },
    });
  });
});
