import { describe, expect, it } from 'vitest';
import { testDevices } from '../../../../testkit/client/devices';
import { createSynced, type Device, settled } from '../../../../testkit/client/harness';
import type { Item, Paginated, SyncChange } from '../../../shared/item';

const { device, guest, signedIn, track } = testDevices();

const live = async (d: Device) =>
  (await d.client.db.items.toArray())
    .filter((i) => i._deleted === 0)
    .map((i) => ({ uuid: i.uuid, title: i.title, status: i.status, parent_id: i.parent_id, id: i.id }))
    .sort((a, b) => a.id - b.id);

async function family(d: Device) {
  const { items } = d.client;
  const campaign = await items.create({ title: 'Move', type: 'campaign' });
  const task = await items.create({ title: 'Pack', type: 'task', parent_id: campaign.id });
  const a = await items.create({ title: 'Books', type: 'todo', parent_id: task.id });
  const b = await items.create({ title: 'Plates', type: 'todo', parent_id: task.id });
  return { campaign, task, a, b };
}

describe('undo as a guest (no server at all)', () => {
  it('undoes every kind of change, newest first, back to the start', async () => {
    const d = guest();
    const { items } = d.client;
    const undo = await d.client.undo();
    const { task, a, b } = await family(d);
    const start = await live(d);
    await items.update(a.id, { title: 'Novels', description: 'all of them' });
    await items.update(a.id, { due_date: '2030-05-01' });
    await items.assign(a.id, 2);
    await items.toggle(b.id);
    await items.update(b.id, { parent_id: null });
    await items.remove(task.id);
    expect(await live(d)).not.toEqual(start);
    for (let n = 0; n < 6; n++) expect(await undo.undo()).not.toBeNull();
    expect(await live(d)).toEqual(start);
    expect((await d.client.db.items.get(a.id))?.assigned_to).toBeNull();
    expect((await d.client.db.items.get(a.id))?.due_date).toBeNull();
    expect(d.control.requests).toEqual([]);
  });

  it('undoes a change that set a due date and a repeat together, in one write, back to neither', async () => {
    const d = guest();
    const { items } = d.client;
    const undo = await d.client.undo();
    const { a } = await family(d);
    await items.update(a.id, { title: 'Water plants' });
    await items.update(a.id, { due_date: '2030-05-01', recurrence: 'FREQ=WEEKLY' });
    await items.update(a.id, { recurrence: 'FREQ=DAILY' });
    expect(await undo.undo()).not.toBeNull();
    expect(await d.client.db.items.get(a.id)).toMatchObject({
      due_date: '2030-05-01',
      recurrence: 'FREQ=WEEKLY',
    });
    // Ctrl+Z walks back through the step that added both: neither is left, and the rename is next.
    expect(await undo.undo()).not.toBeNull();
    expect(await d.client.db.items.get(a.id)).toMatchObject({
      due_date: null,
      recurrence: null,
      title: 'Water plants',
    });
    expect(await undo.undo()).not.toBeNull();
    expect((await d.client.db.items.get(a.id))?.title).toBe('Books');
  });

  it('undoes a delete with children: same ids and uuids, and the roll-up it caused rolls back', async () => {
    const d = guest();
    const { items } = d.client;
    const undo = await d.client.undo();
    const { task, a, b } = await family(d);
    await items.toggle(a.id);
    expect((await d.client.db.items.get(task.id))?.status).toBe('in_progress');
    // Deleting the open todo leaves only a done one: the task rolls up to completed.
    await items.remove(b.id);
    expect((await d.client.db.items.get(task.id))?.status).toBe('completed');
    await undo.undo();
    expect(await d.client.db.items.get(b.id)).toMatchObject({ id: b.id, uuid: b.uuid, _deleted: 0 });
    expect((await d.client.db.items.get(task.id))?.status).toBe('in_progress');

    await items.remove(task.id);
    expect(await d.client.db.items.get(a.id)).toBeUndefined();
    await undo.undo();
    expect(await d.client.db.items.get(a.id)).toMatchObject({ uuid: a.uuid, status: 'completed' });
    expect(await d.client.db.items.get(task.id)).toMatchObject({ uuid: task.uuid });
  });

  it('undoes a completion that completed the parent, putting both back as they were', async () => {
    const d = guest();
    const { items } = d.client;
    const undo = await d.client.undo();
    const task = await items.create({ title: 'Only', type: 'task' });
    const todo = await items.create({ title: 'One', type: 'todo', parent_id: task.id });
    await items.toggle(todo.id);
    expect((await d.client.db.items.get(task.id))?.status).toBe('completed');
    await undo.undo();
    expect((await d.client.db.items.get(todo.id))?.status).toBe('pending');
    expect((await d.client.db.items.get(task.id))?.status).toBe('pending');
  });

  it('undoes the writes of one gesture together (a form saving fields and the assignee)', async () => {
    const d = guest();
    const { items } = d.client;
    const todo = await items.create({ title: 'Form', type: 'todo' });
    const group = { group: 'save-1' };
    await items.update(todo.id, { title: 'Form saved', due_date: '2030-01-02' }, group);
    await items.assign(todo.id, 3, group);
    expect(await (await d.client.undo()).undo()).toMatchObject({ group: 'save-1' });
    expect(await d.client.db.items.get(todo.id)).toMatchObject({
      title: 'Form',
      due_date: null,
      assigned_to: null,
    });
  });

  it('keeps the undo stack and the trash across a reload', async () => {
    const d = guest();
    const { task, a } = await family(d);
    await d.client.items.remove(task.id);
    const again = d.reload();
    track(again);
    again.client.auth.getState().initGuest();
    expect((await (await again.client.undo()).list()).map((e) => e.title)).toEqual(['Pack']);
    await (await again.client.undo()).undo();
    expect(await again.client.db.items.get(a.id)).toMatchObject({ uuid: a.uuid });
    expect(await (await again.client.undo()).list()).toEqual([]);
  });

  it('restores from the trash any delete, not only the newest', async () => {
    const d = guest();
    const { a, b } = await family(d);
    await d.client.items.remove(a.id);
    await d.client.items.remove(b.id);
    const trash = await (await d.client.undo()).list();
    expect(trash.map((e) => e.title)).toEqual(['Plates', 'Books']);
    await (await d.client.undo()).restoreEntry(trash[1]!);
    expect(await d.client.db.items.get(a.id)).toMatchObject({ uuid: a.uuid });
    expect(await d.client.db.items.get(b.id)).toBeUndefined();
  });
});

