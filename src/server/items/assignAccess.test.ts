import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, testEngines } from '../../../testkit/server';
import { sharedCampaign } from '../../../testkit/sharing';
import { makeMutual, signedIn } from '../../../testkit/testClient';
import type { NotificationPage } from '../../shared/notifications';
import { assigneeCannotSee, assigneeNotMember } from './service';

describe.each(testEngines())('assigning only to people who see the item (%s)', (engine) => {
  let harness: Awaited<ReturnType<typeof createTestApp>>;
  beforeAll(async () => {
    harness = await createTestApp(engine);
  });
  afterAll(() => harness.close());

  it('M14: the owner cannot assign to a removed member (422 naming why), who is told nothing', async () => {
    const owner = await signedIn(harness.app, 'Olga');
    const bob = await signedIn(harness.app, 'Bob Gone');
    const { campaign, task, todo } = await sharedCampaign(owner, 'editor', bob);
    expect((await owner.delete(`/api/campaigns/${campaign.id}/members/${bob.user!.id}`)).status).toBe(204);
    const before = (await bob.get<NotificationPage>('/api/notifications')).body.data.length;

    const viaAssign = await owner.post(`/api/items/${task.id}/assign`, { user_id: bob.user!.id });
    expect(viaAssign.status).toBe(422);
    expect(viaAssign.text).toContain(assigneeCannotSee('Bob Gone'));
    const current = await owner.item(todo.id);
    const viaPatch = await owner.patch(
      `/api/items/${todo.id}`,
      { assigned_to: bob.user!.id },
      { 'If-Match': String(current.version) },
    );
    expect(viaPatch.status).toBe(422);
    const viaCreate = await owner.post('/api/items', {
      title: 'New job',
      type: 'task',
      parent_id: campaign.id,
      assigned_to: bob.user!.id,
    });
    expect(viaCreate.status).toBe(422);
    expect(viaCreate.text).toContain('no longer a member');

    expect((await owner.item(task.id)).assigned_to).toBeNull();
    expect((await bob.get<NotificationPage>('/api/notifications')).body.data.length).toBe(before);
    // Still a mutual contact: work outside the campaign may be given to them as before.
    const own = await owner.create({ title: 'Outside', type: 'task' });
    expect((await owner.post(`/api/items/${own.id}/assign`, { user_id: bob.user!.id })).status).toBe(200);
  });

  it('M15: the members list names who left until they are added back, who can then be assigned again', async () => {
    const owner = await signedIn(harness.app, 'Oona');
    const bea = await signedIn(harness.app, 'Bea Back');
    const { campaign, task } = await sharedCampaign(owner, 'editor', bea);
    await owner.delete(`/api/campaigns/${campaign.id}/members/${bea.user!.id}`);
    const roster = await owner.get<{ departed: number[] }>(`/api/campaigns/${campaign.id}/members`);
    expect(roster.body.departed).toEqual([bea.user!.id]);
    const readd = await owner.post(`/api/campaigns/${campaign.id}/members`, {
      user_id: bea.user!.id,
      role: 'viewer',
    });
    expect(readd.status).toBe(201);
    expect((await owner.post(`/api/items/${task.id}/assign`, { user_id: bea.user!.id })).status).toBe(200);
    expect(
      (await owner.get<{ departed: number[] }>(`/api/campaigns/${campaign.id}/members`)).body.departed,
    ).toEqual([]);
  });

  it('M16: inside a shared campaign only its members are accepted: no sample user, no mutual contact outside it', async () => {
    const owner = await signedIn(harness.app, 'Orla');
    const mel = await signedIn(harness.app, 'Mel Member');
    const cal = await signedIn(harness.app, 'Cal Contact');
    const { campaign, task, todo } = await sharedCampaign(owner, 'editor', mel);
    await makeMutual(owner, cal);
    const before = (await cal.get<NotificationPage>('/api/notifications')).body.data.length;

    for (const [who, name] of [
      [2, 'Sam Rivera'],
      [cal.user!.id, 'Cal Contact'],
    ] as const) {
      const viaAssign = await owner.post(`/api/items/${task.id}/assign`, { user_id: who });
      expect(viaAssign.status, viaAssign.text).toBe(422);
      expect(viaAssign.body).toMatchObject({ errors: { assigned_to: [assigneeNotMember(name)] } });
      const current = await owner.item(todo.id);
      const viaPatch = await owner.patch(
        `/api/items/${todo.id}`,
        { assigned_to: who },
        { 'If-Match': String(current.version) },
      );
      expect(viaPatch.status, viaPatch.text).toBe(422);
      const viaCreate = await owner.post('/api/items', {
        title: 'New job',
        type: 'task',
        parent_id: campaign.id,
        assigned_to: who,
      });
      expect(viaCreate.status, viaCreate.text).toBe(422);
      // An editor is held to the same rule, and so is a batch (the sync queue's and import's path).
      const viaBatch = await mel.post('/api/items/batch', {
        items: [{ title: 'Batch job', type: 'todo', parent_id: task.id, assigned_to: who }],
      });
      expect(viaBatch.status, viaBatch.text).toBe(422);
    }
    expect((await owner.item(task.id)).assigned_to).toBeNull();
    expect((await owner.item(todo.id)).assigned_to).toBeNull();
    expect((await cal.get<NotificationPage>('/api/notifications')).body.data.length).toBe(before);

    // Its members are: the member by the owner, the owner by the member, each themself.
    expect((await owner.post(`/api/items/${task.id}/assign`, { user_id: mel.user!.id })).status).toBe(200);
    expect((await mel.post(`/api/items/${todo.id}/assign`, { user_id: owner.user!.id })).status).toBe(200);
    expect((await mel.post(`/api/items/${todo.id}/assign`, { user_id: mel.user!.id })).status).toBe(200);
  });

  it('M16: outside a shared campaign sample users and mutual contacts are accepted as before', async () => {
    const owner = await signedIn(harness.app, 'Opal');
    const cal = await signedIn(harness.app, 'Cal Outside');
    await makeMutual(owner, cal);
    const alone = await owner.create({ title: 'Only mine', type: 'campaign' });
    const task = await owner.create({ title: 'Paint', type: 'task', parent_id: alone.id });
    const loose = await owner.create({ title: 'Loose', type: 'task' });
    for (const item of [task, loose, alone]) {
      expect((await owner.post(`/api/items/${item.id}/assign`, { user_id: 3 })).status).toBe(200);
      expect((await owner.post(`/api/items/${item.id}/assign`, { user_id: cal.user!.id })).status).toBe(200);
    }
  });
});
