import Dexie, { type IndexableType } from 'dexie';
import type { ItemStatus, ItemType } from '../../../shared/item';
import { progressOf, type SubtreeProgress } from '../../../shared/progress';
import { LIST_KEYS, LIST_ORDERS, type ListOrder } from '../../../shared/sort';
import {
  type ChildCounts,
  insideFromCounts,
  NO_COUNTS,
  progressFromCounts,
} from '../../../shared/subtreeCounts';
import { type LifecycleScreen, matchesFilterText, SCREEN_STATUS } from '../../../shared/visibility';
import { writeGuessesOf } from '../changes/writeGuess';
import { conflictedCollection, LIST_INDEX, type OutpostDb } from '../store/db';
import { movedGuestId, resolveId } from '../store/idAliases';
import { STATUS_ORDER } from '../store/listKeys';
import { rawIndexRange } from '../store/rawReads';
import type { LocalItem, Viewer } from '../store/types';
import { homeAll, mergeNewestFirst, topRange } from './homeList';

/**
 * Live-query functions: each returns a Promise from IndexedDB reads only, so a screen can wrap it in
 * dexie-react-hooks' useLiveQuery and re-render whenever any tab writes.
 */

export type Tab = 'all' | ItemType;

/** The guest sees only guest data; an account sees only its synced data. */
function inScope(item: LocalItem, viewer: Viewer): boolean {
  if (item._deleted === 1) return false;
  return viewer.isGuest ? item._syncStatus === 'local' : item._syncStatus !== 'local';
}

/**
 * Tops of their branch on a status's list (SYNC.md I14): the maintained `_stop` answers for almost
 * every row. A row flagged 1 that names a parent on the device is kept only when that parent is live,
 * in the same scope and of another status: a parent deleted here hides its children with it, as on
 * Home. Only those parents are read.
 */
/** A row whose stored `_stop` says it is not a top (false, or 0 as rows stored before say it). */
const unflagged = (i: LocalItem) => i._stop === false || i._stop === 0;

async function branchTops(db: OutpostDb, items: LocalItem[]): Promise<LocalItem[]> {
  const hasRef = (i: LocalItem) => i.parent_id !== null && i.parent_id !== 0;
  const named = [...new Set(items.filter((i) => hasRef(i) && !unflagged(i)).map((i) => i.parent_id!))];
  const parents = new Map(
    named.length === 0
      ? []
      : (await db.items.bulkGet(named)).filter((p): p is LocalItem => !!p).map((p) => [p.id, p]),
  );
  return items.filter((i) => {
    if (!hasRef(i)) return true;
    if (unflagged(i)) return false;
    const parent = parents.get(i.parent_id!);
    return (
      !parent ||
      (parent._deleted !== 1 &&
        (parent._syncStatus === 'local') === (i._syncStatus === 'local') &&
        parent.status !== i.status)
    );
  });
}

export interface ListOptions {
  search?: string;
  limit?: number;
  /**
   * Keyset pagination: only rows after this one in the list's order (the last row of the page shown);
   * a row that moved since is still a valid place to continue from.
   */
  after?: LocalItem;
}

type IndexScope = 'g' | 'a';
const scopeKey = (viewer: Viewer): IndexScope => (viewer.isGuest ? 'g' : 'a');

/** One index range, newest first: the prefix values of a LIST_INDEX, then its sort key. */
interface Stream {
  index: string;
  prefix: readonly IndexableType[];
}

const rangeOf = (db: OutpostDb, s: Stream, upper: IndexableType = Dexie.maxKey) =>
  db.items.where(s.index).between([...s.prefix, Dexie.minKey], [...s.prefix, upper], true, true);

/** The whole of a stream's range in index order, read raw; null when it must go through Dexie. */
const rawRangeOf = (db: OutpostDb, s: Stream) =>
  rawIndexRange<LocalItem>(
    db,
    'items',
    s.index,
    [...s.prefix, Dexie.minKey] as IndexableType,
    [...s.prefix, Dexie.maxKey] as IndexableType,
  );

