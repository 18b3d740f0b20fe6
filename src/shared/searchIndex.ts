import { fuzzyKeys } from './fuzzy';
import { byRecency, keyMatchRank, MATCH_RANK, normalizeQuery, rankKeys, type SearchKey } from './search';

/**
 * Length of the grams the index keeps, in UTF-16 code units. Counting code units, not characters,
 * keeps the rule exact for any text: if the query occurs in a text, every run of GRAM code units of
 * the query occurs in it too, surrogate halves included.
 */
export const GRAM = 3;

/** Candidates up to this many are ranked directly; more are met newest first (see search). */
const DIRECT_CANDIDATES = 2_000;

/**
 * A walk newest first gives up on stopping early after meeting this share of its candidates (see
 * search): a key met out of storage order costs about ten times one met in order, so a walk that
 * gives up costs under twice the direct ranking it falls back to.
 */
const WALK_SHARE = 1 / 16;

/**
 * Keys moved one at a time in the two orders between queries (each a block move of the order); the
 * rest of a burst is merged in by the next query in one pass.
 */
const MOVES_BEFORE_MERGE = 128;

/**
 * Keys out of place in the orders up to which the next query moves each (found, then a block move of
 * the order) instead of merging them in with a pass over every key: at 100,000 keys such a pass is
 * 100,000 comparisons, a move a few block copies.
 */
const FEW_MOVED = 32;

/**
 * A gram as the postings keep it: its three code units packed into one small integer when each is
 * under 1024 (Latin, Greek, Cyrillic and their accents), else its text. Building the index at
 * 100,000 keys then makes no string per gram and hashes an integer.
 */
type Gram = number | string;

function gramAt(text: string, at: number): Gram {
  const a = text.charCodeAt(at);
  const b = text.charCodeAt(at + 1);
  const c = text.charCodeAt(at + 2);
  return (a | b | c) < 1024 ? (a << 20) | (b << 10) | c : text.slice(at, at + GRAM);
}

function gramSet(text: string | null): Set<Gram> {
  const grams = new Set<Gram>();
  if (text) for (let at = 0; at + GRAM <= text.length; at++) grams.add(gramAt(text, at));
  return grams;
}

