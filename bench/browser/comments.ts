/**
 * The page side of `npm run bench -- comments` (bench/comments.ts), issue 31's comment budgets, on
 * `window.commentsBench`. Loaded by entry.ts into the client-browser bench page.
 *
 *  shown: a comment sent (the `comments.add` command, as the composer sends it) with the seeded 10,000
 *       items stored, until its own timeline's live read (data/reads/timelineRead.ts, what
 *       useLive runs for the timeline) under a Dexie liveQuery holds it. The device is offline, so
 *       only the local write is timed. Reference: one raw IndexedDB put of a comment row plus one read
 *       of the timeline index's range, in a database with the same comments store and index.
 *  delivered: the same comment sent on one signed-in device (online: written, queued, pushed), until
 *       another signed-in device of the account, in another browser context with its own session
 *       (started: its event stream, its pulls), shows it in the same live read; both pages stamp
 *       times on the same clock (performance.timeOrigin + now).
 */
import { liveQuery } from 'dexie';
import type { Item } from '../../src/shared/item';
import {
  COMMENTS_TIMELINE_INDEX,
  fromServer,
  itemComments,
  type LocalComment,
  type OutpostClient,
  withKeys,
} from '../lib/appData';
import { done, req } from './idb';
import { type LiveWatch, sleep, watchLive } from './liveTiming';
import { deleteDb, openRaw, signedIn } from './localWrites';

interface Device {
  client: OutpostClient;
  online: (on: boolean) => void;
  stop: () => void;
}

interface State {
  a: Device;
  itemId: number;
  itemUuid: string;
  raw: IDBDatabase;
  watchA: LiveWatch<LocalComment[]> | null;
  n: number;
}

let state: State | null = null;

/** Device B, in the other page's context. */
let other: {
  b: Device;
  seen: Map<string, number>;
  waiting: Map<string, (at: number) => void>;
  stop: () => void;
} | null = null;

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
    // The seed's rows carry no uuid: the timeline files their comments under `#id` (timelineRead.ts).
    const task = all.find((i) => i.type === 'task') ?? all[0]!;
    const raw = await openRawComments('cm-ref');
    const itemUuid = task.uuid ?? `#${task.id}`;
    state = { a, itemId: task.id, itemUuid, raw, watchA: null, n: 0 };
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
      () => e.a.client.send('comments.add', { itemId: e.itemId, body, mentions: [], uuid }),
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

  /** Device A online: its writes are pushed at once. Answers the item the comments go on. */
  async goOnline(): Promise<number> {
    const e = state!;
    await e.a.client.db.syncQueue.clear();
    e.a.online(true);
    await sleep(300);
    return e.itemId;
  },

  /** Sends a comment on device A; answers when it was sent (epoch ms, comparable across pages). */
  async send(uuid: string): Promise<number> {
    const e = state!;
    const t0 = performance.timeOrigin + performance.now();
    await e.a.client.send('comments.add', {
      itemId: e.itemId,
      body: `delivered ${++e.n}`,
      mentions: [],
      uuid,
    });
    return t0;
  },

  /**
   * Device B (another browser context: its own session) of the same account, pulled, started and
   * online, watching the item's timeline read and noting when each comment first shows.
   */
  async watchOther(itemId: number): Promise<void> {
    const b = await startDevice('cm-b', true);
    const seen = new Map<string, number>();
    const waiting = new Map<string, (at: number) => void>();
    const sub = liveQuery(() => itemComments(b.client.db, itemId)).subscribe({
      next: (rows) => {
        const at = performance.timeOrigin + performance.now();
        for (const r of rows) {
          if (seen.has(r.uuid)) continue;
          seen.set(r.uuid, at);
          waiting.get(r.uuid)?.(at);
        }
      },
    });
    other = { b, seen, waiting, stop: () => sub.unsubscribe() };
    await sleep(500);
  },

  /** When device B first showed the comment (epoch ms); rejects after `timeoutMs`. */
  shownOnOther(uuid: string, timeoutMs: number): Promise<number> {
    const o = other!;
    const known = o.seen.get(uuid);
    if (known !== undefined) return Promise.resolve(known);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`comment ${uuid} not shown on the other device in ${timeoutMs} ms`)),
        timeoutMs,
      );
      o.waiting.set(uuid, (at) => {
        clearTimeout(timer);
        resolve(at);
      });
    });
  },

  async teardownOther(): Promise<void> {
    const o = other;
    if (!o) return;
    o.stop();
    o.b.stop();
    o.b.client.close();
    other = null;
    await deleteDb('cm-b');
  },

  /**
   * C, the app: a fresh device of the account (signed in, untimed) syncs from nothing until every
   * item and comment is stored (one engine.sync()).
   */
  async firstSync(run: number): Promise<{ ms: number; items: number; comments: number }> {
    const name = `cm-fs-${run}`;
    await deleteDb(name);
    const d = await signedIn(name);
    d.online(true);
    const t0 = performance.now();
    await d.client.engine.sync();
    const ms = performance.now() - t0;
    const [items, comments] = await Promise.all([d.client.db.items.count(), d.client.db.comments.count()]);
    d.client.close();
    await deleteDb(name);
    return { ms, items, comments };
  },

  /**
   * C, the reference: the bare paged pull of the same data, GET /api/sync page after page from the
   * empty cursor, each page's items (with their list keys) and comments put in one raw IndexedDB
   * transaction of a database with the app's stores and indexes.
   */
  async barePull(run: number): Promise<{ ms: number; items: number; comments: number }> {
    const name = `cm-raw-${run}`;
    await deleteDb(name);
    const raw = await openRaw(name);
    const t0 = performance.now();
    let cursor = '';
    let items = 0;
    let comments = 0;
    for (let pages = 0; pages < 10_000; pages++) {
      const res = await fetch(`/api/sync?cursor=${encodeURIComponent(cursor)}`, {
        headers: { Accept: 'application/json' },
      });
      const page = (await res.json()) as {
        items: Item[];
        comments?: (LocalComment & { item_uuid: string | null })[];
        cursor: string;
        has_more: boolean;
      };
      const tx = raw.transaction(['items', 'comments', 'meta'], 'readwrite');
      const itemStore = tx.objectStore('items');
      for (const item of page.items) itemStore.put(withKeys(fromServer(item)));
      const commentStore = tx.objectStore('comments');
      for (const c of page.comments ?? [])
        commentStore.put({
          ...c,
          item_uuid: c.item_uuid ?? `#${c.item_id}`,
          _syncStatus: 'synced',
          _deleted: 0,
          _base: null,
        });
      tx.objectStore('meta').put({ key: 'cursor', value: page.cursor });
      await done(tx);
      items += page.items.length;
      comments += page.comments?.length ?? 0;
      cursor = page.cursor;
      if (!page.has_more) break;
    }
    const ms = performance.now() - t0;
    raw.close();
    await deleteDb(name);
    return { ms, items, comments };
  },

  async teardown(): Promise<void> {
    const e = state;
    if (!e) return;
    e.watchA?.stop();
    e.a.stop();
    e.a.client.close();
    e.raw.close();
    state = null;
    await deleteDb('cm-a');
    await deleteDb('cm-ref');
  },
};

(window as unknown as { commentsBench: typeof commentsBench }).commentsBench = commentsBench;
