import { type Item, isTombstone, type SyncChange } from '../../../shared/item';
import { ITEM_CHILDREN } from '../../../shared/itemChildren';
import { sameRecord } from '../../../shared/sameRecord';
import type { SyncPageLists } from '../../../shared/syncLists';
import type { RowChange } from '../store/counters';
import { flushCounts, flushPendingCounts } from '../store/counterUpkeep';
import { getMeta, META_KEYS, type OutpostDb, setMeta } from '../store/db';
import {
  dropFirstRows,
  firstRowsOf,
  firstRowsStored,
  firstRowsUndrawn,
  showFirstRows,
} from '../store/firstRows';
import { type LostItem, noteLost } from '../store/keptChanges';
import { LIST_KEY_FIELDS } from '../store/listKeys';
import { fromServer, usersOf } from '../store/localItems';
import { SEARCH_LOG_STORE } from '../store/searchLog';
import type { LocalItem } from '../store/types';
import { deferCounts, expectChanges, knowRows, replacing } from '../store/writeFacts';
import { localWritesSettled } from '../store/writesInFlight';
import { removeChildrenOf } from './children';
import type { SyncContext } from './context';
import { TABLES } from './context';
import { askPage, type PulledPage, takeFirstPage } from './firstPage';
import { NO_FEATURES, type PulledChildren, type SyncRegistry } from './kinds';
import { applyPulledLists, joinLists, listCount } from './lists';
import { heldAsMember, keepRejected } from './lostAccess';
import { discardFor, rebase } from './queue';
import { rebaseLocal } from './rebase';
import { swapTempId } from './tempIds';

/**
 * The device's pull (SYNC.md L1–L3, L7–L11, L16). Each page is asked for as soon as the one before it
 * arrives, at most PAGES_AHEAD waiting unread (pageReader), so the network and IndexedDB overlap;
 * one asked ahead is dropped unread if storing its predecessor fails, so the cursor never runs ahead
 * of the rows. Only the third page asks for `remaining` (L8): counting on every page would read the
 * rest of a 100,000-item bootstrap 200 times, counting on the first held up the first rows on screen
 * while the device had nothing to write (a 100,000-item first page: 474 ms with the count, 78 ms
 * without, in-process on PGlite), and counting on the second left the device idle while the server
 * counted, since the pages after it wait for its cursor (10,000 items: 150 ms idle of a 3.5 s pull,
 * `npm run bench -- local-writes --timeline`). Rows go in chunks and the pull yields between transactions,
 * so no page is one long main-thread task and a local edit goes in between two of them (`npm run
 * bench -- first-sync` measures the long tasks and the heap).
 */
const MAX_PAGES = 10_000;
/** Rows a pulled page writes per IndexedDB request: small enough that one is never a long task. */
const PUT_CHUNK = 100;
/** A pulled page asked after a cursor the device no longer holds (L10): it is not stored. */
export class StalePage extends Error {
  constructor() {
    super('The sync cursor changed while the page was on its way');
    this.name = 'StalePage';
  }
}

/** The fields of a stored row the store derives at every put (list keys, top-level flags): not the server's. */
const STORE_DERIVED: ReadonlySet<string> = new Set([...LIST_KEY_FIELDS, '_top', '_stop']);

/** Below this many parents, one read each costs less than a range read. */
const SPAN_MIN = 8;

/** What a pulled row's children need of it (flags and counters): no more is kept. */
type ParentRow = NonNullable<RowChange['now']>;

/**
 * The parents (campaigns and tasks) one pull has stored or read, by id (undefined: not stored), kept
 * for its later transactions so they read none of them again (SYNC.md L11). They are trusted only
 * while the search log, which every write to `items` adds a row to in its own transaction, whatever
 * tab makes it, names nothing newer than `logSeq` but the pull's own writes: a later transaction
 * first reads the log's rows after it and forgets every id they name (all of them for a clear).
 */
export interface PulledParents {
  rows: Map<number, ParentRow | undefined>;
  /** The log's last key when the pull's previous transaction ended (null: trust nothing kept). */
  logSeq: number | null;
}

/** An empty memory of pulled parents, for one pull. */
export function pulledParents(): PulledParents {
  return { rows: new Map(), logSeq: null };
}

const parentRowOf = (row: ParentRow): ParentRow => ({
  id: row.id,
  parent_id: row.parent_id,
  type: row.type,
  status: row.status,
  _deleted: row._deleted,
  _syncStatus: row._syncStatus,
});

