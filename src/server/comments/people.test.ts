import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, testEngines } from '../../../testkit/server';
import { share } from '../../../testkit/sharing';
import { makeMutual, signedIn, type TestClient } from '../../../testkit/testClient';

const picker = async (reader: TestClient, itemId: number) => {
  const answer = await reader.get<{ people: { id: number; name: string }[] }>(`/api/items/${itemId}/people`);
  expect(answer.status, answer.text).toBe(200);
  return answer.body.people.map((p) => p.name);
};

describe.each(testEngines())('the @ picker on %s', (engine) => {
  let harness: Awaited<ReturnType<typeof createTestApp>>;
  beforeAll(async () => {
    harness = await createTestApp(engine);
  });
  afterAll(() => harness.close());

  /** Olive's campaign shared with Mia as a viewer, and a task in it assigned to Xena, Olive's contact. */
  const outsideAssigneeOfSharedTask = async () => {
    const olive = await signedIn(harness.app, 'Olive');
    const mia = await signedIn(harness.app, 'Mia');
    const xena = await signedIn(harness.app, 'Xena');
    const campaign = await olive.create({ title: 'Trip', type: 'campaign' });
    await makeMutual(olive, xena);
    // Given to Xena before the campaign was shared: once it is, only its members may be (M16).
    const task = await olive.create({
      title: 'Book',
      type: 'task',
      parent_id: campaign.id,
      assigned_to: xena.user!.id,
    });
    await share(olive, campaign, 'viewer', mia);
    return { olive, mia, xena, task };
  };

  it('M12: names only people the reader already knows: not the assignee of a parent they do not see', async () => {
    const alex = await signedIn(harness.app, 'Alex');
    const blair = await signedIn(harness.app, 'Blair');
    const casey = await signedIn(harness.app, 'Casey');
    await makeMutual(alex, blair);
    await makeMutual(alex, casey);
    const task = await alex.create({ title: 'Venue', type: 'task', assigned_to: blair.user!.id });
    const todo = await alex.create({
      title: 'Call them',
      type: 'todo',
      parent_id: task.id,
      assigned_to: casey.user!.id,
    });
    // Blair sees the todo through the task she is assigned; Casey sees the todo alone.
    expect(await picker(alex, todo.id)).toEqual(['Alex', 'Blair', 'Casey']);
    expect(await picker(blair, todo.id)).toEqual(['Alex', 'Blair', 'Casey']);
    expect(await picker(casey, todo.id)).toEqual(['Alex', 'Casey']);
    // Once they are mutual contacts, Casey knows Blair.
    await makeMutual(blair, casey);
    expect(await picker(casey, todo.id)).toEqual(['Alex', 'Blair', 'Casey']);
  });

  it('M12: an outside assignee of a shared campaign’s task is not shown its members; a member is', async () => {
    const { olive, mia, xena, task } = await outsideAssigneeOfSharedTask();
    expect(await picker(olive, task.id)).toEqual(['Mia', 'Olive', 'Xena']);
    // Mia reads the campaign's member list, and sees Xena's name on the task.
    expect(await picker(mia, task.id)).toEqual(['Mia', 'Olive', 'Xena']);
    expect(await picker(xena, task.id)).toEqual(['Olive', 'Xena']);
  });

  it('M12: a mention of someone who sees the item but is not in the reader’s picker gets the one 422', async () => {
    const { olive, mia, xena, task } = await outsideAssigneeOfSharedTask();
    const nobody = await signedIn(harness.app, 'Ned');
    // Xena sees the task but does not know Mia, who sees it too, nor Ned, who does not: one answer.
    const seer = await xena.post(`/api/items/${task.id}/comments`, { body: 'Hi', mentions: [mia.user!.id] });
    const stranger = await xena.post(`/api/items/${task.id}/comments`, {
      body: 'Hi',
      mentions: [nobody.user!.id],
    });
    expect(seer.status).toBe(422);
    expect(seer.body).toEqual(stranger.body);
    // Someone in her picker is mentioned as before.
    expect(
      (await xena.post(`/api/items/${task.id}/comments`, { body: 'Hi', mentions: [olive.user!.id] })).status,
    ).toBe(201);
  });
});
