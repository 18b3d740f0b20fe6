import { SEARCH_MIN_LENGTH } from './item';

export interface Searchable {
  id?: number;
  title: string;
  description?: string | null;
  updated_at: string;
  created_at?: string;
  /** Set on a result found by one of its comments (the server's and the device's search). */
  matched_comment?: CommentMatch;
}

/** The comment a result was found by: its id and the words around the match (matchExcerpt). */
export interface CommentMatch {
  id: number;
  excerpt: string;
}

/** The query as matched: trimmed and lower-cased; null when it is too short to search. */
export function normalizeQuery(query: string): string | null {
  const q = query.trim().toLowerCase();
  return q.length >= SEARCH_MIN_LENGTH ? q : null;
}

/**
 * How well an item matches, best first. Title: the whole title, its start, a whole word (or words)
 * in it, anywhere else in it; then the description; then a comment only. A comment ranks last: the
 * title and description say what the item is, a comment is talk about it that names many things in
 * passing (a word there is weaker evidence that this is the item sought), and an item with many
 * comments would otherwise crowd out the items whose own text holds the words.
 */
export const MATCH_RANK = { exact: 0, prefix: 1, word: 2, title: 3, description: 4, comment: 5 } as const;
export type MatchRank = (typeof MATCH_RANK)[keyof typeof MATCH_RANK];

const WORD_CHAR = /[\p{L}\p{N}_]/u;

function isWordChar(ch: string | undefined): boolean {
  return ch !== undefined && WORD_CHAR.test(ch);
}

/** True when `q` occurs in `text` with no letter or digit joined to it on either side. */
function hasWholeWord(text: string, q: string): boolean {
  for (let at = text.indexOf(q); at !== -1; at = text.indexOf(q, at + 1)) {
    const before = at === 0 ? undefined : text[at - 1];
    const after = text[at + q.length];
    const startsClean = !isWordChar(q[0]) || !isWordChar(before);
    const endsClean = !isWordChar(q[q.length - 1]) || !isWordChar(after);
    if (startsClean && endsClean) return true;
  }
  return false;
}

/**
 * The match rank of an item for a normalized query (see normalizeQuery), or null when neither its
 * title nor its description contains the query.
 */
export function matchRank(item: Pick<Searchable, 'title' | 'description'>, q: string): MatchRank | null {
  return keyRank(searchText(item.title), item.description ? searchText(item.description, false) : null, q);
}

/** Text as matched: lower-cased, and trimmed for a title. */
function searchText(text: string, trim = true): string {
  return (trim ? text.trim() : text).toLowerCase();
}

function keyRank(title: string, description: string | null, q: string): MatchRank | null {
  if (title === q) return MATCH_RANK.exact;
  if (title.startsWith(q)) return MATCH_RANK.prefix;
  if (title.includes(q)) return hasWholeWord(title, q) ? MATCH_RANK.word : MATCH_RANK.title;
  if (description?.includes(q)) return MATCH_RANK.description;
  return null;
}

/** An item's search fields already as matched, kept by a search index so a query does no case folding. */
export interface SearchKey {
  id: number;
  title: string;
  description: string | null;
  updated_at: string;
}

/** The search key of an item (see SearchKey). */
export function searchKeyOf(item: Searchable & { id: number }): SearchKey {
  return {
    id: item.id,
    title: searchText(item.title),
    description: item.description ? searchText(item.description, false) : null,
    updated_at: item.updated_at,
  };
}

/** The match rank of a search key for a normalized query (see normalizeQuery), or null. */
export function keyMatchRank(key: SearchKey, q: string): MatchRank | null {
  return keyRank(key.title, key.description, q);
}

/**
 * rankSearch over search keys: the same matches in the same order, keeping only the best `limit` as
 * it goes, so a query matching 100,000 items sorts 50, not all of them. Once the best `limit` are
 * found, a key is first tried at the best rank it could still have (a title holding the query ranks
 * no better than a whole word, a description match is last): one that loses even so costs no word
 * test, and a key whose title lacks the query costs no look at its description. Holes (undefined)
 * are skipped, so a list of keys by place is ranked as it is, not copied first.
 */
