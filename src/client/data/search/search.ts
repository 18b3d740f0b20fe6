import Dexie, { type ObservabilitySet } from 'dexie';
import { bodyText } from '../../../shared/comments';
import type { Item } from '../../../shared/item';
import {
  byRecency,
  type CommentKey,
  type CommentMatch,
  commentMatches,
  matchExcerpt,
  normalizeQuery,
  type SearchKey,
  searchKeyOf,
  sortByRelevance,
} from '../../../shared/search';
import { createSearchIndex, type SearchIndex } from '../../../shared/searchIndex';
import type { ApiClient } from '../net/apiClient';
import { type OutpostDb, SEARCH_COPY_HEAD, type SearchCopyHead, type SearchCopyPart } from '../store/db';
import { keysOfPart } from '../store/mutatedParts';
import type { LocalComment, LocalItem, Viewer } from '../store/types';
import { whenIdle as runWhenIdle } from './idle';

/**
 * Local search (SYNC.md I5–I7). A page saves the copy once it has read it in full, beside indexing
 * it, not after (at 100,000 items a page opened while the first was still indexing found nothing
 * saved). The log is written without a read (the ids put or deleted, or a range mark) by the items
 * side effects (../store/sideEffects.ts, searchLog); a saved copy lets the page warm its search sooner (client.ts).
 */

export const DIALOG_RESULTS = 10;
/** The name of the user-timing measure each local search leaves (see search). */
export const SEARCH_MEASURE = 'outpost: local search';
/** How many hits a search answers with by default: enough for the dialog to say 'Showing 10 of N'. */
export const SEARCH_COUNT_LIMIT = 50;
/** Rows per read while the copy is built. */
const READ_PAGE = 5_000;
/**
 * Rows per read while the copy is built in the background (a warm, no search waiting): a read's rows
 * are cloned on the main thread in one task, 80 ms and more for 5,000 on a busy phone, and right
 * after a first sync of 100,000 items a screen the user opens meanwhile waited for it. And an edit
 * made during a read waits for it (its write transaction queues behind the read on items, its answer
 * behind the clone): at 1,000 rows 5-7 ms on a desktop, at 250 under 2 ms (bench local-writes --series).
 */
const BACKGROUND_READ_PAGE = 250;
/** Keys whose grams are posted (or comparisons of the orders' build made) per step of a catch-up slice. */
const CATCH_UP_STEP = 100;
/**
 * Longest a catch-up slice runs: a slice takes steps until this or the idle period it runs in (which
 * Chromium ends before the next frame it expects) is used up. The browser gives one idle callback per
 * idle period, of up to 50 ms; at 12 ms a slice used a quarter of each, and indexing 100,000 items
 * took 4 times as long, with searches scanning meanwhile. A key press during a slice waits for it:
 * at most this long, only while a copy read in full is indexed, and under the 50 ms of a long task.
 */
const CATCH_UP_SLICE_MS = 45;
/** Throwaway queries run once the index is built (see exercise). */
const EXERCISE_QUERIES = 9;
/**
 * Entries per saved part (see saveCopy): one part's clone, or its build at load, stays a short task;
 * an edit made while a part is cloned waits for it (11-16 ms at 10,000 entries on a desktop).
 */
const SAVE_PART = 2_500;
/** A save waits this long after the last change, so a burst of changes (a sync) is saved once. */
const SAVE_SETTLE_MS = 5_000;
/** Saves start at most this often. */
const SAVE_EVERY_MS = 30_000;
/** Changes this old are saved even while more keep coming (a busy shared account). */
const SAVE_LATEST_MS = 120_000;
/**
 * A page reads again the items of the log rows stamped up to this long before the saved copy's oldest
 * part: a row is stamped when its write is issued, and the saving tab may learn of the write after
 * it took that part (a long transaction, another tab's notice still on its way), so the part may not
 * hold it although the row is older than the part. A write's transaction lasts well under a second
 * (a pulled page, an import's batch) and a notice between tabs milliseconds; a minute was too much:
 * a copy saved within a minute of a first sync at 100,000 items named more than MAX_REREAD changed
 * items, and the next page read every row instead.
 */