/**
 * The rows of `streams` (disjoint index ranges sorted by `order`'s key) newest first, ties by id
 * descending: each range is read in reverse from `after`, at most `limit` rows of it, then merged.
 */
async function readStreams(
  db: OutpostDb,
  streams: readonly Stream[],
  order: ListOrder,
  opts: ListOptions & { keep?: (item: LocalItem) => boolean },
): Promise<LocalItem[]> {
  const key = LIST_KEYS[order];
  const after = opts.after;
  const afterKey = after ? key(after) : undefined;
  const search = opts.search?.trim() ? opts.search : undefined;
  const keep = opts.keep;
  const wanted = (i: LocalItem) =>
    (after === undefined || key(i) !== afterKey || i.id < after.id) &&
    (search === undefined || matchesFilterText(i, search)) &&
    (keep === undefined || keep(i));
  const filtered = after !== undefined || search !== undefined || keep !== undefined;
  // A whole range, unfiltered (a detail page's children): one raw read each (SYNC.md I11).
  const raw = filtered || opts.limit !== undefined ? [] : streams.map((s) => rawRangeOf(db, s));
  const pages = await Promise.all(
    raw.length > 0 && raw.every((read) => read !== null)
      ? raw.map((read) => read.then((rows) => rows.reverse()))
      : streams.map((s) => {
          let rows = rangeOf(db, s, afterKey).reverse();
          if (filtered) rows = rows.filter(wanted);
          if (opts.limit !== undefined) rows = rows.limit(opts.limit);
          return rows.toArray();
        }),
  );
  const merged = pages.length === 1 ? pages[0]! : pages.flat().sort(LIST_ORDERS[order]);
  const shown = opts.limit === undefined ? merged : merged.slice(0, opts.limit);
  // Rows as stored, on screen: an edit of one of them starts from it (SYNC.md W9).
  if (shown.length <= GUESS_FROM_LISTS) writeGuessesOf(db).sawRows(shown);
  return shown;
}

/** Lists this long or shorter (a screenful) tell the tab's writes what their rows hold. */
const GUESS_FROM_LISTS = 200;

/** How many rows `streams` hold, counted by the index without loading one. */
async function countStreams(db: OutpostDb, streams: readonly Stream[]): Promise<number> {
  const counts = await Promise.all(streams.map((s) => rangeOf(db, s).count()));
  return counts.reduce((a, b) => a + b, 0);
}

/**
 * Like readStreams, then drops the rows `drop` names (an async check, such as a parent on the
 * device), reading on after the last row read until `limit` rows are kept or the ranges end.
 */
async function readStreamsWithout(
  db: OutpostDb,
  streams: readonly Stream[],
  order: ListOrder,
  opts: ListOptions,
  drop: (rows: LocalItem[]) => Promise<LocalItem[]>,
): Promise<LocalItem[]> {
  if (opts.limit === undefined) return drop(await readStreams(db, streams, order, opts));
  const out: LocalItem[] = [];
  let after = opts.after;
  for (;;) {
    const want = opts.limit - out.length;
    const page = await readStreams(db, streams, order, { ...opts, after, limit: want });
    out.push(...(await drop(page)));
    if (page.length < want || out.length >= opts.limit) return out.slice(0, opts.limit);
    after = page[page.length - 1];
  }
}

const TYPES = ['campaign', 'task', 'todo'] as const satisfies readonly ItemType[];

