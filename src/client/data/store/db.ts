import Dexie, { type Table } from 'dexie';
import type { View } from '../../../shared/filter/views';
import type { QueueKind } from '../../../shared/protocol';
import type { Template } from '../../../shared/templates';
import { CHILDREN_INDEX } from './childRows';
import { COUNTS_SCHEMA, COUNTS_STORE, type CountsRow, ROWS_KEY, recomputeCounts } from './counters';
import { flushPendingCounts, PENDING_COUNTS } from './counterUpkeep';
import { FILE_BLOBS_SCHEMA, FILE_BLOBS_STORE, type FileBlob } from './fileBlobs';
import { HISTORY_SCHEMA, HISTORY_STORE, historyScope } from './historyStore';
import { recomputeListKeys } from './listKeys';
import { QUEUE_CHILD_FIELDS_V20 } from './queueChildFieldsV20';
import { SEARCH_LOG_SCHEMA, SEARCH_LOG_STORE, type SearchLogRow } from './searchLog';
import { storeSideEffects } from './sideEffects';
import { recomputeTopFlags } from './topFlags';
import type {
  LocalAttachment,
  LocalComment,
  LocalContact,
  LocalItem,
  LocalTimeEntry,
  LocalUser,
  MetaRow,
  QueueEntry,
  TrashRow,
  UndoRecord,
} from './types';

export const DB_NAME = 'Outpost';
export const DB_VERSION = 25;

const STORES_V2 = {
  items: 'id, type, user_id, assigned_to, parent_id, status, _syncStatus, uuid, updated_at, _conflict',
  users: 'id',
  contacts: '++id, user_id, contact_phone',
  syncQueue: 'id, &seq, itemId, tag',
  meta: 'key',
};

/** Home's All list, newest first per scope, read by range (see topFlags.ts). */
export const HOME_INDEX = '[_syncStatus+_top+created_at]';

const STORES_V3 = { ...STORES_V2, items: `${STORES_V2.items}, ${HOME_INDEX}` };

/** Version 4 (issue 14): the local trash (what each delete took, by uuid) and the undo stack. */
const STORES_V4 = { ...STORES_V3, trash: 'uuid, owner, deletedAt', undo: '++seq, owner' };

// An item without a reminder has no key in this index (null is not a key): the reminder watch reads
// only the items that have one, and a change to any other item does not wake it.
const STORES_V5 = { ...STORES_V4, items: `${STORES_V3.items}, remind_at` };

/**
 * Version 6 (issue 19): every list screen's index over the maintained list keys (listKeys.ts), newest
 * first by reading each range in reverse; equal keys come by id descending, as src/shared/sort.ts
 * breaks ties. Marked-deleted rows sit under `_scope` 'x', on no list.
 */
export const LIST_INDEX = {
  /** Home's type tabs: a type in a scope, by created_at. */
  typeTab: '[_scope+type+created_at]',
  /** A campaign's or task's children, by created_at. */
  children: CHILDREN_INDEX,
  /** Created by a user, per status and type (Queue/Active/Completed type tabs, My List). */
  mine: '[_scope+user_id+status+type+_sk]',
  /** Created by a user, per status, the top of each branch on that status's list (the All tabs, version 18). */
  mineTop: '[_scope+user_id+status+_stop+_sk]',
  /** Assigned to a user other than the creator, per status and type / top of a branch only. */
  assigned: '[_scope+_asg+status+type+_sk]',
  assignedTop: '[_scope+_asg+status+_stop+_sk]',
  /** Every item of a status (itemsByStatus); every row is in it, so the repair at open counts it. */
  status: '[_scope+status+_sk]',
  /** Assigned to a user, by updated_at || created_at (assignedToMe). */
  assignedTo: '[_scope+assigned_to+_uk]',
} as const;

/** Version 6's children counts by status (progress), read by no one since the counters (version 7). */
const CHILD_STATUS_V6 = '[parent_id+_scope+status]';

/** Version 6's All tabs, over Home's orphan flag (version 18 reads `_stop` instead). */
const ALL_TABS_V6 = ['[_scope+user_id+status+_top+_sk]', '[_scope+_asg+status+_top+_sk]'];

const LIST_INDEX_V6 = [
  LIST_INDEX.typeTab,
  LIST_INDEX.children,
  CHILD_STATUS_V6,
  LIST_INDEX.mine,
  ALL_TABS_V6[0],
  LIST_INDEX.assigned,
  ALL_TABS_V6[1],
  LIST_INDEX.status,
  LIST_INDEX.assignedTo,
];

