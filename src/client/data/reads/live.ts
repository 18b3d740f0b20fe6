/**
 * The device's live reads for the feature folders' queries.ts (never for screens directly): `useLive`
 * runs a read over IndexedDB and re-runs it whenever the rows it read change (in any tab) or the viewer
 * changes. Which client they read is the composition's to say (../live.ts binds the door's on screen,
 * or the page's own before the data layer has started): this module names no layer above it.
 */
import Dexie from 'dexie';
import { useLiveQuery, useObservable } from 'dexie-react-hooks';
import { useCallback, useEffect, useMemo, useRef, useState, useSyncExternalStore } from 'react';
import { useStore } from 'zustand';
import type { Mutual, UserSummary } from '../../../shared/item';
import type { SubtreeProgress } from '../../../shared/progress';
import type { ReportEntry } from '../../../shared/timeReport';
import type { AuthStore } from '../../stores/authStore';
import type { SyncStatusStore } from '../../stores/syncStatusStore';
import { type LocalEcho, withLocalEcho } from '../changes/localEcho';
import { childrenWhere } from '../store/childRows';
import { getMeta, META_KEYS, type OutpostDb } from '../store/db';
import {
  type FirstRows,
  firstRowsOf,
  firstRowsWentStored,
  noteScreenDrawn,
  subscribeFirstRows,
} from '../store/firstRows';
import type { DeviceHistoryRow } from '../store/historyStore';
import type { KeptView, LostItem } from '../store/keptChanges';
import { mutualsOf, type StoredMutuals, samplesOf } from '../store/mutuals';
import type { LocalAttachment, LocalComment, LocalItem, LocalTimeEntry } from '../store/types';
import { type ConflictView, toConflictView } from './conflictView';
import type { ItemTime } from './itemPageReads';
import type { Inside, Progress } from './itemQueries';
import { later, laterReads } from './laterReads';
import { liveRead } from './liveRead';
import { runningTimer, spentByItem } from './timeRead';
import type { ListReads, ViewerReads } from './viewerReads';

/** A feature's list in manual order marks itself so (localEcho.ts): an echoed move shows at its new place. */
export { shownInManualOrder } from '../changes/localEcho';
export type { LocalItem };

/** What the live reads use of a client (the composition's client has all of it). */
export interface LiveClient {
  db: OutpostDb;
  auth: AuthStore;
  status: SyncStatusStore;
  /** The device's reads for the viewer of now (viewerReads.ts). */
  reads: ViewerReads;
  /** Edits in place shown before they commit (changes/localEcho.ts). */
  echo: LocalEcho;
  /** The screen has drawn its first list from the device. */
  screenShown(): void;
}

/** What the composition gives the live reads (../live.ts): which client a screen reads. */
export interface LiveClientHooks {
  /** The client of the door on screen (a hook); null until the data layer has started. */
  useDoorClient(): (LiveClient & { engine: { listConflicts(): Promise<{ local: LocalItem }[]> } }) | null;
  /** The page's own client (made, not started), read before the data layer has started. */
  pageClient(): LiveClient;
}

/** Given once by the composition (../live.ts, which screens import), before any screen reads. */
let hooks!: LiveClientHooks;

/** Called once by the composition (../live.ts), before any screen reads. */
export function provideLiveClient(given: LiveClientHooks): void {
  hooks = given;
}

/** The client of the door on screen; before the data layer has started, the page's own. */
function useClient(): LiveClient {
  return hooks.useDoorClient() ?? hooks.pageClient();
}

/** The first page shown from memory (SYNC.md L17), for a signed-in viewer only: the rows are the signing-in account's. */
function useFirstRows(c: LiveClient): { first: FirstRows | null; signedIn: boolean } {
  const subscribe = useCallback((listener: () => void) => subscribeFirstRows(c.db, listener), [c]);
  const shown = useSyncExternalStore(subscribe, () => firstRowsOf(c.db));
  const signedIn = useStore(c.auth, (s) => s.isAuthenticated);
  return { first: signedIn ? shown : null, signedIn };
}

/**
 * A list of Home's with a fresh device's first page shown from memory while its read from IndexedDB is
 * empty (SYNC.md L17): `fromRows` makes the list's answer of the page's rows, newest first. Once
 * stored, the rows stay until the list's next answer, which holds them: one read before the commit
 * would otherwise show the list empty for a moment.
 */
