/**
 * The queue's one owner (ARCHITECTURE §6 'The queue has one owner', SYNC.md Q13–Q20). Every change to
 * a `syncQueue` row is one of the named operations below: `enqueue` (called by the funnel alone,
 * changes/applyLocalChange.ts), `confirm`, `drop`, `discard`, `discardFor`, `retry`, `reissue`,
 * `amendCreate`, `rebase`, `retarget` and `clear` (the device wipe). The boundary check (scripts/lib/funnel.ts) refuses a write
 * to the queue anywhere else, by Dexie or raw IndexedDB. Reads of the queue stay where they are; the
 * ones several modules share live here too.
 *
 * Each operation runs in the caller's transaction when there is one (the write it belongs to commits
 * with it or not at all), else in its own. A row names what it is about (`itemId`, and a child kind's
 * `child`, keyed as the kind's declaration says: src/shared/itemChildren.ts `queueKey`), set when it
 * is queued and moved with a temporary id's swap, so nothing reads an id back out of its URL (but a
 * comment's row queued before rows named their child, which the comments read as they always did).
 */
import { childOfKind } from '../../../shared/itemChildren';
import { isChildKind, type QueueKind, queueRequest, sendsIfMatch } from '../../../shared/protocol';
import type { OutpostDb } from '../store/db';
import type { DexieInternals } from '../store/dexieInternals';
import { rawLastKey } from '../store/rawReads';
import { issueWrite, rawWrite } from '../store/rawWrites';
import type { QueueChild, QueueEntry } from '../store/types';

/** A request a local change queues (the funnel gives it its id, seq, URL and keys). */
export interface NewEntry {
  kind: QueueKind;
  data: Record<string, unknown> | null;
  itemId: number;
  baseVersion: number | null;
  tag?: QueueEntry['tag'];
  /**
   * The child a child kind's entry is about, by the key its kind names queue rows by (`queueKey`: a
   * comment's id, a create's temporary one; a time entry's or a file's uuid), and `ref`, how its URL
   * names it when that is not the key (a server id, say).
   */
  child?: { id?: number; uuid?: string; ref?: string };
}

const QUEUE = 'syncQueue';

// ---------------------------------------------------------------------------------------------
// Reads shared by several modules
// ---------------------------------------------------------------------------------------------

/** The last queued seq (0 when the queue is empty); read it alongside a write's own reads. */
export function lastSeq(db: OutpostDb): Promise<number> {
  // Inside a transaction that holds the queue, one raw request (store/rawReads.ts).
  const raw = rawLastKey(QUEUE, 'seq');
  if (raw) return raw.then((key) => (key as number | undefined) ?? 0);
  // Dexie's own promise (no async wrapper), so a transaction awaiting it alongside others stays open.
  return db.syncQueue
    .orderBy('seq')
    .reverse()
    .limit(1)
    .keys()
    .then((keys) => (keys[0] as number | undefined) ?? 0);
}

/** The raw request for the last queued seq in `idb` (an edit in place's own transaction, SYNC.md I12). */
export function lastSeqRequest(idb: IDBTransaction): IDBRequest<IDBCursor | null> {
  return idb.objectStore(QUEUE).index('seq').openKeyCursor(null, 'prev');
}

/** Entries still queued for one item, in order; its comments' entries are not the item's own (K8). */
export async function entriesFor(db: OutpostDb, itemId: number): Promise<QueueEntry[]> {
  const list = (await db.syncQueue.where('itemId').equals(itemId).toArray()).filter(
    (e) => !isChildKind(e.kind),
  );
  return list.sort((a, b) => a.seq - b.seq);
}

// ---------------------------------------------------------------------------------------------
// Creating rows: the funnel's alone
// ---------------------------------------------------------------------------------------------

/** The rows for `entries` queued after seq `last`, in order: fresh ids and Idempotency-Keys (Q10, Q13). */
export function queueRows(entries: readonly NewEntry[], last: number): QueueEntry[] {
  let seq = last;
  return entries.map((entry) => {
    const child = childOf(entry);
    // A child's URL names it by `ref`, else by its key (a create's names only its item).
    const ref = entry.child?.ref ?? String(child?.id ?? child?.uuid ?? '');
    return {
      id: crypto.randomUUID(),
      seq: ++seq,
      kind: entry.kind,
      ...queueRequest(entry.kind, entry.itemId, 0, ref),
      data: entry.data,
      timestamp: Date.now(),
      retries: 0,
      idempotencyKey: crypto.randomUUID(),
      baseVersion: entry.baseVersion,
      itemId: entry.itemId,
      ...(child ? { child } : {}),
      tag: entry.tag ?? null,
    };
  });
}

/** The child a new entry's row names: its kind, and the key the kind's declaration names (null: none). */
function childOf(entry: NewEntry): QueueChild | null {
  const kind = childOfKind(entry.kind);
  if (!kind || !entry.child) return null;
  const { id, uuid } = entry.child;
  if (kind.queueKey === 'id') return id === undefined ? null : { kind: kind.name, id };
  return uuid === undefined ? null : { kind: kind.name, uuid };
}

/**
 * Adds `rows` (from `queueRows`) in the caller's read-write transaction: one row raw when the funnel's
 * item write goes raw (changes/writeRoute.ts), else through Dexie; several in one bulk add. Only the funnel calls it (SYNC.md W8).
 */
