import Dexie, { type ObservabilitySet } from 'dexie';
import type { Item } from '../../shared/item';
import { normalizeQuery, searchKeyOf, sortByRelevance } from '../../shared/search';
import { createSearchIndex, type SearchIndex } from '../../shared/searchIndex';
import type { ApiClient } from './apiClient';
import type { OutpostDb } from './db';
import { keysOfPart } from './tabs';
import type { LocalItem, Viewer } from './types';

export const DIALOG_RESULTS = 10;
/** The name of the user-timing measure each local search leaves (see search). */
export const SEARCH_MEASURE = 'outpost: local search';
/** How many hits a search answers with by default: enough for the dialog to say 'Showing 10 of N'. */
export const SEARCH_COUNT_LIMIT = 50;
/** Rows per read while the copy is built. */
const READ_PAGE = 5_000;
/** Keys whose grams are posted (or comparisons of the orders' build made) per step of a catch-up slice. */
const CATCH_UP_STEP = 100;
/**
 * Longest a catch-up slice runs: under a frame, so a key press waits no longer than that for it. A
 * slice takes steps until this (or the idle period it runs in) is used up.
 */
const CATCH_UP_SLICE_MS = 12;
/** Throwaway queries run once the index is built (see exercise). */
const EXERCISE_QUERIES = 9;

/**
 * Runs `slice` when the page is idle (requestIdleCallback: never between the tasks of a search and
 * its render, which a timer's slice could be), with the time it may take; a task at a time where
 * idle callbacks are missing (tests, old Safari). After a second without an idle moment it runs
 * anyway, so a busy page still gets its index.
 */
function whenIdle(slice: (ms: number) => void): void {
  if (typeof requestIdleCallback === 'function') {
    requestIdleCallback((deadline) => slice(Math.min(CATCH_UP_SLICE_MS, deadline.timeRemaining())), {
      timeout: 1000,
    });
  } else setTimeout(() => slice(CATCH_UP_SLICE_MS), 0);
}

/**
 * The searchable fields held lower-cased (shared/search SearchKey), so a query over 100,000 items
 * folds no case, with a trigram index beside them (shared/searchIndex), so it ranks only the items
 * holding the query's grams instead of every item. A copy read in full is indexed in the background
 * after its first search, which scans it.
 */
type Buckets = { guest: SearchIndex; account: SearchIndex };

/**
 * Local search over an in-memory copy of the searchable fields: reading 10,000 items from IndexedDB
 * per keystroke is too slow. The copy is read once; after that each committed change (in any tab,
 * Dexie's 'storagemutated') names the items it touched and only those are read again before the next
 * search, so an edit costs one small read and moves only that item's grams, not a rebuild. A change
 * that names a range instead of keys (clear, bulk writes of 50 or more) rebuilds the copy.
 */
export function createLocalSearch(db: OutpostDb) {
  const local = createLocalSearchOf(db);
  searches.set(db, local);
  return local;
}

/** Each database's local search, so a bench or test holding only the database can wait for its index. */
const searches = new WeakMap<OutpostDb, ReturnType<typeof createLocalSearchOf>>();

/** Settles once the local search of `db` (if one was made) has indexed the copy it has read. */
export function searchIndexed(db: OutpostDb): Promise<void> {
  return searches.get(db)?.indexed() ?? Promise.resolve();
}

/** What a search result shows of an item (the dialog's row), kept beside the index: no read per search. */
export interface SearchRow {
  id: number;
  type: LocalItem['type'];
  title: string;
  status: LocalItem['status'];
  parent_id: number | null;
  /** The parent's title and type when it is on the device in the same scope, else null. */
  parent: { title: string; type: LocalItem['type'] } | null;
}

type ShownFields = Pick<LocalItem, 'type' | 'title' | 'status' | 'parent_id' | '_syncStatus'>;

const shownFieldsOf = (i: LocalItem): ShownFields => ({
  type: i.type,
  title: i.title,
  status: i.status,
  parent_id: i.parent_id,
  _syncStatus: i._syncStatus,
});