/** Home: All shows the orphans, newest first; a type tab shows every item of that type. */
export async function homeItems(
  db: OutpostDb,
  viewer: Viewer,
  tab: Tab,
  opts: ListOptions = {},
): Promise<LocalItem[]> {
  if (tab !== 'all') return readStreams(db, [homeTypeStream(viewer, tab)], 'home', opts);
  // Only the orphans are read, by Home's index: a page by range, the whole list from the copy
  // homeList.ts patches with the rows each change names.
  if (opts.limit !== undefined && !opts.search && !opts.after) {
    const limit = opts.limit;
    const pages = await Promise.all(
      scopeStatuses(viewer).map((s) => topRange(db, s).reverse().limit(limit).toArray()),
    );
    return mergeNewestFirst(pages.map((p) => p.filter((i) => i._deleted !== 1))).slice(0, limit);
  }
  const all = await homeAll(db, viewer);
  const from = opts.after ? afterIndex(all, opts.after) : 0;
  const rest = from === 0 ? all : all.slice(from);
  const shown = opts.search ? rest.filter((i) => matchesFilterText(i, opts.search!)) : rest;
  return opts.limit === undefined ? shown : shown.slice(0, opts.limit);
}

/** Where a newest-first list continues after `after` (which may no longer be on it). */
function afterIndex(rows: readonly LocalItem[], after: LocalItem): number {
  const at = rows.findIndex((r) => LIST_ORDERS.home(r, after) > 0);
  return at === -1 ? rows.length : at;
}

const homeTypeStream = (viewer: Viewer, type: ItemType): Stream => ({
  index: LIST_INDEX.typeTab,
  prefix: [scopeKey(viewer), type],
});

/** The sync statuses of the viewer's scope (see inScope): the guest's own, or an account's two. */
function scopeStatuses(viewer: Viewer): LocalItem['_syncStatus'][] {
  return viewer.isGuest ? ['local'] : ['pending', 'synced'];
}

/** Home's 'View All (N items)' and tab counts, from its indexes, without loading a row. */
export async function homeCount(db: OutpostDb, viewer: Viewer, tab: Tab): Promise<number> {
  if (tab !== 'all') return countStreams(db, [homeTypeStream(viewer, tab)]);
  const counts = await Promise.all(scopeStatuses(viewer).map((s) => topRange(db, s).count()));
  return counts.reduce((a, b) => a + b, 0);
}

/**
 * The ranges of a status created by the viewer or assigned to them by someone else (disjoint, see
 * listKeys.ts `_asg`): per type, or the tops of the status's branches for an All tab.
 */
function screenStreams(viewer: Viewer, status: ItemStatus, tab: Tab): Stream[] {
  const scope = scopeKey(viewer);
  if (tab === 'all') {
    return [
      { index: LIST_INDEX.mineTop, prefix: [scope, viewer.userId, status, 1] },
      { index: LIST_INDEX.assignedTop, prefix: [scope, viewer.userId, status, 1] },
    ];
  }
  return [
    { index: LIST_INDEX.mine, prefix: [scope, viewer.userId, status, tab] },
    { index: LIST_INDEX.assigned, prefix: [scope, viewer.userId, status, tab] },
  ];
}

/**
 * Queue, Active, Completed: items of the screen's status created by or assigned to the viewer;
 * the All tab shows each item whose parent is not on that list (SYNC.md I14). Queue newest created
 * first, Active most recently updated, Completed most recently completed.
 */
export async function screenItems(
  db: OutpostDb,
  viewer: Viewer,
  screen: LifecycleScreen,
  tab: Tab,
  opts: ListOptions = {},
): Promise<LocalItem[]> {
  const status = SCREEN_STATUS[screen];
  const streams = screenStreams(viewer, status, tab);
  if (tab !== 'all') return readStreams(db, streams, screen, opts);
  // The flagged rows are the candidates; the few whose parent is on the device but not live in
  // scope are dropped by branchTops, and the read goes on until the page is full.
  return readStreamsWithout(db, streams, screen, opts, (rows) => branchTops(db, rows));
}

/** How many items a Queue/Active/Completed tab lists (type tabs from the indexes alone). */
export async function screenCount(
  db: OutpostDb,
  viewer: Viewer,
  screen: LifecycleScreen,
  tab: Tab,
): Promise<number> {
  if (tab === 'all') return (await screenItems(db, viewer, screen, tab)).length;
  return countStreams(db, screenStreams(viewer, SCREEN_STATUS[screen], tab));
}

