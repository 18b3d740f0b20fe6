import Dexie from 'dexie';
import type { Item } from '../../shared/item';
import { normalizeQuery, rankSearch } from '../../shared/search';
import type { ApiClient } from './apiClient';
import type { OutpostDb } from './db';
import type { LocalItem, Viewer } from './types';

export const DIALOG_RESULTS = 10;

interface Entry {
  id: number;
  title: string;
  description: string | null;
  updated_at: string;
}

/**
 * Local search over an in-memory copy of the searchable fields: reading 10,000 items from IndexedDB
 * per keystroke is too slow, so the copy is rebuilt only after the items table changes (in any tab).
 */
export function createLocalSearch(db: OutpostDb) {
  let cache: { guest: Entry[]; account: Entry[] } | null = null;
  let building: Promise<{ guest: Entry[]; account: Entry[] }> | null = null;
  const prefix = `idb://${db.name}/items/`;
  const onMutated = (parts: Record<string, unknown>) => {
    for (const key of Object.keys(parts)) {
      if (key.startsWith(prefix)) {
        cache = null;
        building = null;
        return;
      }
    }
  };
  Dexie.on('storagemutated', onMutated);

  async function entries(viewer: Viewer): Promise<Entry[]> {
    if (!cache) {
      building ??= (async () => {
        const next = { guest: [] as Entry[], account: [] as Entry[] };
        await db.items.each((i) => {
          if (i._deleted === 1) return;
          const e = { id: i.id, title: i.title, description: i.description, updated_at: i.updated_at };
          (i._syncStatus === 'local' ? next.guest : next.account).push(e);
        });
        return next;
      })();
      const built = building;
      const result = await built;
      if (building === built) cache = result;
      return viewer.isGuest ? result.guest : result.account;
    }
    return viewer.isGuest ? cache.guest : cache.account;
  }

  return {
    /** Title or description contains the query (≥ 2 characters), title matches first, then newest. */
    async search(viewer: Viewer, query: string, limit = DIALOG_RESULTS): Promise<LocalItem[]> {
      if (normalizeQuery(query) === null) return [];
      const ranked = rankSearch(await entries(viewer), query, limit);
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
  return async function search(query: string, limit = DIALOG_RESULTS): Promise<(Item | LocalItem)[]> {
    if (normalizeQuery(query) === null) return [];
    const viewer = deps.viewer();
    if (!viewer.isGuest && deps.isOnline()) {
      try {
        const { data } = await deps.api.get<Item[]>(`/items/search?q=${encodeURIComponent(query.trim())}`);
        return data.slice(0, limit);
      } catch (error) {
        (deps.log ?? console.warn)('Server search failed; searching locally instead.', error);
      }
    }
    return deps.local.search(viewer, query, limit);
  };
}
