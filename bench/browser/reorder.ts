/**
 * The page side of `npm run bench -- reorder` (bench/reorder.ts), issue 33's budget: a reorder at
 * 10,000 stored items until the list's live query shows it, beside a raw IndexedDB put plus an index
 * read on the app's own schema, on `window.reorder`. Loaded by entry.ts into the client-browser bench
 * page; the device, the reference database and its rows are local-writes' (localWrites.ts).
 *
 *  app: the last row of a campaign's contents moved to the top as a drop does it (orderMutations.ts:
 *       shared/order.ts moveTo's key, one items.update of sort_key through the repository), until the
 *       campaign page's contents query (items/queries.ts childrenPageQuery: the children read by the
 *       children index, in manual order, the first page) shows it first: wrapped in the local echo as
 *       the page listens (data/reads/live.ts useLive), or as a bare Dexie liveQuery (a breakdown).
 *  reference: one put of the moved row with its new key, then one read of the children index range
 *       the app's query reads (LIST_INDEX.children, [campaign, 'a']), sorted by key as the app sorts.
 */
import Dexie, { liveQuery } from 'dexie';
import { inManualOrder } from '../../src/shared/manualOrder';
import { moveTo } from '../../src/shared/order';
import {
  deviceReads,
  LIST_INDEX,
  LIST_PAGE,
  type LocalItem,
  type OutpostClient,
  shownInManualOrder,
  withKeys,
  withLocalEcho,
} from '../lib/appData';
import { done, req } from './idb';
import { type LiveWatch, sleep, watchLive } from './liveTiming';
import { deleteDb, openRaw, refGet, refWrite, signedIn } from './localWrites';

/** The campaign page's first page of contents: every child by the children index, in manual order. */
async function contents(client: OutpostClient, campaign: number): Promise<LocalItem[]> {
  // items/queries.ts childrenPageQuery, with usePagedLive's one row beyond the page, marked as a list in
  // manual order as it is (the local echo sorts a move into place).
  return shownInManualOrder(
    inManualOrder(await deviceReads(client).childrenPage(campaign, {})).slice(0, LIST_PAGE + 1),
  );
}

/** The last row of `list` moved to the top: its id and new key (one write when the keys allow it). */
function lastToTop(list: readonly LocalItem[]): { id: number; sort_key: string } {
  const last = list[list.length - 1]!;
  const writes = moveTo(
    list.map((i) => ({ id: i.id, sort_key: i.sort_key ?? '', uuid: i.uuid ?? null })),
    last.id,
    0,
  );
  if (writes.length !== 1) throw new Error(`a reorder wrote ${writes.length} keys, not one`);
  return writes[0]!;
}

const rawRange = (campaign: number) =>
  IDBKeyRange.bound([campaign, 'a', Dexie.minKey], [campaign, 'a', Dexie.maxKey]);

async function rawContents(raw: IDBDatabase, campaign: number): Promise<LocalItem[]> {
  const tx = raw.transaction('items');
  const rows = (await req(
    tx.objectStore('items').index(LIST_INDEX.children).getAll(rawRange(campaign)),
  )) as LocalItem[];
  return inManualOrder(rows);
}

interface State {
  client: OutpostClient;
  stop: () => void;
  raw: IDBDatabase;
  campaign: number;
  watch: LiveWatch<LocalItem[]> | null;
}

let state: State | null = null;

const reorder = {
  /**
   * The app's device pulled and started (offline: moves stay queued), the reference's database, and a
   * campaign with tasks whose keys are made distinct once (the seed gives every row 'a0', and the first
   * move of such a list writes every key: issue 33's rare re-key, not the move timed here); the same
   * keys are copied to the reference's rows.
   */
  async setup(): Promise<{ items: number; rawItems: number; children: number }> {
    await deleteDb('ro-app');
    await deleteDb('ro-ref');
    const d = await signedIn('ro-app');
    d.online(true);
    await d.client.engine.sync();
    const client = d.client;
    d.online(false);
    const starting = client.start();
    client.screenShown();
    const stop = await starting;
    const raw = await openRaw('ro-ref');
    const pages = await refGet();
    await refWrite(raw, pages.items, pages.cursor);
    const all = await client.db.items.toArray();
    const campaign = all.find(
      (i) => i.type === 'campaign' && all.filter((c) => c.parent_id === i.id).length > 3,
    )!;
    const list = await contents(client, campaign.id);
    const writes = moveTo(
      list.map((i) => ({ id: i.id, sort_key: i.sort_key ?? '', uuid: i.uuid ?? null })),
      list[list.length - 1]!.id,
      0,
    );
    for (const w of writes) await client.items.update(w.id, { sort_key: w.sort_key });
    const keyed = await contents(client, campaign.id);
    const tx = raw.transaction('items', 'readwrite');
    const store = tx.objectStore('items');
    for (const row of keyed) {
      const current = (await req(store.get(row.id))) as LocalItem;
      store.put(withKeys({ ...current, sort_key: row.sort_key }));
    }
    await done(tx);
    await client.db.syncQueue.clear();
    state = { client, stop, raw, campaign: campaign.id, watch: null };
    await sleep(300);
    const rawItems = await req(raw.transaction('items').objectStore('items').count());
    return { items: all.length, rawItems, children: keyed.length };
  },

  /** Subscribes the contents query: a plain liveQuery (`live`), or wrapped in the local echo (`echo`). */
  async listen(mode: 'live' | 'echo'): Promise<void> {
    const e = state!;
    e.watch?.stop();
    const query = liveQuery(() => contents(e.client, e.campaign));
    e.watch = await watchLive(mode === 'echo' ? withLocalEcho(query, e.client.echo) : query);
  },

  /** The app: the last row moved to the top (one items.update of sort_key) until the list shows it first. */
  async app(): Promise<{ ms: number; storedMs: number }> {
    const e = state!;
    await e.client.db.syncQueue.clear();
    const move = lastToTop(await contents(e.client, e.campaign));
    await sleep(30);
    return e.watch!.time(
      () => e.client.items.update(move.id, { sort_key: move.sort_key }),
      (rows) => rows[0]?.id === move.id && rows[0].sort_key === move.sort_key,
    );
  },

  /** The reference: one put of the moved row with its new key, one read of the children index range. */
  async ref(): Promise<{ ms: number }> {
    const e = state!;
    const list = await rawContents(e.raw, e.campaign);
    const move = lastToTop(list);
    const changed = withKeys({
      ...list[list.length - 1]!,
      sort_key: move.sort_key,
      updated_at: new Date().toISOString(),
    });
    await sleep(30);
    const t0 = performance.now();
    const tx = e.raw.transaction('items', 'readwrite');
    tx.objectStore('items').put(changed);
    await done(tx);
    const rows = await rawContents(e.raw, e.campaign);
    const ms = performance.now() - t0;
    if (rows[0]?.id !== move.id) throw new Error('reference reorder not read back first');
    await sleep(50);
    return { ms };
  },

  async teardown(): Promise<void> {
    const e = state;
    if (!e) return;
    e.watch?.stop();
    e.stop();
    e.client.close();
    e.raw.close();
    state = null;
    await deleteDb('ro-app');
    await deleteDb('ro-ref');
  },
};

(window as unknown as { reorder: typeof reorder }).reorder = reorder;
