import { SEARCH_MIN_LENGTH } from './item';

export interface Searchable {
  title: string;
  description?: string | null;
  updated_at: string;
  created_at?: string;
}

/** The query as matched: trimmed and lower-cased; null when it is too short to search. */
export function normalizeQuery(query: string): string | null {
  const q = query.trim().toLowerCase();
  return q.length >= SEARCH_MIN_LENGTH ? q : null;
}

/**
 * Items whose title or description contains the query, title matches first, then the most
 * recently updated. The same order the server's search answers with.
 */
export function rankSearch<T extends Searchable>(items: Iterable<T>, query: string, limit = Infinity): T[] {
  const q = normalizeQuery(query);
  if (q === null) return [];
  const titleHits: T[] = [];
  const descriptionHits: T[] = [];
  for (const item of items) {
    if (item.title.toLowerCase().includes(q)) titleHits.push(item);
    else if (item.description?.toLowerCase().includes(q)) descriptionHits.push(item);
  }
  const newest = (a: T, b: T) => (a.updated_at < b.updated_at ? 1 : a.updated_at > b.updated_at ? -1 : 0);
  titleHits.sort(newest);
  descriptionHits.sort(newest);
  return [...titleHits, ...descriptionHits].slice(0, limit);
}
