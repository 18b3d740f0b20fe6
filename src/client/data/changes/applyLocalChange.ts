/**
 * The one local write (ARCHITECTURE §6): a change's item rows, the requests it queues and what undoes
 * it, stored in the caller's read-write transaction, so they commit together or not at all. It alone
 * creates queue rows and undo records (the boundary check holds that). The store's side effects
 * (store/sideEffects.ts) keep the list keys, counters, top-level flags and search log in step with
 * every row it puts or removes. The queue rows and the undo record go out beside the item writes, with
 * no round trip between them; the item writes themselves go one after the other (removals, then puts),
 * as their side effects must each see what the one before wrote.
 */
import Dexie from 'dexie';
import type { OutpostDb } from '../store/db';
import { clearDeviceHistory, recordDeviceHistory } from '../store/deviceHistory';
import { type DexieInternals, dexieInternals } from '../store/dexieInternals';
import { exactScope } from '../store/exactScope';
import { IN_PLACE_STORES, issueInPlace, putInPlace } from '../store/inPlaceWrites';
import { issueWrite, rawWrite, rawWriteTransaction } from '../store/rawWrites';
import { SEARCH_LOG_STORE } from '../store/searchLog';
import { type InPlacePut, inPlacePut } from '../store/sideEffects';
import type { ChildWrites, LocalItem, QueueEntry, UndoRecord } from '../store/types';
import { enqueue, enqueueRaw, lastSeqRequest, type NewEntry, queueRows } from '../sync/queue';
import { StaleGuess } from './staleGuess';
import { writeGuessesOf } from './writeGuess';
import { type ChangeFacts, changeFactsOf, chooseWriteRoute } from './writeRoute';

/** Undo records kept per owner; older ones fall off the bottom of the stack. */
export const UNDO_KEEP = 100;
/**
 * The stack is trimmed every this many records, not on each: reading its keys costs every write a
 * round trip, and a few records over the limit for a while harm nothing.
 */
const UNDO_TRIM_EVERY = 20;

export interface LocalChange {
  /** Whole item rows to store (new or replacing). */
  rows?: readonly LocalItem[];
  /** Item ids removed outright (a guest's delete, a row replaced under a new id). */
  removed?: readonly number[];
  /** Requests to queue, in order, after the queue's last seq (`after`, read in this transaction). */
  queue?: { entries: readonly NewEntry[]; after: number };
  /** What undoes the change; absent or null when it is not recorded (undo's own writes, imports). */
  undo?: UndoRecord | null;
  /** What its plan says of the change for its route (an item edit's, items/itemPlan.ts); absent: read off its rows. */
  facts?: ChangeFacts;
  /** The item's children written beside it, by store (SYNC.md K8, X10); no side effects read them. */
  children?: ChildWrites;
}

/** Trims the owner's stack to UNDO_KEEP when the record just stored under `seq` is a trim's turn. */
async function trimUndo(db: OutpostDb, owner: UndoRecord['owner'], seq: number): Promise<void> {
  if (seq % UNDO_TRIM_EVERY !== 0) return;
  const keys = await db.undo.where('owner').equals(owner).primaryKeys();
  if (keys.length > UNDO_KEEP)
    await db.undo.bulkDelete(keys.sort((a, b) => a - b).slice(0, keys.length - UNDO_KEEP));
}

/** The raw route's means (writeRoute.ts 'rawInTransaction'): Dexie's internals, the transaction, the row's put. */
interface RawRoute {
  internals: DexieInternals;
  idb: IDBTransaction;
  put: InPlacePut;
}

async function addUndo(db: OutpostDb, record: UndoRecord, raw: RawRoute | null): Promise<void> {
  const seq = (await (raw
    ? rawWrite(raw.internals, raw.idb, 'undo', record, null, true)
    : db.undo.add(record))) as number;
  await trimUndo(db, record.owner, seq);
}

/** The raw route of `change`'s writes when writeRoute.ts chooses it by the change's facts; null: Dexie's. */
function rawRouteOf(change: LocalChange, facts: ChangeFacts): RawRoute | null {
  const { rows = [] } = change;
  const internals = dexieInternals();
  const idb = rawWriteTransaction([
    ...IN_PLACE_STORES,
    ...(change.queue?.entries.length ? ['syncQueue'] : []),
    ...(change.undo ? ['undo'] : []),
  ]);
  const put = internals && idb && rows.length === 1 ? inPlacePut(idb, rows[0]!) : null;
  const route = chooseWriteRoute({
    ...facts,
    internals: !!internals,
    transaction: idb ? 'holdsStores' : 'other',
    inPlace: !!put,
  });
  return route === 'rawInTransaction' && internals && idb && put ? { internals, idb, put } : null;
}

/**
 * Stores one local change inside the caller's read-write transaction; answers the queue rows it
 * added, in order (the caller starts their push once the transaction has committed).
 */