const MY_LIST_ORDER = STATUS_ORDER;

/** My List's ranges of one status: the viewer's own items, one range per type. */
function myListStreams(viewer: Viewer, status: ItemStatus): Stream[] {
  return TYPES.map((type) => ({
    index: LIST_INDEX.mine,
    prefix: [scopeKey(viewer), viewer.userId, status, type],
  }));
}

/** My List: items the viewer created, by status, in the spec's order for each tab. */
export function myListItems(
  db: OutpostDb,
  viewer: Viewer,
  status: ItemStatus,
  opts: ListOptions = {},
): Promise<LocalItem[]> {
  return readStreams(db, myListStreams(viewer, status), MY_LIST_ORDER[status], opts);
}

/** My List's tab badges: from the indexes; with search text, the matching rows are counted. */
export async function myListCounts(
  db: OutpostDb,
  viewer: Viewer,
  search?: string,
): Promise<Record<ItemStatus, number>> {
  const statuses = ['pending', 'in_progress', 'completed'] as const satisfies readonly ItemStatus[];
  const counts = await Promise.all(
    statuses.map(async (status) =>
      search?.trim()
        ? (await myListItems(db, viewer, status, { search })).length
        : countStreams(db, myListStreams(viewer, status)),
    ),
  );
  return { pending: counts[0]!, in_progress: counts[1]!, completed: counts[2]! };
}

/** Items assigned to the viewer, most recently updated first. */
export function assignedToMe(db: OutpostDb, viewer: Viewer, opts: ListOptions = {}): Promise<LocalItem[]> {
  // 0 means nobody (isAssignedTo), so a guest (user 0) is assigned nothing.
  if (viewer.userId === 0) return Promise.resolve([]);
  return readStreams(
    db,
    [{ index: LIST_INDEX.assignedTo, prefix: [scopeKey(viewer), viewer.userId] }],
    'active',
    opts,
  );
}

/** Items of one status the viewer can see, in that status's list order. */
export function itemsByStatus(
  db: OutpostDb,
  viewer: Viewer,
  status: ItemStatus,
  opts: ListOptions = {},
): Promise<LocalItem[]> {
  return readStreams(
    db,
    [{ index: LIST_INDEX.status, prefix: [scopeKey(viewer), status] }],
    MY_LIST_ORDER[status],
    opts,
  );
}

/** The children of an item, newest first, optionally of one type (a task's Todos section). */
export async function childrenOf(
  db: OutpostDb,
  viewer: Viewer,
  parentId: number,
  type?: ItemType,
  opts: ListOptions = {},
): Promise<LocalItem[]> {
  // No await before the read for a server or guest id: the re-run reads in the commit's own task.
  const id = parentId >= 0 ? parentId : await resolveId(db, parentId);
  const keep = type === undefined ? undefined : (i: LocalItem) => i.type === type;
  return readStreams(db, [childStream(viewer, id)], 'children', { ...opts, keep });
}

const childStream = (viewer: Viewer, parentId: number): Stream => ({
  index: LIST_INDEX.children,
  prefix: [parentId, scopeKey(viewer)],
});

/**
 * A page of the children of an item oldest first (created_at, then id: a detail page's checklist
 * order), read forward from `after`; `limit` rows at most.
 */
export async function childrenOldestFirst(
  db: OutpostDb,
  viewer: Viewer,
  parentId: number,
  opts: { limit?: number; after?: LocalItem } = {},
): Promise<LocalItem[]> {
  // No await before the reads for a server or guest id: a live query observes them (see live.ts).
  const id = parentId >= 0 ? parentId : await resolveId(db, parentId);
  const s = childStream(viewer, id);
  const after = opts.after;
  const raw = !after && opts.limit === undefined ? rawRangeOf(db, s) : null;
  if (raw) return raw;
  let rows = db.items
    .where(s.index)
    .between([...s.prefix, after ? after.created_at : Dexie.minKey], [...s.prefix, Dexie.maxKey], true, true);
  if (after) rows = rows.filter((i) => i.created_at !== after.created_at || i.id > after.id);
  if (opts.limit !== undefined) rows = rows.limit(opts.limit);
  return rows.toArray();
}