export function rankKeys(keys: Iterable<SearchKey | undefined>, query: string, limit: number): SearchKey[] {
  const q = normalizeQuery(query);
  if (q === null || limit <= 0) return [];
  const best: { item: SearchKey; rank: MatchRank }[] = [];
  const before = (a: { item: SearchKey; rank: MatchRank }, b: { item: SearchKey; rank: MatchRank }) =>
    a.rank - b.rank || byRecency(a.item, b.item);
  /** Whether the best are full and a key of `rank` could not enter them. */
  const loses = (item: SearchKey, rank: MatchRank) => {
    if (best.length < limit) return false;
    const last = best[limit - 1]!;
    return last.rank < rank || (last.rank === rank && byRecency(item, last.item) >= 0);
  };
  for (const item of keys) {
    // A hole (a list of keys by place, some places free) is skipped.
    if (item === undefined) continue;
    const { title } = item;
    let rank: MatchRank;
    if (title === q) rank = MATCH_RANK.exact;
    else if (title.startsWith(q)) rank = MATCH_RANK.prefix;
    else if (title.includes(q)) {
      if (loses(item, MATCH_RANK.word)) continue;
      rank = hasWholeWord(title, q) ? MATCH_RANK.word : MATCH_RANK.title;
    } else {
      if (loses(item, MATCH_RANK.description) || !item.description?.includes(q)) continue;
      rank = MATCH_RANK.description;
    }
    if (loses(item, rank)) continue;
    const hit = { item, rank };
    let at = best.length;
    while (at > 0 && before(hit, best[at - 1]!) < 0) at--;
    best.splice(at, 0, hit);
    if (best.length > limit) best.pop();
  }
  return best.map((b) => b.item);
}

/** Most recently updated first; then the higher id, so equal times still give one order. */
export function byRecency(a: Searchable, b: Searchable): number {
  if (a.updated_at !== b.updated_at) return a.updated_at < b.updated_at ? 1 : -1;
  return (b.id ?? 0) - (a.id ?? 0);
}

/**
 * Items whose title or description contains the query, most relevant first (MATCH_RANK), then the
 * most recently updated.
 */
export function rankSearch<T extends Searchable>(items: Iterable<T>, query: string, limit = Infinity): T[] {
  const q = normalizeQuery(query);
  if (q === null) return [];
  const ranked: { item: T; rank: MatchRank }[] = [];
  for (const item of items) {
    const rank = matchRank(item, q);
    if (rank !== null) ranked.push({ item, rank });
  }
  ranked.sort((a, b) => a.rank - b.rank || byRecency(a.item, b.item));
  return ranked.slice(0, limit).map((r) => r.item);
}

/**
 * The same order for results found elsewhere (the server's search): nothing is dropped; a result the
 * rules here do not see as a match (the server folds case its own way) sorts with the description
 * matches, or with the comment matches when it came with one.
 */
export function sortByRelevance<T extends Searchable>(items: readonly T[], query: string): T[] {
  const q = normalizeQuery(query);
  if (q === null) return [...items];
  return items
    .map((item) => ({
      item,
      rank: matchRank(item, q) ?? (item.matched_comment ? MATCH_RANK.comment : MATCH_RANK.description),
    }))
    .sort((a, b) => a.rank - b.rank || byRecency(a.item, b.item))
    .map((r) => r.item);
}

/** Longest match excerpt, in characters, ellipses aside. */
export const MATCH_EXCERPT_MAX = 80;

/**
 * The words around the first place `text` holds the normalized query `q` (see normalizeQuery), on
 * one line: about a third of `max` before it, cut at word boundaries, with '…' where text was left
 * out. A text not holding it (matched as stored, shown as read: a mention token) gives its start.
 */
export function matchExcerpt(text: string, q: string, max = MATCH_EXCERPT_MAX): string {
  const line = text.replace(/\s+/g, ' ').trim();
  if (line.length <= max) return line;
  const at = Math.max(0, line.toLowerCase().indexOf(q));
  let start = Math.max(0, at - Math.floor(max / 3));
  let end = Math.min(line.length, start + max);
  start = Math.max(0, Math.min(start, end - max));
  // Whole words: move the cut to the next space (start) or back to the last (end), unless that
  // would drop the match or most of the window.
  if (start > 0) {
    const space = line.indexOf(' ', start);
    if (space !== -1 && space < at && space - start < max / 4) start = space + 1;
  }
  if (end < line.length) {
    const space = line.lastIndexOf(' ', end);
    if (space > at + q.length && end - space < max / 4) end = space;
  }
  return `${start > 0 ? '…' : ''}${line.slice(start, end).trim()}${end < line.length ? '…' : ''}`;
}

/**
 * A comment as the device's search keeps it: its body folded once (as the server matches it, the
 * stored body), so a query folds no case per comment, and its text as read for the excerpt.
 */
export interface CommentKey {
  id: number;
  item_id: number;
  folded: string;
  /** The body as a reader sees it (shared/comments bodyText), for matchExcerpt. */
  text: string;
  created_at: string;
}

/**
 * For each item `admits` (the items the search may show, not already found by their own text), its
 * newest comment holding the normalized query `q`: one includes() per comment, no copy of the list.
 */
export function commentMatches(
  comments: Iterable<CommentKey>,
  q: string,
  admits: (itemId: number) => boolean,
): Map<number, CommentKey> {
  const found = new Map<number, CommentKey>();
  for (const c of comments) {
    if (!c.folded.includes(q) || !admits(c.item_id)) continue;
    const seen = found.get(c.item_id);
    if (!seen || seen.created_at < c.created_at || (seen.created_at === c.created_at && seen.id < c.id))
      found.set(c.item_id, c);
  }
  return found;
}
