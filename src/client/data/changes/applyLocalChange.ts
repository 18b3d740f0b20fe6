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
import { queueRequest } from '../../../shared/protocol';
import { clearDeviceHistory, recordDeviceHistory, touchesGuestRows } from '../history/deviceHistory';
import type { OutpostDb } from '../store/db';
import { rawWrite } from '../store/rawWrites';
import { putInPlace } from '../store/sideEffects';
import type { LocalComment, LocalItem, QueueEntry, UndoRecord } from '../store/types';
import type { NewEntry } from '../sync/syncQueue';
import { writeGuessesOf } from './writeGuess';

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
  /** Comment rows to store, and comment ids removed (SYNC.md K8); no side effects read them. */
  comments?: readonly LocalComment[];
  removedComments?: readonly number[];
}

/** The queue row for a request after seq `last`: a fresh id and Idempotency-Key (SYNC.md). */
function queueRow(entry: NewEntry, last: number): QueueEntry {
  return {
    id: crypto.randomUUID(),
    seq: last + 1,
    kind: entry.kind,
    ...queueRequest(entry.kind, entry.itemId, entry.commentId),
    data: entry.data,
    timestamp: Date.now(),
    retries: 0,
    idempotencyKey: crypto.randomUUID(),
    baseVersion: entry.baseVersion,
    itemId: entry.itemId,
    tag: entry.tag ?? null,
  };
}

async function addUndo(db: OutpostDb, record: UndoRecord): Promise<void> {
  const seq = (await (rawWrite('undo', record, null, true) ?? db.undo.add(record))) as number;
  if (seq % UNDO_TRIM_EVERY !== 0) return;
  const keys = await db.undo.where('owner').equals(record.owner).primaryKeys();
  if (keys.length > UNDO_KEEP)
    await db.undo.bulkDelete(keys.sort((a, b) => a - b).slice(0, keys.length - UNDO_KEEP));
}

/**
 * Stores one local change inside the caller's read-write transaction; answers the queue rows it
 * added, in order (the caller starts their push once the transaction has committed).
 */
export async function applyLocalChange(db: OutpostDb, change: LocalChange): Promise<QueueEntry[]> {
  if (Dexie.currentTransaction?.mode !== 'readwrite')
    throw new Error('applyLocalChange runs inside a read-write transaction');
  const { rows = [], removed = [], queue, undo } = change;
  let seq = queue?.after ?? 0;
  const queued = (queue?.entries ?? []).map((entry) => queueRow(entry, seq++));
  // The item writes go one after the other: the side effects of each read the counters and flags the
  // one before wrote (two at once would both count from the same stored counter).
  // One row edited in place goes raw (SYNC.md I10), its side effects with it; any other through the store.
  const put = () =>
    rows.length === 1
      ? (putInPlace(rows[0]!) ?? db.items.put(rows[0]!))
      : rows.length > 1
        ? db.items.bulkPut([...rows])
        : undefined;
  const written = removed.length > 0 ? db.items.bulkDelete([...removed]).then(put) : put();
  const work: unknown[] = [written];
  // A guest's change is recorded on the device beside it (SYNC.md K19): one more put in this
  // transaction, none for a signed-in user's (the server records theirs). The guest upgrade, which
  // hands the guest's items to the account, clears the guest's log with them.
  if (touchesGuestRows(rows, removed, queued.length > 0))
    work.push(recordDeviceHistory(db, rows, removed, Promise.resolve(written)));
  else if (removed.length > 0 && queued.some((q) => q.tag === 'upgrade')) work.push(clearDeviceHistory(db));
  if (queued.length === 1)
    work.push(rawWrite('syncQueue', queued[0]!, null, true) ?? db.syncQueue.add(queued[0]!));
  else if (queued.length > 1) work.push(db.syncQueue.bulkAdd(queued));
  if (undo) work.push(addUndo(db, undo));
  if (change.removedComments?.length) work.push(db.comments.bulkDelete([...change.removedComments]));
  if (change.comments?.length) work.push(db.comments.bulkPut([...change.comments]));
  // What this tab wrote is what its next edit of these rows may guess (writeGuess.ts); a guess from a
  // transaction that then fails is caught by the next write's check, and a seq guessed too high is harmless.
  const guesses = writeGuessesOf(db);
  if (queued.length > 0) guesses.sawSeq(seq);
  for (const id of removed) guesses.forget(id);
  await Promise.all(work);
  guesses.sawRows(rows);
  return queued;
}
