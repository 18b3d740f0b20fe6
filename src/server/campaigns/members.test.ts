import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, testEngines } from '../../../testkit/server';
import { share, sharedCampaign } from '../../../testkit/sharing';
import { makeMutual, pullAll, signedIn } from '../../../testkit/testClient';
import { type Item, isTombstone, type SyncPage } from '../../shared/item';
import { OWNER_ONLY_MESSAGE } from '../../shared/membership';
import type { NotificationPage } from '../../shared/notifications';
import { MEMBER_NOT_ALLOWED, type MemberJson, OWNER_STAYS_MESSAGE } from './members';

describe.each(testEngines())('campaign members on %s', (engine) => {
  let harness: Awaited<ReturnType<typeof createTestApp>>;
  beforeAll(async () => {
    harness = await createTestApp(engine);
  });
  afterAll(() => harness.close());

  it('M1: a member sees the whole tree with their role, and the campaign counts its members', async () => {
    const owner = await signedIn(harness.app, 'Olive');
    const editor = await signedIn(harness.app, 'Eddie');
    const viewer = await signedIn(harness.app, 'Vera');
    const { campaign, task, todo } = await sharedCampaign(owner, 'editor', editor);
    await share(owner, campaign, 'viewer', viewer);

    const own = await owner.item(campaign.id);
    expect(own.my_role).toBe('owner');
    expect(own.members_count).toBe(3);
    expect((await owner.item(todo.id)).my_role).toBe('owner');
    expect((await editor.item(todo.id)).my_role).toBe('editor');
    const seen = await viewer.item(task.id);
    expect(seen.my_role).toBe('viewer');
    expect(seen.parent?.title).toBe('Shared trip');
    const listed = await viewer.get<{ data: Item[] }>(`/api/items?parent_id=${campaign.id}`);
    expect(listed.body.data.map((i) => i.id)).toEqual([task.id]);
    // Someone else's own items carry no role; a stranger sees nothing of the campaign.
    const loner = await signedIn(harness.app, 'Lone');
    expect((await loner.create({ title: 'Mine', type: 'task' })).my_role).toBeNull();
    expect((await loner.get(`/api/items/${task.id}`)).status).toBe(404);
  });

  it('M3: lists the owner first, then members with roles; 404 for anyone who does not see it', async () => {
    const owner = await signedIn(harness.app, 'Olive');
    const editor = await signedIn(harness.app, 'Eddie');
    const { campaign } = await sharedCampaign(owner, 'editor', editor);
    const listed = await editor.get<{ members: MemberJson[] }>(`/api/campaigns/${campaign.id}/members`);
    expect(listed.status).toBe(200);
    expect(listed.body.members.map((m) => [m.user.name, m.role])).toEqual([
      ['Olive', 'owner'],
      ['Eddie', 'editor'],
    ]);
    // Phones follow the phone rule: the editor has the owner's phone in their contacts.
    expect(listed.body.members[0]?.user.phone).toBe(owner.user!.phone);
    const stranger = await signedIn(harness.app, 'Sam');
    expect((await stranger.get(`/api/campaigns/${campaign.id}/members`)).status).toBe(404);
    expect((await stranger.get('/api/campaigns/abc/members')).status).toBe(404);
  });

  it('M3: only the owner adds, and only mutual contacts: a stranger is the same 422 as an unknown id', async () => {
    const owner = await signedIn(harness.app, 'Olive');
    const editor = await signedIn(harness.app, 'Eddie');
    const { campaign } = await sharedCampaign(owner, 'editor', editor);
    const stranger = await signedIn(harness.app, 'Stranger');
    const notMutual = await owner.post(`/api/campaigns/${campaign.id}/members`, {
      user_id: stranger.user!.id,
      role: 'viewer',
    });
    const unknown = await owner.post(`/api/campaigns/${campaign.id}/members`, {
      user_id: 99_999_999,
      role: 'viewer',
    });
    expect(notMutual.status).toBe(422);
    expect(unknown.status).toBe(422);
    expect(notMutual.body).toEqual(unknown.body);
    expect((notMutual.body as { message: string }).message).toBe(MEMBER_NOT_ALLOWED);

    await makeMutual(editor, stranger);
    const byEditor = await editor.post(`/api/campaigns/${campaign.id}/members`, {
      user_id: stranger.user!.id,
      role: 'viewer',
    });
    expect(byEditor.status).toBe(403);
    expect((byEditor.body as { message: string }).message).toBe(OWNER_ONLY_MESSAGE);
    const byStranger = await stranger.post(`/api/campaigns/${campaign.id}/members`, {
      user_id: editor.user!.id,
      role: 'viewer',
    });
    expect(byStranger.status).toBe(404);
    const badRole = await owner.post(`/api/campaigns/${campaign.id}/members`, {
      user_id: editor.user!.id,
      role: 'owner',
    });
    expect(badRole.status).toBe(422);
    // Already a member: 200, and the role is set.
    const again = await owner.post<{ member: MemberJson }>(`/api/campaigns/${campaign.id}/members`, {
      user_id: editor.user!.id,
      role: 'viewer',
    });
    expect(again.status).toBe(200);
    expect(again.body.member.role).toBe('viewer');
  });

  it('M2: a new member’s next pull brings the whole tree, though its rows are older than their cursor', async () => {
    const owner = await signedIn(harness.app, 'Olive');
    const member = await signedIn(harness.app, 'Mia');
    const { campaign, task, todo } = await sharedCampaign(owner, 'viewer');
    const before = await pullAll(member, harness.database);
    expect(before.items.map((i) => i.id)).not.toContain(campaign.id);

    await share(owner, campaign, 'viewer', member);
    const after = await pullAll(member, harness.database, before.cursor);
    const got = new Map(after.items.map((i) => [i.id, i]));
    expect([...got.keys()].sort()).toEqual([campaign.id, task.id, todo.id].sort());
    expect((got.get(todo.id) as Item).my_role).toBe('viewer');

    // A role change is a new grant: the tree comes again with the new role.
    const patched = await owner.patch(`/api/campaigns/${campaign.id}/members/${member.user!.id}`, {
      role: 'editor',
    });
    expect(patched.status).toBe(200);
    const promoted = await pullAll(member, harness.database, after.cursor);
    expect(promoted.items.map((i) => (i as Item).my_role)).toEqual(['editor', 'editor', 'editor']);
    // And a bootstrap carries the tree too.
    const fresh = await pullAll(member, harness.database);
    expect(fresh.items.filter((i) => !isTombstone(i)).map((i) => i.id)).toEqual(
      expect.arrayContaining([campaign.id, task.id, todo.id]),
    );
  });

  it('M3: a member may leave but not remove another; the owner can be neither removed nor demoted', async () => {
    const owner = await signedIn(harness.app, 'Olive');
    const a = await signedIn(harness.app, 'Ann');
    const b = await signedIn(harness.app, 'Ben');
    const { campaign } = await sharedCampaign(owner, 'editor', a, b);
    const url = `/api/campaigns/${campaign.id}/members`;
    expect((await a.delete(`${url}/${b.user!.id}`)).status).toBe(403);
    expect((await a.patch(`${url}/${b.user!.id}`, { role: 'viewer' })).status).toBe(403);
    const removeOwner = await a.delete(`${url}/${owner.user!.id}`);
    expect(removeOwner.status).toBe(403);
    expect((removeOwner.body as { message: string }).message).toBe(OWNER_STAYS_MESSAGE);
    expect((await owner.delete(`${url}/${owner.user!.id}`)).status).toBe(403);
    expect((await owner.patch(`${url}/${owner.user!.id}`, { role: 'viewer' })).status).toBe(403);
    expect((await owner.patch(`${url}/${99_999}`, { role: 'viewer' })).status).toBe(404);

    expect((await a.delete(`${url}/${a.user!.id}`)).status).toBe(204);
    expect((await a.get(url)).status).toBe(404);
    const left = await owner.get<{ members: MemberJson[] }>(url);
    expect(left.body.members.map((m) => m.user.name)).toEqual(['Olive', 'Ben']);
    expect((await owner.item(campaign.id)).members_count).toBe(2);
  });

  it('M4: removal sends bare tombstones for the whole tree, the member’s own items too, and their writes are 404', async () => {
    const owner = await signedIn(harness.app, 'Olive');
    const member = await signedIn(harness.app, 'Mia');
    const { campaign, task, todo } = await sharedCampaign(owner, 'editor', member);
    const mine = await member.create({ title: 'My part', type: 'todo', parent_id: task.id });
    const first = await pullAll(member, harness.database);
    expect(first.items.map((i) => i.id)).toEqual(
      expect.arrayContaining([campaign.id, task.id, todo.id, mine.id]),
    );

    expect((await owner.delete(`/api/campaigns/${campaign.id}/members/${member.user!.id}`)).status).toBe(204);
    const page = await member.get<SyncPage>(`/api/sync?cursor=${encodeURIComponent(first.cursor)}`);
    const after = await pullAll(member, harness.database, first.cursor);
    const gone = new Map(after.items.map((i) => [i.id, i]));
    for (const id of [campaign.id, task.id, todo.id, mine.id]) {
      expect(Object.keys(gone.get(id) ?? {}).sort(), `item ${id}`).toEqual(['deleted_at', 'id', 'uuid']);
    }
    expect(page.text).not.toContain('Book the hut');
    expect((await member.get(`/api/items/${mine.id}`)).status).toBe(404);
    expect((await member.patch(`/api/items/${mine.id}`, { title: 'Still mine?' })).status).toBe(404);
    expect((await member.delete(`/api/items/${task.id}`)).status).toBe(404);
    // Their item stays in the campaign for the owner.
    expect((await owner.item(mine.id)).parent_id).toBe(task.id);

    // Added back, everything returns.
    await share(owner, campaign, 'viewer', member);
    const back = await pullAll(member, harness.database, after.cursor);
    expect(back.items.filter((i) => !isTombstone(i)).map((i) => i.id)).toEqual(
      expect.arrayContaining([campaign.id, task.id, todo.id, mine.id]),
    );
  });

  it('M6: a change inside a shared campaign reaches every member’s event stream', async () => {
    const owner = await signedIn(harness.app, 'Olive');
    const a = await signedIn(harness.app, 'Ann');
    const b = await signedIn(harness.app, 'Ben');
    const { task } = await sharedCampaign(owner, 'viewer', a, b);
    const heard: number[] = [];
    const stops = [a, b].map((m) => harness.app.changes.subscribe(m.user!.id, () => heard.push(m.user!.id)));
    try {
      await owner.update(task.id, { title: 'Book the hut (paid)' });
      for (let i = 0; i < 100 && new Set(heard).size < 2; i++) await new Promise((r) => setTimeout(r, 20));
      expect(new Set(heard)).toEqual(new Set([a.user!.id, b.user!.id]));
    } finally {
      for (const stop of stops) stop();
    }
  });

  it('M3: membership changes are in the campaign’s activity with names, and notify the member with the role', async () => {
    const owner = await signedIn(harness.app, 'Olive');
    const member = await signedIn(harness.app, 'Mia');
    const { campaign } = await sharedCampaign(owner, 'editor', member);
    const url = `/api/campaigns/${campaign.id}/members/${member.user!.id}`;
    await owner.patch(url, { role: 'viewer' });
    await owner.delete(url);
    const feed = await owner.get<{ data: { action: string; description: string }[] }>(
      `/api/campaigns/${campaign.id}/activity`,
    );
    const entries = feed.body.data.filter(
      (e) => e.action.startsWith('member') || e.action === 'role_changed',
    );
    expect(entries.map((e) => [e.action, e.description])).toEqual([
      ['member_removed', 'Olive removed Mia from campaign "Shared trip"'],
      ['role_changed', 'Olive made Mia a viewer of campaign "Shared trip"'],
      ['member_added', 'Olive added Mia to campaign "Shared trip" as editor'],
    ]);
    const inbox = await member.get<NotificationPage>('/api/notifications');
    expect(inbox.body.data.map((n) => [n.kind, n.text])).toEqual([
      ['removed', 'Olive removed you from campaign “Shared trip” (you were a viewer)'],
      // Issue 50: a new role is news to the member too.
      ['role_changed', 'Olive made you a viewer of campaign “Shared trip”'],
      ['added', 'Olive added you to campaign “Shared trip” as editor'],
    ]);
    // The campaign's timeline says whom, in words, never the metadata.
    const history = await owner.get<{ data: { action: string; summary?: string; changes: object }[] }>(
      `/api/items/${campaign.id}/history`,
    );
    expect(
      history.body.data
        .filter((e) => e.action.startsWith('member') || e.action === 'role_changed')
        .map((e) => [e.action, e.summary, e.changes]),
    ).toEqual([
      ['member_removed', 'removed Mia', {}],
      ['role_changed', 'made Mia a viewer', {}],
      ['member_added', 'added Mia as an editor', {}],
    ]);
  });
});
