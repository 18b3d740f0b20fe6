/**
 * The page side of `npm run bench -- client-browser` (bench/clientBrowser.ts builds this module with
 * Vite and the real server serves it on the API's origin). It loads the app's own data layer,
 * createOutpostClient from src/client/data/client.ts, unchanged, and a raw-IndexedDB reference with
 * the same object stores and indexes, and exposes one function per timed step on `window.bench`. The
 * Node side calls them alternately (app, raw, app, raw …) so both see the same machine and moment.
 */
import { liveQuery } from 'dexie';
import type { Item, SyncPage } from '../../src/shared/item';
import {
  CHILDREN_INDEX,
  COUNTS_STORE,
  childrenRange,
  countRowsFromScratch,
  createOutpostClient,
  deviceReads,
  type LocalEcho,
  type LocalItem,
  manualConnectivity,
  type OutpostClient,
  OutpostDb,
  type QueueEntry,
  searchIndexed,
  topFlagsFromScratch,
  withKeys,
  withLocalEcho,
} from '../lib/appData';
import './attachments';
import './comments';
import './indexCost';
import './localWrites';
import './reorder';
import './savedView';
import './templateInstantiate';
import { countedAndDropped, deleteDb, done, req } from './idb';

/** The app's own item indexes, as its Dexie schema declares them (compound ones included). */
const ITEM_INDEXES = new OutpostDb('bench-schema-probe').items.schema.indexes.map((i) => ({
  name: i.name,
  keyPath: i.keyPath as string | string[],
  unique: !!i.unique,
}));

const errors: string[] = [];
window.addEventListener('error', (e) => errors.push(String(e.message)));
window.addEventListener('unhandledrejection', (e) => errors.push(String(e.reason)));

/** A raw database with the app's stores and item indexes (src/client/data/store/db.ts). */
function openRaw(name: string): Promise<IDBDatabase> {
  const open = indexedDB.open(name, 1);
  open.onupgradeneeded = () => {
    const db = open.result;
    const items = db.createObjectStore('items', { keyPath: 'id' });
    for (const index of ITEM_INDEXES) items.createIndex(index.name, index.keyPath, { unique: index.unique });
    db.createObjectStore('users', { keyPath: 'id' });
    db.createObjectStore('meta', { keyPath: 'key' });
    // The progress counters are an index of the app's too (counters.ts): the reference fills it.
    db.createObjectStore(COUNTS_STORE, { keyPath: ['parent', 'scope'] });
  };
  return req(open);
}

const localFields = {
  _syncStatus: 'synced',
  _deleted: 0,
  _localVersion: 0,
  _conflict: null,
  _dirty: [],
  _base: null,
  _remote: null,
  _predicted: null,
} as const;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Waits until a live query's answer satisfies `ok`; returns the time it did (performance.now()). */
function whenLive<T>(
  echo: LocalEcho,
  query: () => Promise<T>,
  ok: (value: T) => boolean,
): {
  ready: Promise<void>;
  until: (ok2: (value: T) => boolean) => Promise<number>;
  stop: () => void;
} {
  let waiter: { ok: (v: T) => boolean; resolve: (t: number) => void } | null = null;
  let markReady = () => {};
  const ready = new Promise<void>((r) => {
    markReady = r;
  });
  let first = true;
  // As a screen's list listens (app/data/reads/live.ts useLive): the live query with the local echo.
  const sub = withLocalEcho(liveQuery(query), echo).subscribe({
    next: (value) => {
      const at = performance.now();
      if (first && ok(value)) {
        first = false;
        markReady();
      }
      if (waiter?.ok(value)) {
        const w = waiter;
        waiter = null;
        w.resolve(at);
      }
    },
    error: (e) => errors.push(String(e)),
  });
  return {
    ready,
    until: (ok2) =>
      new Promise<number>((resolve) => {
        waiter = { ok: ok2, resolve };
      }),
    stop: () => sub.unsubscribe(),
  };
}

const PHONE = '+15555550199';
const NAME = 'Bench User';

interface Device {
  client: OutpostClient;
  connectivity: ReturnType<typeof manualConnectivity>;
  stop?: () => void;
}

let device: Device | null = null;
let rawEdit: IDBDatabase | null = null;
let editCounter = 0;
let targets: { orphan: number; task: number; child: number } | null = null;
/** The one list being watched: Home's (homeItems 'all', what useHomeList runs) or a task's children. */
let live: { which: 'all' | 'children'; watch: ReturnType<typeof whenLive<LocalItem[]>> } | null = null;

async function signedInDevice(dbName: string): Promise<Device> {
  const connectivity = manualConnectivity(false);
  const client = createOutpostClient({ dbName, connectivity });
  await client.auth.getState().login(PHONE, NAME);
  return { client, connectivity };
}

