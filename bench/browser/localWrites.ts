/**
 * The page side of `npm run bench -- local-writes` (bench/localWrites.ts), issue 28's two references
 * beside the app, on `window.localWrites`. Loaded by entry.ts into the client-browser bench page.
 *
 * The reference database has the app's schema, read from the app's own Dexie definitions
 * (OutpostDb's declared tables: every object store, its key path and every index), so it follows any
 * schema change. Its rows are the app's: fromServer (localItems.ts), the top-level flag
 * (store/topFlags.ts topFlagsFromScratch), the list keys (listKeys.ts withKeys) and the progress counter
 * rows (counters.ts countRowsFromScratch). `check` compares, row by row, what the reference stored with
 * what the app's pull stored: the schema, every row of items, counts and users, every entry of every
 * items index (key and primary key, in index order), the ids in the search log and the cursor row.
 *
 *  A. pull: reference = one GET of the account's GET /api/sync pages concatenated (read once before,
 *     stored in the folder the real server serves) plus one readwrite transaction; app = a fresh device signed in, one engine.sync() until items are queryable.
 *  B. edit at 10,000 stored: reference = one put of the changed row plus one read of the children
 *     index range the task page reads (itemQueries childrenOf: LIST_INDEX.children, [task, 'a']);
 *     app = items.update(child, { title }) until the children list's live query (Dexie liveQuery over
 *     queries.childrenOf, the task page's read) shows the new title; as a breakdown, the same with the
 *     local echo the task page wraps it in (data/reads/live.ts), which shows the edit before it commits.
 */
import Dexie, { liveQuery } from 'dexie';
import { type Item, isTombstone, type SyncChange, type SyncPage } from '../../src/shared/item';
import {
  COUNTS_STORE,
  countRowsFromScratch,
  createOutpostClient,
  deviceReads,
  fromServer,
  LIST_INDEX,
  type LocalItem,
  type LocalUser,
  manualConnectivity,
  type OutpostClient,
  OutpostDb,
  SEARCH_LOG_STORE,
  setOwnRawTransaction,
  setPlainDexie,
  topFlagsFromScratch,
  trackLocalWrite,
  usersOf,
  withKeys,
  withLocalEcho,
} from '../lib/appData';
import { median } from '../lib/stats';
import { countedAndDropped, deleteDb, done, req } from './idb';
import { type LiveWatch, sleep, watchLive } from './liveTiming';

// --plain-dexie (bench/localWrites.ts): every write and read goes by plain Dexie, no faster route.
const params = new URLSearchParams(location.search);
if (params.has('plainDexie')) setPlainDexie(true);
if (params.has('noOwnTransaction')) setOwnRawTransaction(false);

const PHONE = '+15555550199';
const NAME = 'Bench User';

/** The app's schema as its Dexie definitions declare it (db.ts), one entry per object store. */
interface StoreDef {
  name: string;
  keyPath: string | string[] | null;
  autoIncrement: boolean;
  indexes: { name: string; keyPath: string | string[]; unique: boolean; multiEntry: boolean }[];
}

function appSchema(): StoreDef[] {
  const probe = new OutpostDb('local-writes-schema-probe');
  const out = probe.tables.map((t) => ({
    name: t.name,
    keyPath: (t.schema.primKey.keyPath ?? null) as string | string[] | null,
    autoIncrement: !!t.schema.primKey.auto,
    indexes: t.schema.indexes.map((i) => ({
      name: i.name,
      keyPath: i.keyPath as string | string[],
      unique: !!i.unique,
      multiEntry: !!i.multi,
    })),
  }));
  probe.close();
  return out;
}

const SCHEMA = appSchema();

export { deleteDb };

/** A raw database with every store and index of the app's schema. */
export function openRaw(name: string): Promise<IDBDatabase> {
  const open = indexedDB.open(name, 1);
  open.onupgradeneeded = () => {
    const db = open.result;
    for (const s of SCHEMA) {
      const store = db.createObjectStore(s.name, {
        ...(s.keyPath === null ? {} : { keyPath: s.keyPath }),
        autoIncrement: s.autoIncrement,
      });
      for (const i of s.indexes)
        store.createIndex(i.name, i.keyPath, { unique: i.unique, multiEntry: i.multiEntry });
    }
  };
  return req(open);
}

function openExisting(name: string): Promise<IDBDatabase> {
  return req(indexedDB.open(name));
}

