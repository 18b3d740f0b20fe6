import Dexie, { type ObservabilitySet } from 'dexie';
import type { Item } from '../../shared/item';
import { normalizeQuery, rankKeys, type SearchKey, searchKeyOf, sortByRelevance } from '../../shared/search';
import type { ApiClient } from './apiClient';
import type { OutpostDb } from './db';
import { keysOfPart } from './tabs';
import type { LocalItem, Viewer } from './types';

export const DIALOG_RESULTS = 10;
/** How many hits a search answers with by default: enough for the dialog to say 'Showing 10 of N'. */
export const SEARCH_COUNT_LIMIT = 50;
/** Rows per read while the copy is built. */
const READ_PAGE = 5_000;

/** Held lower-cased (shared/search SearchKey): a query over 100,000 items folds no case. */
type Entry = SearchKey;

type Buckets = { guest: Map<number, Entry>; account: Map<number, Entry> };

/**
 * Local search over an in-memory copy of the searchable fields: reading 10,000 items from IndexedDB
 * per keystroke is too slow. The copy is read once; after that each committed change (in any tab,
 * Dexie's 'storagemutated') names the items it touched and only those are read again before the next
 * search, so an edit costs one small read, not a rebuild. A change that names a range instead of keys
 * (clear, bulk writes of 50 or more) rebuilds the copy.
 */
export function createLocalSearch(db: OutpostDb) {
  let cache: Buckets | null = null;
  /** Items changed since the copy was read; null when the copy must be read again in full. */
  let stale: Set<number> | null = new Set();
  let reading = false;
  const prefix = `idb://${db.name}/items/`;
  const primary = `${prefix}`;
  const onMutated = (parts: ObservabilitySet) => {
    let touched = false;
    for (const key of Object.keys(parts)) {
      if (key.startsWith(prefix) && parts[key]!.d !== 0) touched = true;
    }
    // No copy (and none being read): nothing to patch, the next search reads it all anyway.
    if (!touched || stale === null || (!cache && !reading)) return;
    const keys = keysOfPart(parts[primary]);
    if (keys === null || keys.length === 0 || stale.size + keys.length > 5000) {
      stale = null;
      return;
    }
    for (const key of keys) stale.add(key as number);
  };
  Dexie.on('storagemutated', onMutated);

  function place(into: Buckets, i: LocalItem): void {
    if (i._deleted === 1) return;
    (i._syncStatus === 'local' ? into.guest : into.account).set(i.id, searchKeyOf(i));
  }

  async function readAll(): Promise<Buckets> {
    const next: Buckets = { guest: new Map(), account: new Map() };
    // Pages by key: a cursor step per row is several times slower, one read of every row holds them all.
    let page = await db.items.orderBy(':id').limit(READ_PAGE).toArray();
    while (page.length > 0) {
      for (const item of page) place(next, item);
      if (page.length < READ_PAGE) break;
      page = await db.items
        .where(':id')
        .above(page[page.length - 1]!.id)
        .limit(READ_PAGE)
        .toArray();
    }
    return next;
  }

  /** Brings the copy up to date: read in full when needed, then only the items changed meanwhile. */
  async function refresh(): Promise<Buckets> {
    for (;;) {
      if (!cache || stale === null) {
        stale = new Set();
        reading = true;
        try {
          cache = await readAll();
        } finally {
          reading = false;
        }
        continue;
      }
      if (stale.size === 0) return cache;
      const ids = [...stale];
      stale.clear();
      const rows = await db.items.bulkGet(ids);
      const into: Buckets = cache;
      ids.forEach((id, index) => {
        into.guest.delete(id);
        into.account.delete(id);
        const row = rows[index];
        if (row) place(into, row);
      });
    }
  }

  /** One refresh at a time, in order, so two searches never apply the same changes twice. */
  let queue: Promise<unknown> = Promise.resolve();
  function current(): Promise<Buckets> {
    const run = queue.then(refresh);
    queue = run.catch(() => {
      cache = null;
    });
    return run;
  }

  async function entries(viewer: Viewer): Promise<Iterable<Entry>> {
    const buckets = await current();
    return (viewer.isGuest ? buckets.guest : buckets.account).values();
  }

  return {
    /** Title or description contains the query (≥ 2 characters), most relevant first (shared/search), then newest. */
    async search(viewer: Viewer, query: string, limit = SEARCH_COUNT_LIMIT): Promise<LocalItem[]> {
      if (normalizeQuery(query) === null) return [];
      const ranked = rankKeys(await entries(viewer), query, limit);
      const items = await db.items.bulkGet(ranked.map((r) => r.id));
      return items.filter((i): i is LocalItem => !!i && i._deleted === 0);
    },
    dispose: () => Dexie.on('storagemutated').unsubscribe(onMutated),
  };
}
export type LocalSearch = ReturnType<typeof createLocalSearch>;

export interface SearchDeps {
  api: ApiClient;
  local: LocalSearch;
  viewer: () => Viewer;
  isOnline: () => boolean;
  log?: (message: string, error: unknown) => void;
}

/** Server search when online and signed in; the local rules when offline, a guest, or the server fails. */
export function createSearch(deps: SearchDeps) {
  return async function search(query: string, limit = SEARCH_COUNT_LIMIT): Promise<(Item | LocalItem)[]> {
    if (normalizeQuery(query) === null) return [];
    const viewer = deps.viewer();
    if (!viewer.isGuest && deps.isOnline()) {
      try {
        const { data } = await deps.api.get<Item[]>(`/items/search?q=${encodeURIComponent(query.trim())}`);
        // The server orders by title match and recency only: the shared relevance order applies here too.
        return sortByRelevance(data, query).slice(0, limit);
      } catch (error) {
        (deps.log ?? console.warn)('Server search failed; searching locally instead.', error);
      }
    }
    return deps.local.search(viewer, query, limit);
  };
}