/** Forgets the kept parents any write since the pull's previous transaction touched (L11). */
async function forgetChangedParents(db: OutpostDb, pulled: PulledParents): Promise<void> {
  if (pulled.logSeq === null) {
    pulled.rows.clear();
    return;
  }
  // Keys only grow, and a save prunes only rows older than its copy by 15 s: every row written since
  // the previous transaction is here.
  const since = await db.searchLog.where(':id').above(pulled.logSeq).toArray();
  for (const entry of since) {
    if (entry.range || !entry.ids) {
      pulled.rows.clear();
      return;
    }
    for (const id of entry.ids) pulled.rows.delete(id);
  }
}

/**
 * Applies one pulled page and its cursor in one transaction (L9): new items are added, synced ones
 * replaced, pending ones rebased (a conflict only when the same field changed on both sides, C1);
 * the page's children (comments…) are stored with them, and an item that goes takes its children (K13, K14).
 * `countLater`: a later transaction of the same pull counts these rows (I3), none is counted here.
 */
export async function applyPulled(
  db: OutpostDb,
  items: readonly SyncChange[],
  cursor: string,
  /** The page's children, by kind (K13, X5), kept by their features. */
  children: PulledChildren = {},
  countLater = false,
  /** The cursor the page was asked after ('' for a bootstrap): stored only while it is still the device's (L10). */
  after?: string,
  /** The parents this pull's earlier transactions stored or read (L11): updated once this one commits. */
  pulled?: PulledParents,
  /** What the features keep of the page's children: none without them. */
  features: SyncRegistry = NO_FEATURES,
  /** The page's lists (templates, views: L13). */
  lists: SyncPageLists = {},
): Promise<number> {
  let conflicts = 0;
  // What this transaction leaves for the pull's next ones, kept only once it commits.
  const next: { kept: Map<number, ParentRow | undefined> | null; logSeq: number | null } = {
    kept: null,
    logSeq: null,
  };
  await db.transaction('rw', [...TABLES, SEARCH_LOG_STORE], async () => {
    // The page's chunks are counted together at the end, not one by one (store/writeFacts.ts
    // deferCounts), or by the pull's last transaction (store/counterUpkeep.ts).
    deferCounts(countLater);
    const ids = items.map((i) => i.id);
    const pageIds = new Set(ids);
    // The parents outside the page are read beside the page's own rows: the flags and the counters of
    // every chunk need them (knowRows below), and nothing in this transaction writes them. The stored
    // cursor and the rows still under a temporary id come in the same round trip.
    const [existing, outside, stored, temporary] = await Promise.all([
      storedRowsOf(db, ids),
      (pulled ? forgetChangedParents(db, pulled) : Promise.resolve()).then(() =>
        parentsOutside(db, items, pageIds, pulled?.rows),
      ),
      after === undefined ? undefined : getMeta<string>(db, META_KEYS.cursor),
      db.items.where('id').below(0).toArray(),
    ]);
    if (after !== undefined && (stored ?? '') !== after) throw new StalePage();
    const temps = new Map(temporary.map((t) => [t.uuid ?? '', t]));
    const puts = new Map<number, LocalItem>();
    // An id twice in one page: the later change wins (a put then a tombstone deletes it).
    const deletes = new Set<number>();
    const users = new Map<number, Item['created_by']>();
    // The rows read above are what is stored unless a temporary id was swapped (it moves children).
    let swapped = false;
    const from = (next: LocalItem, stored: LocalItem | undefined) =>
      swapped ? next : replacing(next, stored ?? null);
    // Q21: a member's item goes with its campaign (a removal revokes the whole tree at once) when the
    // page takes the campaign too, or the device no longer holds it.
    const gonePage = new Set(items.filter(isTombstone).map((i) => i.id));
    const lostWithTop = async (local: LocalItem): Promise<boolean> => {
      let top: LocalItem | undefined = local;
      for (let depth = 0; top && top.parent_id !== null && top.parent_id > 0 && depth < 4; depth++)
        top = await db.items.get(top.parent_id);
      return !top || top.id === local.id || gonePage.has(top.id);
    };
    // Q24: what left with a lost campaign is remembered, so its page can say what happened.
    const lostHere: { id: number; lost: LostItem }[] = [];
    const topOf = async (local: LocalItem): Promise<LocalItem> => {
      let top: LocalItem = local;
      for (let depth = 0; top.parent_id !== null && top.parent_id > 0 && depth < 4; depth++) {
        const parent = await db.items.get(top.parent_id);
        if (!parent) break;
        top = parent;
      }
      return top;
    };
    const noteLostItem = async (local: LocalItem) => {
      const top = await topOf(local);
      if (top.type === 'campaign')
        lostHere.push({ id: local.id, lost: { campaignId: top.id, title: top.title } });
    };
    for (let index = 0; index < items.length; index++) {
      const remote = items[index]!;
      let local = existing[index];
      if (!local && remote.uuid) {
        // A create whose answer never arrived: the server has it, the device still has the temporary id.
        const temp = temps.get(remote.uuid);
        if (temp) {
          swapped = true;
          await swapTempId(db, temp.id, remote.id);
          local = await db.items.get(remote.id);
        }
      }
      if (isTombstone(remote)) {
        puts.delete(remote.id);
        if (!local || local._syncStatus === 'local') continue;
        if (local._syncStatus === 'synced' && local._conflict === null) {
          deletes.add(local.id);
          // Q20: a member's comments still queued for it are kept, never lost with the item.
          if (heldAsMember(local)) {
            await noteLostItem(local);
            await keepRejected(db, await db.syncQueue.where('itemId').equals(local.id).toArray());
          }
        } else if (local._deleted === 1) {
          deletes.add(local.id);
          await discardFor(db, [local.id]);
        } else if (heldAsMember(local) && local._conflict === null && (await lostWithTop(local))) {
          // Q12: a member lost the campaign: its unsent changes are kept for export, not a conflict.
          // Q21: an item deleted inside a campaign still held is the delete conflict it always was.
          deletes.add(local.id);
          await noteLostItem(local);
          await keepRejected(db, await db.syncQueue.where('itemId').equals(local.id).toArray());
        } else {
          puts.set(local.id, { ...local, _conflict: 'delete', _remote: null });
          conflicts++;
        }
        continue;
      }
      for (const u of usersOf(remote)) users.set(u.id, u);
      deletes.delete(remote.id);
      if (!local) {
        // Absent at the start of the page; a second change for the same id in it replaces this one.
        puts.set(remote.id, puts.has(remote.id) ? fromServer(remote) : from(fromServer(remote), undefined));
        continue;
      }
      if (local._syncStatus === 'local') continue;
      if (local._syncStatus === 'synced' && local._conflict === null) {
        if (remote.version < local.version) continue;
        const next = fromServer(remote, local._localVersion);
        // L12: the version the device holds, field for field as stored (its own edit coming back, the
        // push's answer already stored), is not written again; the same version may still bring new
        // content (a renamed person, N14; a prediction to drop), which is.
        if (remote.version > local.version || !sameRecord(local, next, STORE_DERIVED))
          puts.set(remote.id, from(next, local));
        continue;
      }
      if (local._conflict !== null) {
        puts.set(local.id, { ...local, _remote: remote });
        conflicts++;
        continue;
      }
      const rebased = rebaseLocal(local, remote);
      if (rebased.kind === 'current') continue;
      puts.set(local.id, rebased.next);
      if (rebased.kind === 'conflict') conflicts++;
      else await rebase(db, local.id, remote.version);
    }
    if (!swapped) {
      // What every row of the page holds once this transaction commits, and its parents outside it.
      const final = new Map<number, ParentRow | undefined>(outside);
      const changes = new Map<number, RowChange>();
      items.forEach((item, index) => {
        const now = deletes.has(item.id) ? undefined : (puts.get(item.id) ?? existing[index]);
        final.set(item.id, now);
        if (now !== existing[index] && !changes.has(item.id))
          changes.set(item.id, { id: item.id, old: existing[index], now });
      });
      if (pulled) {
        const kept = new Map<number, ParentRow | undefined>();
        for (const [id, row] of final) if (row?.type !== 'todo') kept.set(id, row && parentRowOf(row));
        next.kept = kept;
        // The pull's last transaction counts every change the others left (I3): the parents they
        // stored are known, not read again.
        if (!countLater) for (const [id, row] of pulled.rows) if (!final.has(id)) final.set(id, row);
      }
      knowRows(final, puts.keys());
      // Their counters are read while the rows are written (flushCounts counts them at the end).
      expectChanges(changes.values());
    }
    await noteLost(db, lostHere);
    if (deletes.size > 0) await db.items.bulkDelete([...deletes]);
    // What the features keep of the page's children, after its items: an item gone in it takes its
    // children, even one the page itself carried before the item's tombstone (K14).
    await features.onPulled(db, children);
    await removeChildrenOf(db, [...deletes]);
    // L14: a campaign gone in the page takes the rows shared with it, then the page's rows go in.
    await applyPulledLists(db, lists, [...deletes]);
    // After a swap no hint is trusted: copies carry none, and the side effects read what they need.
    const rows = swapped ? [...puts.values()].map((i) => ({ ...i })) : [...puts.values()];
    // The browser serialises every put on the main thread when it is issued: a whole page at once
    // is one task of 50–200 ms. Chunks keep every task short; each is issued while the one before
    // it is still being stored, so the page's serialising and IndexedDB's writing overlap (and the
    // transaction, never without a request, stays open). The people and the cursor ride along.
    // After a swap the side effects read the rows they need, which a chunk still being stored may
    // change: then each chunk waits for the one before it.
    let previous: Promise<unknown> | null = null;
    for (let start = 0; start < rows.length; start += PUT_CHUNK) {
      const put = db.items.bulkPut(rows.slice(start, start + PUT_CHUNK));
      // A failed chunk fails the transaction, which this function's caller is told of.
      put.catch(() => undefined);
      if (swapped) await put;
      else if (previous) await previous;
      previous = put;
    }
    await Promise.all([
      previous,
      users.size > 0 ? db.users.bulkPut([...users.values()]) : null,
      setMeta(db, META_KEYS.cursor, cursor),
    ]);
    await flushCounts();
    // Every log row up to here is this transaction's own or was read above (L11).
    if (next.kept) next.logSeq = ((await db.searchLog.orderBy(':id').lastKey()) as number | undefined) ?? 0;
  });
  if (pulled) {
    // A temporary id swapped in this transaction moved children: nothing kept is trusted.
    if (!next.kept) pulled.rows.clear();
    else for (const [id, row] of next.kept) pulled.rows.set(id, row);
    pulled.logSeq = next.kept ? next.logSeq : null;
  }
  return conflicts;
}