// ---------------------------------------------------------------- the row-by-row check

/** JSON with sorted object keys, so two equal rows give the same text whatever their key order. */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_k, v: unknown) =>
    v && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : 1)))
      : v,
  );
}

interface Snapshot {
  schema: string;
  stores: Record<string, string[]>;
  /** Per items index: every entry `[key, primaryKey]`, in index order. */
  indexes: Record<string, string[]>;
  logIds: number[];
  hasCursor: boolean;
}

function walkIndex(index: IDBIndex): Promise<string[]> {
  return new Promise((resolve, reject) => {
    const out: string[] = [];
    const cursorReq = index.openKeyCursor();
    cursorReq.onsuccess = () => {
      const c = cursorReq.result;
      if (!c) return resolve(out);
      out.push(JSON.stringify([c.key, c.primaryKey]));
      c.continue();
    };
    cursorReq.onerror = () => reject(cursorReq.error);
  });
}

async function snapshot(db: IDBDatabase): Promise<Snapshot> {
  const names = [...db.objectStoreNames].sort();
  const tx = db.transaction(names, 'readonly');
  const schema = names.map((n) => {
    const s = tx.objectStore(n);
    const indexes = [...s.indexNames].sort().map((i) => {
      const index = s.index(i);
      return { name: i, keyPath: index.keyPath, unique: index.unique, multiEntry: index.multiEntry };
    });
    return { name: n, keyPath: s.keyPath, autoIncrement: s.autoIncrement, indexes };
  });
  const stores: Record<string, string[]> = {};
  for (const n of ['items', 'users', COUNTS_STORE]) {
    const rows = (await req(tx.objectStore(n).getAll())) as unknown[];
    stores[n] = rows.map(canonical);
  }
  const items = tx.objectStore('items');
  const indexes: Record<string, string[]> = {};
  for (const i of [...items.indexNames].sort()) indexes[i] = await walkIndex(items.index(i));
  const log = (await req(tx.objectStore(SEARCH_LOG_STORE).getAll())) as { ids?: number[] }[];
  const logIds = [...new Set(log.flatMap((r) => r.ids ?? []))].sort((a, b) => a - b);
  const cursor = (await req(tx.objectStore('meta').get('cursor'))) as { value?: unknown } | undefined;
  return { schema: canonical(schema), stores, indexes, logIds, hasCursor: typeof cursor?.value === 'string' };
}

function firstDifference(a: readonly string[], b: readonly string[]): string | null {
  if (a.length !== b.length) return `${a.length} entries in the app, ${b.length} in the reference`;
  for (let i = 0; i < a.length; i++) {
    if (a[i] !== b[i]) return `entry ${i}: app ${a[i]!.slice(0, 400)} | reference ${b[i]!.slice(0, 400)}`;
  }
  return null;
}

function compare(app: Snapshot, ref: Snapshot): { ok: boolean; problems: string[]; summary: string } {
  const problems: string[] = [];
  if (app.schema !== ref.schema) problems.push(`schema differs: app ${app.schema} | reference ${ref.schema}`);
  for (const n of Object.keys(app.stores)) {
    const d = firstDifference(app.stores[n]!, ref.stores[n] ?? []);
    if (d) problems.push(`store ${n}: ${d}`);
  }
  const indexNames = new Set([...Object.keys(app.indexes), ...Object.keys(ref.indexes)]);
  let entries = 0;
  for (const i of indexNames) {
    const d = firstDifference(app.indexes[i] ?? [], ref.indexes[i] ?? []);
    if (d) problems.push(`items index ${i}: ${d}`);
    entries += app.indexes[i]?.length ?? 0;
  }
  const logDiff = firstDifference(app.logIds.map(String), ref.logIds.map(String));
  if (logDiff) problems.push(`ids in the search log: ${logDiff}`);
  if (!app.hasCursor || !ref.hasCursor)
    problems.push(`cursor row: app ${app.hasCursor}, reference ${ref.hasCursor}`);
  const summary =
    `${app.stores.items!.length} items, ${app.stores[COUNTS_STORE]!.length} counter rows, ` +
    `${app.stores.users!.length} users, ${indexNames.size} items indexes with ${entries} entries, ` +
    `${app.logIds.length} logged ids, ${JSON.parse(app.schema).length} stores`;
  return { ok: problems.length === 0, problems, summary };
}