const STORES_V6 = { ...STORES_V5, items: `${STORES_V5.items}, ${LIST_INDEX_V6.join(', ')}` };

/** Version 7 (issue 19): the progress counters per parent and scope (counters.ts). */
const STORES_V7 = { ...STORES_V6, [COUNTS_STORE]: COUNTS_SCHEMA };

/**
 * Version 8: the search copy saved for the next page (search.ts), and the log of the items each write
 * touched (searchLog.ts), so a page reads only what changed since the copy was saved.
 */
const STORES_V8 = { ...STORES_V7, [SEARCH_LOG_STORE]: SEARCH_LOG_SCHEMA, searchCopy: 'key' };

/**
 * Version 9 (issue 32): Today and Upcoming read the open items of a scope by due day (listKeys.ts
 * `_due`), up to their last day, instead of every item with a date.
 */
export const DUE_INDEX = '[_scope+_due]';

const STORES_V9 = { ...STORES_V8, items: `${STORES_V8.items}, ${DUE_INDEX}` };

/**
 * Version 10 (issue 33): a user's top-level items by `sort_key` (§5 'Order'), so a new or moved
 * top-level item goes after the real last one in one index step, not after the newest rows' only.
 * `_top` is kept on every write (topFlags.ts); IndexedDB fills the index from the stored rows.
 */
export const TOP_ORDER_INDEX = '[_top+user_id+sort_key]';

const STORES_V10 = { ...STORES_V9, items: `${STORES_V9.items}, ${TOP_ORDER_INDEX}` };

/**
 * Version 11 (issue 32's budgets): Today and Upcoming read the agenda indexes instead of the due-day
 * index, which goes. Each holds a viewer's open dated items (listKeys.ts `_pri`, `_due`) by owner,
 * priority, due day and created_at: created by them, or assigned to them by someone else (`_asg`),
 * two disjoint ranges, as the list screens' indexes are. A screen reads its first rows and counts
 * the rest (agendaQueries.ts), so 100,000 items cost what the rows on screen cost.
 */
const AGENDA_INDEX_V11 = {
  mine: '[_scope+user_id+_pri+_due+created_at]',
  assigned: '[_scope+_asg+_pri+_due+created_at]',
} as const;

const STORES_V11 = {
  ...STORES_V10,
  items: `${STORES_V10.items.replace(`, ${DUE_INDEX}`, '')}, ${Object.values(AGENDA_INDEX_V11).join(', ')}`,
};

/**
 * Version 12 (issues 32 and 33, 'reorder right there'): within a day the order is priority, then
 * manual order (SYNC.md O6), so the agenda indexes end in `_ord` (listKeys.ts: sort_key, then uuid)
 * instead of created_at; IndexedDB appends the id, the shared rule's last tie-break.
 */
export const AGENDA_INDEX = {
  mine: '[_scope+user_id+_pri+_due+_ord]',
  assigned: '[_scope+_asg+_pri+_due+_ord]',
} as const;

const STORES_V12 = {
  ...STORES_V11,
  items: STORES_V11.items
    .replace(AGENDA_INDEX_V11.mine, AGENDA_INDEX.mine)
    .replace(AGENDA_INDEX_V11.assigned, AGENDA_INDEX.assigned),
};

/**
 * Version 13 (issue 31): comments are device data (SYNC.md K8, K10). Keyed by id (the server's, or a
 * temporary negative one until the push answers); a timeline reads its item's comments oldest first
 * by the item's uuid, which never changes when a temporary or guest item id does.
 */
export const COMMENTS_TIMELINE_INDEX = '[item_uuid+created_at]';

const STORES_V13 = { ...STORES_V12, comments: `id, uuid, item_id, ${COMMENTS_TIMELINE_INDEX}` };

/** Version 14 (issue 31): a guest's history on the device (deviceHistory.ts, SYNC.md K19). */
export const STORES_V14 = { ...STORES_V13, [HISTORY_STORE]: HISTORY_SCHEMA };

/**
 * Version 15 (issue 49's budgets): the items indexes no query reads go, since every put pays for each
 * index: the single-field type, user_id, assigned_to, status and updated_at (the list, agenda and Home
 * indexes replaced them) and version 6's children-by-status (the counters replaced it).
 */
export const UNREAD_INDEXES_V15 = ['type', 'user_id', 'assigned_to', 'status', 'updated_at', CHILD_STATUS_V6];

