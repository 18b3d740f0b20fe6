import { expect } from 'vitest';
import type { Item } from '../src/shared/item';
import type { MemberRole } from '../src/shared/membership';
import { makeMutual, type TestClient } from './testClient';

/** Makes `members` mutual contacts of `owner` and adds each to the campaign with `role`. */
export async function share(
  owner: TestClient,
  campaign: Pick<Item, 'id'>,
  role: MemberRole,
  ...members: TestClient[]
): Promise<void> {
  for (const member of members) {
    await makeMutual(owner, member);
    const added = await owner.post(`/api/campaigns/${campaign.id}/members`, {
      user_id: member.user!.id,
      role,
    });
    expect(added.status, added.text).toBe(201);
  }
}

/** A shared campaign with a task and a todo by the owner, and the clients it was shared with. */
export async function sharedCampaign(
  owner: TestClient,
  role: MemberRole,
  ...members: TestClient[]
): Promise<{ campaign: Item; task: Item; todo: Item }> {
  const campaign = await owner.create({ title: 'Shared trip', type: 'campaign' });
  const task = await owner.create({ title: 'Book the hut', type: 'task', parent_id: campaign.id });
  const todo = await owner.create({ title: 'Call the warden', type: 'todo', parent_id: task.id });
  await share(owner, campaign, role, ...members);
  return { campaign, task, todo };
}