describe('undo signed in', () => {
  const serverView = async (d: Device, id: number): Promise<Item | null> => {
    try {
      return (await d.client.api.get<Item>(`/items/${id}`)).data;
    } catch {
      return null;
    }
  };

  it('L6: undoing a synced delete restores the same items locally at once and on the server', async () => {
    const d = await signedIn('Undoer');
    const { task, a, b } = await family(d);
    await settled(d);
    await d.client.engine.sync();
    const [serverTask, serverA] = await Promise.all([
      d.client.db.items
        .where('uuid')
        .equals(task.uuid ?? '')
        .first(),
      d.client.db.items
        .where('uuid')
        .equals(a.uuid ?? '')
        .first(),
    ]);
    await d.client.items.remove(serverTask!.id);
    await settled(d);
    await d.client.engine.sync();
    expect(await serverView(d, serverTask!.id)).toBeNull();

    d.goOffline();
    await (await d.client.undo()).undo();
    // Back on the device at once, offline, same id and uuid, children with it.
    expect(await d.client.db.items.get(serverA!.id)).toMatchObject({ uuid: a.uuid, _deleted: 0 });
    expect(await d.client.db.items.get(serverTask!.id)).toMatchObject({ _syncStatus: 'pending' });
    expect((await d.client.db.syncQueue.toArray()).map((e) => e.kind)).toEqual(['restore']);

    // A reload before sync keeps it; the next sync sends the restore.
    const again = d.reload();
    track(again);
    await again.client.auth.getState().restore();
    again.goOnline();
    await settled(again);
    await again.client.engine.sync();
    expect(await again.client.db.syncQueue.count()).toBe(0);
    expect(await serverView(again, serverTask!.id)).toMatchObject({ uuid: task.uuid, deleted_at: null });
    expect(await again.client.db.items.get(serverA!.id)).toMatchObject({
      _syncStatus: 'synced',
      _deleted: 0,
    });

    // Another device of the same user pulls them back too.
    const other = device(undefined, { jar: d.jar });
    await other.client.auth.getState().checkSession();
    await other.client.engine.sync();
    const uuids = (await other.client.db.items.toArray()).map((i) => i.uuid);
    expect(uuids).toEqual(expect.arrayContaining([task.uuid, a.uuid, b.uuid]));
  });

  it('undoing a delete still queued takes it out of the queue, and survives a reload', async () => {
    const d = await signedIn('Undoer');
    const { task, a } = await family(d);
    await settled(d);
    await d.client.engine.sync();
    const stored = await d.client.db.items
      .where('uuid')
      .equals(task.uuid ?? '')
      .first();
    d.goOffline();
    await d.client.items.remove(stored!.id);
    const again = d.reload();
    track(again);
    await again.client.auth.getState().restore();
    await (await again.client.undo()).undo();
    expect(await again.client.db.syncQueue.count()).toBe(0);
    const back = await again.client.db.items
      .where('uuid')
      .equals(a.uuid ?? '')
      .first();
    expect(back).toMatchObject({ _deleted: 0, _syncStatus: 'synced' });
    again.goOnline();
    await settled(again);
    await again.client.engine.sync();
    const pulled: SyncChange | undefined = await again.client.db.items.get(stored!.id);
    expect(pulled).toMatchObject({ deleted_at: null });
  });

  it("lists the server's trash merged with the device's and restores an entry only the server has", async () => {
    const d = await signedIn('Undoer');
    const other = device(undefined, { jar: d.jar });
    await other.client.auth.getState().checkSession();
    const gone = await createSynced(other, { title: 'Deleted elsewhere', type: 'todo' });
    const here = await d.client.items.create({ title: 'Deleted here', type: 'todo' });
    await other.client.items.remove(gone.id);
    await settled(other, d);
    await settled(d);
    await d.client.engine.sync();
    await d.client.items.remove(
      (await d.client.db.items
        .where('uuid')
        .equals(here.uuid ?? '')
        .first())!.id,
    );
    const stack = await d.client.undo();
    const trash = await stack.list();
    expect(trash.map((e) => [e.title, e.source])).toEqual([
      ['Deleted here', 'device'],
      ['Deleted elsewhere', 'server'],
    ]);
    expect(trash[1]?.deletedBy?.name).toBe('Undoer');
    await stack.restoreEntry(trash[1]!);
    await settled(d);
    await d.client.engine.sync();
    expect(await d.client.db.items.get(gone.id)).toMatchObject({ uuid: gone.uuid, _deleted: 0 });
    expect((await stack.list()).map((e) => e.title)).toEqual(['Deleted here']);
  });

  it('undoes an offline edit through the queue: the server ends where it started', async () => {
    const d = await signedIn('Undoer');
    const task = await d.client.items.create({ title: 'Before', type: 'task' });
    await settled(d);
    await d.client.engine.sync();
    const id = (await d.client.db.items
      .where('uuid')
      .equals(task.uuid ?? '')
      .first())!.id;
    d.goOffline();
    await d.client.items.update(id, { title: 'After' });
    await (await d.client.undo()).undo();
    expect((await d.client.db.items.get(id))?.title).toBe('Before');
    d.goOnline();
    await settled(d);
    await d.client.engine.sync();
    expect((await serverView(d, id))?.title).toBe('Before');
  });
});