export async function applyLocalChange(db: OutpostDb, change: LocalChange): Promise<QueueEntry[]> {
  if (Dexie.currentTransaction?.mode !== 'readwrite')
    throw new Error('applyLocalChange runs inside a read-write transaction');
  const { rows = [], removed = [], queue, undo } = change;
  const queued = queueRows(queue?.entries ?? [], queue?.after ?? 0);
  const facts = change.facts ?? changeFactsOf(rows, removed, queued.length > 0);
  const guestHistory = facts.guestHistory;
  const raw = rawRouteOf(change, facts);
  // The item writes go one after the other: the side effects of each read the counters and flags the
  // one before wrote (two at once would both count from the same stored counter).
  const put = () =>
    raw
      ? putInPlace(raw.internals, raw.idb, raw.put)
      : rows.length === 1
        ? db.items.put(rows[0]!)
        : rows.length > 1
          ? db.items.bulkPut([...rows])
          : undefined;
  const written = removed.length > 0 ? db.items.bulkDelete([...removed]).then(put) : put();
  const work: unknown[] = [written];
  // A guest's change is recorded on the device beside it (SYNC.md K19): one more put in this
  // transaction, none for a signed-in user's (the server records theirs). The guest upgrade, which
  // hands the guest's items to the account, clears the guest's log with them.
  if (guestHistory) work.push(recordDeviceHistory(db, rows, removed, Promise.resolve(written)));
  else if (removed.length > 0 && queued.some((q) => q.tag === 'upgrade')) work.push(clearDeviceHistory(db));
  // The queue's owner adds the rows (sync/queue.ts), raw when the item write goes raw; the funnel alone asks it to.
  work.push(enqueue(db, queued, raw));
  if (undo) work.push(addUndo(db, undo, raw));
  for (const [store, writes] of Object.entries(change.children ?? {})) {
    const table = db.table(store);
    if (writes.removed?.length) work.push(table.bulkDelete([...writes.removed]));
    if (writes.put?.length) work.push(table.bulkPut([...writes.put]));
  }
  // What this tab wrote is what its next edit of these rows may guess (writeGuess.ts); a guess from a
  // transaction that then fails is caught by the next write's check, and a seq guessed too high is harmless.
  const guesses = writeGuessesOf(db);
  if (queued.length > 0) guesses.sawSeq(queued.at(-1)!.seq);
  for (const id of removed) guesses.forget(id);
  await Promise.all(work);
  guesses.sawRows(rows);
  return queued;
}

/** An edit in place of one row made from what the tab last saw of it (SYNC.md W9, I12). */
export interface InPlaceEdit {
  /** The row as edited, its writer naming the row it replaces (store/writeFacts.ts `replacing`). */
  row: LocalItem;
  /** The request to queue after the seq the tab last saw; null for a guest's. */
  queue: { entry: NewEntry; after: number } | null;
  undo: UndoRecord | null;
  /** Whether the row as stored and the queue's last seq, read before the edit's writes, are what it was made from. */
  unchanged(stored: LocalItem | undefined, last: number): boolean;
  /** What its plan says of the edit for its route (items/itemPlan.ts); absent: an edit of this one row from the guess. */
  facts?: ChangeFacts;
}

/**
 * SYNC.md I12: stores an edit in place in a raw read-write transaction of its own, every request
 * issued at once: the checks of what it was made from first, then the row, its log row, the queue row
 * and the undo record. Answers null, having done nothing, when it is not one it can make so (inside
 * another transaction, the database not open, a guest's row, a row that moves a flag or a counter);
 * rejects, having stored nothing, when a check or a request failed: the caller makes it again the
 * long way, from a fresh read.
 */
export function applyInPlaceEdit(db: OutpostDb, edit: InPlaceEdit): Promise<QueueEntry[]> | null {
  const { row, queue, undo } = edit;
  const internals = dexieInternals();
  const put = inPlacePut(null, row);
  const route = chooseWriteRoute({
    ...(edit.facts ?? changeFactsOf([row], [], queue !== null, true)),
    internals: !!internals,
    transaction: Dexie.currentTransaction ? 'other' : 'none',
    inPlace: !!put,
  });
  if (route !== 'ownRawTransaction' || !internals || !put || !db.isOpen()) return null;
  const queued = queue ? queueRows([queue.entry], queue.after) : [];
  // Through Dexie's own middleware stack: the store's side effects name their stores, and Dexie's
  // query cache drops what the commit changed (it does for an explicit transaction).
  let idb: IDBTransaction;
  try {
    // Only the stores it writes: the row and its log row, its queue row, its undo record.
    const stores = ['items', SEARCH_LOG_STORE, ...(queue ? ['syncQueue'] : []), ...(undo ? ['undo'] : [])];
    idb = exactScope(() => db.core.transaction(stores, 'readwrite') as IDBTransaction);
  } catch {
    // A connection closing under it (a version change, another tab's upgrade): Dexie's way reopens it.
    return null;
  }
  internals.markExplicit(idb);
  let stale = false;
  // Made before the writes, so they read what was there before them; answered in the order made.
  const stored = idb.objectStore('items').get(row.id);
  const last = queue ? lastSeqRequest(idb) : null;
  (last ?? stored).onsuccess = () => {
    const lastSeq = (last?.result?.key as number | undefined) ?? 0;
    if (edit.unchanged(stored.result as LocalItem | undefined, lastSeq)) {
      // Nothing more is asked of it: it commits once its writes are stored, not after this tab has
      // also handled their answers (the last of which would otherwise wait for the main thread).
      idb.commit();
      return;
    }
    stale = true;
    idb.abort();
  };
  issueInPlace(internals, idb, put);
  enqueueRaw(internals, idb, queued);
  const undoAdded = undo ? issueWrite(internals, idb, 'undo', undo, null, true) : null;
  return new Promise<QueueEntry[]>((resolve, reject) => {
    idb.addEventListener('complete', () => {
      // Dexie's own commit does this: its live queries (in this tab, and in others by its broadcast) learn what changed.
      const parts = internals.changedBy(idb);
      if (parts) Dexie.on.storagemutated.fire(parts);
      const guesses = writeGuessesOf(db);
      if (queued.length > 0) guesses.sawSeq(queued.at(-1)!.seq);
      guesses.sawRows([row]);
      if (undo && undoAdded) void trimUndo(db, undo.owner, undoAdded.result as number).catch(() => undefined);
      resolve(queued);
    });
    idb.addEventListener('abort', () =>
      reject(stale ? new StaleGuess() : (idb.error ?? new Error('aborted'))),
    );
  });
}