export interface Progress {
  total: number;
  completed: number;
  percent: number;
  remaining: number;
}

/** The counters of `ids` in the viewer's scope (counters.ts): one key read each, nothing loaded. */
async function countersOf(db: OutpostDb, viewer: Viewer, ids: readonly number[]): Promise<ChildCounts[]> {
  const scope = scopeKey(viewer);
  const rows = await db.counts.bulkGet(ids.map((id): [number, string] => [id, scope]));
  return rows.map((row) => (row ? row : NO_COUNTS));
}

/** Progress of a campaign or task: its live children, completed ones counted (maintained counters). */
export async function progressFor(db: OutpostDb, viewer: Viewer, parentId: number): Promise<Progress> {
  const id = parentId >= 0 ? parentId : await resolveId(db, parentId);
  const [c] = await countersOf(db, viewer, [id]);
  const { n: total, done: completed } = c ?? NO_COUNTS;
  return { total, completed, ...progressOf(total, completed) };
}

/**
 * Progress through the subtree of each of `ids` (campaigns and tasks on screen) as subtreeProgress
 * counts it over their children and their task children's children: one counter read each
 * (counters.ts), so an edit that changes no progress re-runs nothing here.
 */
export async function subtreeProgressOf(
  db: OutpostDb,
  viewer: Viewer,
  ids: readonly number[],
): Promise<Map<number, SubtreeProgress>> {
  const out = new Map<number, SubtreeProgress>();
  if (ids.length === 0) return out;
  const counts = await countersOf(db, viewer, ids);
  ids.forEach((id, i) => {
    out.set(id, progressFromCounts(counts[i]!));
  });
  return out;
}

export interface Inside {
  /** Progress through the subtree (as subtreeProgressOf). */
  progress: SubtreeProgress;
  /** How many live items sit inside (children and the task children's children). */
  inside: number;
  /** How many of those are not completed (Complete asks first when there are any). */
  open: number;
}

/** What a detail page's progress and its Complete/Reopen button need, from one counter read. */
export async function insideOf(db: OutpostDb, viewer: Viewer, parentId: number): Promise<Inside> {
  const id = parentId >= 0 ? parentId : await resolveId(db, parentId);
  const [c = NO_COUNTS] = await countersOf(db, viewer, [id]);
  return { progress: progressFromCounts(c), ...insideFromCounts(c) };
}

/** One item with its parent resolved from local data; follows a swapped temporary id. */
export async function itemById(
  db: OutpostDb,
  viewer: Viewer,
  id: number,
  followGuestMove = true,
): Promise<LocalItem | null> {
  const item = await db.items.get(id >= 0 ? id : await resolveId(db, id));
  if (!item || !inScope(item, viewer)) {
    // A page opened at a guest id before the sign-in moved that item (in this tab or another): it
    // shows the item where it went, never 'not found' while it uploads.
    if (!followGuestMove || viewer.isGuest || id < 0) return null;
    const moved = await movedGuestId(db, id);
    return moved === null || moved === id ? null : itemById(db, viewer, moved, false);
  }
  if (item.parent_id === null) return { ...item, parent: null };
  const parent = await db.items.get(item.parent_id);
  if (!parent || !inScope(parent, viewer)) return { ...item, parent: item.parent };
  return {
    ...item,
    parent: {
      id: parent.id,
      title: parent.title,
      type: parent.type,
      status: parent.status,
      parent_id: parent.parent_id,
    },
  };
}

/** How many changes wait in the queue (the badge's 'Online (N pending)'). */
export function pendingCount(db: OutpostDb): Promise<number> {
  return db.syncQueue.count();
}

/** Items with an open conflict, for the conflict dialog. */
export function conflictedItems(db: OutpostDb): Promise<LocalItem[]> {
  return conflictedCollection(db).toArray();
}