export const STORES_V15 = {
  ...STORES_V14,
  items: STORES_V14.items
    .split(', ')
    .filter((index) => !UNREAD_INDEXES_V15.includes(index))
    .join(', '),
};

/**
/**
 * Version 16 (issue 53): time entries as device data (SYNC.md X10), keyed by uuid (the device names
 * an entry so before the server answers): by item (a page's entries, the roll-up), by person and start
 * (the timer rule), and the person's running timer (the header).
 */
const STORES_V16 = {
  ...STORES_V15,
  timeEntries: 'uuid, id, item_id, [user_id+started_at], [user_id+running]',
};

/**
 * Version 17 (issue 53, Calendar and Timeline): the calendar indexes over listKeys.ts `_sd`, an open
 * dated row's first day when it spans days or repeats, by owner as the agenda indexes are. A range of
 * days reads its single-day rows by due day (AGENDA_INDEX) and these rows up to its last day
 * (reads/calendarQueries.ts), not every dated item. Version 18 leads `_sd` with the span's reach, so
 * a range reads the spans that can end in it, not every one that started before it.
 */
export const CALENDAR_INDEX = {
  mine: '[_scope+user_id+_sd]',
  assigned: '[_scope+_asg+_sd]',
} as const;

export const STORES_V17 = {
  ...STORES_V16,
  items: `${STORES_V16.items}, ${Object.values(CALENDAR_INDEX).join(', ')}`,
};

/**
 * Version 18 (issue 50): Queue, Active and Completed › All list the top of each branch on their
 * status (topFlags.ts `_stop`, SYNC.md I14), so a finished task in a running campaign is on
 * Completed › All; their two indexes read `_stop` where Home's orphan flag was.
 */
export const STORES_V18 = {
  ...STORES_V17,
  items: STORES_V17.items
    .split(', ')
    .filter((index) => !ALL_TABS_V6.includes(index))
    .concat([LIST_INDEX.mineTop, LIST_INDEX.assignedTop])
    .join(', '),
};

/**
 * Version 20 (issue 64): files on items (SYNC.md A1). Their rows, keyed by id (the server's, or a
 * temporary negative one until the upload is answered), by item and uuid as comments are; and the
 * device's own file store, the bytes of files not yet on the server (store/fileBlobs.ts).
 */
export const STORES_V20 = {
  ...STORES_V18,
  attachments: 'id, uuid, item_id, _syncStatus',
  [FILE_BLOBS_STORE]: FILE_BLOBS_SCHEMA,
};

/**
 * Version 22 (issue 66.3): the saved views the app last fetched (GET /api/views), keyed by id, so a
 * saved view opens offline. A copy of the server's list, replaced whole at each fetch.
 */
export const STORES_V22 = { ...STORES_V20, views: 'id' };

/**
 * Version 23: the templates the device holds (they were one row of the meta store), keyed by id. The
 * sync pull keeps both lists (SYNC.md L13, L14), and a fetch of either list replaces it whole.
 */
export const STORES_V23 = { ...STORES_V22, templates: 'id' };

/** `stores` with one index of the items store dropped. */
function withoutItemsIndex<S extends { items: string }>(stores: S, index: string): S {
  return {
    ...stores,
    items: stores.items
      .split(', ')
      .filter((i) => i !== index)
      .join(', '),
  };
}

/**
 * Version 24 (issue 69 item 2): the single-field `_syncStatus` index goes. Every row had an entry in
 * it, and its three reads (whether a guest has rows at sign-in, their upgrade, the wipe that keeps
 * them) read the guest's scope of LIST_INDEX.typeTab instead (localItems.ts guestItems) or scan.
 */
export const STORES_V24 = withoutItemsIndex(STORES_V23, '_syncStatus');

/**
 * Version 25 (issue 69 item 2): the single-field `parent_id` index goes. Its reads (a parent's
 * children, whatever their scope: descendants, temp-id swaps, the flags' upkeep) read the children
 * index by its first key instead (childRows.ts), so a put pays for one index over parent_id, not two.
 */
export const STORES_V25 = withoutItemsIndex(STORES_V24, 'parent_id');

const STORES = STORES_V25;

/**
 * The stores whose rows are one person's, by an `owner` index (0: the guest's): a sign-in as another
 * account keeps the guest's rows (they move over) and its own, and clears the rest (SYNC.md W10,
 * sync/deviceWipe.ts). A store added later with per-person rows is named here, not in sync/.
 */
export const OWNED_STORES: readonly string[] = ['trash', 'undo', FILE_BLOBS_STORE];

