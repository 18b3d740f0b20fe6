import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { changesDelivered } from '../../../testkit/changes';
import { openTestDatabase, testEngines } from '../../../testkit/server';
import { share } from '../../../testkit/sharing';
import { makeMutual, signedIn, type TestClient } from '../../../testkit/testClient';
import { mentionToken } from '../../shared/comments';
import { buildApp } from '../app';
import { type Database, rows, sql } from '../db/client';
import { viewersOfItem } from '../events/changeBus';
import { seersAmong } from '../items/queries';
import { sendDueReminders } from '../notifications/reminders';

const inSeconds = (s: number) => new Date(Date.now() + s * 1000).toISOString();

/** Every notification row a user holds, oldest first, as kind and item. */
const entriesOf = (database: Database, userId: number) =>
  rows<{ kind: string; item_id: number | null }>(
    database.db,
    sql`SELECT kind, item_id FROM notifications WHERE user_id = ${userId} ORDER BY id`,
  );

describe.each(testEngines())('a removed member hears nothing more of the campaign on %s', (engine) => {
  let database: Database;
  let app: FastifyInstance;
  /** Every batch of user ids the change bus delivered (announced `changed` events). */
  const announced: number[][] = [];

  beforeAll(async () => {
    database = await openTestDatabase(engine);
    // The reminder loop is off: the test runs its step at the time it chooses.
    app = await buildApp({ database, config: { seedSampleUsers: true, reminderTickMs: 0 } });
    await app.ready();
    app.changes.onChange((ids) => {
      if (ids) announced.push([...ids]);
    });
  });
  afterAll(async () => {
    await app.close();
    await database.close();
  });

  /** The owner's campaign, with a task and a todo the member made or was given, then the member removed. */
  async function removedFrom(owner: TestClient, member: TestClient) {
    const campaign = await owner.create({ title: 'Secret plan', type: 'campaign' });
    await share(owner, campaign, 'editor', member);
    const hers = await member.create({ title: 'Her task', type: 'task', parent_id: campaign.id });
    const given = await owner.create({
      title: 'Given todo',
      type: 'todo',
      parent_id: hers.id,
      assigned_to: member.user!.id,
      remind_at: inSeconds(30),
    });
    const talk = await member.post(`/api/items/${hers.id}/comments`, { body: 'I was here' });
    expect(talk.status, talk.text).toBe(201);
    const removed = await owner.delete(`/api/campaigns/${campaign.id}/members/${member.user!.id}`);
    expect(removed.status, removed.text).toBe(204);
    return { campaign, hers, given };
  }

  it('M10: edits, completions, unassignments, comments and reminders of the tree notify nobody who left it', async () => {
    const owner = await signedIn(app, 'Olive');
    const member = await signedIn(app, 'Mia');
    const { hers, given } = await removedFrom(owner, member);
    const before = (await entriesOf(database, member.user!.id)).length;

    // She is still the task's creator and the todo's assignee, and an earlier commenter.
    await owner.update(hers.id, { title: 'Renamed after she left' });
    await owner.update(given.id, { status: 'completed' });
    await owner.update(given.id, { status: 'pending' });
    const comment = await owner.post(`/api/items/${hers.id}/comments`, { body: 'Now without her' });
    expect(comment.status, comment.text).toBe(201);
    const onTodo = await owner.post(`/api/items/${given.id}/comments`, { body: 'Still open' });
    expect(onTodo.status, onTodo.text).toBe(201);
    await sendDueReminders(database.db, new Date(Date.now() + 60_000));
    const unassigned = await owner.post(`/api/items/${given.id}/assign`, { user_id: 0 });
    expect(unassigned.status, unassigned.text).toBe(200);

    const after = await entriesOf(database, member.user!.id);
    expect(after.slice(before)).toEqual([]);
    // The owner's own reminder still went: the filter takes only who may no longer see it.
    const [ownerDue] = await rows<{ n: number }>(
      database.db,
      sql`SELECT count(*)::int AS n FROM notifications WHERE kind = 'due' AND item_id = ${given.id}
            AND user_id = ${owner.user!.id}`,
    );
    expect(ownerDue?.n).toBe(1);
  });

  it('M10: a change to the tree announces `changed` to its members, never to someone removed from it', async () => {
    const owner = await signedIn(app, 'Olive');
    const member = await signedIn(app, 'Mia');
    const stays = await signedIn(app, 'Stan');
    const { campaign, hers } = await removedFrom(owner, member);
    await share(owner, campaign, 'viewer', stays);
    // The removal tells her (she must drop the campaign); on PostgreSQL that can land after this line.
    await changesDelivered(app);
    announced.length = 0;
    await owner.update(hers.id, { title: 'Edited again' });
    const said = await owner.post(`/api/items/${hers.id}/comments`, { body: 'Hello' });
    expect(said.status, said.text).toBe(201);
    const heard = new Set(announced.flat());
    expect(heard.has(owner.user!.id)).toBe(true);
    expect(heard.has(stays.user!.id)).toBe(true);
    expect(heard.has(member.user!.id)).toBe(false);
  });

  it('M10: the @ picker leaves out whoever was removed, and a mention of them is refused', async () => {
    const owner = await signedIn(app, 'Olive');
    const member = await signedIn(app, 'Mia');
    const { hers } = await removedFrom(owner, member);
    const people = await owner.get<{ people: { id: number; name: string }[] }>(
      `/api/items/${hers.id}/people`,
    );
    expect(people.status).toBe(200);
    expect(people.body.people.map((p) => p.name)).toEqual(['Olive']);
    const mention = await owner.post(`/api/items/${hers.id}/comments`, {
      body: `Ask ${mentionToken(member.user!.id)}`,
    });
    expect(mention.status).toBe(422);
  });

  it('M10: the change bus’s set of viewers is the reads’ rule (seersAmong), departures included', async () => {
    const owner = await signedIn(app, 'Olive');
    const member = await signedIn(app, 'Mia');
    const stays = await signedIn(app, 'Stan');
    const outside = await signedIn(app, 'Otto');
    const stranger = await signedIn(app, 'Sam');
    const { campaign, hers, given } = await removedFrom(owner, member);
    await makeMutual(owner, outside);
    // Given to Otto while nobody else was in the campaign: once it is shared, only members may be (M16).
    const theirs = await owner.create({
      title: 'Outside help',
      type: 'todo',
      parent_id: hers.id,
      assigned_to: outside.user!.id,
    });
    await share(owner, campaign, 'viewer', stays);
    const leaver = await signedIn(app, 'Lee');
    await share(owner, campaign, 'editor', leaver);
    const own = await leaver.create({ title: 'Lee’s', type: 'task', parent_id: campaign.id });
    expect((await leaver.delete(`/api/campaigns/${campaign.id}/members/${leaver.user!.id}`)).status).toBe(
      204,
    );
    const everyone = [owner, member, stays, outside, stranger, leaver].map((c) => c.user!.id);
    for (const item of [campaign, hers, given, theirs, own]) {
      const bus = (await viewersOfItem(database.db, item.id)).filter((id) => everyone.includes(id));
      const rule = await seersAmong(database.db, item.id, everyone);
      expect(
        bus.sort((a, b) => a - b),
        item.title,
      ).toEqual(rule.sort((a, b) => a - b));
    }
    expect(await seersAmong(database.db, theirs.id, everyone)).toContain(outside.user!.id);
    expect(await seersAmong(database.db, own.id, everyone)).not.toContain(leaver.user!.id);
  });

  it('M10: rejoining brings the notifications back', async () => {
    const owner = await signedIn(app, 'Olive');
    const member = await signedIn(app, 'Mia');
    const { campaign, hers } = await removedFrom(owner, member);
    await makeMutual(owner, member);
    const added = await owner.post(`/api/campaigns/${campaign.id}/members`, {
      user_id: member.user!.id,
      role: 'editor',
    });
    expect(added.status, added.text).toBe(201);
    const before = (await entriesOf(database, member.user!.id)).length;
    await owner.update(hers.id, { title: 'Back together' });
    expect((await entriesOf(database, member.user!.id)).slice(before)).toEqual([
      { kind: 'updated', item_id: hers.id },
    ]);
  });
});
