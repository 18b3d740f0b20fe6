import { liveQuery } from 'dexie';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { anotherConnection, closeFakeDbs, freshFakeDb } from '../../../../testkit/client/fakeDb';
import { createDevice, type Device } from '../../../../testkit/client/harness';
import { serverItem } from '../../../../testkit/client/items';
import type { Item, ItemStatus, ItemType } from '../../../shared/item';
import { deviceReads } from '../reads/live';
import { applyPulled } from '../sync';
import { COUNT_SLICE, type CountsRow, countRowsFromScratch, inSlices } from './counters';
import { flushPendingCounts, PENDING_COUNTS } from './counterUpkeep';
import type { OutpostDb } from './db';
import { listKeysOf } from './listKeys';
import { fromServer } from './localItems';
import { topFlagsFromScratch } from './topFlags';
import type { LocalItem } from './types';

let device: Device;
afterEach(() => {
  device?.client.close();
  closeFakeDbs();
});

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
  it('a title edit re-runs no progress query; a completion re-runs them with the new figures, once or at most twice', async () => {
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
        return deviceReads(client).subtreeProgress([campaign.id, task.id]);
      }).subscribe({ next: (v) => (last.rows = v.get(campaign.id)?.completed) }),
      liveQuery(() => {
        runs.task += 1;
        return deviceReads(client).progress(task.id);
      }).subscribe({ next: (v) => (last.task = v.completed) }),
    ];
    await until(() => last.rows !== undefined && last.task !== undefined);
    // The creates' own signals may still be on their way (Dexie's query cache signals a write on a
    // timer as well as at its commit): a re-run they cause belongs to them, not to the edits below.
    await settle();
    const before = { ...runs };
    await client.items.update(todo.id, { title: 'Todo renamed' });
    await client.items.update(task.id, { title: 'Task renamed' });
    await settle();
    expect(runs).toEqual(before);
    await client.items.toggle(todo.id);
    await until(() => last.rows === 1 && last.task === 1);
    await settle();
    for (const sub of subs) sub.unsubscribe();
    // Once at the commit; Dexie's query cache may also signal the write before it commits (its
    // optimistic update, on a timer that a busy machine fires before the commit): at most twice.
    for (const name of ['rows', 'task'] as const) {
      expect(runs[name] - before[name]).toBeGreaterThanOrEqual(1);
      expect(runs[name] - before[name]).toBeLessThanOrEqual(2);
    }
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
    expect(await deviceReads(client).inside(campaign.id)).toEqual({
      progress: { total: 4, completed: 1, percent: 25, remaining: 3 },
      inside: 5,
      open: 4,
    });
    await client.items.remove(todos[1]!.id);
    expect(await deviceReads(client).inside(campaign.id)).toMatchObject({ inside: 4, open: 3 });
    const rows = await client.db.items.toArray();
    expect((await client.db.counts.toArray()).length).toBe(countRowsFromScratch(rows).length);
  });

  it('a pulled page written in many chunks counts the whole page once, exactly as from scratch', async () => {
    const db = freshFakeDb('counts');
    const item = (id: number, type: ItemType, parent: number | null, status: ItemStatus): Item =>
      serverItem(id, `Item ${id}`, { uuid: `u-${id}`, type, status, parent_id: parent });
    // Children before their parents and spread over five chunks of 100: every counter is touched by
    // rows of several chunks.
    const page: Item[] = [];
    for (let i = 0; i < 400; i++) {
      const task = 1_000 + (i % 20);
      page.push(item(10_000 + i, 'todo', task, i % 3 === 0 ? 'completed' : 'pending'));
    }
    for (let t = 0; t < 20; t++)
      page.push(item(1_000 + t, 'task', 100 + (t % 4), t % 5 === 0 ? 'completed' : 'pending'));
    for (let c = 0; c < 4; c++) page.push(item(100 + c, 'campaign', null, 'in_progress'));
    const writes: string[] = [];
    db.use({
      stack: 'dbcore',
      name: 'countWrites',
      // Below the items middleware, which writes the counters through the core beneath it.
      level: 1,
      create: (down) => ({
        ...down,
        table: (name) => {
          const table = down.table(name);
          return name === 'counts'
            ? {
                ...table,
                mutate: (req) => {
                  writes.push(req.type);
                  return table.mutate(req);
                },
              }
            : table;
        },
      }),
    });
    const byKey = (rows: CountsRow[]) =>
      [...rows].sort((a, b) => `${a.parent}|${a.scope}`.localeCompare(`${b.parent}|${b.scope}`));
    await applyPulled(db, page, 'c1');
    expect(writes.length).toBe(1);
    expect(byKey(await db.counts.toArray())).toEqual(byKey(countRowsFromScratch(await db.items.toArray())));
    // A second page moves, completes and removes across the same counters.
    const next: Item[] = [
      ...page.slice(0, 150).map(
        (i, n) =>
          ({
            ...i,
            version: 2,
            status: n % 2 === 0 ? 'completed' : 'pending',
            parent_id: n % 7 === 0 ? 1_003 : i.parent_id,
          }) as Item,
      ),
      { id: 1_001, uuid: 'u-1001', deleted_at: '2026-01-02T00:00:00.000Z' } as unknown as Item,
      { ...page[405]!, version: 2, parent_id: 101 } as Item,
    ];
    await applyPulled(db, next, 'c2');
    expect(byKey(await db.counts.toArray())).toEqual(byKey(countRowsFromScratch(await db.items.toArray())));
  });

  it('I3: a long list is gone through a slice at a time, each slice after a breath, the first at once', async () => {
    const seen: string[] = [];
    const list = Array.from({ length: 2 * COUNT_SLICE + 1 }, (_, i) => i);
    const done = inSlices(
      list,
      (slice) => seen.push(`slice of ${slice.length} from ${slice[0]}`),
      () => {
        seen.push('breath');
        return Promise.resolve();
      },
    );
    // The first slice runs in the caller's task; the others wait for their breath.
    expect(seen).toEqual([`slice of ${COUNT_SLICE} from 0`]);
    await done;
    expect(seen).toEqual([
      `slice of ${COUNT_SLICE} from 0`,
      'breath',
      `slice of ${COUNT_SLICE} from ${COUNT_SLICE}`,
      'breath',
      `slice of 1 from ${2 * COUNT_SLICE}`,
    ]);
    // A short list: one slice, no breath.
    const short: string[] = [];
    await inSlices(
      [1, 2],
      (slice) => short.push(`${slice.length}`),
      () => Promise.reject(new Error('no breath')),
    );
    expect(short).toEqual(['2']);
  });

  it('I3: thousands of changes counted at once, in several tasks and turns of writes, give the counters from scratch', async () => {
    const db = freshFakeDb('large');
    const item = (id: number, type: ItemType, parent: number | null, status: ItemStatus = 'pending'): Item =>
      serverItem(id, `Item ${id}`, { uuid: `u-${id}`, type, status, parent_id: parent });
    // 2,811 counters (eleven campaigns, 2,800 tasks with a todo each): many turns of writes, and
    // more changes than one task goes through (COUNT_SLICE).
    const campaigns = Array.from({ length: 11 }, (_, c) => item(100 + c, 'campaign', null, 'in_progress'));
    const tasks = Array.from({ length: 2_800 }, (_, t) => item(1_000 + t, 'task', 100 + (t % 11)));
    const todos = tasks.map((t, i) => item(10_000 + i, 'todo', t.id, i % 3 === 0 ? 'completed' : 'pending'));
    const byKey = (rows: CountsRow[]) =>
      [...rows].sort((a, b) => `${a.parent}|${a.scope}`.localeCompare(`${b.parent}|${b.scope}`));
    // Two transactions of one pull: the last counts every change of both (5,611 of them).
    expect(tasks.length + todos.length + campaigns.length).toBeGreaterThan(COUNT_SLICE);
    await applyPulled(db, [...todos.slice(0, 600), ...campaigns], 'c1', {}, true);
    await applyPulled(db, [...tasks, ...todos.slice(600)], 'c2', {}, false);
    const counted = byKey(await db.counts.toArray());
    expect(counted.length).toBeGreaterThan(2_800);
    expect(counted).toEqual(byKey(countRowsFromScratch(await db.items.toArray())));
  });

  it('I3: a pull of several transactions counts its rows once, in its last; an edit between them, here or in another tab, is counted once', async () => {
    const db = freshFakeDb('pending');
    const item = (id: number, type: ItemType, parent: number | null, status: ItemStatus = 'pending'): Item =>
      serverItem(id, `Item ${id}`, { uuid: `u-${id}`, type, status, parent_id: parent });
    // Three pages over the same parents: every counter is touched by each of them.
    const pages: Item[][] = [[], [], []];
    for (let c = 0; c < 3; c++) pages[c]!.push(item(100 + c, 'campaign', null, 'in_progress'));
    for (let t = 0; t < 12; t++) pages[t % 3]!.push(item(1_000 + t, 'task', 100 + (t % 3)));
    for (let i = 0; i < 240; i++)
      pages[i % 3]!.push(item(10_000 + i, 'todo', 1_000 + (i % 12), i % 4 === 0 ? 'completed' : 'pending'));
    // A task that gets its first child from the edit below, and its own from the last page (the
    // counter it adds to its campaign moves from 'no children' to 'some').
    pages[0]!.push(item(2_000, 'task', 101));
    pages[2]!.push(item(20_000, 'todo', 2_000));
    const byKey = (rows: CountsRow[]) =>
      [...rows].sort((a, b) => `${a.parent}|${a.scope}`.localeCompare(`${b.parent}|${b.scope}`));
    const fromScratch = async (on: OutpostDb) => byKey(countRowsFromScratch(await on.items.toArray()));
    const pendingRows = (on: OutpostDb) => on.meta.where(':id').startsWith(PENDING_COUNTS).count();

    await applyPulled(db, pages[0]!, 'c1', {}, true);
    // No counter is written; the rows wait in the meta store.
    expect(await db.counts.count()).toBe(0);
    expect(await pendingRows(db)).toBeGreaterThan(0);
    // Another tab (its own connection) completes a pulled todo and adds a child to the childless task:
    // its write counts the pending rows with its own.
    const other = anotherConnection(db);
    const todo = (await other.items.get(10_003))!;
    await other.items.put({ ...todo, status: 'completed' });
    await other.items.put(fromServer(item(30_000, 'todo', 2_000)));
    expect(await pendingRows(db)).toBe(0);
    expect(byKey(await db.counts.toArray())).toEqual(await fromScratch(db));
    other.close();

    await applyPulled(db, pages[1]!, 'c2', {}, true);
    // A later transaction of the pull changes a row an earlier one left pending: counted as one change.
    const again = { ...item(10_001, 'todo', 1_004, 'completed'), version: 5 };
    await applyPulled(db, [...pages[2]!.slice(0, 20), again], 'c2b', {}, true);
    expect(await pendingRows(db)).toBe(2);
    // A title edit moves no counter: it leaves the pending rows to the pull.
    await db.items.update(10_001, { title: 'Renamed' });
    expect(await pendingRows(db)).toBeGreaterThan(0);
    // This tab reopens a pulled todo and moves a task under another campaign.
    await db.items.update(10_000, { status: 'pending' });
    await db.items.update(1_001, { parent_id: 102 });
    expect(byKey(await db.counts.toArray())).toEqual(await fromScratch(db));

    await applyPulled(db, pages[2]!.slice(20), 'c3', {}, false);
    expect(await pendingRows(db)).toBe(0);
    expect(byKey(await db.counts.toArray())).toEqual(await fromScratch(db));

    // A pull that stops before its last transaction: counted by flushPendingCounts (the pull's end)
    // or, if the app closed first, at the next open.
    const more: Item[] = [item(3_000, 'task', 100), item(30_001, 'todo', 3_000, 'completed')];
    await applyPulled(db, more.slice(0, 1), 'c4', {}, true);
    await flushPendingCounts(db);
    expect(byKey(await db.counts.toArray())).toEqual(await fromScratch(db));
    await applyPulled(db, more.slice(1), 'c5', {}, true);
    db.close();
    const reopened = anotherConnection(db);
    await reopened.open();
    expect(await pendingRows(reopened)).toBe(0);
    expect(byKey(await reopened.counts.toArray())).toEqual(await fromScratch(reopened));
    reopened.close();
  });

  it('I1, I2, I3: pulled pages of hundreds of rows, parents in any chunk, on the page or stored, keep flags, list keys and counters as from scratch', async () => {
    const TYPES = ['campaign', 'task', 'todo'] as const;
    const STATUSES = ['pending', 'in_progress', 'completed'] as const;
    // A parent always has a smaller id (no cycles); page order is shuffled, so children often come
    // chunks before their parents, and parents come from earlier pages or from what is stored.
    const entry = fc.record({
      id: fc.integer({ min: 2, max: 600 }),
      parent: fc.option(fc.nat(100), { nil: null }),
      type: fc.constantFrom(...TYPES),
      status: fc.constantFrom(...STATUSES),
      gone: fc.integer({ min: 0, max: 9 }).map((n) => n === 0),
    });
    const stored = fc.record({
      id: fc.integer({ min: 1, max: 600 }),
      parent: fc.option(fc.nat(100), { nil: null }),
      kind: fc.constantFrom('synced', 'local', 'marked'),
    });
    let run = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.array(stored, { maxLength: 40 }),
        fc.array(fc.array(entry, { minLength: 150, maxLength: 450 }), { minLength: 1, maxLength: 3 }),
        async (before, pages) => {
          const db = freshFakeDb(`pulled-pages-${++run}`);
          const parentOf = (id: number, parent: number | null) =>
            parent === null ? null : Math.max(1, Math.floor((id - 1) * (parent / 100)));
          const item = (e: { id: number; parent: number | null; type: ItemType; status: ItemStatus }) =>
            serverItem(e.id, `Item ${e.id}`, {
              uuid: `u-${e.id}`,
              type: e.type,
              status: e.status,
              parent_id: parentOf(e.id, e.parent),
              version: 2 + run,
            });
          await db.items.bulkPut(
            before.map((b): LocalItem => {
              const row = fromServer(item({ id: b.id, parent: b.parent, type: 'task', status: 'pending' }));
              if (b.kind === 'local') return { ...row, _syncStatus: 'local' };
              if (b.kind === 'marked') return { ...row, _syncStatus: 'pending', _deleted: 1 };
              return { ...row, version: 1 };
            }),
          );
          for (const [n, page] of pages.entries()) {
            const changes = page.map((e) =>
              e.gone
                ? ({ id: e.id, uuid: `u-${e.id}`, deleted_at: '2026-02-01T00:00:00.000Z' } as unknown as Item)
                : item(e),
            );
            await applyPulled(db, changes, `c${n}`);
          }
          const rows = await db.items.toArray();
          const flags = topFlagsFromScratch(rows);
          for (const row of rows) {
            expect({ _top: row._top, _stop: row._stop }).toEqual(flags.get(row.id));
            expect({ _scope: row._scope, _sk: row._sk, _uk: row._uk, _asg: row._asg }).toEqual({
              _asg: undefined,
              ...listKeysOf(row),
            });
          }
          const key = (r: CountsRow) => `${r.parent}|${r.scope}`;
          const sorted = (list: CountsRow[]) => [...list].sort((a, b) => key(a).localeCompare(key(b)));
          expect(sorted(await db.counts.toArray())).toEqual(sorted(countRowsFromScratch(rows)));
          db.close();
        },
      ),
      { numRuns: 12 },
    );
  }, 120_000);
});
