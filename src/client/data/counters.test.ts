import { liveQuery } from 'dexie';
import { afterEach, describe, expect, it } from 'vitest';
import { createDevice, type Device } from '../../../testkit/client/harness';
import { countRowsFromScratch } from './counters';

let device: Device;
afterEach(() => device?.client.close());

/** Waits until `done` holds (a busy machine can take a while), or fails after 3 s. */
async function until(done: () => boolean): Promise<void> {
  for (let waited = 0; !done(); waited += 10) {
    if (waited > 3000) throw new Error(`timed out: ${String(done)}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

const settle = () => new Promise((r) => setTimeout(r, 100));

function guest() {
  device = createDevice('http://127.0.0.1:9');
  device.client.auth.getState().initGuest();
  return device.client;
}

describe('progress counters (counters.ts)', () => {
  it('a title edit re-runs no progress query; a completion re-runs them once with the new figures', async () => {
    const client = guest();
    const campaign = await client.items.create({ title: 'Campaign', type: 'campaign' });
    const task = await client.items.create({ title: 'Task', type: 'task', parent_id: campaign.id });
    const todo = await client.items.create({ title: 'Todo', type: 'todo', parent_id: task.id });
    await client.items.create({ title: 'Other', type: 'todo', parent_id: task.id });
    const runs = { rows: 0, task: 0 };
    const last: Record<string, unknown> = {};
    const subs = [
      liveQuery(() => {
        runs.rows += 1;
        return client.queries.subtreeProgress([campaign.id, task.id]);
      }).subscribe({ next: (v) => (last.rows = v.get(campaign.id)?.completed) }),
      liveQuery(() => {
        runs.task += 1;
        return client.queries.progressFor(task.id);
      }).subscribe({ next: (v) => (last.task = v.completed) }),
    ];
    await until(() => last.rows !== undefined && last.task !== undefined);
    const before = { ...runs };
    await client.items.update(todo.id, { title: 'Todo renamed' });
    await client.items.update(task.id, { title: 'Task renamed' });
    await settle();
    expect(runs).toEqual(before);
    await client.items.toggle(todo.id);
    await until(() => last.rows === 1 && last.task === 1);
    await settle();
    for (const sub of subs) sub.unsubscribe();
    expect(runs).toEqual({ rows: before.rows + 1, task: before.task + 1 });
  });

  it('a detail page learns what is open inside for Complete, and progress through the whole subtree', async () => {
    const client = guest();
    const campaign = await client.items.create({ title: 'Campaign', type: 'campaign' });
    const task = await client.items.create({ title: 'Task', type: 'task', parent_id: campaign.id });
    const todos = [];
    for (const title of ['A', 'B', 'C'])
      todos.push(await client.items.create({ title, type: 'todo', parent_id: task.id }));
    await client.items.create({ title: 'Loose', type: 'todo', parent_id: campaign.id });
    await client.items.toggle(todos[0]!.id);
    expect(await client.queries.inside(campaign.id)).toEqual({
      progress: { total: 4, completed: 1, percent: 25, remaining: 3 },
      inside: 5,
      open: 4,
    });
    await client.items.remove(todos[1]!.id);
    expect(await client.queries.inside(campaign.id)).toMatchObject({ inside: 4, open: 3 });
    const rows = await client.db.items.toArray();
    expect((await client.db.counts.toArray()).length).toBe(countRowsFromScratch(rows).length);
  });
});
