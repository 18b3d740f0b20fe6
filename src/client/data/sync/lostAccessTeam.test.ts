import { describe, expect, it } from 'vitest';
import { testDevices } from '../../../../testkit/client/devices';
import { type Device, settled, signIn } from '../../../../testkit/client/harness';
import { freshPhone } from '../../../../testkit/client/server';
import { lostItemOf, rejectedChanges } from '../store/keptChanges';

/**
 * Losing a shared campaign with changes still queued, between real people on a real server (SYNC.md
 * Q12, Q20–Q22): the owner removes a member who wrote offline.
 */
const { device } = testDevices();

async function team(role: 'editor' | 'viewer') {
  const owner = device();
  const member = device();
  const phones = { owner: freshPhone(), member: freshPhone() };
  await signIn(owner, phones.owner, 'Alice');
  await signIn(member, phones.member, 'Bob');
  await owner.client.api.post('/contacts/sync', { contacts: [phones.member] });
  await member.client.api.post('/contacts/sync', { contacts: [phones.owner] });
  const created = await owner.client.items.create({ title: 'Spring fair', type: 'campaign' });
  const task = await owner.client.items.create({
    title: 'Book the hall',
    type: 'task',
    parent_id: created.id,
  });
  await settled(owner);
  const idOf = async (d: Device, uuid: string | null) =>
    (
      await d.client.db.items
        .where('uuid')
        .equals(uuid ?? '')
        .first()
    )?.id ?? 0;
  const campaignId = await idOf(owner, created.uuid);
  const taskId = await idOf(owner, task.uuid);
  const memberId = member.client.auth.getState().user.id;
  await owner.client.api.post(`/campaigns/${campaignId}/members`, { user_id: memberId, role });
  await member.client.engine.sync();
  expect(await member.client.db.items.get(taskId)).toBeDefined();
  const remove = () => owner.client.api.delete(`/campaigns/${campaignId}/members/${memberId}`);
  return { owner, member, campaignId, taskId, remove };
}

describe('Q20: every refused write of a lost campaign is kept, comments included', () => {
  it('Q20: a removed editor’s offline comment is kept for export beside the item’s edit, and the toast says so', async () => {
    const { member, taskId, remove } = await team('editor');
    member.goOffline();
    await member.client.send('comments.add', {
      itemId: taskId,
      body: 'The hall is free on Friday',
      mentions: [],
    });
    await member.client.items.update(taskId, { title: 'Book the big hall' });
    await remove();
    member.goOnline();
    await member.client.engine.sync();

    const kept = await rejectedChanges(member.client.db);
    expect(kept.map((k) => k.kind).sort()).toEqual(['comment_create', 'update']);
    expect(kept.find((k) => k.kind === 'comment_create')?.data).toMatchObject({
      body: 'The hall is free on Friday',
    });
    expect(await member.client.db.syncQueue.count()).toBe(0);
    expect(await member.client.db.items.get(taskId)).toBeUndefined();
    const titles = member.client.toasts.getState().queue.map((t) => t.title);
    expect(titles).toContain('2 changes could not be applied: you no longer have access');
    expect(titles).not.toContain('Comment not sent');
  });

  it('Q20: a removed viewer whose only change is a comment gets the export too', async () => {
    const { member, taskId, remove } = await team('viewer');
    member.goOffline();
    await member.client.send('comments.add', { itemId: taskId, body: 'Count me in', mentions: [] });
    await remove();
    member.goOnline();
    await member.client.engine.sync();

    const kept = await rejectedChanges(member.client.db);
    expect(kept.map((k) => k.kind)).toEqual(['comment_create']);
    const toast = member.client.toasts
      .getState()
      .queue.find((t) => t.title === '1 change could not be applied: you no longer have access');
    expect(toast?.action?.label).toBe('Export them');
  });
});

describe('Q21: each refusal names its cause', () => {
  it('Q21: an editor’s offline edit of an item the owner deleted is the delete conflict, never “no longer have access”', async () => {
    const { owner, member, taskId } = await team('editor');
    member.goOffline();
    await member.client.items.update(taskId, { title: 'Book the small hall' });
    expect((await owner.client.api.delete(`/items/${taskId}`)).status).toBe(204);
    member.goOnline();
    await member.client.engine.sync();

    expect((await member.client.engine.listConflicts()).map((c) => c.type)).toEqual(['delete']);
    expect(await rejectedChanges(member.client.db)).toEqual([]);
    const titles = member.client.toasts.getState().queue.map((t) => t.title);
    expect(titles.some((t) => t.includes('could not be applied'))).toBe(false);
  });

  it('Q22: a removal is kept with the campaign the device saw and who removed the member, and the toast says so', async () => {
    const { member, taskId, campaignId, remove } = await team('editor');
    member.goOffline();
    await member.client.items.update(taskId, { title: 'Book the big hall' });
    await remove();
    member.goOnline();
    await member.client.engine.sync();

    const [kept] = await rejectedChanges(member.client.db);
    expect(kept).toMatchObject({
      cause: 'removed',
      campaign: { id: campaignId, title: 'Spring fair', removed: true, by: 'Alice' },
    });
    const toast = member.client.toasts
      .getState()
      .queue.find((t) => t.title === '1 change could not be applied: you no longer have access');
    expect(toast?.description).toContain('You were removed from “Spring fair” by Alice');
  });
});

describe('Q24: what left with a lost campaign is remembered for its page', () => {
  it('Q24: a removal pulled with nothing queued remembers the campaign each item left with, and the server says who removed them', async () => {
    const { member, taskId, campaignId, remove } = await team('viewer');
    await remove();
    await member.client.engine.sync();

    expect(await member.client.db.items.get(taskId)).toBeUndefined();
    expect(await lostItemOf(member.client.db, taskId)).toEqual({ campaignId, title: 'Spring fair' });
    expect(await lostItemOf(member.client.db, campaignId)).toEqual({ campaignId, title: 'Spring fair' });
    expect(await member.client.send('sharing.departure', campaignId)).toMatchObject({
      campaign_id: campaignId,
      removed: true,
      by: 'Alice',
    });
  });
});
