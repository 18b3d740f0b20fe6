import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, testEngines } from '../../../testkit/server';
import { sharedCampaign } from '../../../testkit/sharing';
import { signedIn, type TestClient } from '../../../testkit/testClient';
import type { Item } from '../../shared/item';
import { VIEWER_READ_ONLY_MESSAGE } from '../../shared/membership';
import { sql } from '../db/client';
import { DELETE_FORBIDDEN } from '../items/service';

const message = (r: { body: unknown }) => (r.body as { message?: string }).message;

describe.each(testEngines())('roles on every write path on %s', (engine) => {
  let harness: Awaited<ReturnType<typeof createTestApp>>;
  beforeAll(async () => {
    harness = await createTestApp(engine);
  });
  afterAll(() => harness.close());

  /** Expects a viewer's refusal, and that the item is as it was. */
  async function refused(owner: TestClient, item: Item, response: { status: number; body: unknown }) {
    expect(response.status).toBe(403);
    expect(message(response)).toBe(VIEWER_READ_ONLY_MESSAGE);
    const now = await owner.item(item.id);
    expect(now.version).toBe(item.version);
  }

  it('M5: a viewer’s edit, status, assign, delete, create under, batch and restore are 403 and change nothing', async () => {
    const owner = await signedIn(harness.app, 'Olive');
    const viewer = await signedIn(harness.app, 'Vera');
    const { campaign, task, todo } = await sharedCampaign(owner, 'viewer', viewer);
    await refused(owner, task, await viewer.patch(`/api/items/${task.id}`, { title: 'Mine now' }));
    await refused(owner, task, await viewer.patch(`/api/items/${task.id}`, { status: 'completed' }));
    await refused(
      owner,
      task,
      await viewer.post(`/api/items/${task.id}/assign`, { user_id: viewer.user!.id }),
    );
    await refused(owner, todo, await viewer.delete(`/api/items/${todo.id}`));
    await refused(
      owner,
      campaign,
      await viewer.post('/api/items', { title: 'Sneaked in', type: 'task', parent_id: campaign.id }),
    );
    const batch = await viewer.post('/api/items/batch', {
      items: [{ uuid: crypto.randomUUID(), title: 'Imported', type: 'todo', parent_id: task.id }],
    });
    await refused(owner, task, batch);
    expect((await owner.item(task.id)).children_count).toBe(1);

    // A restore (an undone delete) is refused too, even of what the viewer once made as an editor.
    expect((await owner.delete(`/api/items/${todo.id}`)).status).toBe(204);
    const restore = await viewer.post(`/api/items/${todo.id}/restore`);
    expect(restore.status).toBe(404);
    const own = await owner.create({ title: 'Viewer’s old note', type: 'todo', parent_id: campaign.id });
    await harness.database.db.execute(
      // As if the viewer had made it while an editor.
      sql`UPDATE items SET user_id = ${viewer.user!.id} WHERE id = ${own.id}`,
    );
    expect((await owner.delete(`/api/items/${own.id}`)).status).toBe(204);
    const back = await viewer.post(`/api/items/${own.id}/restore`);
    expect(back.status).toBe(403);
    expect(message(back)).toBe(VIEWER_READ_ONLY_MESSAGE);
  });

  it('M5: a viewer moves nothing into the campaign and nothing out of it', async () => {
    const owner = await signedIn(harness.app, 'Olive');
    const viewer = await signedIn(harness.app, 'Vera');
    const { campaign, task } = await sharedCampaign(owner, 'viewer', viewer);
    const mine = await viewer.create({ title: 'My own task', type: 'task' });
    const into = await viewer.patch(`/api/items/${mine.id}`, { parent_id: campaign.id });
    expect(into.status).toBe(403);
    expect((await viewer.item(mine.id)).parent_id).toBeNull();
    await refused(owner, task, await viewer.patch(`/api/items/${task.id}`, { parent_id: null }));
  });

  it('M5: an editor edits, assigns to a member who is no contact of theirs, and deletes only what they made', async () => {
    const owner = await signedIn(harness.app, 'Olive');
    const editor = await signedIn(harness.app, 'Eddie');
    const other = await signedIn(harness.app, 'Otto');
    const { campaign, task } = await sharedCampaign(owner, 'editor', editor, other);
    expect((await editor.update(task.id, { title: 'Book the hut by Friday' })).title).toBe(
      'Book the hut by Friday',
    );
    const assigned = await editor.post<Item>(`/api/items/${task.id}/assign`, { user_id: other.user!.id });
    expect(assigned.status, assigned.text).toBe(200);
    expect(assigned.body.assigned_to).toBe(other.user!.id);
    const toOwner = await editor.post<Item>(`/api/items/${task.id}/assign`, { user_id: owner.user!.id });
    expect(toOwner.status).toBe(200);
    // A stranger is still refused, as anywhere.
    const stranger = await signedIn(harness.app, 'Stranger');
    expect((await editor.post(`/api/items/${task.id}/assign`, { user_id: stranger.user!.id })).status).toBe(
      422,
    );

    const theirs = await editor.create({ title: 'Pack the stove', type: 'task', parent_id: campaign.id });
    expect(theirs.my_role).toBe('editor');
    const refused = await editor.delete<{ message: string }>(`/api/items/${task.id}`);
    expect(refused.status).toBe(403);
    // The refusal names its cause (issue 50): not an access problem, a delete of another's item.
    expect(refused.body.message).toBe(DELETE_FORBIDDEN);
    expect((await editor.delete(`/api/items/${theirs.id}`)).status).toBe(204);
    expect((await editor.post(`/api/items/${theirs.id}/restore`)).status).toBe(200);
    // The owner deletes anything in the campaign.
    expect((await owner.delete(`/api/items/${theirs.id}`)).status).toBe(204);
  });

  it('M5: a move out of a shared campaign never carries other people’s items out of it', async () => {
    const owner = await signedIn(harness.app, 'Olive');
    const editor = await signedIn(harness.app, 'Eddie');
    const { campaign } = await sharedCampaign(owner, 'editor', editor);
    const theirs = await editor.create({ title: 'Editor’s task', type: 'task', parent_id: campaign.id });
    const ownersTodo = await owner.create({ title: 'Owner’s todo', type: 'todo', parent_id: theirs.id });
    const out = await editor.patch(`/api/items/${theirs.id}`, { parent_id: null });
    expect(out.status).toBe(422);
    expect((await owner.item(ownersTodo.id)).parent_id).toBe(theirs.id);
    expect((await owner.item(theirs.id)).parent_id).toBe(campaign.id);
    // Once the owner's todo sits elsewhere in the campaign, the editor's own task may leave.
    expect((await owner.patch(`/api/items/${ownersTodo.id}`, { parent_id: campaign.id })).status).toBe(200);
    const moved = await editor.patch<Item>(`/api/items/${theirs.id}`, { parent_id: null });
    expect(moved.status, moved.text).toBe(200);
    expect(moved.body.my_role).toBeNull();
    // Another's item is the owner's to move out: the editor gets 403.
    const ownersTask = await owner.create({ title: 'Owner’s task', type: 'task', parent_id: campaign.id });
    expect((await editor.patch(`/api/items/${ownersTask.id}`, { parent_id: null })).status).toBe(403);
  });

  it('M4, M5: a removed member’s edit, delete, assign, restore and create under get 404 or 422 and change nothing', async () => {
    const owner = await signedIn(harness.app, 'Olive');
    const editor = await signedIn(harness.app, 'Eddie');
    const { campaign, task } = await sharedCampaign(owner, 'editor', editor);
    const theirs = await editor.create({ title: 'Editor’s note', type: 'todo', parent_id: task.id });
    expect((await editor.delete(`/api/items/${theirs.id}`)).status).toBe(204);
    expect((await owner.delete(`/api/campaigns/${campaign.id}/members/${editor.user!.id}`)).status).toBe(204);
    expect((await editor.patch(`/api/items/${task.id}`, { title: 'x' })).status).toBe(404);
    expect((await editor.post(`/api/items/${task.id}/assign`, { user_id: 0 })).status).toBe(404);
    expect((await editor.delete(`/api/items/${task.id}`)).status).toBe(404);
    expect((await editor.post(`/api/items/${theirs.id}/restore`)).status).toBe(404);
    const create = await editor.post('/api/items', { title: 'Late', type: 'todo', parent_id: task.id });
    expect(create.status).toBe(422);
    const after = await owner.item(task.id);
    expect([after.title, after.version, after.children_count]).toEqual([task.title, task.version, 1]);
  });
});