export function useWithFirstRows<T>(
  stored: T | undefined,
  isEmpty: (answer: T) => boolean,
  fromRows: (rows: readonly LocalItem[]) => T,
): T | undefined {
  const c = useClient();
  const { first, signedIn } = useFirstRows(c);
  // The rows of the last render that had them, and the list's answer then: once the rows went stored,
  // they stand until that answer moves (the stored state and the drop may come in one render).
  const held = useRef<{ rows: readonly LocalItem[]; answer: T | undefined } | null>(null);
  if (first) held.current = { rows: first.rows, answer: stored };
  else if (!signedIn || held.current?.answer !== stored || !firstRowsWentStored(c.db)) held.current = null;
  if (stored !== undefined && !isEmpty(stored)) return stored;
  const rows = first?.rows ?? held.current?.rows;
  return rows ? fromRows(rows) : stored;
}

/**
 * Whether `id` is a row of a fresh device's first page shown from memory (SYNC.md L17): a screen
 * opened from it waits for the row to be stored rather than saying it does not exist.
 */
export function useIsFirstRow(id: number): boolean {
  return useFirstRows(useClient()).first?.rows.some((r) => r.id === id) ?? false;
}

export interface ViewerState {
  user: UserSummary;
  isGuest: boolean;
  online: boolean;
}

export function useViewer(): ViewerState {
  const c = useClient();
  const user = useStore(c.auth, (s) => s.user);
  const isGuest = useStore(c.auth, (s) => !s.isAuthenticated);
  const online = useStore(c.status, (s) => s.online);
  return { user, isGuest, online };
}

/**
 * Re-run live queries when the viewer changes (sign-in, sign-out), not only on writes; null until the
 * remembered account is restored, and the lists wait for it (a signed-in user never sees the guest's).
 */
function useViewerKey(c: LiveClient): string | null {
  return useStore(c.auth, (s) => (s.restored ? `${s.isAuthenticated ? 'u' : 'g'}${s.user.id}` : null));
}

const NO_MUTUALS: Mutual[] = [];

/**
 * The people the assignee pickers offer besides the user: mutual contacts and the sample users the
 * server seeded, from the device (kept fresh by the data layer); nobody for a guest (P22).
 */
export function useMutuals(): { mutuals: Mutual[]; samples: Mutual[] } {
  const c = useClient();
  const viewer = useViewer();
  const stored = useLiveQuery(() => getMeta<StoredMutuals>(c.db, META_KEYS.mutuals), [c]);
  return useMemo(
    () =>
      viewer.isGuest
        ? { mutuals: NO_MUTUALS, samples: NO_MUTUALS }
        : { mutuals: mutualsOf(stored, viewer.user.id), samples: samplesOf(stored, viewer.user.id) },
    [viewer.isGuest, viewer.user.id, stored],
  );
}

/** The open conflicts, live; none before the data layer has started (the dialog remounts then). */
export function useConflicts(): ConflictView[] {
  const client = hooks.useDoorClient();
  return useLiveQuery(
    async () => (client ? (await client.engine.listConflicts()).map((c) => toConflictView(c.local)) : []),
    [client],
    [],
  );
}