export function enqueue(
  db: OutpostDb,
  rows: readonly QueueEntry[],
  raw: { internals: DexieInternals; idb: IDBTransaction } | null = null,
): Promise<unknown> | undefined {
  if (rows.length === 1)
    return raw ? rawWrite(raw.internals, raw.idb, QUEUE, rows[0]!, null, true) : db.syncQueue.add(rows[0]!);
  if (rows.length > 1) return db.syncQueue.bulkAdd([...rows]);
  return undefined;
}

/** Issues the adds of `rows` in a raw transaction of the funnel's own (an edit in place, SYNC.md I12). */
export function enqueueRaw(
  internals: DexieInternals,
  idb: IDBTransaction,
  rows: readonly QueueEntry[],
): void {
  for (const row of rows) issueWrite(internals, idb, QUEUE, row, null, true);
}

// ---------------------------------------------------------------------------------------------
// Changing and removing rows
// ---------------------------------------------------------------------------------------------

/**
 * The server answered these entries: they leave the queue. Answers the ones still queued as they
 * stood (an entry already gone, answered twice, is not answered again: Q15).
 */
export async function confirm(db: OutpostDb, ids: readonly string[]): Promise<QueueEntry[]> {
  const rows = (await db.syncQueue.bulkGet([...ids])).filter((e): e is QueueEntry => e !== undefined);
  if (rows.length > 0) await db.syncQueue.bulkDelete(rows.map((e) => e.id));
  return rows;
}

/** The server refused these entries for good (Q3, Q7, Q12): they leave the queue, never to go again. */
export async function drop(db: OutpostDb, ids: readonly string[]): Promise<void> {
  if (ids.length > 0) await db.syncQueue.bulkDelete([...ids]);
}

/**
 * A change taken back on the device before it was sent (an undo of a queued delete, a comment
 * deleted before its create went): its entry leaves the queue.
 */
export async function discard(db: OutpostDb, id: string): Promise<void> {
  await db.syncQueue.delete(id);
}

/**
 * Everything queued for these items leaves the queue, but entries of the kinds in `keep` (Q16): the
 * items went (the server deleted them, a conflict was resolved), so what was queued for them has
 * nothing left to change. Answers how many went.
 */
export function discardFor(
  db: OutpostDb,
  itemIds: readonly number[],
  keep: readonly QueueKind[] = [],
): Promise<number> {
  if (itemIds.length === 0) return Promise.resolve(0);
  const rows = db.syncQueue.where('itemId').anyOf([...itemIds]);
  return (keep.length > 0 ? rows.filter((e) => !keep.includes(e.kind)) : rows).delete();
}

/** A server failure counts one retry on the entry (Q7). */
/** Empties the queue (the device wipe, sync/deviceWipe.ts), in the caller's transaction when there is one. */
export function clear(db: OutpostDb): Promise<void> {
  return db.syncQueue.clear();
}

export async function retry(db: OutpostDb, entry: Pick<QueueEntry, 'id' | 'retries'>): Promise<void> {
  await db.syncQueue.update(entry.id, { retries: entry.retries + 1 });
}

/**
 * The entry goes again with other `data` under a fresh Idempotency-Key (the server stored nothing of
 * the refused one: Q11). Answers the entry as it now stands.
 */
export async function reissue(
  db: OutpostDb,
  entry: QueueEntry,
  data: Record<string, unknown> | null,
): Promise<QueueEntry> {
  const next: QueueEntry = { ...entry, data, idempotencyKey: crypto.randomUUID() };
  await db.syncQueue.update(entry.id, { data, idempotencyKey: next.idempotencyKey });
  return next;
}

/**
 * A create not yet answered carries a later edit instead of a second request (K17): its payload
 * becomes `data`, its Idempotency-Key stays (a create the server already stored answers as before).
 */
export async function amendCreate(db: OutpostDb, id: string, data: Record<string, unknown>): Promise<void> {
  await db.syncQueue.update(id, { data });
}

/** Points every queued edit of an item at a new server version (after a confirm or a silent merge). */
export async function rebase(db: OutpostDb, itemId: number, version: number): Promise<void> {
  await db.syncQueue
    .where('itemId')
    .equals(itemId)
    .modify((e) => {
      if (sendsIfMatch(e.kind)) e.baseVersion = version;
    });
}

/** `/items/{old}` in a queued URL becomes `/items/{new}` (the URL was made from the row's itemId). */
function swapUrl(url: string, oldId: number, newId: number): string {
  return url.replace(new RegExp(`/items/${oldId}(?=/|$|\\?)`), `/items/${newId}`);
}

/**
 * Temporary item ids became the server's (`swaps`: old → new): every row about one, and every
 * create whose parent is one, names the new id, in its itemId, URL and payload (Q14). Running it
 * again changes nothing.
 */
export async function retarget(db: OutpostDb, swaps: ReadonlyMap<number, number>): Promise<void> {
  if (swaps.size === 0) return;
  const parentOf = (e: QueueEntry) => (typeof e.data?.parent_id === 'number' ? e.data.parent_id : null);
  await db.syncQueue
    .filter((e) => swaps.has(e.itemId) || swaps.has(parentOf(e) ?? 0))
    .modify((e) => {
      const itemId = swaps.get(e.itemId);
      if (itemId !== undefined) {
        e.url = swapUrl(e.url, e.itemId, itemId);
        e.itemId = itemId;
      }
      const parent = swaps.get(parentOf(e) ?? 0);
      if (parent !== undefined) e.data = { ...e.data, parent_id: parent };
    });
}