let appSnap: Snapshot | null = null;
let refSnap: Snapshot | null = null;

// ---------------------------------------------------------------- A: pull

/** A client of a fresh device signed in to the bench account, offline until `online(true)`. */
export async function signedIn(
  dbName: string,
): Promise<{ client: OutpostClient; online: (on: boolean) => void }> {
  const connectivity = manualConnectivity(false);
  const client = createOutpostClient({ dbName, connectivity });
  await client.auth.getState().login(PHONE, NAME);
  return { client, online: (on) => connectivity.set(on) };
}

/**
 * A device signed in as the bench account, its items pulled, then started offline as a screen starts
 * it (edits stay queued: no push in a timed part). Answers the client and what stops it.
 */
export async function pulledOffline(dbName: string): Promise<{ client: OutpostClient; stop: () => void }> {
  const d = await signedIn(dbName);
  d.online(true);
  await d.client.engine.sync();
  d.online(false);
  const starting = d.client.start();
  d.client.screenShown();
  return { client: d.client, stop: await starting };
}

/** Writes the rows the app stores for `all` in one readwrite transaction (the reference's write). */
export async function refWrite(db: IDBDatabase, all: Item[], cursor: string): Promise<void> {
  const tx = db.transaction(['items', 'users', 'meta', COUNTS_STORE, SEARCH_LOG_STORE], 'readwrite');
  const local = all.map((item) => fromServer(item));
  const flags = topFlagsFromScratch(local);
  const rows = local.map((row) => withKeys({ ...row, ...flags.get(row.id)! }) as LocalItem);
  const items = tx.objectStore('items');
  for (const row of rows) items.put(row);
  const users = new Map<number, LocalUser>();
  for (const item of all) for (const u of usersOf(item)) users.set(u.id, u);
  const userStore = tx.objectStore('users');
  for (const u of users.values()) userStore.put(u);
  const counts = tx.objectStore(COUNTS_STORE);
  for (const counter of countRowsFromScratch(rows)) counts.put(counter);
  tx.objectStore(SEARCH_LOG_STORE).add({ at: Date.now(), ids: rows.map((r) => r.id) });
  tx.objectStore('meta').put({ key: 'cursor', value: cursor });
  await done(tx);
}

/** Where bench/localWrites.ts stores the account's sync pages, concatenated, in the served folder. */
const ALL_PAGES = '/bench-sync-pages.json';

/** The reference's one GET: the account's sync pages concatenated, from the real server. */
export async function refGet(): Promise<{ items: Item[]; cursor: string }> {
  const res = await fetch(ALL_PAGES, { cache: 'no-store', headers: { Accept: 'application/json' } });
  if (!res.ok) throw new Error(`GET ${ALL_PAGES} answered ${res.status}`);
  return (await res.json()) as { items: Item[]; cursor: string };
}

/** IndexedDB calls made while counting (the profiled runs): how many requests and transactions a side issues. */
const idbCalls = new Map<string, number>();
let counting = false;
// --profile's trace of one edit: every IndexedDB call with the app frames that made it.
let tracing = false;
let traceStart = 0;
const trace: string[] = [];
function traceCall(key: string, _args: unknown[]): void {
  const frames = (new Error().stack ?? '')
    .split('\n')
    .slice(3)
    .map((l) =>
      l
        .trim()
        .replace(/^at /, '')
        .replace(/ \(.*\/([^/]+)\)$/, ' $1'),
    )
    .filter(
      (l) =>
        !/^(Object\.)?(mutate|executePromiseTask|DexiePromise|new DexiePromise|callListener|endMicroTickScope|usePSD|physicalTick|propagate|Table\._trans|tempTransaction|Transaction\._promise|checkTableInTransaction|target\.<computed>|Promise\.then|new Promise|<anonymous>|\(anonymous\)|async Promise|zone|switchToZone|.*Dexie.*|Collection\.|Table\.)/.test(
          l,
        ),
    )
    .slice(0, 6)
    .join(' < ');
  trace.push(`${(performance.now() - traceStart).toFixed(2)} ${key} ${frames}`);
}
/**
 * --phases: the read-write transactions opened while recording, each with when it opened, issued its
 * last request, had its last answer and committed (performance.now(), so to the page's 0.1 ms).
 */