/**
 * Version 21 (issue 63): a queue row stored before it named its child by a field of the child's kind
 * (QUEUE_CHILD_FIELDS_V20); it names it by `child` now, whatever the kind. Nothing else changes: the
 * row sends the same request. A row that names none (an item's own) is left as it is.
 */
function queueChildV21(row: Record<string, unknown>): void {
  for (const [field, { kind, key }] of Object.entries(QUEUE_CHILD_FIELDS_V20)) {
    if (!(field in row)) continue;
    const value = row[field];
    delete row[field];
    if (value !== undefined && value !== null) row.child = { kind, [key]: value };
  }
}

/** Whether a queue row stored before version 21 names its child by a field of its kind's. */
const namesChildV20 = (row: Record<string, unknown>): boolean =>
  Object.keys(QUEUE_CHILD_FIELDS_V20).some((field) => field in row);

/** The key of the saved search copy's head row: which generation of parts is whole, and when. */
export const SEARCH_COPY_HEAD = 'head';

/** Names the saved copy's parts (search.ts saveCopy); written last, so a page never reads a half-saved copy. */
export interface SearchCopyHead {
  key: typeof SEARCH_COPY_HEAD;
  /** The shape of what is saved (search.ts): a copy saved by other code is not read. */
  version: string;
  gen: string;
  parts: number;
  /** The oldest part's savedAt. */
  savedAt: number;
}

/**
 * Up to ~10,000 entries of the search copy as parallel arrays (cloned many times faster than as many
 * objects): the SearchKey fields and the fields a result shows.
 */
export interface SearchCopyPart {
  /** `${gen}:${part}`. */
  key: string;
  /** When this part's content was taken from the copy (Date.now()). */
  savedAt: number;
  ids: number[];
  /** As matched (searchKeyOf) and as shown. */
  keyTitles: string[];
  titles: string[];
  descriptions: (string | null)[];
  updated: string[];
  types: LocalItem['type'][];
  statuses: LocalItem['status'][];
  parents: (number | null)[];
  sync: LocalItem['_syncStatus'][];
  /** Items known changed but not yet read again when the part was taken: a page reads them. */
  dirty: number[];
}

export type SearchCopyRow = SearchCopyHead | SearchCopyPart;

/**
 * Finds rows written around Dexie at open: every write through Dexie moves the counters' row count
 * (ROWS_KEY), so a stored count that differs means some rows were not flagged, keyed or counted, and
 * the flags, list keys and counters are computed again. One count of the store, not of each index:
 * IndexedDB counts by walking, and at 100,000 rows every walk is on the way to the first screen.
 */
async function repairTopFlags(db: OutpostDb): Promise<void> {
  const [all, stored, pending] = await Promise.all([
    db.items.count(),
    db.counts.get([...ROWS_KEY]),
    db.meta.where(':id').startsWith(PENDING_COUNTS).first(),
  ]);
  let rows = stored;
  if (pending) {
    // A pull interrupted before its last transaction left rows uncounted (I3): they are counted now.
    await flushPendingCounts(db);
    rows = await db.counts.get([...ROWS_KEY]);
  }
  if ((rows?.n ?? 0) === all) return;
  // The saved search copy never saw those rows: it is not trusted over them.
  await db.searchCopy.clear();
  await db.transaction('rw', db.items, () => recomputeTopFlags(db.items));
  await db.transaction('rw', db.items, () => recomputeListKeys(db.items));
  await db.transaction('rw', db.items, db.counts, db.meta, async () => {
    await recomputeCounts(db.items, db.counts);
    // Counted from scratch: nothing is left pending.
    await db.meta.where(':id').startsWith(PENDING_COUNTS).delete();
  });
}

/**
 * The kind of a request stored before entries carried one: only the upgrade to version 2 below
 * reads a kind from method and URL.
 */
export function kindOfRequest(method: string, url: string): QueueKind {
  if (method === 'DELETE') return 'delete';
  if (method === 'PATCH') return 'update';
  if (/\/restore(?:\?|$)/.test(url)) return 'restore';
  return /\/assign(?:\?|$)/.test(url) ? 'assign' : 'create';
}

/**
 * The Outpost IndexedDB database: items, users, contacts, syncQueue, meta. Version 2 keeps the stores
 * and gives every queued entry its `kind`, read once from its method and URL; version 3 adds Home's
 * index over the maintained top-level flag (topFlags.ts). No entry is ever dropped.
 */