describe('undoing a completion that made the next occurrence (issue 16, N4)', () => {
  const series = async (d: Device, uuid: string) =>
    (await d.client.db.items.toArray())
      .filter((i) => i._deleted === 0 && (i.uuid === uuid || i.series_uuid === uuid))
      .sort((a, b) => (a.due_date ?? '').localeCompare(b.due_date ?? ''))
      .map((i) => ({ due_date: i.due_date, status: i.status, title: i.title }));
  const onServer = async (d: Device, uuid: string) =>
    (await d.client.api.get<Paginated<Item>>('/items?type=todo&per_page=100')).data.data
      .filter((i) => i.uuid === uuid || i.series_uuid === uuid)
      .map((i) => ({ due_date: i.due_date, status: i.status, title: i.title }));
  const daily = (d: Device, parent_id?: number) =>
    d.client.items.create({
      title: 'Stretch',
      type: 'todo',
      due_date: '2031-03-01',
      recurrence: 'FREQ=DAILY',
      ...(parent_id ? { parent_id } : {}),
    });

  it('N4: as a guest: the next occurrence goes, the todo and its task are pending again', async () => {
    const d = guest();
    const task = await d.client.items.create({ title: 'Mornings', type: 'task' });
    const todo = await daily(d, task.id);
    await d.client.items.toggle(todo.id);
    expect((await series(d, todo.uuid!)).map((i) => [i.due_date, i.status])).toEqual([
      ['2031-03-01', 'completed'],
      ['2031-03-02', 'pending'],
    ]);
    expect(await (await d.client.undo()).undo()).toMatchObject({ label: 'Todo completed' });
    expect((await series(d, todo.uuid!)).map((i) => [i.due_date, i.status])).toEqual([
      ['2031-03-01', 'pending'],
    ]);
    expect((await d.client.db.items.get(task.id))?.status).toBe('pending');
    // Completing again makes it again.
    await d.client.items.toggle(todo.id);
    expect(await series(d, todo.uuid!)).toHaveLength(2);
    expect(d.control.requests).toEqual([]);
  });

  it('N4: as a guest: a next occurrence edited since the completion stays; the todo reopens', async () => {
    const d = guest();
    const todo = await daily(d);
    await d.client.items.toggle(todo.id);
    const next = (await d.client.db.items.toArray()).find((i) => i.series_uuid === todo.uuid)!;
    await d.client.items.update(next.id, { title: 'Stretch longer' }, { record: false });
    await (await d.client.undo()).undo();
    expect((await series(d, todo.uuid!)).map((i) => [i.due_date, i.status, i.title])).toEqual([
      ['2031-03-01', 'pending', 'Stretch'],
      ['2031-03-02', 'pending', 'Stretch longer'],
    ]);
  });

  it('N4: signed in, offline then online: gone at once, and the server ends with no live next occurrence', async () => {
    const d = await signedIn('Undoer');
    const todo = await daily(d);
    await settled(d);
    await d.client.engine.sync();
    d.goOffline();
    await d.client.items.toggle(todo.id);
    expect(await series(d, todo.uuid!)).toHaveLength(2);
    await (await d.client.undo()).undo();
    expect((await series(d, todo.uuid!)).map((i) => [i.due_date, i.status])).toEqual([
      ['2031-03-01', 'pending'],
    ]);
    d.goOnline();
    await settled(d);
    await d.client.engine.sync();
    await d.client.engine.sync();
    expect(await d.client.db.syncQueue.count()).toBe(0);
    expect((await onServer(d, todo.uuid!)).map((i) => [i.due_date, i.status])).toEqual([
      ['2031-03-01', 'pending'],
    ]);
    expect((await series(d, todo.uuid!)).map((i) => [i.due_date, i.status])).toEqual([
      ['2031-03-01', 'pending'],
    ]);
  });

  it('N4: signed in, online: undo after sync deletes the synced next occurrence on the server', async () => {
    const d = await signedIn('Undoer');
    const todo = await daily(d);
    await d.client.items.toggle(todo.id);
    await settled(d);
    await d.client.engine.sync();
    expect(await onServer(d, todo.uuid!)).toHaveLength(2);
    await (await d.client.undo()).undo();
    await settled(d);
    await d.client.engine.sync();
    expect((await onServer(d, todo.uuid!)).map((i) => [i.due_date, i.status])).toEqual([
      ['2031-03-01', 'pending'],
    ]);
    expect(await series(d, todo.uuid!)).toHaveLength(1);
  });

  it('N4: signed in: a next occurrence another device edited (arriving by a pull) survives the undo', async () => {
    const d = await signedIn('Undoer');
    const todo = await daily(d);
    await d.client.items.toggle(todo.id);
    await settled(d);
    await d.client.engine.sync();
    const other = device(undefined, { jar: d.jar });
    await other.client.auth.getState().checkSession();
    await other.client.engine.sync();
    const next = (await other.client.db.items.toArray()).find((i) => i.series_uuid === todo.uuid)!;
    await other.client.items.update(next.id, { title: 'Stretch at noon' });
    await settled(other);
    await other.client.engine.sync();
    await d.client.engine.sync();
    await (await d.client.undo()).undo();
    await settled(d);
    await d.client.engine.sync();
    const expected = [
      { due_date: '2031-03-01', status: 'pending', title: 'Stretch' },
      { due_date: '2031-03-02', status: 'pending', title: 'Stretch at noon' },
    ];
    expect(await series(d, todo.uuid!)).toEqual(expected);
    expect(
      (await onServer(d, todo.uuid!)).sort((a, b) => (a.due_date ?? '').localeCompare(b.due_date ?? '')),
    ).toEqual(expected);
  });

  /** A campaign holding a weekly task that holds a daily todo, and a todo that does not repeat. */
  async function repeatingFamily(d: Device) {
    const { items } = d.client;
    const campaign = await items.create({ title: 'Home', type: 'campaign' });
    const task = await items.create({
      title: 'Sweep',
      type: 'task',
      parent_id: campaign.id,
      due_date: '2031-04-01',
      recurrence: 'FREQ=WEEKLY',
    });
    const todo = await daily(d, task.id);
    const once = await items.create({ title: 'Once', type: 'todo', parent_id: campaign.id });
    return { campaign, task, todo, once };
  }

  it('N6: as a guest, completing a campaign brings its repeating task and todo their next occurrences; undo takes them away', async () => {
    const d = guest();
    const { campaign, task, todo, once } = await repeatingFamily(d);
    await d.client.items.setStatus(campaign.id, 'completed');
    expect((await series(d, todo.uuid!)).map((i) => [i.due_date, i.status])).toEqual([
      ['2031-03-01', 'completed'],
      ['2031-03-02', 'pending'],
    ]);
    expect((await series(d, task.uuid!)).map((i) => [i.due_date, i.status])).toEqual([
      ['2031-04-01', 'in_progress'],
      ['2031-04-08', 'pending'],
    ]);
    expect((await d.client.db.items.get(once.id))?.status).toBe('completed');
    // The open occurrences keep their campaign open, as after a direct completion.
    expect((await d.client.db.items.get(campaign.id))?.status).toBe('in_progress');
    await (await d.client.undo()).undo();
    expect((await series(d, todo.uuid!)).map((i) => [i.due_date, i.status])).toEqual([
      ['2031-03-01', 'pending'],
    ]);
    expect((await series(d, task.uuid!)).map((i) => [i.due_date, i.status])).toEqual([
      ['2031-04-01', 'pending'],
    ]);
    expect(d.control.requests).toEqual([]);
  });

  it('N6: as a guest, completing a campaign, reopening it and undoing the reopen leaves one open occurrence per date, none born completed', async () => {
    const d = guest();
    const { campaign, task, todo } = await repeatingFamily(d);
    await d.client.items.setStatus(campaign.id, 'completed');
    await d.client.items.setStatus(campaign.id, 'pending');
    await (await d.client.undo()).undo();
    for (const uuid of [task.uuid!, todo.uuid!]) {
      const rows = await series(d, uuid);
      expect(new Set(rows.map((i) => i.due_date)).size).toBe(rows.length);
      // The newest of each series is open: the series goes on.
      expect(rows.at(-1)?.status).not.toBe('completed');
    }
  });

  it('N6: signed in, a campaign completed offline ends with the same occurrences on the device and the server', async () => {
    const d = await signedIn('Cascader');
    const { campaign, task, todo } = await repeatingFamily(d);
    await settled(d);
    await d.client.engine.sync();
    d.goOffline();
    await d.client.items.setStatus(campaign.id, 'completed');
    d.goOnline();
    await settled(d);
    await d.client.engine.sync();
    await d.client.engine.sync();
    expect(await d.client.db.syncQueue.count()).toBe(0);
    const tasksOnServer = (await d.client.api.get<Paginated<Item>>('/items?type=task&per_page=100')).data.data
      .filter((i) => i.uuid === task.uuid || i.series_uuid === task.uuid)
      .map((i) => ({ due_date: i.due_date, status: i.status, title: i.title }))
      .sort((a, b) => (a.due_date ?? '').localeCompare(b.due_date ?? ''));
    expect(await series(d, task.uuid!)).toEqual(tasksOnServer);
    expect(tasksOnServer).toHaveLength(2);
    const todosOnServer = (await onServer(d, todo.uuid!)).sort((a, b) =>
      (a.due_date ?? '').localeCompare(b.due_date ?? ''),
    );
    expect(await series(d, todo.uuid!)).toEqual(todosOnServer);
    expect(todosOnServer.map((i) => [i.due_date, i.status])).toEqual([
      ['2031-03-01', 'completed'],
      ['2031-03-02', 'pending'],
    ]);
  });
});