export const SAVED_COPY_MARGIN_MS = 15_000;
/** More items changed since the save than this: one read of every row costs less than that many gets. */
const MAX_REREAD = 20_000;
/** How many times a page reading the saved copy starts again when another save replaced it meanwhile. */
const READ_SAVED_ATTEMPTS = 3;
/**
 * The shape of a saved copy: a number bumped when the saved fields change, and the key searchKeyOf
 * gives a sample, so a copy folded by other rules is read in full instead of trusted.
 */
const SAVED_COPY_VERSION = `1:${JSON.stringify(
  searchKeyOf({ id: 0, title: ' Ab ÉÇ ', description: ' Cd ÉÇ ', updated_at: 'u' }),
)}`;
/** The user-timing measure a page's first read of its copy leaves: from the saved copy or in full. */
export const COPY_MEASURE = 'outpost: search copy read';

/** Runs `slice` in the page's next idle moment, with at most CATCH_UP_SLICE_MS to take (idle.ts). */
function whenIdle(slice: (ms: number) => void): void {
  runWhenIdle(slice, CATCH_UP_SLICE_MS);
}

/** Settles in the next idle moment (see whenIdle). */
const idle = () => new Promise<void>((resolve) => whenIdle(() => resolve()));

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
export function createLocalSearch(db: OutpostDb, tuning?: SearchTuning) {
  const local = createLocalSearchOf(db, tuning);
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
  /** Set when only a comment holds the query: that comment and the words around the match. */
  matched_comment?: CommentMatch;
}

/** A server result: the item, and the comment that found it when only a comment did. */
export type SearchItem = Item & { matched_comment?: CommentMatch };

/** Comment rows read per page while the comment copy is read in full. */
const COMMENT_READ_PAGE = 5_000;
/** More comments changed at once than this (an import, a first sync): the copy is read again in full. */
const COMMENT_REREAD_MAX = 2_000;

/** The comment key of a live comment, or null for one deleted on the device (see CommentKey). */
function commentKeyOf(c: LocalComment): CommentKey | null {
  if (c._deleted === 1) return null;
  return {
    id: c.id,
    item_id: c.item_id,
    folded: c.body.toLowerCase(),
    text: bodyText(c.body, c.mentions),
    created_at: c.created_at,
  };
}

type ShownFields = Pick<LocalItem, 'type' | 'title' | 'status' | 'parent_id' | '_syncStatus'>;

const shownFieldsOf = (i: LocalItem): ShownFields => ({
  type: i.type,
  title: i.title,
  status: i.status,
  parent_id: i.parent_id,
  _syncStatus: i._syncStatus,
});

/** For tests: smaller saved parts, so a few items make several. */
export interface SearchTuning {
  savePart?: number;
}