/** The first index in [from, to) where `before` turns false (it must hold for a prefix of `list`). */
function partition<T>(list: readonly T[], before: (x: T) => boolean, from = 0, to = list.length): number {
  let lo = from;
  let hi = to;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (before(list[mid]!)) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * The ids of the ascending `small` that are also in the ascending `large`. Gallops through `large`
 * from the last hit, so a few candidates against a long posting cost a few probes each, not a walk.
 */
export function intersectSorted(small: readonly number[], large: readonly number[]): number[] {
  if (large.length < small.length * 8) return mergeCommon(small, large);
  const out: number[] = [];
  const n = large.length;
  let from = 0;
  for (let i = 0; i < small.length && from < n; i++) {
    const id = small[i]!;
    // Gallop to a window [from, hi] that holds the first element ≥ id, then halve it (inline: this
    // runs once per candidate of every gram).
    let step = 1;
    let hi = from;
    while (hi < n && large[hi]! < id) {
      from = hi + 1;
      hi += step;
      step *= 2;
    }
    if (hi > n) hi = n;
    while (from < hi) {
      const mid = (from + hi) >>> 1;
      if (large[mid]! < id) from = mid + 1;
      else hi = mid;
    }
    if (large[from] === id) {
      out.push(id);
      from++;
    }
  }
  return out;
}

/** intersectSorted for lists of like length: one step through both. */
function mergeCommon(a: readonly number[], b: readonly number[]): number[] {
  const out: number[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    const x = a[i]!;
    const y = b[j]!;
    if (x < y) i++;
    else if (y < x) j++;
    else {
      out.push(x);
      i++;
      j++;
    }
  }
  return out;
}

/** Puts `n` into the ascending `list` unless it is there; numbers mostly arrive in order, so mostly a push. */
function insertSorted(list: number[], n: number): void {
  const last = list[list.length - 1];
  if (last === undefined || last < n) {
    list.push(n);
    return;
  }
  const at = partition(list, (x) => x < n);
  if (list[at] !== n) list.splice(at, 0, n);
}

/** Gram → ascending slots of the keys holding it in one field. A posting that empties is dropped. */
class Postings {
  readonly lists = new Map<Gram, number[]>();

  add(gram: Gram, slot: number): void {
    const list = this.lists.get(gram);
    if (list) insertSorted(list, slot);
    else this.lists.set(gram, [slot]);
  }

  remove(gram: Gram, slot: number): void {
    const list = this.lists.get(gram);
    if (!list) return;
    const at = partition(list, (x) => x < slot);
    if (list[at] !== slot) return;
    if (list.length === 1) this.lists.delete(gram);
    else list.splice(at, 1);
  }

  /** Moves a slot's grams from the old text to the new; only the grams that differ are touched. */
  update(slot: number, before: string | null, after: string | null): void {
    if (before === after) return;
    if (before === null) {
      if (after) for (let at = 0; at + GRAM <= after.length; at++) this.add(gramAt(after, at), slot);
      return;
    }
    const old = gramSet(before);
    const next = gramSet(after);
    for (const gram of old) if (!next.has(gram)) this.remove(gram, slot);
    for (const gram of next) if (!old.has(gram)) this.add(gram, slot);
  }

  /** The slots holding every gram of `q` (at least GRAM long), ascending; smallest posting first. */
  holdingAll(q: string): number[] {
    const lists: number[][] = [];
    const seen = new Set<Gram>();
    for (let at = 0; at + GRAM <= q.length; at++) {
      const gram = gramAt(q, at);
      if (seen.has(gram)) continue;
      seen.add(gram);
      const list = this.lists.get(gram);
      if (!list) return [];
      lists.push(list);
    }
    lists.sort((a, b) => a.length - b.length);
    let slots = lists[0] ?? [];
    for (let i = 1; i < lists.length && slots.length > 0; i++) slots = intersectSorted(slots, lists[i]!);
    return slots;
  }

  count(): number {
    let n = 0;
    for (const list of this.lists.values()) n += list.length;
    return n;
  }
}

/** Merges two lists sorted by `order` into one. */
function mergeSorted(
  a: readonly number[],
  b: readonly number[],
  order: (x: number, y: number) => number,
): number[] {
  if (b.length === 0) return [...a];
  const out: number[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) out.push(order(a[i]!, b[j]!) <= 0 ? a[i++]! : b[j++]!);
  while (i < a.length) out.push(a[i++]!);
  while (j < b.length) out.push(b[j++]!);
  return out;
}

/** A merge of two lists sorted by one order, done a part at a time (see mergeSome). */
interface Merge {
  a: readonly number[];
  b: readonly number[];
  i: number;
  j: number;
  out: number[];
}

/**
 * Takes the merge `steps` comparisons further (mergeSorted's result, a part at a time); once either
 * list is used up, the rest of the other is copied at once (no comparisons). True when it is done.
 */
function mergeSome(m: Merge, order: (x: number, y: number) => number, steps: number): boolean {
  const { a, b, out } = m;
  let { i, j } = m;
  for (let n = 0; n < steps && i < a.length && j < b.length; n++)
    out.push(order(a[i]!, b[j]!) <= 0 ? a[i++]! : b[j++]!);
  if (i === a.length) while (j < b.length) out.push(b[j++]!);
  else if (j === b.length) while (i < a.length) out.push(a[i++]!);
  m.i = i;
  m.j = j;
  return i === a.length && j === b.length;
}

/** Between two texts in a JoinedTexts; a hit across it is passed over, so any character would do. */
const JOIN = '\u0000';

/**
 * Texts joined into one string, where each starts beside it: which of 100,000 texts hold a query is
 * a few indexOf calls over one string (each a fast search in the engine) instead of 100,000
 * `includes`. A hit that runs over the end of its text is passed over, so the answer is exact for
 * any text and any query, the separator included.
 */
export class JoinedTexts {
  private readonly text: string;
  /** Where text i starts; one more entry, one past the end, so text i ends at starts[i + 1] - 1. */
  private readonly starts: Int32Array;

  constructor(texts: readonly string[]) {
    this.text = texts.join(JOIN);
    this.starts = new Int32Array(texts.length + 1);
    for (let i = 0; i < texts.length; i++) this.starts[i + 1] = this.starts[i]! + texts[i]!.length + 1;
  }

  /** Calls `hit` with the place of each text that contains `q` (not empty), ascending. */
  holding(q: string, hit: (i: number) => void): void {
    const { text, starts } = this;
    const n = starts.length - 1;
    let i = 0;
    for (let at = text.indexOf(q); at !== -1; ) {
      // The text the hit starts in: the last one starting at or before it (hits only go forward).
      let hi = n;
      while (i + 1 < hi) {
        const mid = (i + hi) >>> 1;
        if (starts[mid]! <= at) i = mid;
        else hi = mid;
      }
      const end = starts[i + 1]! - 1;
      if (at + q.length <= end) {
        hit(i);
        at = i + 1 < n ? text.indexOf(q, end + 1) : -1;
      } else at = text.indexOf(q, at + 1);
    }
  }
}

/** Merges two ascending lists without repeats. */
function union(a: readonly number[], b: readonly number[]): number[] {
  const out: number[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    const x = a[i];
    const y = b[j];
    if (y === undefined || (x !== undefined && x < y)) {
      out.push(x!);
      i++;
    } else if (x === undefined || y < x) {
      out.push(y);
      j++;
    } else {
      out.push(x);
      i++;
      j++;
    }
  }
  return out;
}

/**
 * Search keys by id, kept up to date one key at a time, with what lets a query skip most of them:
 * trigram postings of titles and of descriptions, the keys newest first (the order ranks tie on) and
 * by title (where exact and prefix matches sit together). `search` answers exactly what rankKeys over
 * every key answers (the same matches, order and limit). See search for how, and defer/catchUp for
 * filling it with many keys at once.
 */
export function createSearchIndex(
  options: {
    directCandidates?: number;
    walkBudget?: number;
    movesBeforeMerge?: number;
    /** Keys out of place in the orders up to which a query moves them one at a time instead of merging. */
    fewMoved?: number;
    /** Keys changed since the texts were joined beyond which a scan joins them again (see joinedScan). */
    rejoinAfter?: number;
  } = {},
) {
  const direct = options.directCandidates ?? DIRECT_CANDIDATES;
  const maxMoves = options.movesBeforeMerge ?? MOVES_BEFORE_MERGE;
  const fewMoved = options.fewMoved ?? FEW_MOVED;
  /** Dense slots so the postings hold small numbers and a query can mark candidates in an array. */
  const slotOf = new Map<number, number>();
  const bySlot: (SearchKey | undefined)[] = [];
  const freeSlots: number[] = [];
  const titles = new Postings();
  const descriptions = new Postings();
  /** Slots newest first (byRecency), and by title then id; null until the first query sorts them. */
  let newest: number[] | null = null;
  let byTitle: number[] | null = null;
  /**
   * The two orders being built a slice at a time after catchUp posted every gram (a whole sort of
   * 100,000 keys is one task of 200–500 ms): sorted runs of a snapshot of the keys, then merged two
   * at a time, each merge a slice of comparisons at a time (the last merge of 100,000 keys at once
   * is itself a task of 100 ms or more). Keys that change meanwhile are noted in `unsorted` and
   * merged in by the next query.
   */
  let building: {
    snap: (SearchKey | undefined)[];
    slots: number[];
    next: number;
    newest: number[][];
    byTitle: number[][];
    merging: { newest: Merge; byTitle: Merge } | null;
  } | null = null;
  /** Slots whose place in both orders is out of date, merged in by the next query. */
  const unsorted = new Set<number>();
  /** Keys moved one at a time in the orders since the last query. */
  let moves = 0;
  let inTitle = new Uint32Array(0);
  let inDescription = new Uint32Array(0);
  let epoch = 0;
  /** Whether a slot's grams are in the postings; while `deferring`, new keys wait in `unposted`. */
  let posted = new Uint8Array(0);
  let unposted: number[] = [];
  let nextUnposted = 0;
  let deferring = false;
  /**
   * While keys are held without grams: their titles and descriptions as they were at one moment,
   * joined (JoinedTexts) by the first query that scans, so a query finds its matches there with a
   * few indexOf calls (the join, about 15 ms at 100,000 keys, is that query's, not a background task's). Keys added,
   * deleted or given another text since are `changed` (and flagged in `moved`) and looked at one by
   * one instead; once too many are, the texts are joined again.
   */
  let joinedScan: {
    titles: JoinedTexts;
    titleSlots: Int32Array;
    descriptions: JoinedTexts;
    descriptionSlots: Int32Array;
    moved: Uint8Array;
    changed: Set<number>;
  } | null = null;

  const key = (slot: number) => bySlot[slot]!;
  const recencyOrder = (a: number, b: number) => byRecency(key(a), key(b));
  const titleOrder = (a: number, b: number) => {
    const [x, y] = [key(a), key(b)];
    return x.title < y.title ? -1 : x.title > y.title ? 1 : x.id - y.id;
  };
  const recencyBefore = (a: SearchKey) => (slot: number) => byRecency(key(slot), a) < 0;
  const titleBefore = (a: SearchKey) => (slot: number) => {
    const b = key(slot);
    return b.title < a.title || (b.title === a.title && b.id < a.id);
  };

  function live(): number[] {
    const slots: number[] = [];
    bySlot.forEach((k, slot) => {
      if (k) slots.push(slot);
    });
    return slots;
  }

  /** Both orders up to date: sorted in full the first time, after that the moved keys merged in. */
  function orders(): { newest: number[]; byTitle: number[] } {
    moves = 0;
    if (!newest || !byTitle) {
      unsorted.clear();
      newest = live().sort(recencyOrder);
      byTitle = live().sort(titleOrder);
    } else if (unsorted.size > 0 && unsorted.size <= fewMoved) {
      // A few (keys changed while the orders were built, say): each found and moved as a block, not
      // a pass over every key comparing each. Every copy of them out first, so the rest is in order.
      for (const list of [newest, byTitle]) {
        for (const slot of unsorted)
          for (let at = list.indexOf(slot); at !== -1; at = list.indexOf(slot, at)) list.splice(at, 1);
      }
      for (const slot of unsorted) {
        const k = bySlot[slot];
        if (!k) continue;
        place(newest, slot, recencyBefore(k));
        place(byTitle, slot, titleBefore(k));
      }
      unsorted.clear();
    } else if (unsorted.size > 0) {
      const moved = [...unsorted].filter((slot) => bySlot[slot] !== undefined);
      const kept = (list: number[]) => list.filter((slot) => !unsorted.has(slot));
      newest = mergeSorted(kept(newest), moved.sort(recencyOrder), recencyOrder);
      byTitle = mergeSorted(kept(byTitle), moved.sort(titleOrder), titleOrder);
      unsorted.clear();
    }
    return { newest, byTitle };
  }

  /**
   * One slice of the orders' build: sorts the next `size` keys into a run, or takes the merge of two
   * runs `size` comparisons further in each order.
   */
  function buildStep(size: number): void {
    const b = building!;
    const snapKey = (slot: number) => b.snap[slot]!;
    const recency = (x: number, y: number) => byRecency(snapKey(x), snapKey(y));
    const title = (x: number, y: number) => {
      const [p, q] = [snapKey(x), snapKey(y)];
      return p.title < q.title ? -1 : p.title > q.title ? 1 : p.id - q.id;
    };
    if (b.next < b.slots.length) {
      const run = b.slots.slice(b.next, b.next + size);
      b.next += run.length;
      b.newest.push([...run].sort(recency));
      b.byTitle.push(run.sort(title));
      return;
    }
    if (!b.merging && b.newest.length > 1) {
      // The two oldest runs: a balanced tree of merges, each at most as long as the whole list.
      const [n1, n2] = b.newest.splice(0, 2);
      const [t1, t2] = b.byTitle.splice(0, 2);
      b.merging = {
        newest: { a: n1!, b: n2!, i: 0, j: 0, out: [] },
        byTitle: { a: t1!, b: t2!, i: 0, j: 0, out: [] },
      };
    }
    if (b.merging) {
      const m = b.merging;
      // Both taken further in every slice (not one after the other), so each slice costs alike.
      const doneNewest = mergeSome(m.newest, recency, size);
      const doneTitle = mergeSome(m.byTitle, title, size);
      if (doneNewest && doneTitle) {
        b.newest.push(m.newest.out);
        b.byTitle.push(m.byTitle.out);
        b.merging = null;
      }
      return;
    }
    newest = b.newest[0] ?? [];
    byTitle = b.byTitle[0] ?? [];
    building = null;
    moves = 0;
  }

  /**
   * Whether a change moves its key in the orders now (a binary search and a block move in each), or
   * leaves it to the next query's merge: after a burst of changes one pass is cheaper than many moves.
   */
  function movesNow(): boolean {
    if (!newest || !byTitle) return false;
    if (unsorted.size > 0 || moves >= maxMoves) return false;
    moves++;
    return true;
  }

  /** Takes the slot, holding `k`, out of the order; false if it is not where `k` puts it. */
  function unplace(list: number[], slot: number, before: (slot: number) => boolean): boolean {
    const at = partition(list, before);
    if (list[at] !== slot) return false;
    list.splice(at, 1);
    return true;
  }

  function place(list: number[], slot: number, before: (slot: number) => boolean): void {
    list.splice(partition(list, before), 0, slot);
  }

  function slotFor(id: number): number {
    const slot = freeSlots.pop() ?? bySlot.length;
    slotOf.set(id, slot);
    if (slot >= inTitle.length) {
      const grown = Math.max(64, slot * 2);
      const [t, d, p] = [new Uint32Array(grown), new Uint32Array(grown), new Uint8Array(grown)];
      t.set(inTitle);
      d.set(inDescription);
      p.set(posted);
      [inTitle, inDescription, posted] = [t, d, p];
    }
    return slot;
  }

  /** Whether a query scans the keys (some held without grams, or the orders being built). */
  const scanning = () => unposted.length > nextUnposted || building !== null;

  /** The keys' texts joined as they are now (see joinedScan). */
  function joinKeys(): NonNullable<typeof joinedScan> {
    const titles: string[] = [];
    const titleSlots: number[] = [];
    const descriptions: string[] = [];
    const descriptionSlots: number[] = [];
    for (let slot = 0; slot < bySlot.length; slot++) {
      const k = bySlot[slot];
      if (!k) continue;
      titles.push(k.title);
      titleSlots.push(slot);
      if (k.description) {
        descriptions.push(k.description);
        descriptionSlots.push(slot);
      }
    }
    return {
      titles: new JoinedTexts(titles),
      titleSlots: Int32Array.from(titleSlots),
      descriptions: new JoinedTexts(descriptions),
      descriptionSlots: Int32Array.from(descriptionSlots),
      moved: new Uint8Array(bySlot.length),
      changed: new Set(),
    };
  }

  /** Notes that the joined texts no longer hold the slot's key as it is. */
  function changedSinceJoined(slot: number): void {
    if (!joinedScan) return;
    joinedScan.changed.add(slot);
    if (slot < joinedScan.moved.length) joinedScan.moved[slot] = 1;
  }

  /**
   * rankKeys over every key while they are scanned: the keys whose joined title or description holds
   * the query, unless changed since, and every changed key (rankKeys drops those that do not match).
   */
  function scanJoined(q: string, query: string, limit: number): SearchKey[] {
    // Joined again once looking at the changed keys one by one costs more than a join would.
    const rejoinAfter = options.rejoinAfter ?? Math.max(1_000, slotOf.size / 16);
    if (!joinedScan || joinedScan.changed.size > rejoinAfter) joinedScan = joinKeys();
    const { titles, titleSlots, descriptions, descriptionSlots, moved, changed } = joinedScan;
    const mark = ++epoch;
    const found: SearchKey[] = [];
    const take = (slot: number) => {
      if (moved[slot] === 1 || inTitle[slot] === mark) return;
      inTitle[slot] = mark;
      found.push(bySlot[slot]!);
    };
    titles.holding(q, (i) => take(titleSlots[i]!));
    // `limit` title matches already: a match in a description only (the last rank) cannot enter.
    if (found.length < limit) descriptions.holding(q, (i) => take(descriptionSlots[i]!));
    for (const slot of changed) {
      const k = bySlot[slot];
      if (k) found.push(k);
    }
    return rankKeys(found, query, limit);
  }

  function post(slot: number, k: SearchKey): void {
    titles.update(slot, null, k.title);
    descriptions.update(slot, null, k.description);
    posted[slot] = 1;
  }

  /**
   * Counts of keys whose title equals `q` and whose title only starts with it: both sit together in
   * the title order.
   */
  function titleCounts(list: readonly number[], q: string): { exact: number; prefix: number } {
    const from = partition(list, (s) => key(s).title < q);
    const exactEnd = partition(list, (s) => key(s).title === q, from);
    const prefixEnd = partition(list, (s) => key(s).title.startsWith(q), exactEnd);
    return { exact: exactEnd - from, prefix: prefixEnd - exactEnd };
  }

  return {
    get size() {
      return slotOf.size;
    },
    /** Whether a query now scans the keys (their grams or orders not all in place yet) instead of using the index. */
    get scanning() {
      return scanning();
    },
    /** The ids of every key held. */
    ids: () => slotOf.keys(),
    get: (id: number): SearchKey | undefined => {
      const slot = slotOf.get(id);
      return slot === undefined ? undefined : bySlot[slot];
    },
    /** How many grams the postings hold and how many slots in all (for a memory figure). */
    stats() {
      return {
        keys: slotOf.size,
        grams: titles.lists.size + descriptions.lists.size,
        postings: titles.count() + descriptions.count(),
      };
    },
    /**
     * From now until catchUp has posted them, new keys are held without their grams, and a query
     * scans every key (as rankKeys): filling 100,000 keys costs a Map, not 5 million postings, and
     * the postings are built in slices after.
     */
    defer(): void {
      deferring = true;
    },
    /**
     * Posts the grams of up to `max` held keys, and once none is left builds the two orders, a run
     * of `max` keys or one merge per call (all at once for Infinity); more than 0 while anything is
     * left (0: every query uses the index).
     */
    catchUp(max: number): number {
      let done = 0;
      // In the order held: slots mostly ascend, so each lands at the end of its postings.
      while (nextUnposted < unposted.length && done < max) {
        const slot = unposted[nextUnposted++]!;
        const k = bySlot[slot];
        if (k && posted[slot] === 0) {
          post(slot, k);
          done++;
        }
      }
      if (nextUnposted === unposted.length && deferring) {
        deferring = false;
        unposted = [];
        nextUnposted = 0;
        if (!newest) {
          unsorted.clear();
          building = {
            snap: bySlot.slice(),
            slots: live(),
            next: 0,
            newest: [],
            byTitle: [],
            merging: null,
          };
        }
      }
      if (building && max > 0) {
        if (Number.isFinite(max)) buildStep(max);
        else while (building) buildStep(Number.MAX_SAFE_INTEGER);
      }
      if (!scanning()) joinedScan = null;
      return unposted.length - nextUnposted + (building ? 1 : 0);
    },
    /** Adds the key, or replaces the one with its id (only what differs moves). */
    set(k: SearchKey): void {
      let slot = slotOf.get(k.id);
      if (slot === undefined) {
        slot = slotFor(k.id);
        bySlot[slot] = k;
        changedSinceJoined(slot);
        if (deferring) {
          posted[slot] = 0;
          unposted.push(slot);
        } else post(slot, k);
        if (movesNow()) {
          place(newest!, slot, recencyBefore(k));
          place(byTitle!, slot, titleBefore(k));
        } else if (newest || building) unsorted.add(slot);
        return;
      }
      const old = key(slot);
      const recent = old.updated_at !== k.updated_at;
      const titled = old.title !== k.title;
      if (titled || old.description !== k.description) changedSinceJoined(slot);
      if ((recent || titled) && movesNow()) {
        // Out before the key changes: the search for its place compares the key as it was.
        const out =
          (!recent || unplace(newest!, slot, recencyBefore(old))) &&
          (!titled || unplace(byTitle!, slot, titleBefore(old)));
        bySlot[slot] = k;
        if (recent) place(newest!, slot, recencyBefore(k));
        if (titled) place(byTitle!, slot, titleBefore(k));
        // Not found where it should be: the merge drops every copy of it and puts it back once.
        if (!out) unsorted.add(slot);
      } else {
        bySlot[slot] = k;
        if ((recent || titled) && (newest || building)) unsorted.add(slot);
      }
      // Unposted: its grams are posted from the key it holds then.
      if (posted[slot] === 1) {
        titles.update(slot, old.title, k.title);
        descriptions.update(slot, old.description, k.description);
      }
    },
    /** Removes the key with this id; false when there was none. */
    delete(id: number): boolean {
      const slot = slotOf.get(id);
      if (slot === undefined) return false;
      const old = key(slot);
      changedSinceJoined(slot);
      if (movesNow()) {
        const out = unplace(newest!, slot, recencyBefore(old)) && unplace(byTitle!, slot, titleBefore(old));
        if (!out) unsorted.add(slot);
      } else if (newest || building) unsorted.add(slot);
      if (posted[slot] === 1) {
        titles.update(slot, old.title, null);
        descriptions.update(slot, old.description, null);
        posted[slot] = 0;
      }
      bySlot[slot] = undefined;
      slotOf.delete(id);
      freeSlots.push(slot);
      return true;
    },
    /**
     * rankKeys over every key, reading only the keys that can match. Candidates are the keys holding
     * every gram of the query in their title or in their description (a query shorter than a gram:
     * every key). A few are ranked directly. Many are met newest first, and the walk stops as soon as
     * no key not yet met can enter the best `limit`: every key left is older than those met, so it
     * loses to each match met of the same or a better rank, and its rank is known to be no better
     * than `floor` once the title order has given how many exact and prefix matches there are and
     * the title candidates are all met. A walk that has not stopped after WALK_SHARE of its candidates
     * (matches that all rank alike inside words, say) ranks them directly instead: met in storage
     * order they cost less each than met newest first.
     */
    search(query: string, limit: number): SearchKey[] {
      const q = normalizeQuery(query);
      if (q === null || limit <= 0) return [];
      if (scanning()) return scanJoined(q, query, limit);
      joinedScan = null;
      const sorted = orders();
      let candidates: number[] | null = null;
      // Title candidates not met yet; unknown (every key is one) for a query shorter than a gram.
      let titled = Number.POSITIVE_INFINITY;
      let mark = 0;
      if (q.length >= GRAM) {
        const t = titles.holdingAll(q);
        const d = descriptions.holdingAll(q);
        candidates = union(t, d);
        if (candidates.length <= direct) return rankKeys(candidates.map(key), query, limit);
        mark = ++epoch;
        for (const slot of t) inTitle[slot] = mark;
        for (const slot of d) inDescription[slot] = mark;
        titled = t.length;
      }
      let { exact, prefix } = titleCounts(sorted.byTitle, q);
      // Per rank, its best matches: met newest first, so the first `limit` of a rank are its best.
      const best: SearchKey[][] = [[], [], [], [], []];
      let budget =
        options.walkBudget ?? Math.max(limit, Math.floor((candidates?.length ?? slotOf.size) * WALK_SHARE));
      for (const slot of sorted.newest) {
        if (mark !== 0) {
          const isTitled = inTitle[slot] === mark;
          if (!isTitled && inDescription[slot] !== mark) continue;
          if (isTitled) titled--;
        }
        if (budget-- === 0) {
          return rankKeys(candidates ? candidates.map(key) : bySlot, query, limit);
        }
        const k = key(slot);
        const rank = keyMatchRank(k, q);
        if (rank !== null) {
          const same = best[rank]!;
          if (same.length < limit) same.push(k);
          if (rank === MATCH_RANK.exact) exact--;
          else if (rank === MATCH_RANK.prefix) prefix--;
        }
        const floor =
          exact > 0
            ? MATCH_RANK.exact
            : prefix > 0
              ? MATCH_RANK.prefix
              : titled > 0
                ? MATCH_RANK.word
                : MATCH_RANK.description;
        let settled = 0;
        for (let r = 0; r <= floor; r++) settled += best[r]!.length;
        if (settled >= limit) break;
      }
      // Rank first, then newest first within a rank: rankKeys's order.
      return best.flat().slice(0, limit);
    },
    /**
     * The typo-tolerant fallback (shared/fuzzy) over every key's title: for a query that `search`
     * found nothing for, so its full pass runs only when the exact one came back empty.
     */
    fuzzy(query: string, limit: number): SearchKey[] {
      return fuzzyKeys(bySlot, query, limit);
    },
  };
}
export type SearchIndex = ReturnType<typeof createSearchIndex>;