const bench = {
  errors: () => errors.slice(),

  /** b, the app: a fresh device signs in, then one sync run pulls everything; timed from sync to queryable. */
  async appPull(run: number): Promise<{ ms: number; count: number; loginMs: number }> {
    const name = `bench-pull-${run}`;
    await deleteDb(name);
    const l0 = performance.now();
    const d = await signedInDevice(name);
    const loginMs = performance.now() - l0;
    d.connectivity.set(true);
    const t0 = performance.now();
    await d.client.engine.sync();
    const count = await d.client.db.items.count();
    const ms = performance.now() - t0;
    d.client.close();
    await deleteDb(name);
    return { ms, count, loginMs };
  },

  /** b, the reference: the same GET /api/sync pages, then one raw transaction with the same indexes. */
  async rawPull(run: number): Promise<{ ms: number; count: number }> {
    const name = `raw-pull-${run}`;
    await deleteDb(name);
    const db = await openRaw(name);
    const t0 = performance.now();
    const all: Item[] = [];
    let cursor = '';
    for (;;) {
      const res = await fetch(`/api/sync?cursor=${encodeURIComponent(cursor)}`, {
        headers: { Accept: 'application/json' },
      });
      const page = (await res.json()) as SyncPage;
      all.push(...(page.items as Item[]));
      cursor = page.cursor;
      if (!page.has_more) break;
    }
    const tx = db.transaction(['items', 'users', 'meta', COUNTS_STORE], 'readwrite');
    const items = tx.objectStore('items');
    const users = tx.objectStore('users');
    const seen = new Set<number>();
    const rows: LocalItem[] = [];
    const flags = topFlagsFromScratch(
      all.map((item) => ({ ...item, ...localFields })) as unknown as LocalItem[],
    );
    for (const item of all) {
      // The fields the app's middleware keeps (the top flags and the list keys), so every index gets its entries.
      const row = withKeys({
        ...item,
        ...localFields,
        ...flags.get(item.id),
      } as unknown as LocalItem);
      rows.push(row);
      items.put(row);
      if (!seen.has(item.created_by.id)) {
        seen.add(item.created_by.id);
        users.put(item.created_by);
      }
    }
    // And the progress counters, each written once, computed from every row (the least any writer
    // of them can do; the app keeps them page by page).
    for (const counter of countRowsFromScratch(rows)) tx.objectStore(COUNTS_STORE).put(counter);
    tx.objectStore('meta').put({ key: 'cursor', value: cursor });
    await done(tx);
    return countedAndDropped(db, name, t0);
  },

  /** a, setup: a signed-in device holding the server's items, offline (edits stay queued), started like the app. */
  async editSetup(): Promise<{ items: number }> {
    await deleteDb('bench-edit');
    await deleteDb('raw-edit');
    const d = await signedInDevice('bench-edit');
    d.connectivity.set(true);
    await d.client.engine.sync();
    d.connectivity.set(false);
    d.stop = await (async () => {
      const starting = d.client.start();
      d.client.screenShown();
      return starting;
    })();
    device = d;
    const db = d.client.db;
    const all = await db.items.toArray();
    const viewerAll = await deviceReads(d.client).homeItems('all');
    const task = all.find((i) => i.type === 'task' && all.some((c) => c.parent_id === i.id))!;
    const child = all.find((i) => i.parent_id === task.id)!;
    targets = { orphan: viewerAll[Math.floor(viewerAll.length / 2)]!.id, task: task.id, child: child.id };
    rawEdit = await openRaw('raw-edit');
    const tx = rawEdit.transaction('items', 'readwrite');
    for (const item of all) tx.objectStore('items').put(item);
    await done(tx);
    await db.syncQueue.clear();
    await sleep(200);
    return { items: all.length };
  },

  /** a: watch one list only, as one screen would (Home, or a task's page with its todos). */
  async listen(which: 'all' | 'children'): Promise<void> {
    live?.watch.stop();
    const d = device!;
    const t = targets!;
    const watch = whenLive(
      d.client.echo,
      () =>
        which === 'all' ? deviceReads(d.client).homeItems('all') : deviceReads(d.client).children(t.task),
      (v) => v.length > 0,
    );
    live = { which, watch };
    await watch.ready;
    await sleep(200);
  },

  /** a, the queue's state before an edit: empty, or `n` queued changes to other items. */
  async setQueue(n: number): Promise<number> {
    const db = device!.client.db;
    await db.syncQueue.clear();
    if (n > 0) {
      const ids = (await db.items.limit(n + 10).primaryKeys()).filter(
        (id) => id !== targets!.orphan && id !== targets!.child,
      );
      // As syncQueue.enqueue writes them (`kind` for the stored queue kinds, ignored where absent).
      const rows = ids.slice(0, n).map((itemId, i) => ({
        id: crypto.randomUUID(),
        seq: i + 1,
        kind: 'update',
        method: 'PATCH',
        url: `/api/items/${itemId}`,
        data: { title: `Queued ${i}` },
        timestamp: Date.now(),
        retries: 0,
        idempotencyKey: crypto.randomUUID(),
        baseVersion: 1,
        itemId,
        tag: null,
      })) as unknown as QueueEntry[];
      await db.syncQueue.bulkAdd(rows);
    }
    await sleep(100);
    return db.syncQueue.count();
  },

  /** a, the app: items.update of one title until the list's live query shows it. */
  async appEdit(which: 'all' | 'children'): Promise<{ ms: number; storedMs: number }> {
    const d = device!;
    const id = which === 'all' ? targets!.orphan : targets!.child;
    const title = `Edited title ${++editCounter}`;
    if (live?.which !== which) throw new Error(`listen('${which}') first`);
    const watch = live.watch;
    const seen = watch.until((v) => v.some((i) => i.id === id && i.title === title));
    const t0 = performance.now();
    let storedAt = 0;
    const write = d.client.items.update(id, { title }).then(() => {
      storedAt = performance.now();
    });
    const at = await seen;
    await write;
    await sleep(50);
    return { ms: at - t0, storedMs: storedAt - t0 };
  },

  /** a, the breakdown: the same title written straight through Dexie (no repository) until the live query shows it. */
  async dexieEdit(which: 'all' | 'children'): Promise<{ ms: number }> {
    const d = device!;
    const id = which === 'all' ? targets!.orphan : targets!.child;
    const title = `Dexie title ${++editCounter}`;
    if (live?.which !== which) throw new Error(`listen('${which}') first`);
    const seen = live.watch.until((v) => v.some((i) => i.id === id && i.title === title));
    const t0 = performance.now();
    await d.client.db.items.update(id, { title });
    const at = await seen;
    await sleep(50);
    return { ms: at - t0 };
  },

  /** a, the reference: a raw put of the same record, then the same read (the store, or the children index by parent). */
  async rawEdit(which: 'all' | 'children'): Promise<{ ms: number }> {
    const db = rawEdit!;
    const id = which === 'all' ? targets!.orphan : targets!.child;
    const title = `Raw title ${++editCounter}`;
    const current = (await req(db.transaction('items').objectStore('items').get(id))) as LocalItem;
    const t0 = performance.now();
    const tx = db.transaction('items', 'readwrite');
    tx.objectStore('items').put({ ...current, title, updated_at: new Date().toISOString() });
    await done(tx);
    const store = db.transaction('items').objectStore('items');
    const rows = (await req(
      which === 'all'
        ? store.getAll()
        : store.index(CHILDREN_INDEX).getAll(IDBKeyRange.bound(...childrenRange(targets!.task))),
    )) as LocalItem[];
    const ms = performance.now() - t0;
    if (!rows.some((r) => r.id === id && r.title === title)) throw new Error('raw edit not read back');
    await sleep(50);
    return { ms };
  },

  async editTeardown(): Promise<void> {
    live?.watch.stop();
    live = null;
    device?.stop?.();
    device?.client.close();
    rawEdit?.close();
    device = null;
    await deleteDb('bench-edit');
    await deleteDb('raw-edit');
  },

  /** c, setup: `count` guest items written raw into the app's database (as bench/home10k.ts does). */
  async bigSeed(count: number): Promise<number> {
    const name = 'bench-big';
    await deleteDb(name);
    const client = createOutpostClient({ dbName: name, connectivity: manualConnectivity(false) });
    await client.db.open();
    const idb = client.db.backendDB();
    const types = ['campaign', 'task', 'todo'] as const;
    const start = Date.parse('2026-01-01T00:00:00.000Z');
    const guest = {
      id: 0,
      name: 'Guest User',
      phone: '',
      created_at: '2026-01-01T00:00:00.000Z',
      updated_at: '2026-01-01T00:00:00.000Z',
    };
    const words = ['paint', 'fence', 'tape', 'order', 'ship', 'call', 'plan', 'review', 'draft', 'budget'];
    // What the progress counters need of each row, so they are stored true as the app keeps them.
    const shapes: Parameters<typeof countRowsFromScratch>[0][number][] = [];
    for (let from = 0; from < count; from += 10_000) {
      const tx = idb.transaction(['items', 'meta'], 'readwrite');
      const store = tx.objectStore('items');
      for (let index = from; index < Math.min(count, from + 10_000); index++) {
        const id = index + 1;
        const at = new Date(start + id * 60_000).toISOString();
        const type = types[index % 3]!;
        // Families: every campaign's next two items are tasks under it, todos under the task before.
        const parent = type === 'campaign' ? null : type === 'task' ? id - 1 : id - 1;
        const completed = id % 4 === 0;
        shapes.push({
          id,
          parent_id: parent,
          type,
          status: completed ? 'completed' : 'pending',
          _deleted: 0,
          _syncStatus: 'local',
        });
        store.put(
          withKeys({
            id,
            uuid: `00000000-0000-4000-8000-${String(id).padStart(12, '0')}`,
            title: `${words[id % 10]} ${words[(id * 7) % 10]} item ${id}`,
            description: id % 5 === 0 ? `Details for item ${id}` : null,
            type,
            status: completed ? 'completed' : 'pending',
            user_id: 0,
            assigned_to: null,
            parent_id: parent,
            due_date: null,
            end_date: null,
            created_at: at,
            updated_at: at,
            completed_at: completed ? at : null,
            deleted_at: null,
            version: 1,
            created_by: guest,
            user: guest,
            assignedUser: null,
            parent: null,
            children_count: 0,
            completed_count: 0,
            ...localFields,
            _syncStatus: 'local',
            _localVersion: 1,
            // The top flags and the list keys (topFlags.ts, listKeys.ts): rows in the app's current shape.
            // A parent is the row before, completed when its id is a multiple of 4.
            _top: parent === null ? 1 : 0,
            _stop: parent === null || ((id - 1) % 4 === 0) !== completed ? 1 : 0,
          } as unknown as LocalItem),
        );
      }
      tx.objectStore('meta').put({ key: 'guestCounter', value: count });
      await done(tx);
    }
    const counts = idb.transaction(COUNTS_STORE, 'readwrite');
    for (const row of countRowsFromScratch(shapes)) counts.objectStore(COUNTS_STORE).put(row);
    await done(counts);
    const n = await client.db.items.count();
    client.close();
    return n;
  },

  /** c: bootstrap on the big database (first Home answer, start()), then search and edits. */
  async bigRun(searches: number, edits: number) {
    const name = 'bench-big';
    const errorsBefore = errors.length;
    const t0 = performance.now();
    const client = createOutpostClient({ dbName: name, connectivity: manualConnectivity(false) });
    // What Home's All tab reads (HomePage, useHomePreview): its newest 20 rows and the count.
    const all = whenLive(
      client.echo,
      () =>
        Promise.all([
          deviceReads(client).homeItems('all', { limit: 20 }),
          deviceReads(client).homeCount('all'),
        ]).then(([rows]) => rows),
      (v) => v.length > 0,
    );
    let bootError: string | null = null;
    const starting = client.start().catch((e) => {
      bootError = String(e);
      return () => {};
    });
    await all.ready;
    const firstList = performance.now() - t0;
    client.screenShown();
    const stop = await starting;
    const started = performance.now() - t0;
    const words = ['paint', 'fence item', 'details for', 'review draft', 'item 99', 'budget', 'zzzz', 'ship'];
    const t1 = performance.now();
    await client.search(words[0]!);
    const firstSearch = performance.now() - t1;
    // The first search answers from the copy it reads; the copy's grams are then posted in the
    // background (src/client/data/search/search.ts). The medians below are the indexed searches after that.
    await searchIndexed(client.db);
    const search: number[] = [];
    for (let i = 0; i < searches; i++) {
      const s = performance.now();
      await client.search(words[i % words.length]!);
      search.push(performance.now() - s);
    }
    const edit: number[] = [];
    const stored: number[] = [];
    const searchAfterEdit: number[] = [];
    // Rows on screen: an edit of one of them until the screen's query shows it.
    const list = await deviceReads(client).homeItems('all', { limit: 20 });
    for (let i = 0; i < edits; i++) {
      const id = list[(i * 7) % list.length]!.id;
      const title = `Big edit ${i}`;
      const seen = all.until((v) => v.some((x) => x.id === id && x.title === title));
      const e0 = performance.now();
      let storedAt = 0;
      await client.items.update(id, { title }).then(() => {
        storedAt = performance.now();
      });
      stored.push(storedAt - e0);
      edit.push((await seen) - e0);
      await sleep(50);
      const s = performance.now();
      await client.search(words[i % words.length]!);
      searchAfterEdit.push(performance.now() - s);
    }
    all.stop();
    stop();
    client.close();
    await deleteDb(name);
    return {
      firstList,
      started,
      bootError,
      firstSearch,
      search,
      edit,
      stored,
      searchAfterEdit,
      errors: errors.slice(errorsBefore),
    };
  },
};

(window as unknown as { bench: typeof bench }).bench = bench;
