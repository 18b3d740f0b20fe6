import { byRecency, normalizeQuery, type SearchKey } from './search';

/**
 * Typo-tolerant search, the fallback when nothing contains the query as typed ('lauch' finds
 * 'Garden launch'). Each query word of four or more letters may be one edit away from a word of the
 * title (two edits from eight letters on), where an edit is an insertion, a deletion, a substitution
 * or two neighbours swapped; shorter words must appear as typed. A word may also be the start of a
 * title word ('gardn' finds 'gardening'). Titles only: a description is too long to guess in.
 */

const WORD = /[\p{L}\p{N}]+/gu;

/** How many typos a query word of this length may hold. */
export function typoBudget(length: number): number {
  return length >= 8 ? 2 : length >= 4 ? 1 : 0;
}

/**
 * The optimal string alignment distance between `a` and `b` (insertions, deletions, substitutions,
 * adjacent swaps), or `max + 1` as soon as it must exceed `max`.
 */
export function editDistance(a: string, b: string, max: number): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  if (a === b) return 0;
  const width = b.length + 1;
  let before = new Array<number>(width).fill(0);
  let previous = Array.from({ length: width }, (_, j) => j);
  let current = new Array<number>(width).fill(0);
  for (let i = 1; i <= a.length; i++) {
    current[0] = i;
    let rowMin = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let value = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        value = Math.min(value, before[j - 2]! + 1);
      }
      current[j] = value;
      if (value < rowMin) rowMin = value;
    }
    if (rowMin > max) return max + 1;
    [before, previous, current] = [previous, current, before];
  }
  return Math.min(previous[b.length]!, max + 1);
}

// Three rows of the distance table, reused: a search over 100,000 titles allocates nothing per word.
let rows = [new Int32Array(32), new Int32Array(32), new Int32Array(32)];

/**
 * How far `word` is from the title word `text[start, end)` or from a start of it (a word still being
 * typed), up to `max`: the smallest entry of the table's last row, each entry being the distance to
 * that many leading letters. Only the first `word.length + max` letters can be within reach.
 */
function prefixDistance(word: string, text: string, start: number, end: number, max: number): number {
  const width = Math.min(end - start, word.length + max) + 1;
  if (rows[0]!.length < width)
    rows = [new Int32Array(width * 2), new Int32Array(width * 2), new Int32Array(width * 2)];
  let [before, previous, current] = rows as [Int32Array, Int32Array, Int32Array];
  for (let j = 0; j < width; j++) previous[j] = j;
  for (let i = 1; i <= word.length; i++) {
    current[0] = i;
    let rowMin = i;
    const w = word.charCodeAt(i - 1);
    for (let j = 1; j < width; j++) {
      const t = text.charCodeAt(start + j - 1);
      let value = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (w === t ? 0 : 1));
      if (i > 1 && j > 1 && w === text.charCodeAt(start + j - 2) && word.charCodeAt(i - 2) === t) {
        value = Math.min(value, before[j - 2]! + 1);
      }
      current[j] = value;
      if (value < rowMin) rowMin = value;
    }
    if (rowMin > max) return max + 1;
    [before, previous, current] = [previous, current, before];
  }
  let best = max + 1;
  // A start of at least one letter: the empty start is no match.
  for (let j = 1; j < width; j++) if (previous[j]! < best) best = previous[j]!;
  return best;
}

function isWordCode(code: number, text: string, at: number): boolean {
  if (code < 128)
    return (code >= 48 && code <= 57) || (code >= 97 && code <= 122) || (code >= 65 && code <= 90);
  return /[\p{L}\p{N}]/u.test(text[at]!);
}

/**
 * The typos `title` (lower-cased) needs to hold every word of the query (`null`: too many); lower is
 * closer. A title word is only measured when it starts like the query word (the same first letter,
 * or the first two swapped or one of them missing): a typo in the first letter is rare, and this
 * keeps a search over 100,000 titles to a few milliseconds.
 */
export function typoDistance(title: string, queryWords: readonly string[]): number | null {
  let total = 0;
  for (const word of queryWords) {
    if (title.includes(word)) continue;
    const max = typoBudget(word.length);
    if (max === 0) return null;
    const first = word.charCodeAt(0);
    const second = word.charCodeAt(1);
    let best = max + 1;
    let at = 0;
    while (at < title.length && best > 0) {
      while (at < title.length && !isWordCode(title.charCodeAt(at), title, at)) at++;
      const start = at;
      while (at < title.length && isWordCode(title.charCodeAt(at), title, at)) at++;
      if (at === start) break;
      const c0 = title.charCodeAt(start);
      const c1 = at - start > 1 ? title.charCodeAt(start + 1) : -1;
      if (c0 !== first && c0 !== second && c1 !== first) continue;
      best = Math.min(best, prefixDistance(word, title, start, at, max));
    }
    if (best > max) return null;
    total += best;
  }
  return total;
}

/**
 * The best `limit` keys whose titles hold the query up to a few typos, closest first, then newest.
 * Holes (undefined) are skipped. A query with no word of four letters or more finds nothing here:
 * short words must match as typed, which the exact search has already tried.
 */
export function fuzzyKeys(keys: Iterable<SearchKey | undefined>, query: string, limit: number): SearchKey[] {
  const q = normalizeQuery(query);
  if (q === null || limit <= 0) return [];
  const words = q.match(WORD) ?? [];
  if (!words.some((word) => typoBudget(word.length) > 0)) return [];
  const found: { key: SearchKey; distance: number }[] = [];
  for (const key of keys) {
    if (key === undefined) continue;
    const distance = typoDistance(key.title, words);
    if (distance !== null) found.push({ key, distance });
  }
  found.sort((a, b) => a.distance - b.distance || byRecency(a.key, b.key));
  return found.slice(0, limit).map((f) => f.key);
}