/** The device's reads a live query may make (bound to the viewer). */
export type LocalReads = ListReads & {
  /** One item (temporary ids resolved); null when it does not exist locally or is deleted. */
  item: (id: number) => Promise<LocalItem | null>;
  /** The children of an item, newest first. */
  children: (parentId: number) => Promise<LocalItem[]>;
  /** A page of the children of an item, oldest first, read by index from `after`. */
  childrenPage: (parentId: number, opts: { limit?: number; after?: LocalItem }) => Promise<LocalItem[]>;
  /** Progress of a campaign or task from its children (its maintained counters, one key read). */
  progress: (parentId: number) => Promise<Progress>;
  /** What a campaign holds: tasks and todos, open and done (its maintained counters). */
  inside: (parentId: number) => Promise<Inside>;
  /** Titles of the given parents that are on the device, for 'in {parent}' on the rows on screen. */
  parentTitles: (ids: readonly number[]) => Promise<Map<number, string>>;
  /** Of the given parents on the device, those in a campaign shared with others (it, or a task in it). */
  sharedParents: (ids: readonly number[]) => Promise<Set<number>>;
  /** An item's comments on the device, oldest first, deleted ones left out (SYNC.md K8). */
  comments: (itemId: number) => Promise<LocalComment[]> | undefined;
  /** An item's files on the device, newest first, deleted ones left out (SYNC.md A1). */
  attachments: (itemId: number) => Promise<LocalAttachment[]> | undefined;
  /** A guest item's history on the device, oldest first (SYNC.md K19). */
  history: (itemId: number) => Promise<DeviceHistoryRow[]> | undefined;
  /** The changes the server refused and the device keeps until the user deals with them (Q23). */
  keptChanges: () => Promise<KeptView[]>;
  /** The campaign an item left the device with when the user lost it (Q24), or null. */
  lostItem: (id: number) => Promise<LostItem | null>;
  /** An item's live time entries, newest first (SYNC.md X10). */
  timeEntries: (itemId: number) => Promise<LocalTimeEntry[]> | undefined;
  /** An item's page's time: the entries on it and its descendants, and its estimate (X11, X14); undefined while its module loads. */
  itemTime: (itemId: number) => Promise<ItemTime> | undefined;
  /** The person's running timer with its item's title, or null. */
  runningTimer: (userId: number) => ReturnType<typeof runningTimer>;
  /** Minutes spent per item, rolled up to tasks and campaigns (X11). */
  spent: () => Promise<Map<number, number>>;
  /** Every live entry with its item's title and campaign, for the time report; undefined while its module loads. */
  reportEntries: () => Promise<ReportEntry[]> | undefined;
};

/** Every counter row of one parent (counters.ts, keyed [parent, scope]), for a live query to observe. */
function countersOf(db: OutpostDb, parentId: number) {
  return db.counts
    .where('[parent+scope]')
    .between([parentId, Dexie.minKey], [parentId, Dexie.maxKey])
    .toArray();
}

/**
 * Starts the reads a query depends on before calling it. The data layer's itemById and childrenOf first
 * await a plain async helper (temporary-id resolution), and Dexie's live-query zone does not survive
 * that await: their own reads went unobserved and the screen never updated after a write. Reads
 * started synchronously here are observed, so Dexie re-runs the query when those rows change.
 */
function observe(reads: Promise<unknown>[]): Promise<unknown> {
  return Promise.all(reads);
}

const keptModule = () => import('../store/keptChanges');
const itemPage = () => import('./itemPageReads');
const itemCommentsLater = later(async () => (await itemPage()).itemComments);
const itemAttachmentsLater = later(async () => (await itemPage()).itemAttachments);
const itemHistoryLater = later(async () => (await itemPage()).itemHistory);
const itemTimeEntriesLater = later(async () => (await itemPage()).itemTimeEntries);
const itemTimeLater = later(async () => (await itemPage()).itemTime);
const reportEntriesLater = later(async () => (await itemPage()).reportEntries);

/**
 * The device's reads for a client's viewer: what `useLive` hands a query (tests read through it too).
 * Each runs for the viewer of the moment it runs.
 */