function createLocalSearchOf(db: OutpostDb, tuning: SearchTuning = {}) {
  const savePart = tuning.savePart ?? SAVE_PART;
  let cache: Buckets | null = null;
  /** The shown fields of every item in the copy, by id (kept with it by place). */
  const shown = new Map<number, ShownFields>();
  /** Items changed since the copy was read; null when the copy must be read again in full. */
  let stale: Set<number> | null = new Set();
  let reading = false;
  let disposed = false;
  /** How the copy was read from scratch: from the saved copy (and the log) or every row. */
  let readFrom: 'saved' | 'full' | null = null;
  /**
   * A warm (no search waiting) reads every row a page per idle moment: right after a first sync it
   * runs beside the screen the user opens, whose own reads come first. A search arriving meanwhile
   * clears it, and the read goes on at full speed.
   */
  let inBackground = false;
  /** The copy holds changes the saved copy does not (or was read in full): a save is due. */
  let unsaved = false;
  let firstUnsavedAt = 0;
  let lastSaveAt = Number.NEGATIVE_INFINITY;
  /** Saves start once the copy has been read in full or indexed (the first save follows that at once). */
  let indexedOnce = false;
  let saveTimer: ReturnType<typeof setTimeout> | undefined;
  let saving: Promise<boolean> = Promise.resolve(false);
  const prefix = `idb://${db.name}/items/`;
  const primary = `${prefix}`;
  /**
   * The comment copy (issue 66): every live comment's key by id, beside the item index, not in it: a
   * comment match only fills the places title and description matches leave (MATCH_RANK.comment), so
   * the item index, its grams and its saved copy stay as they were, and a query scans the comments
   * only when it found fewer items than asked. Null until first read; patched like the items.
   */
  let comments: Map<number, CommentKey> | null = null;
  /** Comments changed since the comment copy was read; null when it must be read again in full. */
  let commentsStale: Set<number> | null = null;
  let commentsReading: Promise<Map<number, CommentKey>> | null = null;
  const commentsPrimary = `idb://${db.name}/comments/`;
  const onCommentsMutated = (parts: ObservabilitySet) => {
    const part = parts[commentsPrimary];
    if (!part || part.d === 0 || (!comments && !commentsReading)) return;
    const keys = keysOfPart(part);
    if (commentsStale === null) return;
    if (keys === null || commentsStale.size + keys.length > COMMENT_REREAD_MAX) {
      commentsStale = null;
      return;
    }
    for (const key of keys) commentsStale.add(key as number);
  };
  Dexie.on('storagemutated', onCommentsMutated);

  /** The comment copy brought up to date: read in full the first time (in pages), then only what changed. */
  async function commentCopy(): Promise<Map<number, CommentKey>> {
    if (commentsReading) return commentsReading;
    const run = (async () => {
      for (;;) {
        if (!comments || commentsStale === null) {
          // Changes from now on are noted, and read again after this read (the same rows at worst).
          commentsStale = new Set();
          const next = new Map<number, CommentKey>();
          let after = Number.NEGATIVE_INFINITY;
          for (;;) {
            const page = await db.comments.where(':id').above(after).limit(COMMENT_READ_PAGE).toArray();
            for (const c of page) {
              const k = commentKeyOf(c);
              if (k) next.set(k.id, k);
            }
            const last = page.at(-1);
            if (!last || page.length < COMMENT_READ_PAGE) break;
            after = last.id;
          }
          comments = next;
          continue;
        }
        if (commentsStale.size === 0) return comments;
        const ids = [...commentsStale];
        commentsStale.clear();
        const rows = await db.comments.bulkGet(ids);
        for (const [at, id] of ids.entries()) {
          const row = rows[at];
          const k = row ? commentKeyOf(row) : null;
          if (k) comments.set(id, k);
          else comments.delete(id);
        }
      }
    })();
    commentsReading = run;
    try {
      return await run;
    } catch (error) {
      comments = null;
      throw error;
    } finally {
      commentsReading = null;
    }
  }

  /**
   * Up to `limit` items of `index` not in `found` whose comments hold the query, most recently updated
   * first (the order within a rank), each with its newest such comment.
   */
  async function byComment(index: SearchIndex, q: string, found: readonly SearchKey[], limit: number) {
    if (limit <= 0) return [];
    const all = await commentCopy();
    if (all.size === 0) return [];
    const taken = new Set(found.map((k) => k.id));
    const hits = commentMatches(all.values(), q, (id) => !taken.has(id) && index.get(id) !== undefined);
    const ranked: { key: SearchKey; comment: CommentKey }[] = [];
    for (const [id, comment] of hits) {
      const key = index.get(id);
      if (key) ranked.push({ key, comment });
    }
    ranked.sort((a, b) => byRecency(a.key, b.key));
    return ranked.slice(0, limit).map(({ key, comment }) => ({
      key,
      matched: { id: comment.id, excerpt: matchExcerpt(comment.text, q) },
    }));
  }

  const onMutated = (parts: ObservabilitySet) => {
    let touched = false;
    for (const key of Object.keys(parts)) {
      if (key.startsWith(prefix) && parts[key]!.d !== 0) touched = true;
    }
    // No copy (and none being read): nothing to patch, the next search reads it all anyway.
    if (!touched || (!cache && !reading)) return;
    noteUnsaved();
    if (stale === null) return;
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
    placeKey(into, searchKeyOf(i), shownFieldsOf(i));
  }

  function placeKey(into: Buckets, key: SearchKey, fields: ShownFields): void {
    const [home, other] =
      fields._syncStatus === 'local' ? [into.guest, into.account] : [into.account, into.guest];
    other.delete(key.id);
    home.set(key);
    shown.set(key.id, fields);
  }

  /** An empty copy whose keys wait for their grams (catchUp), as a first read fills it. */
  function emptyCopy(): Buckets {
    shown.clear();
    const next = { guest: createSearchIndex(), account: createSearchIndex() };
    next.guest.defer();
    next.account.defer();
    return next;
  }

  /**
   * Fills `into` from the saved copy, then reads again the items the log names since (and those the
   * save knew were changed): the number read again, 'replaced' when another page's save replaced the
   * copy while it was read (read the new one), or null when there is no saved copy to trust (none,
   * another shape, a log row naming a range, or too many changes), and every row is read.
   */
  async function readSaved(into: Buckets): Promise<number | 'replaced' | null> {
    const head = await db.searchCopy.get(SEARCH_COPY_HEAD);
    if (!head || !('parts' in head) || head.version !== SAVED_COPY_VERSION) return null;
    const reread = new Set<number>();
    let oldest = Number.POSITIVE_INFINITY;
    // A part at a time, each built as it arrives: no task holds all of them.
    for (let part = 0; part < head.parts; part++) {
      const row = await db.searchCopy.get(`${head.gen}:${part}`);
      // Gone: a newer save replaced this one while it was read.
      if (!row || !('ids' in row)) return 'replaced';
      oldest = Math.min(oldest, row.savedAt);
      fill(into, row);
      for (const id of row.dirty) reread.add(id);
    }
    // With the head: a save that replaced it since may have pruned log rows this copy needs.
    const log = await db.transaction('r', db.searchCopy, db.searchLog, async () => {
      const now = (await db.searchCopy.get(SEARCH_COPY_HEAD)) as SearchCopyHead | undefined;
      if (now?.gen !== head.gen) return null;
      return db.searchLog
        .where('at')
        .above(oldest - SAVED_COPY_MARGIN_MS)
        .toArray();
    });
    if (!log) return 'replaced';
    for (const row of log) {
      if (row.range) return null;
      for (const id of row.ids ?? []) reread.add(id);
    }
    if (reread.size > MAX_REREAD) return null;
    const ids = [...reread];
    const rows = ids.length === 0 ? [] : await db.items.bulkGet(ids);
    for (const [index, id] of ids.entries()) place(into, id, rows[index]);
    return ids.length;
  }

  /** Files a saved part's entries (the fields saveCopy took from the copy). */
  function fill(into: Buckets, part: SearchCopyPart): void {
    for (const [i, id] of part.ids.entries()) {
      placeKey(
        into,
        {
          id,
          title: part.keyTitles[i]!,
          description: part.descriptions[i] ?? null,
          updated_at: part.updated[i]!,
        },
        {
          type: part.types[i]!,
          title: part.titles[i]!,
          status: part.statuses[i]!,
          parent_id: part.parents[i] ?? null,
          _syncStatus: part.sync[i]!,
        },
      );
    }
  }

  /**
   * Reads every row into the copy. Into the copy there is, when one is (a range of rows changed):
   * a row that did not change costs a comparison, not its grams again; rows not read are dropped.
   * A first read (no copy) starts from the saved copy when there is one it can trust.
   */
  async function readAll(into: Buckets | null): Promise<Buckets> {
    let next: Buckets = into ?? emptyCopy();
    if (!into) {
      // A first read holds the keys only; their grams are posted in the background (catchUp).
      const start = performance.now();
      let reread: number | 'replaced' | null = 'replaced';
      // Another tab's save can replace the copy while this one reads it: its parts are then gone, and
      // the new copy (written whole before its head) is read instead, a few times at most.
      for (let attempt = 0; reread === 'replaced' && attempt < READ_SAVED_ATTEMPTS; attempt++) {
        if (attempt > 0) next = emptyCopy();
        reread = await readSaved(next).catch(() => null);
      }
      if (typeof reread === 'number') {
        readFrom = 'saved';
        if (reread > 0) unsaved = true;
        measureRead(start, reread);
        return next;
      }
      next = emptyCopy();
      readFrom = 'full';
      unsaved = true;
    }
    const start = performance.now();
    const read = new Set<number>();
    // Pages by key: a cursor step per row is several times slower, one read of every row holds them all.
    if (inBackground) await idle();
    // A search arriving meanwhile (inBackground cleared) reads the rest in full pages.
    let size = inBackground ? BACKGROUND_READ_PAGE : READ_PAGE;
    let page = await db.items.orderBy(':id').limit(size).toArray();
    while (page.length > 0) {
      for (const item of page) {
        place(next, item.id, item);
        if (into) read.add(item.id);
      }
      if (page.length < size) break;
      if (inBackground) await idle();
      size = inBackground ? BACKGROUND_READ_PAGE : READ_PAGE;
      page = await db.items
        .where(':id')
        .above(page[page.length - 1]!.id)
        .limit(size)
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
    } else measureRead(start, null);
    return next;
  }

  /** For a profile or a bench: how a page's copy was read (saved: how many items it read again). */
  function measureRead(start: number, reread: number | null): void {
    performance.clearMeasures?.(COPY_MEASURE);
    performance.measure?.(COPY_MEASURE, {
      start,
      detail: { from: readFrom, reread, entries: shown.size },
    });
  }

  /** A change the saved copy does not hold: saved once changes settle (see armSave). */
  function noteUnsaved(): void {
    if (!unsaved) firstUnsavedAt = Date.now();
    unsaved = true;
    armSave();
  }

  /** Saves SAVE_SETTLE_MS after the last change (at once when changes waited SAVE_LATEST_MS), at most every SAVE_EVERY_MS. */
  function armSave(): void {
    if (!indexedOnce || disposed) return;
    clearTimeout(saveTimer);
    const now = Date.now();
    const settle = now - firstUnsavedAt >= SAVE_LATEST_MS ? 0 : SAVE_SETTLE_MS;
    saveTimer = setTimeout(
      () => {
        saveTimer = undefined;
        void save();
      },
      Math.max(settle, lastSaveAt + SAVE_EVERY_MS - now),
    );
  }

  /** One save at a time; true when it saved (see saveCopy). */
  function save(): Promise<boolean> {
    const run = saving.then(() => {
      if (disposed) return false;
      unsaved = false;
      lastSaveAt = Date.now();
      // Not saved (the copy waits for a read in full, or a clear came between): the next change or
      // read in full arms the next save.
      return saveCopy().then(
        (saved) => {
          if (!saved) unsaved = true;
          return saved;
        },
        () => {
          unsaved = true;
          return false;
        },
      );
    });
    saving = run;
    return run;
  }

  /**
   * Saves the copy for the next page: its ids as they are now, in parts of SAVE_PART entries taken
   * and written one per idle moment (each part notes when it was taken and the items known changed
   * but not yet read again), under a new generation; then, in one transaction, the head names the new
   * parts, the older ones go, and the log keeps only the rows a page loading them reads
   * (SAVED_COPY_MARGIN_MS before the oldest part). A page reads the parts the head names, so it never
   * mixes two saves. False when the copy is waiting for a read in full, or the parts did not all
   * survive (a clear, or another tab's save, came between).
   */
  async function saveCopy(): Promise<boolean> {
    const gen = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}`;
    let ids: number[] = [];
    let oldest = Number.POSITIVE_INFINITY;
    let parts = 0;
    do {
      await idle();
      if (disposed) return false;
      const part = parts;
      const row = await whenCurrent((of) => {
        if (part === 0) ids = [...of.account.ids(), ...of.guest.ids()];
        return partOf(of, `${gen}:${part}`, ids.slice(part * savePart, (part + 1) * savePart));
      });
      if (row === null) return false;
      oldest = Math.min(oldest, row.savedAt);
      await db.searchCopy.put(row);
      parts++;
    } while (parts * savePart < ids.length);
    return db.transaction('rw', db.searchCopy, db.searchLog, async () => {
      // A closed page replaces no copy: a page opening now may be reading the one there is.
      if (disposed) return false;
      const keys = await db.searchCopy.toCollection().primaryKeys();
      const mine = `${gen}:`;
      if (keys.filter((k) => k.startsWith(mine)).length !== parts) return false;
      await db.searchCopy.bulkDelete(keys.filter((k) => k !== SEARCH_COPY_HEAD && !k.startsWith(mine)));
      await db.searchCopy.put({
        key: SEARCH_COPY_HEAD,
        version: SAVED_COPY_VERSION,
        gen,
        parts,
        savedAt: oldest,
      });
      await db.searchLog
        .where('at')
        .below(oldest - SAVED_COPY_MARGIN_MS)
        .delete();
      return true;
    });
  }

  /** A part of the saved copy: the entries of `ids` still in the copy, taken now. */
  function partOf(of: Buckets, key: string, ids: readonly number[]): SearchCopyPart | null {
    if (stale === null) return null;
    const part: SearchCopyPart = {
      key,
      savedAt: Date.now(),
      ids: [],
      keyTitles: [],
      titles: [],
      descriptions: [],
      updated: [],
      types: [],
      statuses: [],
      parents: [],
      sync: [],
      dirty: [...stale],
    };
    for (const id of ids) {
      const k = of.account.get(id) ?? of.guest.get(id);
      const fields = shown.get(id);
      // Gone since the ids were taken: the change that took it is in the log.
      if (!k || !fields) continue;
      part.ids.push(id);
      part.keyTitles.push(k.title);
      part.descriptions.push(k.description);
      part.updated.push(k.updated_at);
      part.titles.push(fields.title);
      part.types.push(fields.type);
      part.statuses.push(fields.status);
      part.parents.push(fields.parent_id);
      part.sync.push(fields._syncStatus);
    }
    return part;
  }

  /** The copy indexed: the first save is due now when it holds anything the saved copy does not. */
  function onIndexed(of: Buckets): void {
    if (disposed || of !== cache) return;
    indexedOnce = true;
    if (unsaved) void save();
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
              const indexed = () => {
                done();
                onIndexed(of);
              };
              startCatchUp = () => exercise(of, 3, () => whenIdle((ms) => catchUp(of, indexed, ms)));
            });
            // A copy read in full is saved at once, beside the catch-up (both a slice per idle
            // moment), not after it: at 100,000 items indexing takes long enough that a page opened
            // meanwhile (a second tab, a reload) found no saved copy and read every row again.
            if (readFrom === 'full') {
              indexedOnce = true;
              void save();
            }
          } else noteUnsaved();
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

  /**
   * Runs `then` on the copy brought up to date, in the same queue (no read of changes in between), or
   * gives null when there is no copy or it waits for a read in full: that read is left to a search.
   */
  function whenCurrent<T>(then: (of: Buckets) => T): Promise<T | null> {
    const run = queue.then(() => (cache && stale !== null ? refresh().then(then) : null));
    queue = run.catch(() => {
      cache = null;
    });
    return run;
  }

  async function indexOf(viewer: Viewer): Promise<SearchIndex> {
    inBackground = false;
    const buckets = await current();
    return viewer.isGuest ? buckets.guest : buckets.account;
  }

  return {
    /** Title, description or a comment contains the query (≥ 2 characters), most relevant first (shared/search), then newest. */
    async search(viewer: Viewer, query: string, limit = SEARCH_COUNT_LIMIT): Promise<SearchRow[]> {
      if (normalizeQuery(query) === null) return [];
      const t0 = performance.now();
      const index = await indexOf(viewer);
      const t1 = performance.now();
      let ranked = index.search(query, limit);
      // Fewer than asked: the items whose comments hold the query fill the rest (MATCH_RANK.comment).
      const matched = new Map<number, CommentMatch>();
      if (ranked.length < limit) {
        const q = normalizeQuery(query) ?? '';
        const extra = await byComment(index, q, ranked, limit - ranked.length);
        for (const { key, matched: m } of extra) matched.set(key.id, m);
        ranked = [...ranked, ...extra.map((e) => e.key)];
      }
      // Nothing holds the query as typed: the titles a typo or two away ('lauch' → 'Launch').
      if (ranked.length === 0) ranked = index.fuzzy(query, limit);
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
          ...(matched.has(id) ? { matched_comment: matched.get(id) } : {}),
        });
      }
      return rows;
    },
    /** Reads the copy now and starts indexing it in the background, before any search asks. */
    async warm(): Promise<void> {
      inBackground = true;
      try {
        await current();
      } finally {
        inBackground = false;
      }
      const start = startCatchUp;
      startCatchUp = null;
      start?.();
      // The comments too, so the first search that needs them waits for no read.
      await commentCopy().catch(() => undefined);
    },
    /** Settles once the copy read so far has all its grams posted: from then on no search scans it all. */
    indexed: () => indexing,
    /** For tests and benches: saves the copy now (reading it first when needed); true when saved. */
    async saveNow(): Promise<boolean> {
      await current();
      return save();
    },
    /** For tests and benches: how the copy was first read, from the saved copy or every row. */
    readFrom: () => readFrom,
    dispose: () => {
      disposed = true;
      clearTimeout(saveTimer);
      Dexie.on('storagemutated').unsubscribe(onMutated);
      Dexie.on('storagemutated').unsubscribe(onCommentsMutated);
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
  ): Promise<(SearchItem | SearchRow)[]> {
    if (normalizeQuery(query) === null) return [];
    const viewer = deps.viewer();
    if (viewer.isGuest || !deps.isOnline()) return deps.local.search(viewer, query, limit);
    // The device's answer first, shown before the request to the server is started (that costs
    // about a millisecond of this task): the server's answer takes a round trip either way. A device
    // that fails to answer leaves the answer to the server.
    const local = onLocal ? await deps.local.search(viewer, query, limit).catch(() => null) : null;
    if (local) onLocal?.(local);
    try {
      const { data } = await deps.api.get<SearchItem[]>(
        `/items/search?q=${encodeURIComponent(query.trim())}`,
      );
      // The server orders by title match and recency only: the shared relevance order applies here too.
      if (data.length > 0) return sortByRelevance(data, query).slice(0, limit);
      // The server matches as typed; the device also knows the titles a typo away.
      const close = local ?? (await deps.local.search(viewer, query, limit).catch(() => []));
      return close;
    } catch (error) {
      (deps.log ?? console.warn)('Server search failed; searching locally instead.', error);
    }
    return local ?? deps.local.search(viewer, query, limit);
  };
}
