import type { SyncStatusStore } from '../../stores/syncStatusStore';
import { lazily } from '../lazy';
import type { ApiClient } from '../net/apiClient';
import { type OutpostDb, SEARCH_COPY_HEAD } from '../store/db';
import type { Viewer } from '../store/types';
import { whenIdle } from './idle';
import type { LocalSearch, SearchItem, SearchRow } from './search';

/**
 * After the first screen, the device's search copy is read and indexed in the background (in slices,
 * search.ts), so the first Ctrl/Cmd+K answers from a ready index instead of reading every item.
 */
const SEARCH_WARM_DELAY_MS = 4000;
/**
 * With a saved search copy (search.ts) the copy is read in a fraction of a full read's time: it is
 * warmed at the first idle moment after this instead.
 */
const SEARCH_WARM_SAVED_DELAY_MS = 500;

/** See search.ts createSearch: `onLocal` gets the device's hits first when the server is asked. */
export type Searcher = (
  query: string,
  limit?: number,
  onLocal?: (found: SearchRow[]) => void,
) => Promise<(SearchItem | SearchRow)[]>;

/** Search and its index: the code (and its cache of every title) loads when the dialog first asks. */
export function createSearchPart(deps: {
  db: OutpostDb;
  api: ApiClient;
  viewer: () => Viewer;
  isOnline: () => boolean;
}) {
  let local: LocalSearch | null = null;
  let closed = false;
  const load = lazily(() =>
    import('./search').then((m) => {
      local = m.createLocalSearch(deps.db);
      return m.createSearch({ api: deps.api, local, viewer: deps.viewer, isOnline: deps.isOnline });
    }),
  );
  const search: Searcher = async (query, limit, onLocal) => (await load())(query, limit, onLocal);
  const warm = async () => {
    if (closed) return;
    await load();
    await local?.warm();
  };
  const service = {
    name: 'search index',
    start({ db, status }: { db: OutpostDb; status: SyncStatusStore }): () => void {
      let stopped = false;
      // Not while a first sync streams in: its pages would make the copy stale as it is read.
      let warming = false;
      const warmWhenIdle = () => {
        if (stopped || warming) return;
        if (status.getState().pullProgress !== null) later = setTimeout(warmWhenIdle, SEARCH_WARM_DELAY_MS);
        else {
          warming = true;
          void warm().catch(() => undefined);
        }
      };
      let later = setTimeout(warmWhenIdle, SEARCH_WARM_DELAY_MS);
      // A saved copy costs little to read: sooner, then (the head row only, a few bytes).
      void db.searchCopy.get(SEARCH_COPY_HEAD).then(
        (head) => {
          if (!head || stopped || warming) return;
          clearTimeout(later);
          later = setTimeout(() => whenIdle(warmWhenIdle, 0), SEARCH_WARM_SAVED_DELAY_MS);
        },
        () => undefined,
      );
      return () => {
        stopped = true;
        clearTimeout(later);
      };
    },
  };
  return {
    search,
    service,
    dispose: () => {
      closed = true;
      local?.dispose();
    },
  };
}
