import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import { createDevice, createSynced, type Device, signIn } from '../../../../testkit/client/harness';
import { freshPhone } from '../../../../testkit/client/server';
import { serverPerFile } from '../../../../testkit/client/serverPerFile';
import { plainDexie } from '../../../../testkit/plainDexie';
import { writeGuessesOf } from '../changes/writeGuess';
import { deviceReads } from '../reads/live';
import type { LocalItem } from '../store/types';

// Edits in place, one after another and from two tabs of one browser (itemsRepository `write`): each
// starts from the row as stored, so whatever another tab changed since is kept, and the queue keeps
// every request in the order it was made.

const files = serverPerFile();
const devices = files.devices;

async function signedIn(): Promise<Device> {
  const d = createDevice(files.server.url);
  devices.push(d);
  await signIn(d, freshPhone());
  return d;
}

/** A second tab of the same browser: same IndexedDB, its own client (and repository). */
function secondTab(d: Device): Device {
  const tab = createDevice(files.server.url, d.name, { idb: d.idb, jar: d.jar });
  devices.push(tab);
  tab.goOffline();
  return tab;
}

async function queueOf(d: Device, itemId: number) {
  const rows = await d.client.db.syncQueue.orderBy('seq').toArray();
  return rows.filter((r) => r.itemId === itemId).map((r) => ({ kind: r.kind, data: r.data, seq: r.seq }));
}

describe('edits in place, one after another', () => {
  it('stores and queues every edit of the same row in order', async () => {
    const d = await signedIn();
    d.goOffline();
    const item = await d.client.items.create({ title: 'Draft', type: 'todo' });
    await d.client.items.update(item.id, { title: 'First' });
    await d.client.items.update(item.id, { title: 'Second' });
    await d.client.items.update(item.id, { description: 'Notes' });
    const row = await d.client.db.items.get(item.id);
    expect(row).toMatchObject({ title: 'Second', description: 'Notes', _syncStatus: 'pending' });
    expect(row?._dirty).toEqual(expect.arrayContaining(['title', 'description']));
    const queued = await queueOf(d, item.id);
    expect(queued.map((q) => [q.kind, q.data])).toEqual([
      ['create', expect.objectContaining({ title: 'Draft' })],
      ['update', { title: 'First' }],
      ['update', { title: 'Second' }],
      ['update', { description: 'Notes' }],
    ]);
    const seqs = queued.map((q) => q.seq);
    expect(seqs).toEqual([...seqs].sort((a, b) => a - b));
    expect(new Set(seqs).size).toBe(seqs.length);
  });

  it("keeps another tab's change to the row made between two edits", async () => {
    const d = await signedIn();
    const item = await createSynced(d, { title: 'Shared row', type: 'todo' });
    d.goOffline();
    const tab = secondTab(d);
    await d.client.items.update(item.id, { title: 'Mine 1' });
    await tab.client.items.update(item.id, { description: 'From the other tab' });
    await d.client.items.update(item.id, { title: 'Mine 2' });
    const row = await d.client.db.items.get(item.id);
    expect(row).toMatchObject({ title: 'Mine 2', description: 'From the other tab' });
    // Three edits after the create, each counted once.
    expect(row?._localVersion).toBe(item._localVersion + 3);
    expect((await queueOf(d, item.id)).map((q) => q.data)).toEqual([
      { title: 'Mine 1' },
      { description: 'From the other tab' },
      { title: 'Mine 2' },
    ]);
  });

  it('queues an edit after what another tab queued meanwhile, on any item', async () => {
    const d = await signedIn();
    const mine = await createSynced(d, { title: 'Mine', type: 'todo' });
    const theirs = await createSynced(d, { title: 'Theirs', type: 'todo' });
    d.goOffline();
    const tab = secondTab(d);
    await d.client.items.update(mine.id, { title: 'Mine, edited' });
    await tab.client.items.update(theirs.id, { title: 'Theirs, edited' });
    await d.client.items.update(mine.id, { title: 'Mine, edited again' });
    const all = await d.client.db.syncQueue.orderBy('seq').toArray();
    expect(all.map((q) => q.data?.title)).toEqual(['Mine, edited', 'Theirs, edited', 'Mine, edited again']);
    expect(new Set(all.map((q) => q.seq)).size).toBe(all.length);
  });

  it('stores a row deleted by another tab as deleted, not edited', async () => {
    const d = await signedIn();
    const item = await createSynced(d, { title: 'Going', type: 'todo' });
    d.goOffline();
    const tab = secondTab(d);
    await d.client.items.update(item.id, { title: 'Going, edited' });
    await tab.client.items.remove(item.id);
    await expect(d.client.items.update(item.id, { title: 'Too late' })).rejects.toThrow();
    const row = await d.client.db.items.get(item.id);
    expect(row?.title).not.toBe('Too late');
  });

  it('W15: edits of one row asked for before the one before is stored are stored in the order asked, the last one winning', async () => {
    for (const guest of [true, false]) {
      const d = guest ? createDevice(files.server.url) : await signedIn();
      if (guest) devices.push(d);
      d.goOffline();
      const item = await d.client.items.create({ title: 'Slab', type: 'task', due_date: '2026-12-01' });
      const known = (await d.client.db.items.get(item.id))!;
      await d.client.items.update(item.id, { due_date: '2026-12-02' });
      // A held arrow: each key asks for the next day before the last key's write is stored. The
      // second key's guess is a row the tab saw before the first key's write (a list read answering
      // late), so its edit is made again from a fresh read while the third key's, guessed right, goes on.
      const guesses = writeGuessesOf(d.client.db);
      const row = guesses.row.bind(guesses);
      let first = true;
      vi.spyOn(guesses, 'row').mockImplementation((id) => {
        if (id !== item.id || !first) return row(id);
        first = false;
        return known;
      });
      const days = ['2026-12-03', '2026-12-04', '2026-12-05', '2026-12-06'];
      await Promise.all(days.map((due_date) => d.client.items.update(item.id, { due_date })));
      vi.restoreAllMocks();
      expect(first).toBe(false);
      expect((await d.client.db.items.get(item.id))?.due_date?.slice(0, 10)).toBe('2026-12-06');
      if (!guest)
        expect(
          (await queueOf(d, item.id)).slice(2).map((q) => String(q.data?.due_date).slice(0, 10)),
        ).toEqual(days);
    }
  });

  it("a guest's edits of the same row, one after another, are all stored", async () => {
    const d = createDevice(files.server.url);
    devices.push(d);
    const item = await d.client.items.create({ title: 'Guest row', type: 'todo' });
    for (const title of ['One', 'Two', 'Three']) await d.client.items.update(item.id, { title });
    const tab = secondTab(d);
    await tab.client.items.update(item.id, { description: 'Tab' });
    await d.client.items.update(item.id, { title: 'Four' });
    expect(await d.client.db.items.get(item.id)).toMatchObject({ title: 'Four', description: 'Tab' });
    expect(await d.client.db.syncQueue.count()).toBe(0);
  });
});