/**
 * The stored rows of `ids` (undefined where none). A fresh device's pages are all new: one key read
 * over their span finds nothing, instead of one read per id; otherwise each id is read.
 */
async function storedRowsOf(db: OutpostDb, ids: readonly number[]): Promise<(LocalItem | undefined)[]> {
  if (ids.length > 1) {
    let low = ids[0]!;
    let high = ids[0]!;
    for (const id of ids) {
      if (id < low) low = id;
      if (id > high) high = id;
    }
    // The keys stored in the page's span, without their rows: pages come in change order, so an
    // earlier page's rows often lie between this one's ids, and none of them need reading. Only the
    // page's own ids found there are read; a span too full to list cheaply reads every id.
    const most = Math.max(ids.length * KEYS_PER_ID + 100, SPAN_KEYS);
    const stored = await db.items.where(':id').between(low, high, true, true).limit(most).primaryKeys();
    if (stored.length === 0) return ids.map(() => undefined);
    if (stored.length < most) {
      const present = new Set(stored);
      const wanted = ids.filter((id) => present.has(id));
      if (wanted.length === 0) return ids.map(() => undefined);
      const rows = await db.items.bulkGet(wanted);
      const byId = new Map(rows.map((row, i) => [wanted[i]!, row]));
      return ids.map((id) => byId.get(id));
    }
  }
  return db.items.bulkGet([...ids]);
}

