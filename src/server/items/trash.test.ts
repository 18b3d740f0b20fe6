import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, testEngines } from '../../../testkit/server';
import {
  makeMutual,
  pullAll,
  type RequestOptions,
  signedIn,
  writeDirectly,
} from '../../../testkit/testClient';
import { type ExportDocument, parseImport } from '../../shared/importExport';
import type { ActivityEntry, Item, Paginated } from '../../shared/item';
import type { TrashEntry } from '../../shared/trash';
import { sql } from '../db/client';
import { sweepExpired } from '../maintenance/sweep';
import { EXPORT_CHUNK_ROWS } from './trash';

describe.each(testEngines())('trash, restore and export (%s)', (engine) => {
  let harness: Awaited<ReturnType<typeof createTestApp>>;
  beforeAll(async () => {
    harness = await createTestApp(engine);
  });
  afterAll(() => harness?.close());

  const family = async () => {
    const owner = await signedIn(harness.app, 'Owner');
    const campaign = await owner.create({ title: 'Move house', type: 'campaign' });
    const task = await owner.create({ title: 'Pack', type: 'task', parent_id: campaign.id });
    const done = await owner.create({
      title: 'Books',
      type: 'todo',
      parent_id: task.id,
      status: 'completed',
    });
    const open = await owner.create({ title: 'Plates', type: 'todo', parent_id: task.id });
    return { owner, campaign, task, done, open };
  };

  it('gives an item created without a uuid one from the server', async () => {
    const c = await signedIn(harness.app);
    const item = await c.create({ title: 'no uuid', type: 'todo' });
    expect(item.uuid).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('restores the same item with the descendants its delete took along, and logs it', async () => {
    const { owner, campaign, task, done, open } = await family();
    // A todo deleted on its own earlier stays in the trash as its own entry.
    expect((await owner.delete(`/api/items/${open.id}`)).status).toBe(204);
    expect((await owner.delete(`/api/items/${task.id}`)).status).toBe(204);

    const trash = await owner.get<Paginated<TrashEntry>>('/api/trash');
    expect(trash.status).toBe(200);
    expect(trash.body.data.map((e) => e.id)).toEqual([task.id, open.id]);
    expect(trash.body.data[0]).toMatchObject({
      title: 'Pack',
      deleted_at: expect.any(String),
      deleted_by: { id: owner.user?.id, name: 'Owner' },
    });

    const restored = await owner.post<Item>(`/api/items/${task.id}/restore`);
    expect(restored.status, restored.text).toBe(200);
    expect(restored.body).toMatchObject({ id: task.id, uuid: task.uuid, deleted_at: null, title: 'Pack' });
    expect((await owner.item(done.id)).uuid).toBe(done.uuid);
    expect((await owner.get(`/api/items/${open.id}`)).status).toBe(404);
    // Restoring a live item changes nothing.
    const again = await owner.post<Item>(`/api/items/${task.id}/restore`);
    expect(again.status).toBe(200);
    expect(again.body.version).toBe(restored.body.version);

    const feed = await owner.get<Paginated<ActivityEntry>>(`/api/campaigns/${campaign.id}/activity`);
    expect(feed.body.data[0]).toMatchObject({ action: 'restored', item: { id: task.id } });
    expect((await owner.get<Paginated<TrashEntry>>('/api/trash')).body.data.map((e) => e.id)).toEqual([
      open.id,
    ]);
  });

  it('rolls the parent up again when a restored child changes it', async () => {
    const { owner, task, open } = await family();
    await owner.delete(`/api/items/${open.id}`);
    // Its only open child gone, the task rolled up to completed; the child back, it is in progress.
    expect((await owner.item(task.id)).status).toBe('completed');
    await owner.post(`/api/items/${open.id}/restore`);
    expect((await owner.item(task.id)).status).toBe('in_progress');
  });

  it('L6: sends the restored items to every viewer again after their tombstones', async () => {
    const { owner, campaign, task, done } = await family();
    const helper = await signedIn(harness.app, 'Helper');
    await makeMutual(owner, helper);
    await owner.post(`/api/items/${campaign.id}/assign`, { user_id: helper.user?.id });
    const before = await pullAll(helper, harness.database);
    expect(before.items.map((i) => i.id)).toContain(done.id);
    await owner.delete(`/api/items/${task.id}`);
    const gone = await pullAll(helper, harness.database, before.cursor);
    expect(gone.items.find((i) => i.id === done.id)).toEqual({
      id: done.id,
      uuid: done.uuid,
      deleted_at: expect.any(String),
    });
    await owner.post(`/api/items/${task.id}/restore`);
    for (const viewer of [owner, helper]) {
      const back = await pullAll(viewer, harness.database, gone.cursor);
      expect(back.items.find((i) => i.id === done.id)).toMatchObject({ uuid: done.uuid, deleted_at: null });
      expect(back.items.find((i) => i.id === task.id)).toMatchObject({ uuid: task.uuid, deleted_at: null });
    }
  });

  it('answers 404 to someone who cannot see the item and to a viewer who may not delete it, alike', async () => {
    const { owner, campaign, task } = await family();
    const stranger = await signedIn(harness.app, 'Stranger');
    await owner.delete(`/api/items/${task.id}`);
    const hidden = await stranger.post<{ message: string }>(`/api/items/${task.id}/restore`);
    expect(hidden.status).toBe(404);
    expect(hidden.body.message).toBe('Item not found.');
    expect((await stranger.post(`/api/items/999999999/restore`)).status).toBe(404);
    expect((await stranger.get<Paginated<TrashEntry>>('/api/trash')).body.data).toEqual([]);

    const helper = await signedIn(harness.app, 'Helper');
    await makeMutual(owner, helper);
    await owner.post(`/api/items/${campaign.id}/assign`, { user_id: helper.user?.id });
    const refused = await helper.post<{ message: string }>(`/api/items/${task.id}/restore`);
    expect(refused.status).toBe(404);
    expect(refused.body).toEqual(hidden.body);
  });

  it('asks for the parent first when it is in the trash too', async () => {
    const { owner, campaign, task } = await family();
    await owner.delete(`/api/items/${task.id}`);
    await owner.delete(`/api/items/${campaign.id}`);
    const refused = await owner.post<{ message: string }>(`/api/items/${task.id}/restore`);
    expect(refused.status).toBe(422);
    expect(refused.body.message).toMatch(/Move house.*restore that first/);
    expect((await owner.post(`/api/items/${campaign.id}/restore`)).status).toBe(200);
    expect((await owner.post(`/api/items/${task.id}/restore`)).status).toBe(200);
  });

  it("never carries another person's items away in a move out of a shared campaign (F5)", async () => {
    const alice = await signedIn(harness.app, 'Alice');
    const bob = await signedIn(harness.app, 'Bob');
    await makeMutual(alice, bob);
    const shared = await alice.create({ title: 'Shared', type: 'campaign' });
    await alice.post(`/api/items/${shared.id}/assign`, { user_id: bob.user?.id });
    const task = await bob.create({ title: 'Bob task', type: 'task', parent_id: shared.id });
    const mine = await alice.create({ title: 'Alice todo', type: 'todo', parent_id: task.id });
    const own = await bob.create({ title: 'BOB SECRET TITLE', type: 'campaign' });
    const move = await bob.patch<{ message: string }>(`/api/items/${task.id}`, { parent_id: own.id });
    expect(move.status).toBe(422);
    expect(move.body.message).toMatch(/other people/);
    // Nothing moved: Alice's todo is where she put it, under a task in her campaign.
    expect((await alice.item(task.id)).parent_id).toBe(shared.id);
    expect((await alice.item(mine.id)).parent_id).toBe(task.id);
    // Within the campaign it still moves, and with only Bob's own items it may leave.
    expect((await bob.patch(`/api/items/${task.id}`, { parent_id: null })).status).toBe(422);
    await alice.delete(`/api/items/${mine.id}`);
    // A deleted item of Alice's is still hers: it keeps the task in the campaign too.
    expect((await bob.patch(`/api/items/${task.id}`, { parent_id: own.id })).status).toBe(422);
    expect((await alice.post(`/api/items/${mine.id}/restore`)).status).toBe(200);
    const solo = await bob.create({ title: 'Bob only', type: 'task', parent_id: shared.id });
    const bobs = await bob.create({ title: 'Bob todo', type: 'todo', parent_id: solo.id });
    expect((await bob.patch(`/api/items/${solo.id}`, { parent_id: own.id })).status).toBe(200);
    // The mover's own items move with it, out of Alice's sight.
    expect(await bob.item(bobs.id)).toMatchObject({ parent_id: solo.id, deleted_at: null });
    expect((await bob.item(solo.id)).parent_id).toBe(own.id);
    expect((await alice.get(`/api/items/${bobs.id}`)).status).toBe(404);
    // Alice's todo stayed visible to her all along, and the refusal named none of Bob's items.
    expect((await alice.item(mine.id)).parent_id).toBe(task.id);
    expect(move.text).not.toMatch(/SECRET/);
  });

  /** Every answer `client` receives from here on, as text: for "no response names it" checks. */
  const recordAnswers = (client: Awaited<ReturnType<typeof signedIn>>): string[] => {
    const seen: string[] = [];
    const send = client.request.bind(client);
    client.request = async <T>(options: RequestOptions) => {
      const answer = await send<T>(options);
      seen.push(answer.text);
      return answer;
    };
    return seen;
  };

  it("lists a person's own item in their trash when someone else deletes the tree holding it, and restores it at the top level, naming nothing of the tree (F5, F6)", async () => {
    const alice = await signedIn(harness.app, 'Alice');
    const bob = await signedIn(harness.app, 'Bob');
    await makeMutual(alice, bob);
    const secret = await bob.create({ title: 'BOB SECRET TITLE', type: 'campaign' });
    const hidden = await bob.create({ title: 'BOB SECRET TASK', type: 'task', parent_id: secret.id });
    // Bob's task is assigned to Alice, so she adds a todo; then he takes it back and deletes his campaign.
    await bob.post(`/api/items/${hidden.id}/assign`, { user_id: alice.user?.id });
    const mine = await alice.create({ title: 'Alice todo', type: 'todo', parent_id: hidden.id });
    expect((await bob.post(`/api/items/${hidden.id}/assign`, { user_id: 0 })).status).toBe(200);
    // From here on she may see neither of Bob's items, and nothing she is answered names them.
    const heard = recordAnswers(alice);
    expect((await alice.get(`/api/items/${hidden.id}`)).status).toBe(404);
    expect((await bob.delete(`/api/items/${secret.id}`)).status).toBe(204);
    expect((await alice.get(`/api/items/${mine.id}`)).status).toBe(404);

    const trash = await alice.get<Paginated<TrashEntry>>('/api/trash');
    expect(trash.body.data.map((e) => e.id)).toEqual([mine.id]);
    expect(trash.body.data[0]).toMatchObject({ title: 'Alice todo', deleted_by: { name: 'Bob' } });
    const restored = await alice.post<Item>(`/api/items/${mine.id}/restore`);
    expect(restored.status, restored.text).toBe(200);
    // Its parent stays in Bob's trash, where she cannot reach it: it comes back where she sees it.
    expect(restored.body).toMatchObject({ id: mine.id, uuid: mine.uuid, parent_id: null, deleted_at: null });
    expect((await alice.item(mine.id)).parent).toBeNull();
    expect((await alice.get<Paginated<TrashEntry>>('/api/trash')).body.data).toEqual([]);
    await pullAll(alice, harness.database);
    await alice.get('/api/export');
    expect(heard.length).toBeGreaterThan(5);
    for (const text of heard) expect(text).not.toMatch(/SECRET/);

    // Bob's own trash and restore are as before, without her todo.
    expect((await bob.get<Paginated<TrashEntry>>('/api/trash')).body.data.map((e) => e.id)).toContain(
      secret.id,
    );
    expect((await bob.post(`/api/items/${secret.id}/restore`)).status).toBe(200);
    expect((await bob.item(hidden.id)).children_count).toBe(0);
    expect((await alice.item(mine.id)).parent_id).toBeNull();
  });

  it('restores a todo under the campaign its creator still sees when its task stays in the trash (F5)', async () => {
    const alice = await signedIn(harness.app, 'Alice');
    const bob = await signedIn(harness.app, 'Bob');
    const carol = await signedIn(harness.app, 'Carol');
    await makeMutual(alice, bob);
    await makeMutual(alice, carol);
    const shared = await alice.create({ title: 'Shared', type: 'campaign' });
    const task = await alice.create({ title: 'Alice task', type: 'task', parent_id: shared.id });
    await alice.post(`/api/items/${shared.id}/assign`, { user_id: carol.user?.id });
    const carols = await carol.create({ title: 'Carol todo', type: 'todo', parent_id: task.id });
    expect((await alice.delete(`/api/items/${task.id}`)).status).toBe(204);
    // Carol may not restore Alice's task: her own todo is listed, and comes back in the campaign.
    const listed = await carol.get<Paginated<TrashEntry>>('/api/trash');
    expect(listed.body.data.map((e) => e.id)).toEqual([carols.id, task.id]);
    expect((await carol.post(`/api/items/${task.id}/restore`)).status).toBe(404);
    const back = await carol.post<Item>(`/api/items/${carols.id}/restore`);
    expect(back.status, back.text).toBe(200);
    expect(back.body).toMatchObject({ parent_id: shared.id, deleted_at: null });
    // Alice, who may restore the task, sees only the task: its todos come back with it.
    expect((await alice.get<Paginated<TrashEntry>>('/api/trash')).body.data.map((e) => e.id)).toEqual([
      task.id,
    ]);
    expect((await alice.post(`/api/items/${task.id}/restore`)).status).toBe(200);
    expect((await alice.item(carols.id)).parent_id).toBe(shared.id);
  });

  it('keeps deleted items 30 days, then the sweeper purges them and they cannot come back', async () => {
    const { owner, task } = await family();
    await owner.delete(`/api/items/${task.id}`);
    await writeDirectly(harness.app, [], (tx) =>
      tx.execute(
        sql`UPDATE items SET deleted_at = deleted_at - interval '31 days' WHERE deleted_at IS NOT NULL AND user_id = ${owner.user?.id ?? 0}`,
      ),
    );
    expect((await owner.get<Paginated<TrashEntry>>('/api/trash')).body.data).toEqual([]);
    const result = await sweepExpired(harness.database.db, new Date());
    expect(result?.purgedItems).toBeGreaterThanOrEqual(3);
    const late = await owner.post<{ message: string }>(`/api/items/${task.id}/restore`);
    expect(late.status).toBe(404);
    expect(late.body.message).toMatch(/no longer in the trash/);
  });

  it('exports every live item the caller sees, with parent uuids, as a download', async () => {
    const { owner, campaign, task, done, open } = await family();
    await owner.delete(`/api/items/${open.id}`);
    const other = await signedIn(harness.app, 'Other');
    await other.create({ title: 'not mine', type: 'todo' });
    const res = await owner.get<ExportDocument>('/api/export');
    expect(res.status).toBe(200);
    expect(res.headers['content-disposition']).toMatch(
      /^attachment; filename="outpost-\d{4}-\d{2}-\d{2}\.json"$/,
    );
    expect(res.body).toMatchObject({ format: 'outpost', version: 1, user: { id: owner.user?.id } });
    expect(res.body.items.map((i) => i.uuid)).toEqual([campaign.uuid, task.uuid, done.uuid]);
    expect(res.body.items[2]).toMatchObject({ parent_uuid: task.uuid, status: 'completed', title: 'Books' });
  });

  it('exports more items than one chunk reads, each once, in the order they were made (F0)', async () => {
    const owner = await signedIn(harness.app, 'Many');
    const made: string[] = [];
    // Two chunks and a bit: the chunk boundary falls inside items made in the same instant.
    const total = EXPORT_CHUNK_ROWS * 2 + 17;
    for (let start = 0; start < total; start += 200) {
      const items = Array.from({ length: Math.min(200, total - start) }, (_, n) => ({
        uuid: randomUUID(),
        title: `Item ${start + n}`,
        type: 'todo' as const,
      }));
      made.push(...items.map((i) => i.uuid));
      const res = await owner.post('/api/items/batch', { items });
      expect(res.status, res.text).toBe(201);
    }
    const res = await owner.get<ExportDocument>('/api/export');
    expect(res.status).toBe(200);
    expect(res.body.items).toHaveLength(total);
    expect(new Set(res.body.items.map((i) => i.uuid))).toEqual(new Set(made));
  });

  it('exports every field a person set, and reading the export gives each back (export identity)', async () => {
    const owner = await signedIn(harness.app, 'Fields');
    const task = await owner.create({ title: 'Water', type: 'task', end_date: '2031-06-30' });
    const todo = await owner.create({
      title: 'Ferns',
      type: 'todo',
      parent_id: task.id,
      description: '  twice a week ',
      status: 'in_progress',
      due_date: '2031-05-05',
      remind_at: '2031-05-05T07:30:00.000Z',
      recurrence: 'FREQ=WEEKLY;INTERVAL=2;BYDAY=MO,TH;WKST=SU',
      assigned_to: owner.user?.id,
      time_zone: 'America/New_York',
      priority: 2,
      labels: ['Garden', 'weekly "quoted" {x}'],
      sort_key: 'a5V',
      start_date: '2031-05-01',
      estimate_minutes: 90,
    });
    const res = await owner.get<ExportDocument>('/api/export');
    expect(res.body.items.find((i) => i.uuid === todo.uuid)).toMatchObject({
      parent_uuid: task.uuid,
      recurrence: 'FREQ=WEEKLY;INTERVAL=2;BYDAY=MO,TH;WKST=SU',
      remind_at: '2031-05-05T07:30:00.000Z',
      // The assignee by name (ARCHITECTURE §5), found again by it among whom the importer may assign.
      assigned_to: 'Fields',
    });
    const plan = parseImport(JSON.stringify(res.body), {
      fileName: 'x.json',
      userId: owner.user?.id ?? 0,
      people: [{ id: owner.user?.id ?? 0, name: 'Fields' }],
    });
    expect(plan.problems).toEqual([]);
    expect(plan.warnings).toEqual([]);
    expect(plan.items).toEqual([
      {
        uuid: task.uuid,
        parent_uuid: null,
        type: 'task',
        title: 'Water',
        description: null,
        status: 'in_progress',
        due_date: null,
        end_date: '2031-06-30',
        remind_at: null,
        recurrence: null,
        assigned_to: null,
        series_uuid: null,
        time_zone: 'UTC',
        priority: 4,
        labels: [],
        sort_key: task.sort_key,
        start_date: null,
        estimate_minutes: null,
      },
      {
        uuid: todo.uuid,
        parent_uuid: task.uuid,
        type: 'todo',
        title: 'Ferns',
        description: '  twice a week ',
        status: 'in_progress',
        due_date: '2031-05-05',
        end_date: null,
        remind_at: '2031-05-05T07:30:00.000Z',
        recurrence: 'FREQ=WEEKLY;INTERVAL=2;BYDAY=MO,TH;WKST=SU',
        assigned_to: owner.user?.id,
        series_uuid: null,
        time_zone: 'America/New_York',
        priority: 2,
        labels: ['Garden', 'weekly "quoted" {x}'],
        sort_key: 'a5V',
        start_date: '2031-05-01',
        estimate_minutes: 90,
      },
    ]);
  });

  it('T1: exports each item’s comments, each campaign’s members with phones as the phone rule shows them, and the assignee by name', async () => {
    const owner = await signedIn(harness.app, 'Olive');
    const ann = await signedIn(harness.app, 'Ann');
    const bo = await signedIn(harness.app, 'Bo');
    await makeMutual(owner, ann, bo);
    // Olive keeps Ann's phone in her contacts and so sees it; Bo's she does too (mutuals), a stranger's never.
    const campaign = await owner.create({ title: 'Move', type: 'campaign' });
    const task = await owner.create({
      title: 'Pack',
      type: 'task',
      parent_id: campaign.id,
      assigned_to: ann.user?.id,
    });
    for (const [who, role] of [
      [ann, 'editor'],
      [bo, 'viewer'],
    ] as const) {
      const added = await owner.post(`/api/campaigns/${campaign.id}/members`, {
        user_id: who.user?.id,
        role,
      });
      expect(added.status, added.text).toBe(201);
    }
    const first = await owner.post(`/api/items/${task.id}/comments`, { body: 'Boxes first' });
    expect(first.status, first.text).toBe(201);
    expect((await ann.post(`/api/items/${task.id}/comments`, { body: 'In the shed' })).status).toBe(201);
    expect(
      (
        await bo.post(`/api/items/${task.id}/comments`, {
          body: `ask @[${ann.user?.id}]`,
          mentions: [ann.user?.id],
        })
      ).status,
    ).toBe(201);
    const gone = await ann.post<{ id: number }>(`/api/items/${task.id}/comments`, { body: 'deleted' });
    expect((await ann.delete(`/api/comments/${gone.body.id}`)).status).toBe(204);

    const res = await owner.get<ExportDocument>('/api/export');
    expect(res.status).toBe(200);
    const byUuid = new Map(res.body.items.map((i) => [i.uuid, i]));
    expect(byUuid.get(task.uuid)).toMatchObject({
      assigned_to: 'Ann',
      comments: [
        { author: 'Olive', body: 'Boxes first', uuid: expect.any(String), created_at: expect.any(String) },
        { author: 'Ann', body: 'In the shed' },
        { author: 'Bo', body: 'ask @Ann' },
      ],
    });
    expect(byUuid.get(task.uuid)?.comments).toHaveLength(3);
    expect(byUuid.get(campaign.uuid)?.members).toEqual([
      { name: 'Olive', phone: owner.user?.phone, role: 'owner' },
      { name: 'Ann', phone: ann.user?.phone, role: 'editor' },
      { name: 'Bo', phone: bo.user?.phone, role: 'viewer' },
    ]);
    // A member's export of the same campaign names the same people, with only the phones they may see.
    const stranger = await signedIn(harness.app, 'Cy');
    await makeMutual(owner, stranger);
    const cy = await owner.post(`/api/campaigns/${campaign.id}/members`, {
      user_id: stranger.user?.id,
      role: 'viewer',
    });
    expect(cy.status, cy.text).toBe(201);
    const theirs = await stranger.get<ExportDocument>('/api/export');
    expect(theirs.body.items.find((i) => i.uuid === campaign.uuid)?.members).toEqual([
      { name: 'Olive', phone: owner.user?.phone, role: 'owner' },
      { name: 'Ann', phone: null, role: 'editor' },
      { name: 'Bo', phone: null, role: 'viewer' },
      { name: 'Cy', phone: stranger.user?.phone, role: 'viewer' },
    ]);
    // An import of Olive's own export restores every comment; the members it cannot add are listed.
    const plan = parseImport(JSON.stringify(res.body), { fileName: 'x.json', userId: owner.user?.id ?? 0 });
    expect(plan.comments.map((c) => c.body)).toEqual([
      'Boxes first',
      expect.stringMatching(/^Ann wrote on \d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC:\nIn the shed$/),
      expect.stringMatching(/^Bo wrote on .*:\nask @Ann$/),
    ]);
    expect(plan.warnings.map((w) => w.reason)).toContain(
      '2 members not added: Ann (editor), Bo (viewer) (share the campaign again)',
    );
  });
});