export class OutpostDb extends Dexie {
  items!: Table<LocalItem, number>;
  users!: Table<LocalUser, number>;
  contacts!: Table<LocalContact, number>;
  syncQueue!: Table<QueueEntry, string>;
  meta!: Table<MetaRow, string>;
  trash!: Table<TrashRow, string>;
  undo!: Table<UndoRecord, number>;
  counts!: Table<CountsRow, [number | string, string]>;
  searchLog!: Table<SearchLogRow, number>;
  searchCopy!: Table<SearchCopyRow, string>;
  comments!: Table<LocalComment, number>;
  timeEntries!: Table<LocalTimeEntry, string>;
  attachments!: Table<LocalAttachment, number>;
  fileBlobs!: Table<FileBlob, string>;
  views!: Table<View, number>;
  templates!: Table<Template, number>;

  constructor(name: string = DB_NAME, options?: ConstructorParameters<typeof Dexie>[1]) {
    super(name, options);
    // Null keys are not indexed by IndexedDB, so the parent, assignee and uuid indexes hold only real refs.
    this.use(storeSideEffects);
    // A write's transaction holds the guest's history log too (the funnel records in it, K19).
    this.use(historyScope);
    this.version(1).stores(STORES_V2);
    this.version(2)
      .stores(STORES_V2)
      .upgrade((tx) =>
        tx
          .table<QueueEntry, string>('syncQueue')
          .toCollection()
          .modify((entry) => {
            entry.kind ??= kindOfRequest(entry.method, entry.url);
          }),
      );
    // Version 3 adds Home's index and computes every item's top-level flag; nothing is dropped.
    this.version(3)
      .stores(STORES_V3)
      .upgrade((tx) => recomputeTopFlags(tx.table<LocalItem, number>('items')).then(() => undefined));
    // Version 4 only adds two stores; every item and queued change stays as it is.
    this.version(4).stores(STORES_V4);
    // Version 5 only adds the reminder index (IndexedDB fills it from the stored items).
    this.version(5).stores(STORES_V5);
    // Version 6 adds the list screens' indexes and computes every item's list keys; nothing is dropped.
    this.version(6)
      .stores(STORES_V6)
      .upgrade((tx) => recomputeListKeys(tx.table<LocalItem, number>('items')).then(() => undefined));
    // Version 7 adds the progress counters and computes them from the stored items.
    this.version(7)
      .stores(STORES_V7)
      .upgrade((tx) =>
        recomputeCounts(tx.table<LocalItem, number>('items'), tx.table(COUNTS_STORE)).then(() => undefined),
      );
    // Version 8 only adds the saved search copy and its log; both start empty (a full read saves one).
    this.version(8).stores(STORES_V8);
    // Version 9 adds the due-day index and gives every open item with a due date its `_due` key.
    this.version(9)
      .stores(STORES_V9)
      .upgrade((tx) => recomputeListKeys(tx.table<LocalItem, number>('items')).then(() => undefined));
    // Version 10 only adds the top-level order index.
    this.version(10).stores(STORES_V10);
    // Version 11 trades the due-day index for the agenda indexes and gives open dated items `_pri`.
    this.version(11)
      .stores(STORES_V11)
      .upgrade((tx) => recomputeListKeys(tx.table<LocalItem, number>('items')).then(() => undefined));
    // Version 12 ends the agenda indexes in manual order and gives open dated items `_ord`.
    this.version(12)
      .stores(STORES_V12)
      .upgrade((tx) => recomputeListKeys(tx.table<LocalItem, number>('items')).then(() => undefined));
    // Version 13 adds the comments store. A cursor from before it has passed comments the device never
    // stored: the next pull starts from the beginning (items already here are replaced, pending ones
    // rebased, as any pull does), and brings every comment.
    this.version(13)
      .stores(STORES_V13)
      .upgrade((tx) => tx.table<MetaRow, string>('meta').delete('cursor'));
    // Version 14 only adds the guest's history log; it starts empty (nothing before it was recorded).
    this.version(14).stores(STORES_V14);
    // Version 15 only deletes unread items indexes: every row, queued change and cursor stays.
    this.version(15).stores(STORES_V15);
    // Version 16 adds the time entries store. A cursor from before it has passed entries the device
    // never stored: the next pull starts from the beginning (as version 13 did for comments).
    this.version(16)
      .stores(STORES_V16)
      .upgrade((tx) => tx.table<MetaRow, string>('meta').delete('cursor'));
    // Version 17 adds the calendar indexes and gives open spanning or repeating items `_sd`.
    this.version(17)
      .stores(STORES_V17)
      .upgrade((tx) => recomputeListKeys(tx.table<LocalItem, number>('items')).then(() => undefined));
    // Version 18 moves the All tabs' indexes to `_stop` and computes it for every item.
    this.version(18)
      .stores(STORES_V18)
      .upgrade((tx) => recomputeTopFlags(tx.table<LocalItem, number>('items')).then(() => undefined));
    // Version 19 leads `_sd` with the span's reach (listKeys.ts calendarKey): the same indexes, rekeyed.
    this.version(19)
      .stores(STORES_V18)
      .upgrade((tx) => recomputeListKeys(tx.table<LocalItem, number>('items')).then(() => undefined));
    // Version 20 adds the files' rows and the file store. A cursor from before it has passed files the
    // device never stored: the next pull starts from the beginning (as version 13 did for comments).
    this.version(20)
      .stores(STORES_V20)
      .upgrade((tx) => tx.table<MetaRow, string>('meta').delete('cursor'));
    // Version 21 names every queue row's child the one way (`child`): the stores stay as they are.
    this.version(21)
      .stores(STORES_V20)
      .upgrade((tx) =>
        tx
          .table<Record<string, unknown>, string>('syncQueue')
          .filter(namesChildV20)
          .modify((row) => queueChildV21(row)),
      );
    // Version 22 only adds the saved views' store; it fills at the next fetch of the list.
    this.version(22).stores(STORES_V22);
    // Version 23 gives templates a store of their own, filled with the list the meta store kept.
    this.version(23)
      .stores(STORES_V23)
      .upgrade(async (tx) => {
        const meta = tx.table<MetaRow, string>('meta');
        const kept = (await meta.get('templates'))?.value;
        if (Array.isArray(kept)) await tx.table<Template, number>('templates').bulkPut(kept as Template[]);
        await meta.delete('templates');
      });
    // Version 24 only drops an index: no row is read or written.
    this.version(24).stores(STORES_V24);
    // Version 25 only drops an index too.
    this.version(DB_VERSION).stores(STORES);
    // Rows written around Dexie (a raw IndexedDB import, a bench's seed) carry no flag and so are not
    // in Home's index: the counts differ, and the flags are computed once before any query runs.
    this.on('ready', (db) => repairTopFlags(db as OutpostDb));
  }
}