export function deviceReads(c: { db: OutpostDb; reads: ViewerReads }): LocalReads {
  const { db, reads } = c;
  const { itemById, childrenOf, childrenOldestFirst, progressFor, insideOf, ...lists } = reads;
  const items = { itemById, childrenOf, childrenOldestFirst, progressFor, insideOf };
  return {
    ...lists,
    item: (id) =>
      observe([db.items.get(id), db.meta.get(META_KEYS.idAliases), db.meta.get(META_KEYS.guestMoves)]).then(
        () => items.itemById(id),
      ),
    // A server or guest id needs no resolving: the query's own read starts at once and is observed
    // (SYNC.md I11), where reading the children a second time to observe them cost a board's drop
    // half its longest task (a 500-card column cloned by Dexie's cache: npm run bench -- board-drag).
    children: (parentId) =>
      parentId >= 0
        ? items.childrenOf(parentId)
        : observe([childrenWhere(db.items, parentId).toArray(), db.meta.get('idAliases')]).then(() =>
            items.childrenOf(parentId),
          ),
    // As `children`: a page of a task's 2,000 todos, not all of them, for a server or guest id.
    childrenPage: (parentId, opts) =>
      parentId >= 0
        ? items.childrenOldestFirst(parentId, opts)
        : observe([childrenWhere(db.items, parentId).toArray(), db.meta.get('idAliases')]).then(() =>
            items.childrenOldestFirst(parentId, opts),
          ),
    // A temporary id: its counters (whatever the scope) and the aliases are observed before resolving.
    progress: (parentId) =>
      parentId >= 0
        ? items.progressFor(parentId)
        : observe([countersOf(db, parentId), db.meta.get('idAliases')]).then(() =>
            items.progressFor(parentId),
          ),
    inside: (parentId) =>
      parentId >= 0
        ? items.insideOf(parentId)
        : observe([countersOf(db, parentId), db.meta.get('idAliases')]).then(() => items.insideOf(parentId)),
    parentTitles: async (ids) => {
      const map = new Map<number, string>();
      if (ids.length === 0) return map;
      for (const parent of await db.items.bulkGet([...ids])) {
        if (parent && parent._deleted === 0) map.set(parent.id, parent.title);
      }
      return map;
    },
    comments: (itemId) => itemCommentsLater(db, itemId),
    attachments: (itemId) => itemAttachmentsLater(db, itemId),
    history: (itemId) => itemHistoryLater(db, itemId),
    // The kept changes' module loads when a screen asks (Preferences, a lost item's page), not with
    // the first screen; the meta row read first is the one observed.
    keptChanges: () =>
      observe([db.meta.get(META_KEYS.rejectedChanges)]).then(async () => (await keptModule()).keptViews(db)),
    timeEntries: (itemId) => itemTimeEntriesLater(db, itemId),
    itemTime: (itemId) => itemTimeLater(db, itemId),
    runningTimer: (userId) => runningTimer(db, userId),
    spent: () => spentByItem(db),
    reportEntries: () => reportEntriesLater(db),
    lostItem: (id) =>
      observe([db.meta.get(META_KEYS.lostItems)]).then(async () => (await keptModule()).lostItemOf(db, id)),
    sharedParents: async (ids) => {
      const shared = new Set<number>();
      if (ids.length === 0) return shared;
      const live = (rows: (LocalItem | undefined)[]) =>
        rows.filter((r): r is LocalItem => r !== undefined && r._deleted === 0);
      const sharedCampaign = (c: LocalItem | undefined) =>
        c?.type === 'campaign' && (c.members_count ?? 0) > 1;
      const parents = live(await db.items.bulkGet([...ids]));
      // A todo's parent may be a task: its campaign, one level up, says whether it is shared.
      const up = [
        ...new Set(parents.flatMap((p) => (p.type === 'task' && p.parent_id !== null ? [p.parent_id] : []))),
      ];
      const tops = new Map(up.length > 0 ? live(await db.items.bulkGet(up)).map((t) => [t.id, t]) : []);
      for (const p of parents) {
        if (sharedCampaign(p) || (p.parent_id !== null && sharedCampaign(tops.get(p.parent_id))))
          shared.add(p.id);
      }
      return shared;
    },
  };
}

/**
 * A read of the device: a module-level function of the reads and its arguments (never a closure);
 * undefined while a later screen's read module loads (./laterReads.ts).
 */
export type LiveQuery<A, T> = (reads: LocalReads, args: A) => Promise<T> | T | undefined;

/**
 * A live read for the viewer: undefined until the remembered account is restored, re-run when its
 * arguments (compared by value) or the viewer change and whenever the rows it read change (in any
 * tab). An edit in place on this device shows before it commits (the local echo, changes/localEcho.ts).
 */
export function useLive<A, T>(query: LiveQuery<A, T>, args: A): T | undefined {
  const c = useClient();
  const key = useViewerKey(c);
  const reads = useMemo(() => deviceReads(c), [c]);
  const argsKey = JSON.stringify(args) ?? '';
  // A read of a later screen answers undefined until its module arrives; then the query runs again.
  const later = useSyncExternalStore(laterReads.subscribe, laterReads.version);
  return useObservable(
    () =>
      withLocalEcho(
        liveRead(() => (key === null ? undefined : query(reads, args))),
        c.echo,
      ),
    // The arguments' text is the dependency: the same arguments give the same key on every render.
    [query, argsKey, key, reads, later],
  );
}

/**
 * How many rows a long list shows at first, and how many more each 'Show more' adds. Above ItemList's
 * windowing threshold (60), so a full page renders only the rows near the viewport.
 */
export const LIST_PAGE = 100;

export interface Paged<T> {
  /** The rows shown (the first pages), undefined while loading. */
  items: T[] | undefined;
  /** Whether rows beyond them exist. */
  more: boolean;
  showMore: () => void;
}

