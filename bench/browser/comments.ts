/**
 * The page side of `npm run bench -- comments` (bench/comments.ts), issue 31's comment budgets, on
 * `window.commentsBench`. Loaded by entry.ts into the client-browser bench page.
 *
 *  shown: a comment sent (the `comments.add` command, as the composer sends it) with the seeded 10,000
 *       items stored, until its own timeline's live read (data/comments/timelineRead.ts, what
 *       useLive runs for the timeline) under a Dexie liveQuery holds it. The device is offline, so
 *       only the local write is timed. Reference: one raw IndexedDB put of a comment row plus one read
 *       of the timeline index's range, in a database with the same comments store and index.
 *  delivered: the same comment sent on one signed-in device (online: written, queued, pushed), until
 *       another signed-in device of the account (started: its event stream, its pulls) shows it in
 *       the same live read.
 */
import { liveQuery } from 'dexie';
import type { OutpostClient } from '../../src/client/data/client';
import { sendFor } from '../../src/client/data/commands/map';
import { itemComments } from '../../src/client/data/comments/timelineRead';
import { COMMENTS_TIMELINE_INDEX } from '../../src/client/data/store/db';
import type { LocalComment } from '../../src/client/data/store/types';
import { done, req } from './idb';
import { type LiveWatch, sleep, watchLive } from './liveTiming';
import { deleteDb, signedIn } from './localWrites';

interface Device {
  client: OutpostClient;
  online: (on: boolean) => void;
  stop: () => void;
}

interface State {
  a: Device;
  b: Device | null;
  itemId: number;
  itemUuid: string;
  raw: IDBDatabase;
  watchA: LiveWatch<LocalComment[]> | null;
  n: number;
}

let state: State | null = null;

async function startDevice(name: string, online: boolean): Promise<Device> {
  await deleteDb(name);
  const d = await signedIn(name);
  d.online(true);
  await d.client.engine.sync();
  d.online(online);
  const starting = d.client.start();
  d.client.screenShown();
  const stop = await starting;
  return { ...d, stop };
}

/** A raw database with the app's comments store and its timeline index. */
function openRawComments(name: string): Promise<IDBDatabase> {
  const open = indexedDB.open(name, 1);
  open.onupgradeneeded = () => {
    const store = open.result.createObjectStore('comments', { keyPath: 'id' });
    store.createIndex(COMMENTS_TIMELINE_INDEX, ['item_uuid', 'created_at']);
    store.createIndex('uuid', 'uuid');
    store.createIndex('item_id', 'item_id');
  };
  return req(open);
}

const commentsBench = {
  /** Device A pulled and started offline, the reference database, and a task to talk on. */
  async setup(): Promise<{ items: number }> {
    await deleteDb('cm-ref');
    const a = await startDevice('cm-a', false);
    const all = await a.client.db.items.toArray();
    const task = all.find((i) => i.type === 'task' && i.uuid)!;
    const raw = await openRawComments('cm-ref');
    state = { a, b: null, itemId: task.id, itemUuid: task.uuid!, raw, watchA: null, n: 0 };
    state.watchA = await watchLive(liveQuery(() => itemComments(a.client.db, task.id)));
    await sleep(300);
    return { items: all.length };
  },

  /** The app: a comment sent until its own timeline's live read holds it (offline: the local write). */
  async shown(): Promise<{ ms: number; storedMs: number }> {
    const e = state!;
    await e.a.client.db.syncQueue.clear();
    const uuid = crypto.randomUUID();
    const body = `bench ${++e.n}`;
    await sleep(30);
    return e.watchA!.time(
      () => sendFor(e.a.client)('comments.add', { itemId: e.itemId, body, mentions: [], uuid }),
      (rows) => rows.some((r) => r.uuid === uuid),
    );
  },

  /** The reference: one raw put of a comment row and one read of the timeline index's range. */
  async ref(): Promise<{ ms: number }> {
    const e = state!;
    const at = new Date().toISOString();
    const row = {
      id: -1_000_000 - ++e.n,
      uuid: crypto.randomUUID(),
      item_id: e.itemId,
      item_uuid: e.itemUuid,
      user: { id: 1, name: 'Bench' },
      body: `ref ${e.n}`,
      mentions: [],
      created_at: at,
      updated_at: at,
      edited: false,
      _syncStatus: 'pending',
      _deleted: 0,
      _base: null,
    };
    await sleep(30);
    const t0 = performance.now();
    const tx = e.raw.transaction('comments', 'readwrite');
    tx.objectStore('comments').put(row);
    await done(tx);
    const rows = (await req(
      e.raw
        .transaction('comments')
        .objectStore('comments')
        .index(COMMENTS_TIMELINE_INDEX)
        .getAll(IDBKeyRange.bound([e.itemUuid, ''], [e.itemUuid, '\uffff'])),
    )) as { uuid: string }[];
    const ms = performance.now() - t0;
    if (!rows.some((r) => r.uuid === row.uuid)) throw new Error('reference comment not read back');
    await sleep(50);
    return { ms };
  },

  /** Device A online, and device B of the same account pulled, started and online. */
  async setupDelivery(): Promise<void> {
    const e = state!;
    await e.a.client.db.syncQueue.clear();
    e.a.online(true);
    e.b = await startDevice('cm-b', true);
    await sleep(500);
  },

  /** A comment sent on device A until device B's timeline read holds it. */
  async delivered(): Promise<{ ms: number }> {
    const e = state!;
    const b = e.b!;
    const uuid = crypto.randomUUID();
    const body = `delivered ${++e.n}`;
    const watch = await watchLive<LocalComment[]>(liveQuery(() => itemComments(b.client.db, e.itemId)));
    const t = await watch.time(
      () => sendFor(e.a.client)('comments.add', { itemId: e.itemId, body, mentions: [], uuid }),
      (rows) => rows.some((r) => r.uuid === uuid),
    );
    watch.stop();
    await e.a.client.engine.settled();
    await sleep(100);
    return { ms: t.ms };
  },

  async teardown(): Promise<void> {
    const e = state;
    if (!e) return;
    e.watchA?.stop();
    for (const d of [e.a, e.b]) {
      if (!d) continue;
      d.stop();
      d.client.close();
    }
    e.raw.close();
    state = null;
    await deleteDb('cm-a');
    await deleteDb('cm-b');
    await deleteDb('cm-ref');
  },
};

(window as unknown as { commentsBench: typeof commentsBench }).commentsBench = commentsBench;