function createLocalSearchOf(db: OutpostDb) {
  let cache: Buckets | null = null;
  /** The shown fields of every item in the copy, by id (kept with it by place). */
  const shown = new Map<number, ShownFields>();
  /** Items changed since the copy was read; null when the copy must be read again in full. */
  let stale: Set<number> | null = new Set();
  let reading = false;
  let disposed = false;
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
    patchSoon();
  };
  Dexie.on('storagemutated', onMutated);

  /**
   * Reads the rows a change named into the copy in the next idle moment, so the next search finds
   * them patched and waits for no read (the user opens search well after an edit). A change that
   * names a range is left to the next search, which reads the copy again: not in the background
   * while a sync streams pages in.
   */
  let patching = false;
  function patchSoon(): void {
    if (patching || !cache || reading) return;
    patching = true;
    whenIdle(() => {
      patching = false;
      if (disposed || !cache || stale === null || stale.size === 0) return;
      void current().catch(() => undefined);
    });
  }

  /** Files the row under its owner, or removes it when it is gone or deleted. */
  function place(into: Buckets, id: number, i: LocalItem | undefined): void {
    if (!i || i._deleted === 1) {
      into.guest.delete(id);
      into.account.delete(id);
      shown.delete(id);
      return;
    }
    const [home, other] = i._syncStatus === 'local' ? [into.guest, into.account] : [into.account, into.guest];
    other.delete(id);
    home.set(searchKeyOf(i));
    shown.set(id, shownFieldsOf(i));
  }

  /**
   * Reads every row into the copy. Into the copy there is, when one is (a range of rows changed):
   * a row that did not change costs a comparison, not its grams again; rows not read are dropped.
   */
  async function readAll(into: Buckets | null): Promise<Buckets> {
    const next: Buckets = into ?? { guest: createSearchIndex(), account: createSearchIndex() };
    if (!into) {
      shown.clear();
      // A first read holds the keys only; their grams are posted in the background (catchUp).
      next.guest.defer();
      next.account.defer();
    }
    const read = new Set<number>();
    // Pages by key: a cursor step per row is several times slower, one read of every row holds them all.
    let page = await db.items.orderBy(':id').limit(READ_PAGE).toArray();
    while (page.length > 0) {
      for (const item of page) {
        place(next, item.id, item);
        if (into) read.add(item.id);
      }
      if (page.length < READ_PAGE) break;
      page = await db.items
        .where(':id')
        .above(page[page.length - 1]!.id)
        .limit(READ_PAGE)
        .toArray();
    }
    if (into) {
      for (const index of [next.guest, next.account]) {
        for (const id of [...index.ids()])
          if (!read.has(id)) {
            index.delete(id);
            shown.delete(id);
          }
      }
    }
    return next;
  }

  /**
   * Posts the grams of a freshly read copy (and builds its orders) a slice at a time in idle moments,
   * so no task runs long; until it is done a search scans the copy as before the index.
   */
  function catchUp(of: Buckets, done: () => void, ms: number): void {
    if (disposed || of !== cache) {
      done();
      return;
    }
    const until = performance.now() + ms;
    let left: number;
    // At least one step, even in an idle period with no time left (one that timed out).
    do left = of.guest.catchUp(CATCH_UP_STEP) + of.account.catchUp(CATCH_UP_STEP);
    while (left > 0 && performance.now() < until);
    if (left > 0) whenIdle((next) => catchUp(of, done, next));
    else exercise(of, EXERCISE_QUERIES, done);
  }

  /**
   * A few throwaway queries (pieces of its own titles), one per idle moment, before the catch-up (the
   * scan's code) and once indexed (the index's): a page's first queries otherwise run that code before
   * the engine has compiled it, 5–20 ms each at 100,000 items instead of 1–3 ms. The first once
   * indexed also puts keys changed meanwhile in order.
   */
  function exercise(of: Buckets, count: number, done: () => void): void {
    const index = of.account.size >= of.guest.size ? of.account : of.guest;
    const queries: string[] = [];
    for (const id of index.ids()) {
      const title = index.get(id)?.title ?? '';
      queries.push(title.slice(0, 5), title.slice(1, 4), title.slice(0, 2));
      if (queries.length >= count) break;
    }
    const next = () => {
      const q = queries.shift();
      if (q === undefined || disposed || of !== cache) {
        done();
        return;
      }
      index.search(q, SEARCH_COUNT_LIMIT);
      whenIdle(next);
    };
    whenIdle(next);
  }
  /** Settles when the copy last read in full has all its grams posted (see `indexed`). */
  let indexing: Promise<void> = Promise.resolve();
  let startCatchUp: (() => void) | null = null;

  /** Brings the copy up to date: read in full when needed, then only the items changed meanwhile. */
  async function refresh(): Promise<Buckets> {
    for (;;) {
      if (!cache || stale === null) {
        stale = new Set();
        reading = true;
        try {
          const fresh = !cache;
          cache = await readAll(cache);
          if (fresh) {
            const of = cache;
            // Started once the search that read the copy has answered (see search): a timer set now
            // runs its slices before that search's own read of the rows it shows.
            indexing = new Promise((done) => {
              startCatchUp = () => exercise(of, 3, () => whenIdle((ms) => catchUp(of, done, ms)));
            });
          }
        } finally {
          reading = false;
        }
        continue;
      }
      if (stale.size === 0) return cache;
      const ids = [...stale];
      stale.clear();
      const rows = await db.items.bulkGet(ids);
      for (const [index, id] of ids.entries()) place(cache, id, rows[index]);
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

  async function indexOf(viewer: Viewer): Promise<SearchIndex> {
    const buckets = await current();
    return viewer.isGuest ? buckets.guest : buckets.account;
  }

  return {
    /** Title or description contains the query (≥ 2 characters), most relevant first (shared/search), then newest. */
    async search(viewer: Viewer, query: string, limit = SEARCH_COUNT_LIMIT): Promise<SearchRow[]> {
      if (normalizeQuery(query) === null) return [];
      const t0 = performance.now();
      const index = await indexOf(viewer);
      const t1 = performance.now();
      const ranked = index.search(query, limit);
      // For a profile or a bench: the whole answer, and how it was found (index or scan, the copy's read).
      // Only the last is kept.
      performance.clearMeasures?.(SEARCH_MEASURE);
      performance.measure?.(SEARCH_MEASURE, {
        start: t0,
        detail: { scanned: index.scanning, readMs: t1 - t0, rankMs: performance.now() - t1 },
      });
      const start = startCatchUp;
      startCatchUp = null;
      start?.();
      const rows: SearchRow[] = [];
      for (const { id } of ranked) {
        const row = shown.get(id);
        if (!row) continue;
        const parent = row.parent_id === null ? undefined : shown.get(row.parent_id);
        const sameScope = parent && (parent._syncStatus === 'local') === (row._syncStatus === 'local');
        rows.push({
          id,
          type: row.type,
          title: row.title,
          status: row.status,
          parent_id: row.parent_id,
          parent: sameScope ? { title: parent.title, type: parent.type } : null,
        });
      }
      return rows;
    },
    /** Reads the copy now and starts indexing it in the background, before any search asks. */
    async warm(): Promise<void> {
      await current();
      const start = startCatchUp;
      startCatchUp = null;
      start?.();
    },
    /** Settles once the copy read so far has all its grams posted: from then on no search scans it all. */
    indexed: () => indexing,
    dispose: () => {
      disposed = true;
      Dexie.on('storagemutated').unsubscribe(onMutated);
    },
  };
}
export type LocalSearch = ReturnType<typeof createLocalSearchOf>;

export interface SearchDeps {
  api: ApiClient;
  local: LocalSearch;
  viewer: () => Viewer;
  isOnline: () => boolean;
  log?: (message: string, error: unknown) => void;
}

/**
 * Server search when online and signed in; the local rules when offline, a guest, or the server fails.
 * Signed in and online, `onLocal` (when given) gets the device's answer first, as soon as it is ready:
 * the screen shows it while the server's answer, the spec's, is on its way, and that answer replaces it.
 */
export function createSearch(deps: SearchDeps) {
  return async function search(
    query: string,
    limit = SEARCH_COUNT_LIMIT,
    onLocal?: (found: SearchRow[]) => void,
  ): Promise<(Item | SearchRow)[]> {
    if (normalizeQuery(query) === null) return [];
    const viewer = deps.viewer();
    if (viewer.isGuest || !deps.isOnline()) return deps.local.search(viewer, query, limit);
    // Asked first, so the server works while the device searches its own copy.
    const server = deps.api.get<Item[]>(`/items/search?q=${encodeURIComponent(query.trim())}`);
    server.catch(() => undefined);
    const local = onLocal ? await deps.local.search(viewer, query, limit) : null;
    if (local) onLocal?.(local);
    try {
      const { data } = await server;
      // The server orders by title match and recency only: the shared relevance order applies here too.
      return sortByRelevance(data, query).slice(0, limit);
    } catch (error) {
      (deps.log ?? console.warn)('Server search failed; searching locally instead.', error);
    }
    return local ?? deps.local.search(viewer, query, limit);
  };
}