/** A paged read: the reads, its arguments, and how many rows to read at most. */
export type PagedQuery<A, T> = (reads: LocalReads, args: A, limit: number) => Promise<T[] | undefined>;

const pagedOf =
  <A, T>(query: PagedQuery<A, T>) =>
  (reads: LocalReads, a: { args: A; limit: number }) =>
    query(reads, a.args, a.limit);
const pagedQueries = new WeakMap<
  PagedQuery<never, unknown>,
  LiveQuery<{ args: never; limit: number }, unknown>
>();

/**
 * A live list read a page at a time (by index, with a limit, see itemQueries.ts): the first
 * LIST_PAGE rows, a page more on each showMore. One row beyond the limit is asked for, so the screen
 * knows whether there is more without counting. Back to the first page whenever `args` change.
 */
export function usePagedLive<A, T>(query: PagedQuery<A, T>, args: A): Paged<T> {
  const argsKey = JSON.stringify(args) ?? '';
  const [paging, setPaging] = useState({ key: argsKey, pages: 1 });
  const pages = paging.key === argsKey ? paging.pages : 1;
  const limit = pages * LIST_PAGE;
  let live = pagedQueries.get(query as PagedQuery<never, unknown>);
  if (!live) {
    live = pagedOf(query as PagedQuery<never, unknown>);
    pagedQueries.set(query as PagedQuery<never, unknown>, live);
  }
  const rows = useLive(live as LiveQuery<{ args: A; limit: number }, T[] | undefined>, {
    args,
    limit: limit + 1,
  });
  const showMore = useCallback(
    () => setPaging((p) => ({ key: argsKey, pages: (p.key === argsKey ? p.pages : 1) + 1 })),
    [argsKey],
  );
  return useMemo(
    () => ({
      items: rows === undefined ? undefined : rows.length > limit ? rows.slice(0, limit) : rows,
      more: rows !== undefined && rows.length > limit,
      showMore,
    }),
    [rows, limit, showMore],
  );
}

const NO_PROGRESS: ReadonlyMap<number, SubtreeProgress> = new Map();
const NO_TITLES: ReadonlyMap<number, string> = new Map();
const NO_SHARED: ReadonlySet<number> = new Set();

const parentTitlesOf: LiveQuery<number[], Map<number, string>> = (reads, ids) => reads.parentTitles(ids);
const subtreeProgressOf: LiveQuery<number[], Map<number, SubtreeProgress>> = (reads, ids) =>
  reads.subtreeProgress(ids);

/** The local parent titles of `items` (the rows on screen), live: what a row costs is its own parent. */
export function useParentTitles(items: readonly { parent_id: number | null }[]): ReadonlyMap<number, string> {
  const ids = [...new Set(items.map((i) => i.parent_id).filter((p): p is number => p !== null))].sort(
    (a, b) => a - b,
  );
  return useLive(parentTitlesOf, ids) ?? NO_TITLES;
}

const sharedParentsOf: LiveQuery<number[], Set<number>> = (reads, ids) => reads.sharedParents(ids);

/**
 * The parents of the owner's rows among `items` that lie in a campaign shared with others: the owner's
 * own rows carry no role that says so (a member's carry theirs), so the lists ask the campaign.
 */
export function useSharedParents(
  items: readonly { parent_id: number | null; my_role?: string | null }[],
): ReadonlySet<number> {
  const ids = [
    ...new Set(items.flatMap((i) => (i.my_role === 'owner' && i.parent_id !== null ? [i.parent_id] : []))),
  ].sort((a, b) => a - b);
  return useLive(sharedParentsOf, ids) ?? NO_SHARED;
}

/** Progress through the subtree of each campaign and task among `items` (the rows on screen), live. */
export function useRowProgress(
  items: readonly { id: number; type: string }[],
): ReadonlyMap<number, SubtreeProgress> {
  const ids = items.filter((i) => i.type !== 'todo').map((i) => i.id);
  return useLive(subtreeProgressOf, ids) ?? NO_PROGRESS;
}

/**
 * Tells the data layer each time the screen shows what the device holds: the server is asked after
 * the first, and a first sync's count after the one that drew its first rows (SYNC.md L8).
 */
export function useShown<T>(value: T): T {
  const c = useClient();
  useEffect(() => {
    if (value === undefined) return;
    c.screenShown();
    noteScreenDrawn(c.db);
  }, [value, c]);
  return value;
}