/** How many stored keys per page id the span may hold and still be listed rather than read id by id. */
const KEYS_PER_ID = 8;
/**
 * A span of this many stored keys is listed whatever the page's size: keys alone are cheap to list,
 * and reading a 500-row page id by id is 500 requests (a 10,000-item pull's later pages span most
 * of what the earlier ones stored).
 */
const SPAN_KEYS = 20_000;

/**
 * The stored parents of a page's items that are not in the page (undefined where none is stored):
 * one bounded range read when they lie close together (a page's items name hundreds of parents, and
 * IndexedDB answers each get as its own request), else one read each.
 */
async function parentsOutside(
  db: OutpostDb,
  items: readonly SyncChange[],
  pageIds: ReadonlySet<number>,
  /** Parents the pull already knows (L11): not read. */
  pulled?: ReadonlyMap<number, ParentRow | undefined>,
): Promise<Map<number, ParentRow | undefined>> {
  const ids = new Set<number>();
  const found = new Map<number, ParentRow | undefined>();
  for (const item of items) {
    const parent = isTombstone(item) ? null : item.parent_id;
    if (typeof parent !== 'number' || parent === 0 || pageIds.has(parent)) continue;
    if (pulled?.has(parent)) found.set(parent, pulled.get(parent));
    else ids.add(parent);
  }
  const wanted = [...ids];
  if (wanted.length === 0) return found;
  let low = wanted[0]!;
  let high = wanted[0]!;
  for (const id of wanted) {
    if (id < low) low = id;
    if (id > high) high = id;
  }
  const rows =
    wanted.length >= SPAN_MIN && high - low + 1 <= wanted.length * 2 + 50
      ? await db.items.where(':id').between(low, high, true, true).toArray()
      : (await db.items.bulkGet(wanted)).filter((row): row is LocalItem => row !== undefined);
  for (const id of wanted) found.set(id, undefined);
  for (const row of rows) if (ids.has(row.id)) found.set(row.id, row);
  return found;
}