export const META_KEYS = {
  cursor: 'cursor',
  lastSyncAt: 'lastSyncAt',
  guestCounter: 'guestCounter',
  tempCounter: 'tempCounter',
  account: 'account',
  dataOwner: 'dataOwner',
  upgrade: 'upgrade',
  idAliases: 'idAliases',
  /** Where the guest's items went when they moved into an account (guest id → temporary id, idAliases.ts). */
  guestMoves: 'guestMoves',
  predicted: 'predicted',
  mutuals: 'mutuals',
  /** The notifications page as last fetched, for offline use (src/client/data/notifications/notifications.ts). */
  notifications: 'notifications',
  /** Reminders this device has shown, so a reload does not show them again (src/client/data/items/reminders.ts). */
  remindersShown: 'remindersShown',
  /** The calendar feed URL this device made (F9): the server keeps only its hash. */
  calendarLink: 'calendarLink',
  /** The changes the server refused for good, kept for the user (store/keptChanges.ts). */
  rejectedChanges: 'rejectedChanges',
  /** The items that left the device with a lost campaign (store/keptChanges.ts). */
  lostItems: 'lostItems',
} as const;
export type MetaKey = (typeof META_KEYS)[keyof typeof META_KEYS];

/** Items open in a conflict dialog (indexed: null is not, so this reads only the conflicted ones). */
export function conflictedCollection(db: OutpostDb) {
  return db.items.where('_conflict').anyOf('update', 'delete');
}

/** Reads a meta value (inside the caller's transaction when there is one). */
export async function getMeta<T>(db: OutpostDb, key: MetaKey): Promise<T | undefined> {
  const row = await db.meta.get(key);
  return row?.value as T | undefined;
}

/** Writes a meta value (inside the caller's transaction when there is one). */
export async function setMeta(db: OutpostDb, key: MetaKey, value: unknown): Promise<void> {
  await db.meta.put({ key, value });
}

/** The next number of a counter kept in meta; call inside a rw transaction so tabs never share one. */
export async function nextCounter(db: OutpostDb, key: 'guestCounter' | 'tempCounter'): Promise<number> {
  const current = (await getMeta<number>(db, key)) ?? 0;
  const next = current + 1;
  await setMeta(db, key, next);
  return next;
}