interface WritePhases {
  tx: IDBTransaction;
  opened: number;
  lastIssued: number;
  answered: number;
  committed: number;
}
let phasing: WritePhases[] | null = null;
/** --phases: when each read-only transaction opened while recording (the list's re-reads among them). */
let readsOpened: number[] = [];
/** --timeline: what one app pull did when, in ms from its start (GETs, transactions), while recording. */
let timeline: string[] | null = null;
let timelineStart = 0;
/** --timeline: when each read-write transaction over the items was open (performance.now()). */
const itemWrites: [number, number][] = [];
/** --timeline: when the app's last pull called sync (performance.now()). */
let syncStartedAt = 0;
const stamp = (line: string) =>
  timeline?.push(`${(performance.now() - timelineStart).toFixed(1).padStart(7)} ${line}`);
/** --timeline: stamps a transaction's opening (read-write ones) and its commit; notes item writes' spans. */
function noteTransaction(tx: IDBTransaction): void {
  const stores = [...tx.objectStoreNames].join(',');
  const at = performance.now();
  const mode = tx.mode === 'readwrite' ? 'rw' : 'r ';
  if (mode === 'rw') stamp(`tx ${mode} open ${stores}`);
  const writesItems = mode === 'rw' && tx.objectStoreNames.contains('items');
  tx.addEventListener('complete', () => {
    stamp(`tx ${mode} done (${(performance.now() - at).toFixed(1)} ms) ${stores}`);
    if (writesItems) itemWrites.push([at, performance.now()]);
  });
}
function notePhase(label: string, args: unknown[], result: unknown): void {
  if (timeline && label === 'db') noteTransaction(result as IDBTransaction);
  if (!phasing) return;
  const at = performance.now();
  if (label === 'db') {
    if (args[1] !== 'readwrite') {
      readsOpened.push(at);
      return;
    }
    const record: WritePhases = {
      tx: result as IDBTransaction,
      opened: at,
      lastIssued: at,
      answered: at,
      committed: 0,
    };
    record.tx.addEventListener('complete', () => {
      record.committed = performance.now();
    });
    phasing.push(record);
    return;
  }
  const request = result as IDBRequest;
  const record = phasing.find((r) => r.tx === request.transaction);
  if (!record) return;
  record.lastIssued = at;
  request.addEventListener('success', () => {
    record.answered = performance.now();
  });
}
function countCalls(proto: object, label: string, names: string[]): void {
  for (const name of names) {
    const target = proto as Record<string, (...args: unknown[]) => unknown>;
    const original = target[name]!;
    target[name] = function (this: unknown, ...args: unknown[]) {
      if (counting) {
        // Stores are named, so the profile tells which store a write's extra requests go to.
        const key = `${label === 'store' ? `store(${(this as IDBObjectStore).name})` : label}.${name}`;
        idbCalls.set(key, (idbCalls.get(key) ?? 0) + 1);
        if (tracing) traceCall(key, args);
      }
      const result = original.apply(this, args);
      notePhase(label, args, result);
      if (counting && tracing && label === 'db') {
        const tx = result as IDBTransaction;
        const at = performance.now();
        tx.addEventListener('complete', () =>
          trace.push(
            `${(performance.now() - traceStart).toFixed(2)} tx done (${(performance.now() - at).toFixed(2)} ms) ${[...tx.objectStoreNames].join(',')}`,
          ),
        );
      }
      return result;
    };
  }
}
countCalls(IDBDatabase.prototype, 'db', ['transaction']);
countCalls(IDBObjectStore.prototype, 'store', [
  'put',
  'add',
  'get',
  'getAll',
  'getAllKeys',
  'count',
  'openCursor',
  'openKeyCursor',
  'delete',
]);
countCalls(IDBIndex.prototype, 'index', [
  'get',
  'getAll',
  'getAllKeys',
  'count',
  'openCursor',
  'openKeyCursor',
]);
countCalls(IDBCursor.prototype, 'cursor', ['continue']);

const originalFetch = window.fetch.bind(window);
/**
 * --replay-pages: the sync pages of one app pull, recorded, then answered from memory in the same
 * order to the next pull, so that pull runs without the server working beside it.
 */