/**
 * With everything pushed and pulled, a roll-up this device predicted that the server did not make
 * (say the write behind it was refused) would stay forever: put the server's copy back.
 */
export async function dropStalePredictions(db: OutpostDb): Promise<void> {
  // Almost always none: no write transaction over every store (it would hold up every read, the
  // screen's first ones too) just to find that out.
  if (((await getMeta<number[]>(db, META_KEYS.predicted)) ?? []).length === 0) return;
  await db.transaction('rw', [...TABLES], async () => {
    if ((await db.syncQueue.count()) > 0) return;
    const ids = (await getMeta<number[]>(db, META_KEYS.predicted)) ?? [];
    if (ids.length === 0) return;
    const items = (await db.items.bulkGet(ids)).filter((i): i is LocalItem => !!i?._predicted);
    const stale = items.filter((i) => i._syncStatus === 'synced' && i._conflict === null);
    await db.items.bulkPut(
      stale.map((i) => (i._base ? fromServer(i._base, i._localVersion + 1) : { ...i, _predicted: null })),
    );
    const kept = items.filter((i) => !stale.includes(i)).map((i) => i.id);
    await setMeta(db, META_KEYS.predicted, kept);
  });
}

/** Stores `cursor` if the device's cursor is still `after` (L10); answers whether it did. */
function moveCursor(db: OutpostDb, after: string, cursor: string): Promise<boolean> {
  return db.transaction('rw', db.meta, async () => {
    if (((await getMeta<string>(db, META_KEYS.cursor)) ?? '') !== after) return false;
    await setMeta(db, META_KEYS.cursor, cursor);
    return true;
  });
}

/** Lets the browser paint, take input and run live queries between two pages (no long task). */
function yieldToMain(): Promise<void> {
  const scheduler = (globalThis as { scheduler?: { yield?: () => Promise<void> } }).scheduler;
  if (typeof scheduler?.yield === 'function') return scheduler.yield();
  return new Promise((resolve) => setTimeout(resolve, 0));
}

/**
 * Pages asked for ahead of the one being stored: they arrive while it is written, and enough may
 * wait to fill one FOLD_ROWS transaction.
 */
const PAGES_AHEAD = 8;

/** The rows of every child kind a page (or a fold of pages) carries. */
function childCount(page: PulledChildren): number {
  let count = 0;
  for (const { name } of ITEM_CHILDREN) count += page[name]?.length ?? 0;
  return count;
}

/** A page's children, each kind's rows as they came (none for a kind the page lacks). */
function pageChildren(page: PulledChildren): PulledChildren {
  const children: Record<string, readonly unknown[]> = {};
  for (const { name } of ITEM_CHILDREN) children[name] = page[name] ?? [];
  return children as PulledChildren;
}

/** The children of two pages in order, kind by kind. */
function joinChildren(before: PulledChildren, page: PulledChildren): PulledChildren {
  const children: Record<string, readonly unknown[]> = {};
  for (const { name } of ITEM_CHILDREN) {
    const more = page[name] ?? [];
    children[name] = more.length === 0 ? (before[name] ?? []) : [...(before[name] ?? []), ...more];
  }
  return children as PulledChildren;
}

