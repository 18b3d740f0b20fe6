import { liveQuery } from 'dexie';
import { afterEach, describe, expect, it } from 'vitest';
import { createDevice, type Device } from '../../../../testkit/client/harness';
import { deviceReads } from '../reads/live';

// No server at all: guest mode must never need one. Any request fails loudly in the assertions.
let device: Device;

/** Waits until a live query has caught up (a busy machine can take a while), or fails after 3 s. */
async function until(done: () => boolean): Promise<void> {
  for (let waited = 0; !done(); waited += 10) {
    if (waited > 3000) throw new Error(`timed out waiting for a live query: ${String(done)}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}
afterEach(() => device?.client.close());

function guest() {
  device = createDevice('http://127.0.0.1:9');
  device.client.auth.getState().initGuest();
  return device.client;
}

describe('guest mode', () => {
  it('starts as the Guest User with id 0', () => {
    const client = guest();
    const { user, isAnonymous, isAuthenticated } = client.auth.getState();
    expect(user).toMatchObject({ id: 0, name: 'Guest User', phone: '' });
    expect(isAnonymous).toBe(true);
    expect(isAuthenticated).toBe(false);
  });

  it('gives guest items counter ids from 1 and the guest as creator', async () => {
    const client = guest();
    const a = await client.items.create({ title: 'First', type: 'campaign' });
    const b = await client.items.create({ title: 'Second', type: 'task', parent_id: a.id });
    expect([a.id, b.id]).toEqual([1, 2]);
    expect(a.created_by).toMatchObject({ id: 0, name: 'Guest User' });
    expect(a.user_id).toBe(0);
    expect(a.status).toBe('pending');
    expect(a._syncStatus).toBe('local');
  });

  it('makes no request of any kind for any guest action', async () => {
    const client = guest();
    const c = await client.items.create({ title: 'Campaign', type: 'campaign' });
    const t = await client.items.create({ title: 'Task', type: 'task', parent_id: c.id });
    const todo = await client.items.create({ title: 'Todo', type: 'todo', parent_id: t.id });
    await client.items.update(todo.id, { title: 'Todo renamed' });
    await client.items.toggle(todo.id);
    await client.items.assign(t.id, 2);
    await client.items.start(c.id);
    await client.items.reopen(c.id);
    await client.items.remove(todo.id);
    await client.engine.sync({ manual: true });
    await client.search('todo');
    await deviceReads(client).homeItems('all');
    expect(device.control.requests).toEqual([]);
    expect(await client.db.syncQueue.count()).toBe(0);
  });

  it('skips sync for guests', async () => {
    const client = guest();
    expect((await client.engine.sync()).skipped).toBe('guest');
  });

  it('rolls a parent up when its only child completes, offline and without a server', async () => {
    const client = guest();
    const task = await client.items.create({ title: 'Task', type: 'task' });
    const todo = await client.items.create({ title: 'Todo', type: 'todo', parent_id: task.id });
    await client.items.toggle(todo.id);
    expect((await deviceReads(client).item(task.id))?.status).toBe('completed');
    await client.items.toggle(todo.id);
    expect((await deviceReads(client).item(task.id))?.status).toBe('in_progress');
  });

  it('completes every descendant when a campaign is completed, and reopens none when reopened', async () => {
    const client = guest();
    const c = await client.items.create({ title: 'C', type: 'campaign' });
    const t = await client.items.create({ title: 'T', type: 'task', parent_id: c.id });
    const d = await client.items.create({ title: 'D', type: 'todo', parent_id: t.id });
    await client.items.complete(c.id);
    expect((await deviceReads(client).item(d.id))?.status).toBe('completed');
    expect((await deviceReads(client).item(d.id))?.completed_at).not.toBeNull();
    await client.items.reopen(c.id);
    expect((await deviceReads(client).item(c.id))?.status).toBe('pending');
    expect((await deviceReads(client).item(t.id))?.status).toBe('completed');
  });

  it('reopens from a screen so status, counts and progress agree: what was completed last reopens', async () => {
    const client = guest();
    const c = await client.items.create({ title: 'C', type: 'campaign' });
    const t = await client.items.create({ title: 'T', type: 'task', parent_id: c.id });
    const d = await client.items.create({ title: 'D', type: 'todo', parent_id: t.id });
    await client.items.complete(c.id);
    await client.items.changeStatus(c.id, 'pending');
    const status = async (id: number) => (await deviceReads(client).item(id))?.status;
    expect(await status(d.id)).toBe('pending');
    expect(await status(t.id)).toBe('in_progress');
    expect(await status(c.id)).toBe('in_progress');
    expect(await deviceReads(client).progress(c.id)).toMatchObject({ completed: 0 });
    // A plain reopen of an item without children is just that.
    await client.items.complete(d.id);
    await client.items.changeStatus(d.id, 'pending');
    expect(await status(d.id)).toBe('pending');
  });

  it('gives each campaign and task on screen its progress through the whole subtree, in one read', async () => {
    const client = guest();
    const c = await client.items.create({ title: 'C', type: 'campaign' });
    const t = await client.items.create({ title: 'T', type: 'task', parent_id: c.id });
    const bare = await client.items.create({ title: 'Bare', type: 'task' });
    const d1 = await client.items.create({ title: 'D1', type: 'todo', parent_id: t.id });
    await client.items.create({ title: 'D2', type: 'todo', parent_id: t.id });
    await client.items.create({ title: 'D3', type: 'todo', parent_id: t.id });
    await client.items.complete(d1.id);
    const progress = await deviceReads(client).subtreeProgress([c.id, t.id, bare.id]);
    // The campaign's only task is 1 of 3 done: the campaign says so too, not '0 of 1'.
    expect(progress.get(c.id)).toMatchObject({ total: 3, completed: 1 });
    expect(progress.get(t.id)).toMatchObject({ total: 3, completed: 1 });
    expect(progress.get(bare.id)).toMatchObject({ total: 0, completed: 0 });
  });

  it('deletes an item with its descendants at once', async () => {
    const client = guest();
    const c = await client.items.create({ title: 'C', type: 'campaign' });
    const t = await client.items.create({ title: 'T', type: 'task', parent_id: c.id });
    await client.items.create({ title: 'D', type: 'todo', parent_id: t.id });
    await client.items.remove(c.id);
    expect(await client.db.items.count()).toBe(0);
  });

  it('refuses a title over 255 characters and a parent that breaks the hierarchy', async () => {
    const client = guest();
    await expect(client.items.create({ title: 'x'.repeat(256), type: 'todo' })).rejects.toThrow(
      'Title must be 255 characters or less.',
    );
    const todo = await client.items.create({ title: 'Todo', type: 'todo' });
    await expect(client.items.create({ title: 'Task', type: 'task', parent_id: todo.id })).rejects.toThrow(
      'cannot be placed under',
    );
    await expect(client.items.create({ title: '   ', type: 'todo' })).rejects.toThrow(
      'The title is required.',
    );
  });
});

describe('derived lists', () => {
  it('shows orphans newest first on Home All and every item of a type on its tab', async () => {
    const client = guest();
    const c = await client.items.create({ title: 'C', type: 'campaign' });
    await client.items.create({ title: 'T', type: 'task', parent_id: c.id });
    const lone = await client.items.create({ title: 'Lone todo', type: 'todo' });
    expect((await deviceReads(client).homeItems('all')).map((i) => i.title)).toEqual(['Lone todo', 'C']);
    expect((await deviceReads(client).homeItems('task')).map((i) => i.title)).toEqual(['T']);
    expect(lone.parent_id).toBeNull();
  });

  it('lists Queue, Active and Completed by status with orphans only on All', async () => {
    const client = guest();
    const c = await client.items.create({ title: 'C', type: 'campaign' });
    const t = await client.items.create({ title: 'T', type: 'task', parent_id: c.id });
    await client.items.start(t.id);
    expect((await deviceReads(client).screenItems('queue', 'all')).map((i) => i.title)).toEqual([]);
    expect((await deviceReads(client).screenItems('active', 'all')).map((i) => i.title)).toEqual(['C']);
    expect((await deviceReads(client).screenItems('active', 'task')).map((i) => i.title)).toEqual(['T']);
    await client.items.complete(t.id);
    expect((await deviceReads(client).screenItems('completed', 'all')).map((i) => i.title)).toEqual(['C']);
    expect((await deviceReads(client).screenItems('completed', 'all', { search: 'zzz' })).length).toBe(0);
  });

  it('counts My List tabs and shows progress of a parent', async () => {
    const client = guest();
    const t = await client.items.create({ title: 'T', type: 'task' });
    const a = await client.items.create({ title: 'A', type: 'todo', parent_id: t.id });
    await client.items.create({ title: 'B', type: 'todo', parent_id: t.id });
    await client.items.create({ title: 'C', type: 'todo', parent_id: t.id });
    await client.items.toggle(a.id);
    expect(await deviceReads(client).progress(t.id)).toEqual({
      total: 3,
      completed: 1,
      percent: 33,
      remaining: 2,
    });
    expect(await deviceReads(client).myListCounts()).toEqual({ pending: 2, in_progress: 1, completed: 1 });
    expect((await deviceReads(client).children(t.id)).map((i) => i.title)).toEqual(['C', 'B', 'A']);
  });

  it('searches locally: at least 2 characters, most relevant title matches first, then most recently updated', async () => {
    const client = guest();
    await client.items.create({ title: 'Paint fence', type: 'todo' });
    await client.items.create({ title: 'Buy tape', type: 'todo', description: 'for the fence' });
    await client.items.create({ title: 'Fence posts', type: 'todo' });
    expect(await client.search('f')).toEqual([]);
    expect((await client.search('  FENCE ')).map((i) => i.title)).toEqual([
      'Fence posts',
      'Paint fence',
      'Buy tape',
    ]);
    // Both titles now start with the query: the more recently updated comes first.
    await client.items.update(1, { title: 'Fence paint' });
    expect((await client.search('fence')).map((i) => i.title)).toEqual([
      'Fence paint',
      'Fence posts',
      'Buy tape',
    ]);
  });
});

describe('live queries', () => {
  it('re-runs a list when a repository write changes it', async () => {
    const client = guest();
    const seen: string[][] = [];
    const sub = liveQuery(() => deviceReads(client).screenItems('queue', 'all')).subscribe({
      next: (rows) => seen.push(rows.map((r) => r.title)),
    });
    await until(() => seen.length > 0);
    await client.items.create({ title: 'Fresh', type: 'todo' });
    await until(() => seen.some((s) => s.includes('Fresh')));
    const todo = await client.items.create({ title: 'Second', type: 'todo' });
    await client.items.start(todo.id);
    await until(() => JSON.stringify(seen.at(-1)) === '["Fresh"]');
    sub.unsubscribe();
    expect(seen[0]).toEqual([]);
    expect(seen).toContainEqual(['Fresh']);
    expect(seen.at(-1)).toEqual(['Fresh']);
  });

  it('re-runs children, progress, one item and My List counts after writes', async () => {
    const client = guest();
    const task = await client.items.create({ title: 'Task', type: 'task' });
    const todo = await client.items.create({ title: 'Todo', type: 'todo', parent_id: task.id });
    const last: Record<string, unknown> = {};
    const subs = [
      liveQuery(() => deviceReads(client).children(task.id)).subscribe({
        next: (v) => (last.children = v.map((i) => i.title)),
      }),
      liveQuery(() => deviceReads(client).progress(task.id)).subscribe({
        next: (v) => (last.progress = v.percent),
      }),
      liveQuery(() => deviceReads(client).item(todo.id)).subscribe({ next: (v) => (last.item = v?.status) }),
      liveQuery(() => deviceReads(client).myListCounts()).subscribe({
        next: (v) => (last.counts = v.completed),
      }),
    ];
    await until(() => last.counts !== undefined);
    await client.items.update(todo.id, { title: 'Todo renamed' });
    await client.items.toggle(todo.id);
    const expected = { children: ['Todo renamed'], progress: 100, item: 'completed', counts: 2 };
    const caughtUp = () =>
      Object.entries(expected).every(([k, v]) => JSON.stringify(last[k]) === JSON.stringify(v));
    await until(caughtUp).catch(() => undefined);
    for (const sub of subs) sub.unsubscribe();
    expect(last).toEqual(expected);
  });
});