let recordedPages: string[] | null = null;
let replayedPages: string[] | null = null;
window.fetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
  const address = String(input instanceof Request ? input.url : input);
  if (address.includes('/api/sync?')) {
    const replayed = replayedPages?.shift();
    if (replayed !== undefined)
      return new Response(replayed, { status: 200, headers: { 'Content-Type': 'application/json' } });
    if (recordedPages) {
      const response = await originalFetch(input, init);
      recordedPages.push(await response.clone().text());
      return response;
    }
  }
  if (!timeline) return originalFetch(input, init);
  const url = address.replace(/^.*\/api/, '');
  stamp(`GET asked ${url.slice(0, 60)}`);
  const response = await originalFetch(input, init);
  stamp(`GET headers ${url.slice(0, 60)}`);
  return response;
}) as typeof fetch;
for (const name of ['json', 'text'] as const) {
  const original = Response.prototype[name];
  Response.prototype[name] = async function (this: Response) {
    const body = await original.call(this);
    stamp(`body ${name} ${this.url.replace(/^.*\/api/, '').slice(0, 60)}`);
    return body;
  } as never;
}
const localWrites = {
  /** Profile aid: the GETs alone, the app's way (every sync page in turn, parsed) and the reference's one GET. */
  async timeGets(): Promise<{ pagesMs: number; pages: number; oneGetMs: number }> {
    const t0 = performance.now();
    let cursor = '';
    let pages = 0;
    for (;;) {
      const res = await fetch(`/api/sync?cursor=${encodeURIComponent(cursor)}`, {
        headers: { Accept: 'application/json' },
      });
      const page = (await res.json()) as SyncPage;
      pages++;
      cursor = page.cursor;
      if (!page.has_more) break;
    }
    const t1 = performance.now();
    await refGet();
    return { pagesMs: t1 - t0, pages, oneGetMs: performance.now() - t1 };
  },

  /** Counts IndexedDB calls from now on (true), or stops and answers what was counted (false). */
  countIdb(on: boolean): Record<string, number> {
    counting = on;
    const out = Object.fromEntries([...idbCalls].sort());
    idbCalls.clear();
    return out;
  },

  /** Traces the IndexedDB calls of the next app edit (with --profile) and answers them. */
  async traceEdit(side: 'app' | 'ref' = 'app'): Promise<string[]> {
    trace.length = 0;
    counting = true;
    tracing = true;
    traceStart = performance.now();
    const r =
      side === 'app' ? await localWrites.appEdit() : { ...(await localWrites.refEdit()), storedMs: 0 };
    await sleep(100);
    tracing = false;
    counting = false;
    // The calls were stamped from before the queue's clear; the edit's own start is the zero read here.
    const shift = r.startedAt - traceStart;
    const lines = trace.map((l) => l.replace(/^(\S+)/, (t) => (Number(t) - shift).toFixed(2)));
    lines.push(`${side} edit shown at ${r.ms.toFixed(2)} ms, stored at ${r.storedMs.toFixed(2)} ms`);
    return lines;
  },

  /**
   * --phases: one edit of `side` with its write transaction's phases recorded, in ms from the edit's
   * start: opened, last request issued, every request answered, committed, and the list showing it.
   */
  async editPhases(side: 'app' | 'ref'): Promise<Record<string, number>> {
    phasing = [];
    readsOpened = [];
    // Subscribed last, so it hears a commit after every other listener (the lists' re-runs, Dexie's
    // broadcast to other tabs, the app's own): when Dexie's work on the commit event is done.
    const heard: number[] = [];
    const hear = () => heard.push(performance.now());
    Dexie.on('storagemutated', hear);
    const r = side === 'app' ? await localWrites.appEdit() : await localWrites.refEdit();
    Dexie.on('storagemutated').unsubscribe(hear);
    const recorded = phasing;
    phasing = null;
    // The edit's own write: the first read-write transaction from its start (the app's queue clear before it is not).
    const write = recorded.find((w) => w.opened >= r.startedAt);
    if (!write) throw new Error(`no read-write transaction in the ${side} edit`);
    const from = (t: number) => t - r.startedAt;
    // The reads opened from the commit until the list showed the edit: the re-run that showed it was
    // the last of them; an earlier one was a re-run begun and then dropped for a newer one.
    const shownAt = r.startedAt + r.ms;
    const rereads = readsOpened.filter((t) => t >= write.committed && t <= shownAt);
    return {
      opened: from(write.opened),
      lastIssued: from(write.lastIssued),
      answered: from(write.answered),
      committed: from(write.committed),
      heard: from(heard.find((t) => t >= write.committed) ?? Number.NaN),
      firstReread: rereads.length > 0 ? from(rereads[0]!) : Number.NaN,
      lastReread: rereads.length > 0 ? from(rereads.at(-1)!) : Number.NaN,
      rereads: rereads.length,
      shown: r.ms,
    };
  },

  schema: () => SCHEMA.map((s) => `${s.name}(${s.indexes.length})`).join(' '),

  /**
   * Signs the page in and reads every GET /api/sync page of the account (untimed), for bench/localWrites.ts
   * to store, concatenated, where the server serves it (ALL_PAGES): the reference's one GET.
   */
  async setup(): Promise<string> {
    await deleteDb('lw-setup');
    const d = await signedIn('lw-setup');
    d.client.close();
    await deleteDb('lw-setup');
    const items: SyncChange[] = [];
    let cursor = '';
    for (;;) {
      const res = await fetch(`/api/sync?cursor=${encodeURIComponent(cursor)}`, {
        headers: { Accept: 'application/json' },
      });
      const page = (await res.json()) as SyncPage;
      items.push(...page.items);
      cursor = page.cursor;
      if (!page.has_more) break;
    }
    if (items.some(isTombstone))
      throw new Error('the account has tombstones: the reference writes rows only');
    return JSON.stringify({ items, cursor });
  },

  /** A, the reference: one GET of the 10,000 items, one raw transaction writing what the app stores. */
  async refPull(run: number, keep: boolean): Promise<{ ms: number; count: number }> {
    const name = `lw-ref-pull-${run}`;
    await deleteDb(name);
    const db = await openRaw(name);
    const t0 = performance.now();
    const { items, cursor } = await refGet();
    await refWrite(db, items, cursor);
    const count = await req(db.transaction('items').objectStore('items').count());
    const ms = performance.now() - t0;
    if (keep) refSnap = await snapshot(db);
    db.close();
    await deleteDb(name);
    return { ms, count };
  },

  /**
   * A, the bare floor: the same one GET, then one raw transaction putting each item as the server sent
   * it into a store keyed by id with no index, no derived keys and no counters (issue 69's "bare store").
   */
  async barePull(run: number): Promise<{ ms: number; count: number }> {
    const name = `lw-bare-pull-${run}`;
    await deleteDb(name);
    const open = indexedDB.open(name, 1);
    open.onupgradeneeded = () => open.result.createObjectStore('items', { keyPath: 'id' });
    const db = await req(open);
    const t0 = performance.now();
    const { items } = await refGet();
    const tx = db.transaction('items', 'readwrite');
    const store = tx.objectStore('items');
    for (const item of items) store.put(item);
    await done(tx);
    return countedAndDropped(db, name, t0);
  },

  /** A, the app: a fresh device signed in (untimed), then the app's pull until every item is queryable. */
  async appPull(run: number, keep: boolean): Promise<{ ms: number; count: number }> {
    const name = `lw-app-pull-${run}`;
    await deleteDb(name);
    const d = await signedIn(name);
    d.online(true);
    const t0 = performance.now();
    syncStartedAt = t0;
    stamp('sync starts');
    await d.client.engine.sync();
    const count = await d.client.db.items.count();
    const ms = performance.now() - t0;
    d.client.close();
    if (keep) {
      const db = await openExisting(name);
      appSnap = await snapshot(db);
      db.close();
    }
    await deleteDb(name);
    return { ms, count };
  },

  /** --replay-pages: one app pull (not kept) with its sync pages recorded for the next pull to take from memory. */
  async recordPages(run: number): Promise<void> {
    recordedPages = [];
    try {
      await localWrites.appPull(run, false);
      replayedPages = recordedPages;
    } finally {
      recordedPages = null;
    }
  },

  /** --timeline: one app pull (not kept) with its GETs and transactions stamped. */
  async pullTimeline(run: number): Promise<string[]> {
    timeline = [];
    timelineStart = performance.now();
    itemWrites.length = 0;
    try {
      const r = await localWrites.appPull(run, false);
      stamp(`pull done: ${r.count} items`);
      // The pull's time with no transaction over the items open: the device waiting for the network
      // (or for itself between two transactions), from the sync call to its last commit.
      const spans = itemWrites.slice().sort((a, b) => a[0] - b[0]);
      const from = syncStartedAt;
      const to = spans.at(-1)?.[1] ?? from;
      let covered = 0;
      let reach = from;
      for (const [open, done] of spans) {
        const start = Math.max(open, reach);
        if (done > start) covered += done - start;
        reach = Math.max(reach, done);
      }
      const waiting = to - from - covered;
      timeline.push(
        `waiting with no item transaction open: ${waiting.toFixed(0)} ms of ${(to - from).toFixed(0)} ms (${((100 * waiting) / (to - from)).toFixed(1)}%)`,
      );
      return timeline;
    } finally {
      timeline = null;
    }
  },

  /** Row by row: what the reference stored against what the app's pull stored (kept runs). */
  check(): { ok: boolean; problems: string[]; summary: string } {
    if (!appSnap || !refSnap) return { ok: false, problems: ['no kept runs to compare'], summary: '' };
    const r = compare(appSnap, refSnap);
    appSnap = null;
    refSnap = null;
    return r;
  },

  // -------------------------------------------------------------- B: edit at 10,000 stored

  edit: null as null | {
    client: OutpostClient;
    stop: () => void;
    raw: IDBDatabase;
    task: number;
    child: number;
    watch: LiveWatch<LocalItem[]> | null;
    n: number;
  },

  /** B, setup: the app's device pulled and started (offline: edits stay queued); the reference's database. */
  async editSetup(): Promise<{ items: number; rawItems: number; children: number }> {
    await deleteDb('lw-edit');
    await deleteDb('lw-ref-edit');
    const d = await signedIn('lw-edit');
    d.online(true);
    await d.client.engine.sync();
    const client = d.client;
    // Offline again, as a device whose edits wait in the queue (no push in the timed part).
    d.online(false);
    const stop = await (async () => {
      const starting = client.start();
      client.screenShown();
      return starting;
    })();
    const raw = await openRaw('lw-ref-edit');
    const pages = await refGet();
    await refWrite(raw, pages.items, pages.cursor);
    const all = await client.db.items.toArray();
    const task = all.find((i) => i.type === 'task' && all.some((c) => c.parent_id === i.id))!;
    const child = all.find((i) => i.parent_id === task.id)!;
    const state = {
      client,
      stop,
      raw,
      task: task.id,
      child: child.id,
      watch: null,
      n: 0,
    };
    localWrites.edit = state;
    await client.db.syncQueue.clear();
    await sleep(300);
    const children = (await deviceReads(client).children(task.id)).length;
    const rawItems = await req(raw.transaction('items').objectStore('items').count());
    return { items: all.length, rawItems, children };
  },

  /**
   * B: subscribes the children list's live query, one at a time: `live` is the Dexie liveQuery over
   * the task page's children read (queries.childrenOf), `echo` the same wrapped as the task page
   * listens (data/reads/live.ts useLive, changes/localEcho.ts), which shows an edit before it commits.
   */
  async listen(mode: 'live' | 'echo'): Promise<void> {
    const e = localWrites.edit!;
    e.watch?.stop();
    const query = liveQuery(() => deviceReads(e.client).children(e.task));
    e.watch = await watchLive(mode === 'echo' ? withLocalEcho(query, e.client.echo) : query);
  },

  /** B, the app: a title rename through the repository until the children list's live query shows it. */
  async appEdit(): Promise<{ ms: number; storedMs: number; startedAt: number }> {
    const e = localWrites.edit!;
    await e.client.db.syncQueue.clear();
    await sleep(30);
    const title = `App edit ${++e.n}`;
    return e.watch!.time(
      () => e.client.items.update(e.child, { title }),
      (rows) => rows.some((r) => r.id === e.child && r.title === title),
    );
  },

  /** B, the reference: one put of the changed row, then one read of the children index range. */
  async refEdit(): Promise<{ ms: number; startedAt: number }> {
    const e = localWrites.edit!;
    const title = `Ref edit ${++e.n}`;
    const current = (await req(e.raw.transaction('items').objectStore('items').get(e.child))) as LocalItem;
    const changed = withKeys({ ...current, title, updated_at: new Date().toISOString() });
    await sleep(30);
    const t0 = performance.now();
    // Counted as a local write, as the app's are (store/writesInFlight.ts): the page's idle work waits
    // for both sides alike, and the ratio is the write's own cost.
    const rows = await trackLocalWrite(
      e.raw,
      (async () => {
        const tx = e.raw.transaction('items', 'readwrite');
        tx.objectStore('items').put(changed);
        await done(tx);
        const range = IDBKeyRange.bound([e.task, 'a', Dexie.minKey], [e.task, 'a', Dexie.maxKey]);
        return (await req(
          e.raw.transaction('items').objectStore('items').index(LIST_INDEX.children).getAll(range),
        )) as LocalItem[];
      })(),
    );
    const ms = performance.now() - t0;
    if (!rows.some((r) => r.id === e.child && r.title === title))
      throw new Error('reference edit not read back');
    await sleep(50);
    return { ms, startedAt: t0 };
  },

  /** --probe: raw IndexedDB costs of a write's request shapes on the reference database (median ms of n, round-robin). */
  async probe(n: number): Promise<Record<string, number>> {
    const e = localWrites.edit!;
    const raw = e.raw;
    const base = (await req(raw.transaction('items').objectStore('items').get(e.child))) as LocalItem;
    // The stores an app write opens (the repository's, and those the store's side effects add).
    const wide = ['counts', 'history', 'items', 'meta', 'searchLog', 'syncQueue', 'trash', 'undo', 'users'];
    let k = 0;
    let seq = 1e9;
    const row = () => withKeys({ ...base, title: `Probe ${++k}`, updated_at: new Date().toISOString() });
    // A queued PATCH of the same size as the app's.
    const qEntry = () => ({
      seq: ++seq,
      id: `probe-${seq}`,
      method: 'PATCH',
      url: '/api/items/1',
      body: { title: 'x' },
      kind: 'update',
      createdAt: Date.now(),
    });
    const shapes: Record<string, () => Promise<void>> = {
      'put (the reference)': async () => {
        const tx = raw.transaction('items', 'readwrite');
        tx.objectStore('items').put(row());
        await done(tx);
      },
      'put, 9 stores open': async () => {
        const tx = raw.transaction(wide, 'readwrite');
        tx.objectStore('items').put(row());
        await done(tx);
      },
      'get, then put': async () => {
        const tx = raw.transaction('items', 'readwrite');
        const s = tx.objectStore('items');
        await req(s.get(e.child));
        s.put(row());
        await done(tx);
      },
      'get + put': async () => {
        const tx = raw.transaction('items', 'readwrite');
        const s = tx.objectStore('items');
        s.get(e.child);
        s.put(row());
        await done(tx);
      },
      'put + log': async () => {
        const tx = raw.transaction(['items', 'searchLog'], 'readwrite');
        tx.objectStore('items').put(row());
        tx.objectStore('searchLog').add({ at: Date.now(), ids: [e.child] });
        await done(tx);
      },
      'put + log + queue': async () => {
        const tx = raw.transaction(['items', 'searchLog', 'syncQueue'], 'readwrite');
        tx.objectStore('items').put(row());
        tx.objectStore('searchLog').add({ at: Date.now(), ids: [e.child] });
        tx.objectStore('syncQueue').put(qEntry());
        await done(tx);
      },
      "the app's five": async () => {
        const tx = raw.transaction(wide, 'readwrite');
        const s = tx.objectStore('items');
        s.get(e.child);
        tx.objectStore('syncQueue').openKeyCursor(null, 'prev');
        s.put(row());
        tx.objectStore('searchLog').add({ at: Date.now(), ids: [e.child] });
        tx.objectStore('syncQueue').put(qEntry());
        await done(tx);
      },
    };
    // In turn, one of each shape per round, so the machine's load falls on all alike.
    const times: Record<string, number[]> = {};
    for (let i = 0; i < n; i++)
      for (const [name, shape] of Object.entries(shapes)) {
        await sleep(15);
        const t0 = performance.now();
        await shape();
        const took = performance.now() - t0;
        times[name] = [...(times[name] ?? []), took];
      }
    const tx = raw.transaction('syncQueue', 'readwrite');
    tx.objectStore('syncQueue').clear();
    await done(tx);
    return Object.fromEntries(
      Object.entries(times).map(([k2, v]) => [k2, Math.round(median(v) * 100) / 100]),
    );
  },

  async editTeardown(): Promise<void> {
    const e = localWrites.edit;
    if (!e) return;
    e.watch?.stop();
    e.stop();
    e.client.close();
    e.raw.close();
    localWrites.edit = null;
    await deleteDb('lw-edit');
    await deleteDb('lw-ref-edit');
  },
};

(window as unknown as { localWrites: typeof localWrites }).localWrites = localWrites;