/** How many pages are asked for before the one that asks for the count (L8): the third at the soonest. */
const COUNTED_PAGE = 2;

/**
 * How long the count waits for a screen to draw the first page's rows (L8) once they are stored: a
 * screen whose modules still load (a click on Sign In before the form's prefetch is done) draws them
 * 0.5 s after they arrived at 100,000 items; a screen that draws none (Settings) gets its badge this late.
 */
export const COUNT_WAITS_FOR_SCREEN_MS = 1500;

/**
 * The pages after `cursor`, in order, each asked for as soon as the one before it arrives while at
 * most PAGES_AHEAD wait unread, so the network and IndexedDB overlap. `take` answers the next page;
 * `ready` says whether it has already arrived. A page that fails stops the reading: the ones after
 * it are never asked for, and one asked for ahead is dropped unread when applying fails.
 */
function pageReader(api: SyncContext['api'], cursor: string, count: boolean) {
  const waiting: { page: Promise<PulledPage>; arrived: boolean }[] = [];
  let nextCursor: string | null = null;
  let stopped = false;
  // The rows of the pages that arrived, and the total once the counted page (the third) arrived.
  let arrivedRows = 0;
  let total: number | null = null;
  let asked = 0;
  // L8: the count waits until the first page is stored and a screen has drawn it. It holds the server
  // for as long as it reads (0.35–0.55 s at 100,000 items on the embedded database, whose queries
  // run on the server's one thread), and the screen's modules asked for meanwhile were served only
  // after it: the first row came 0.6 s late. The third page waits for the first to be stored; past
  // that, the pages go on uncounted while the count waits for the screen.
  let firstStored = false;
  let countHeld = count;
  let countAsked = false;
  const ask = (from: string, withCount: boolean) => {
    asked++;
    const entry = {
      // A bootstrap's first page may have been asked for as the sign-in answered (L16).
      page: (from === '' && !withCount && takeFirstPage(api)) || askPage(api, from, withCount),
      arrived: false,
    };
    entry.page.then(
      (data) => {
        entry.arrived = true;
        arrivedRows += data.items.length + childCount(data) + listCount(data);
        if (withCount && data.remaining !== undefined) total = arrivedRows + data.remaining;
        nextCursor = data.has_more ? data.cursor : null;
        askMore();
      },
      () => undefined,
    );
    waiting.push(entry);
  };
  const askMore = () => {
    const last = waiting[waiting.length - 1];
    if (!stopped && nextCursor !== null && (!last || last.arrived) && waiting.length < PAGES_AHEAD) {
      // The second page goes at once, uncounted: the device stores it while the third is counted. A
      // held count rides on the first page asked after it goes.
      if (count && asked === COUNTED_PAGE && !firstStored) return;
      const counted = count && !countHeld && !countAsked && asked >= COUNTED_PAGE;
      if (counted) countAsked = true;
      const from = nextCursor;
      nextCursor = null;
      ask(from, counted);
    }
  };
  const countMayGo = () => {
    countHeld = false;
    askMore();
  };
  ask(cursor, false);
  return {
    ready: () => waiting[0]?.arrived === true,
    /** What the pull holds in all once the counted page arrived (L7, L8); null before, or with no count asked. */
    total: () => total,
    take(): Promise<PulledPage> {
      const entry = waiting.shift();
      if (!entry) throw new Error('no page was asked for');
      askMore();
      return entry.page;
    },
    /** The first page is stored (L8): the third page may be asked for, counted when `drawn` says the screen drew it. */
    firstStored(drawn: Promise<void> | null) {
      firstStored = true;
      if (drawn) void drawn.then(countMayGo);
      else countHeld = false;
      askMore();
    },
    /** Asks for no more pages (the pull ended or failed). */
    stop: () => {
      stopped = true;
    },
  };
}

/**
 * Rows pages that have already arrived may add to one transaction (see pull): the parents a
 * transaction's rows name are read once for all of them, so fewer, larger ones read fewer (a
 * 10,000-item pull: 121 row reads, where 1,000-row transactions made 2,121; `npm run bench --
 * local-writes --profile`). 5,000 with 8 pages
 * ahead, not 2,500 with 4: a fresh device's 10k pull 1.39-1.50x the raw reference in two runs
 * against 1.54-1.70x (local-writes A, shared machine). A local edit made meanwhile waits for at
 * most one such transaction (L8).
 */
