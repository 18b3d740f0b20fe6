/** Search (Ctrl/Cmd+K): the server's when signed in and online, the device's otherwise or when it fails. */
import type { ItemStatus, ItemType } from '../../../shared/item';
import type { SearchItem, SearchRow } from '../search/search';
import type { Searcher } from '../search/searchService';
import type { OutpostDb } from '../store/db';
import { defineCommands } from './map';

/** Search uses the searcher (loaded on first use) and the stored parents of its hits. */
export interface SearchContext {
  search: Searcher;
  db: OutpostDb;
}

export interface SearchHit {
  id: number;
  type: ItemType;
  title: string;
  status: ItemStatus;
  parent_id: number | null;
  parentTitle: string | null;
  parentType: ItemType | null;
  /** The words around the match when only a comment holds the query, else null. */
  comment: string | null;
}

type Parent = { title: string; type: ItemType } | null;

const hitOf = (i: SearchItem | SearchRow, parent: Parent): SearchHit => ({
  id: i.id,
  type: i.type,
  title: i.title,
  status: i.status,
  parent_id: i.parent_id,
  parentTitle: parent?.title ?? null,
  parentType: parent?.type ?? null,
  comment: i.matched_comment?.excerpt ?? null,
});

/** The hits at once when every parent came with its item (the device's answer), else after one read. */
function hitsOf(
  db: OutpostDb,
  found: readonly (SearchItem | SearchRow)[],
): SearchHit[] | Promise<SearchHit[]> {
  const missing = found.filter((i) => i.parent_id !== null && !i.parent).map((i) => i.parent_id as number);
  if (missing.length === 0) return found.map((i) => hitOf(i, i.parent ?? null));
  return db.items.bulkGet(missing).then((rows) => {
    const parents = new Map<number, { title: string; type: ItemType }>();
    for (const p of rows) if (p) parents.set(p.id, { title: p.title, type: p.type });
    return found.map((i) =>
      hitOf(i, i.parent ?? (i.parent_id !== null ? parents.get(i.parent_id) : undefined) ?? null),
    );
  });
}

export const commands = defineCommands<SearchContext>()({
  /**
   * Searches; `onFirstHits` gets the device's hits while the server's answer is on the way, in the same
   * task when it can, before the request to the server is started.
   */
  'search.run': async (c, a: { query: string; onFirstHits?: (hits: SearchHit[]) => void }) => {
    const { onFirstHits } = a;
    let first: Promise<void> = Promise.resolve();
    let local: readonly (SearchItem | SearchRow)[] | null = null;
    let localHits: SearchHit[] | Promise<SearchHit[]> = [];
    const found = await c.search(
      a.query,
      undefined,
      onFirstHits
        ? (rows) => {
            local = rows;
            localHits = hitsOf(c.db, rows);
            if (Array.isArray(localHits)) onFirstHits(localHits);
            else first = localHits.then(onFirstHits);
          }
        : undefined,
    );
    await first;
    // The server failed and the device's answer stands: the same hits, not a copy to render again.
    return found === local ? localHits : hitsOf(c.db, found);
  },
});