describe('undo of items no longer on the device (issue 50)', () => {
  it('skips changes about items that left the device (a campaign lost), and says nothing to undo when none is left', async () => {
    const d = guest();
    const { items } = d.client;
    const undo = await d.client.undo();
    const mine = await items.create({ title: 'Mine', type: 'todo' });
    await items.update(mine.id, { title: 'Mine, renamed' });
    const { campaign, task, a, b } = await family(d);
    await items.update(a.id, { title: 'Novels' });
    // The campaign leaves the device as a lost one does (the pull purges its rows).
    await d.client.db.items.bulkDelete([campaign.id, task.id, a.id, b.id]);

    const before = await d.client.db.undo.count();
    // Every change left is about 'Mine': the first press takes one of them back, not a lost one.
    const first = await undo.undo();
    expect(first?.steps.every((s) => s.uuid === mine.uuid)).toBe(true);
    expect(await d.client.db.undo.count()).toBeLessThan(before - 1);
    while (await undo.undo()) {}
    expect(await d.client.db.items.get(mine.id)).toBeUndefined();
    expect(await undo.undo()).toBeNull();
  });
});

describe('undoing a creation (issue 50)', () => {
  const finished = async (d: Device) => {
    const { items } = d.client;
    const campaign = await items.create({ title: 'Fair', type: 'campaign' });
    const task = await items.create({ title: 'Hall', type: 'task', parent_id: campaign.id });
    await items.update(task.id, { status: 'completed' });
    return { campaign, task };
  };

  it('as a guest: an undone new todo leaves its finished campaign completed, and is not in the trash', async () => {
    const d = guest();
    const { items } = d.client;
    const undo = await d.client.undo();
    const { campaign } = await finished(d);
    expect((await d.client.db.items.get(campaign.id))?.status).toBe('completed');
    const todo = await items.create({ title: 'Posters', type: 'todo', parent_id: campaign.id });
    expect((await d.client.db.items.get(campaign.id))?.status).toBe('in_progress');
    expect(await undo.undo()).not.toBeNull();
    const gone = await d.client.db.items.get(todo.id);
    expect(gone === undefined || gone._deleted === 1).toBe(true);
    expect((await d.client.db.items.get(campaign.id))?.status).toBe('completed');
    expect((await undo.list()).map((e) => e.title)).not.toContain('Posters');
  });

  it('signed in: the undo of a new todo under a finished campaign syncs without a conflict, the server as before', async () => {
    const d = await signedIn('Undoer');
    const { campaign } = await finished(d);
    await settled(d);
    await d.client.engine.sync();
    const stored = (await d.client.db.items
      .where('uuid')
      .equals(campaign.uuid ?? '')
      .first())!;
    expect(stored.status).toBe('completed');
    const todo = await d.client.items.create({ title: 'Posters', type: 'todo', parent_id: stored.id });
    await settled(d);
    await d.client.engine.sync();
    await (await d.client.undo()).undo();
    // The create's own delete goes first: the campaign's status comes back after it, never completing it.
    expect((await d.client.db.syncQueue.toArray()).map((e) => e.kind)).toEqual(['delete']);
    expect((await d.client.db.items.get(stored.id))?.status).toBe('completed');
    await settled(d);
    await d.client.engine.sync();
    await d.client.engine.sync();
    const conflicted = await d.client.db.items.where('_conflict').anyOf('update', 'delete').toArray();
    expect(
      conflicted.map((i) => [i.title, i._conflict, (i as { _serverCopy?: unknown })._serverCopy]),
    ).toEqual([]);
    expect(await d.client.db.syncQueue.count()).toBe(0);
    const server = (await d.client.api.get<Item>(`/items/${stored.id}`)).data;
    expect(server.status).toBe('completed');
    expect((await d.client.db.items.get(stored.id))?.status).toBe('completed');
    const gone = await d.client.db.items
      .where('uuid')
      .equals(todo.uuid ?? '')
      .first();
    expect(gone === undefined || gone._deleted === 1).toBe(true);
    expect((await (await d.client.undo()).list()).map((e) => e.title)).not.toContain('Posters');
  });

  it('signed in, offline: the undo of a new todo still queued takes the create back, nothing reaches the server', async () => {
    const d = await signedIn('Undoer');
    const { campaign } = await finished(d);
    await settled(d);
    await d.client.engine.sync();
    const stored = (await d.client.db.items
      .where('uuid')
      .equals(campaign.uuid ?? '')
      .first())!;
    d.goOffline();
    await d.client.items.create({ title: 'Posters', type: 'todo', parent_id: stored.id });
    await (await d.client.undo()).undo();
    expect((await d.client.db.items.get(stored.id))?.status).toBe('completed');
    d.goOnline();
    await settled(d);
    await d.client.engine.sync();
    expect(await d.client.db.items.where('_conflict').anyOf('update', 'delete').count()).toBe(0);
    expect((await d.client.api.get<Item>(`/items/${stored.id}`)).data.status).toBe('completed');
    expect((await (await d.client.undo()).list()).map((e) => e.title)).not.toContain('Posters');
  });
});