const FOLD_ROWS = 5_000;

/**
 * Pulls from the cursor until the server has nothing more (L1–L3), then drops stale predictions.
 * A pull of more than one page tells its progress to the sync status (L7, L8): the first page asks
 * the server to count what remains, each stored page moves it, the end clears it.
 */
export async function pull(
  ctx: Pick<SyncContext, 'db' | 'api'> & Partial<Pick<SyncContext, 'status' | 'features'>>,
): Promise<{ pulled: number; conflicts: number }> {
  const { db, api, status, features } = ctx;
  let after = (await getMeta<string>(db, META_KEYS.cursor)) ?? '';
  const reader = pageReader(api, after, status !== undefined);
  let pulled = 0;
  let conflicts = 0;
  let total: number | null = null;
  // Rows a transaction left for the pull's last one to count (I3), until that one commits.
  let uncounted = false;
  // The parents stored so far, for the later transactions (L11).
  const parents = pulledParents();
  try {
    for (let page = 0; page < MAX_PAGES; page++) {
      const data = await reader.take();
      // L17: a bootstrap's first page is on Home from memory while it is stored.
      if (page === 0 && after === '' && !firstRowsOf(db)) showFirstRows(db, data.items);
      // Pages that arrived while the one before was stored go into the same transaction with the
      // last one's cursor (L9: still applied in order, the cursor never ahead of the rows).
      let items = data.items;
      let children = pageChildren(data);
      let lists: SyncPageLists = data;
      let { cursor, has_more: more } = data;
      while (more && reader.ready() && items.length + childCount(children) < FOLD_ROWS) {
        const following = await reader.take();
        items = items.concat(following.items);
        children = joinChildren(children, following);
        lists = joinLists(lists, following);
        cursor = following.cursor;
        more = following.has_more;
      }
      // The count comes with the third page (L8): progress shows from the first transaction after it.
      if (total === null && status && reader.total() !== null) {
        total = Math.max(reader.total()!, pulled);
        status.getState().set({ pullProgress: { received: pulled, total } });
      }
      // Nothing new since the device's cursor (a run right after another): only the cursor may move,
      // in a transaction over meta alone, so none over the items holds up the reads of the screen the
      // user opens. Stored only while the device's cursor is still the one asked after (L10).
      if (page === 0 && !more && items.length === 0 && childCount(children) + listCount(lists) === 0) {
        if (cursor !== after && !(await moveCursor(db, after, cursor))) return { pulled, conflicts };
        break;
      }
      // Every transaction but the last leaves its counting to the last one: the counters the pull's
      // transactions touch overlap, and each is then written once (I3).
      try {
        conflicts += await applyPulled(db, items, cursor, children, more, after, parents, features, lists);
      } catch (error) {
        // The device's cursor was reset under this pull (Clear Local Data): it stops, storing nothing
        // more, and the next pull starts from what is stored (L10).
        if (error instanceof StalePage) return { pulled, conflicts };
        throw error;
      }
      if (page === 0) {
        firstRowsStored(db);
        reader.firstStored(firstRowsUndrawn(db, COUNT_WAITS_FOR_SCREEN_MS));
      }
      after = cursor;
      uncounted = more;
      pulled += items.length + childCount(children) + listCount(lists);
      if (total !== null && status) {
        // Changes committed after the count arrive too: the total never reads less than what came.
        total = Math.max(total, pulled);
        status.getState().set({ pullProgress: { received: pulled, total } });
      }
      if (!more) {
        // A local edit made while the pull streamed may wait behind its last transaction: it is
        // stored before the pull ends (L8).
        if (total !== null) await localWritesSettled(db);
        break;
      }
      // Each transaction is its own; between two, the screens update and a local edit goes in.
      await yieldToMain();
    }
  } finally {
    reader.stop();
    dropFirstRows(db);
    if (total !== null) status?.getState().set({ pullProgress: null });
    // A pull that stopped before its last transaction counts what it stored (else the next write that
    // moves a counter, or the next open, would).
    if (uncounted) await flushPendingCounts(db).catch(() => undefined);
  }
  await setMeta(db, META_KEYS.lastSyncAt, new Date().toISOString());
  await dropStalePredictions(db);
  return { pulled, conflicts };
}