describe('W9: an edit in place from what the tab already knows', () => {
  const patches = fc.oneof(
    fc.record({ title: fc.string({ minLength: 1, maxLength: 12 }).filter((t) => t.trim() !== '') }),
    fc.record({ description: fc.string({ maxLength: 20 }) }),
    fc.record({ priority: fc.constantFrom(1, 2, 3, 4) }),
    fc.record({ labels: fc.uniqueArray(fc.constantFrom('home', 'work', 'later'), { maxLength: 2 }) }),
    fc.record({ due_date: fc.constantFrom(null, '2026-12-01', '2027-01-15') }),
  );
  const kept = (row: LocalItem | undefined) => ({
    title: row?.title,
    description: row?.description,
    priority: row?.priority,
    labels: row?.labels,
    due_date: row?.due_date,
    localVersion: row?._localVersion,
    dirty: [...(row?._dirty ?? [])].sort(),
  });

  it('W9: an edit guessed from the row this tab last wrote stores and queues what an edit that reads first does', async () => {
    const guessing = await signedIn();
    const reading = await signedIn();
    guessing.goOffline();
    reading.goOffline();
    await fc.assert(
      fc.asyncProperty(fc.array(patches, { minLength: 1, maxLength: 5 }), async (steps) => {
        const a = await guessing.client.items.create({ title: 'Row', type: 'todo' });
        const b = await reading.client.items.create({ title: 'Row', type: 'todo' });
        for (const patch of steps) {
          await guessing.client.items.update(a.id, patch);
          // The other device forgets the row before each edit, so it reads it first.
          writeGuessesOf(reading.client.db).forget(b.id);
          await reading.client.items.update(b.id, patch);
        }
        expect(kept(await guessing.client.db.items.get(a.id))).toEqual(
          kept(await reading.client.db.items.get(b.id)),
        );
        // The edits' requests (each list starts with its own create, uuid and key apart).
        expect((await queueOf(guessing, a.id)).slice(1).map((q) => q.data)).toEqual(
          (await queueOf(reading, b.id)).slice(1).map((q) => q.data),
        );
      }),
      { numRuns: 8 },
    );
  });

  it('W9: a guess the stored row no longer matches is dropped whole and made again from the stored row', async () => {
    const d = await signedIn();
    d.goOffline();
    const item = await d.client.items.create({ title: 'Known', type: 'todo' });
    await d.client.items.update(item.id, { title: 'Known, edited' });
    const before = await d.client.db.items.get(item.id);
    const undoBefore = await d.client.db.undo.count();
    // Written behind the tab's writes, as a pull would, with nothing queued: only the row tells.
    await d.client.db.items.update(item.id, { description: 'Written elsewhere', _localVersion: 40 });
    await d.client.items.update(item.id, { title: 'Known, again' });
    const row = await d.client.db.items.get(item.id);
    expect(row).toMatchObject({ title: 'Known, again', description: 'Written elsewhere', _localVersion: 41 });
    expect(before?._localVersion).toBeLessThan(40);
    expect((await queueOf(d, item.id)).map((q) => q.data)).toEqual([
      expect.objectContaining({ title: 'Known' }),
      { title: 'Known, edited' },
      { title: 'Known, again' },
    ]);
    expect(await d.client.db.undo.count()).toBe(undoBefore + 1);
  });

  it('W9: a guess of the queue a later row contradicts is made again after that row', async () => {
    const d = await signedIn();
    d.goOffline();
    const item = await d.client.items.create({ title: 'Queued', type: 'todo' });
    await d.client.items.update(item.id, { title: 'Queued, edited' });
    const last = (await d.client.db.syncQueue.orderBy('seq').last())!;
    // Queued behind the tab's writes, as another writer would.
    await d.client.db.syncQueue.add({ ...last, id: crypto.randomUUID(), seq: last.seq + 5, itemId: -999 });
    await d.client.items.update(item.id, { title: 'Queued, again' });
    const mine = await queueOf(d, item.id);
    expect(mine.map((q) => q.data?.title)).toEqual(['Queued', 'Queued, edited', 'Queued, again']);
    expect(mine.at(-1)!.seq).toBeGreaterThan(last.seq + 5);
  });
  it('I12: an edit in place of a row the tab knows opens no Dexie transaction; one of a row it does not know reads it first in one', async () => {
    const d = await signedIn();
    // A server id: a temporary one may be swapped for it meanwhile, and is read first (W9).
    const item = await createSynced(d, { title: 'Raw', type: 'todo' });
    d.goOffline();
    await d.client.items.update(item.id, { description: 'Known' });
    const transactions = vi.spyOn(d.client.db, 'transaction');
    await d.client.items.update(item.id, { title: 'Raw, edited' });
    // Plain-Dexie mode (testkit/plainDexie.ts) makes it in a Dexie transaction.
    if (!plainDexie) expect(transactions).not.toHaveBeenCalled();
    writeGuessesOf(d.client.db).forget(item.id);
    await d.client.items.update(item.id, { title: 'Raw, again' });
    expect(transactions).toHaveBeenCalled();
    transactions.mockRestore();
    expect(await d.client.db.items.get(item.id)).toMatchObject({
      title: 'Raw, again',
      _syncStatus: 'pending',
    });
    expect((await queueOf(d, item.id)).map((q) => q.data)).toEqual([
      { description: 'Known' },
      { title: 'Raw, edited' },
      { title: 'Raw, again' },
    ]);
    // Each edit recorded what undoes it: the last one undone puts the title before it back.
    await (await d.client.undo()).undo();
    expect((await d.client.db.items.get(item.id))?.title).toBe('Raw, edited');
  });

  it('W9: the rows a list on screen reads are what an edit of one of them starts from', async () => {
    const d = await signedIn();
    d.goOffline();
    const task = await d.client.items.create({ title: 'Parent', type: 'task' });
    const todo = await d.client.items.create({ title: 'Child', type: 'todo', parent_id: task.id });
    writeGuessesOf(d.client.db).forget(todo.id);
    const [shown] = await deviceReads(d.client).children(task.id);
    expect(shown?.id).toBe(todo.id);
    expect(writeGuessesOf(d.client.db).row(todo.id)).toEqual(await d.client.db.items.get(todo.id));
    await d.client.items.update(todo.id, { title: 'Child, renamed' });
    expect(await d.client.db.items.get(todo.id)).toMatchObject({
      title: 'Child, renamed',
      parent_id: task.id,
    });
  });
});
