import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, testEngines } from '../../../testkit/server';
import { sharedCampaign } from '../../../testkit/sharing';
import { pullAll, signedIn, TestClient } from '../../../testkit/testClient';
import { type Item, isTombstone, type UserSummary } from '../../shared/item';
import { NAME_MAX, PLACEHOLDER_NAME } from '../../shared/profile';

describe.each(testEngines())('display names (%s)', (engine) => {
  let harness: Awaited<ReturnType<typeof createTestApp>>;
  beforeAll(async () => {
    harness = await createTestApp(engine);
  });
  afterAll(() => harness.close());

  const signIn = async (client: TestClient, phone: string, name: string) => {
    await client.csrf();
    const answer = await client.post<{ user: UserSummary }>('/api/login', { phone, name, code: '123456' });
    expect(answer.status, answer.text).toBe(200);
    return answer.body.user;
  };

  it('N12: a later sign-in with a name replaces the placeholder, never a name the person chose', async () => {
    const phone = '+12025550171';
    expect((await signIn(new TestClient(harness.app), phone, PLACEHOLDER_NAME)).name).toBe(PLACEHOLDER_NAME);
    expect((await signIn(new TestClient(harness.app), phone, 'Ada Real')).name).toBe('Ada Real');
    expect((await signIn(new TestClient(harness.app), phone, 'Somebody Else')).name).toBe('Ada Real');
    expect((await signIn(new TestClient(harness.app), phone, PLACEHOLDER_NAME)).name).toBe('Ada Real');
  });

  it('N13: PATCH /api/me renames the person; /api/me and the members list say so at once', async () => {
    const owner = await signedIn(harness.app, PLACEHOLDER_NAME);
    const renamed = await owner.patch<{ user: UserSummary }>('/api/me', { name: '  Olive Oak  ' });
    expect(renamed.status, renamed.text).toBe(200);
    expect(renamed.body.user.name).toBe('Olive Oak');
    expect((await owner.get<{ user: UserSummary }>('/api/me')).body.user.name).toBe('Olive Oak');
  });

  it('N13: bad names are a 422 naming the field, and nobody unsigned may rename', async () => {
    const person = await signedIn(harness.app, 'Kept Name');
    for (const body of [
      {},
      { name: '' },
      { name: '   ' },
      { name: 'x'.repeat(NAME_MAX + 1) },
      { name: 'Bad\u0007Bell' },
      { name: 'Evil\u202Eeman' },
      { name: 42 },
      { name: null },
      { name: 'Ok', extra: 1 },
    ]) {
      const answer = await person.patch<{ errors?: Record<string, string[]> }>('/api/me', body);
      expect(answer.status, JSON.stringify(body)).toBe(422);
      expect(answer.text).toMatch(/name|extra|unrecognized/i);
    }
    expect((await person.patch('/api/me', { name: 'x'.repeat(NAME_MAX) })).status).toBe(200);
    const anyone = new TestClient(harness.app);
    await anyone.csrf();
    const refused = await anyone.patch('/api/me', { name: 'Nobody' });
    expect(refused.status).toBeGreaterThanOrEqual(400);
    expect(refused.status).toBeLessThan(500);
  });

  it('N14: a colleague pulls the items and members list with the new name after a rename', async () => {
    const owner = await signedIn(harness.app, PLACEHOLDER_NAME);
    const member = await signedIn(harness.app, 'Mo Member');
    const { campaign, task } = await sharedCampaign(owner, 'editor', member);
    await owner.post(`/api/items/${task.id}/assign`, { user_id: owner.user!.id });
    const first = await pullAll(member, harness.app.database);
    expect((await owner.patch('/api/me', { name: 'Olga Owner' })).status).toBe(200);
    const after = await pullAll(member, harness.app.database, first.cursor);
    const pulled = new Map(after.items.filter((i) => !isTombstone(i)).map((i) => [i.id, i as Item]));
    expect(pulled.get(campaign.id)?.user.name).toBe('Olga Owner');
    expect(pulled.get(task.id)?.assignedUser?.name).toBe('Olga Owner');
    const members = await member.get<{ members: { user: { name: string } }[] }>(
      `/api/campaigns/${campaign.id}/members`,
    );
    expect(members.body.members[0]?.user.name).toBe('Olga Owner');
  });
});
