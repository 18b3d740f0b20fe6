/**
 * Reads made with one raw IndexedDB request inside the caller's Dexie transaction. A write's first
 * reads sit on its critical path: Dexie's table and collection calls cost a fraction of a millisecond
 * to a millisecond of script each before their request leaves, and a read needs none of its
 * middleware (no side effect and no live query watches a read-write transaction's reads). Outside a
 * transaction holding the store they answer null, and the caller reads through Dexie.
 */
import Dexie, { type IndexableType, RangeSet } from 'dexie';
import { dexieInternals } from './dexieInternals';

function inTransaction<T>(store: string, request: (s: IDBObjectStore) => IDBRequest): Promise<T> | null {
  // Plain-Dexie mode reads through Dexie too (store/dexieInternals.ts).
  if (!dexieInternals()) return null;
  const idb = Dexie.currentTransaction?.idbtrans;
  if (!idb?.objectStoreNames.contains(store)) return null;
  // Dexie's promise, so a transaction awaiting it alongside Dexie's own reads stays open.
  return new Dexie.Promise<T>((resolve, reject) => {
    const req = request(idb.objectStore(store));
    req.onsuccess = () => resolve(req.result as T);
    req.onerror = () => reject(req.error);
  });
}

/** The row stored under `key` in `store`, read raw in the current transaction; null outside one. */
export function rawGet<T>(store: string, key: IDBValidKey): Promise<T | undefined> | null {
  return inTransaction<T | undefined>(store, (s) => s.get(key));
}

/** The highest key of `store`'s `index` (undefined when empty), raw in the current transaction; null outside one. */
export function rawLastKey(store: string, index: string): Promise<IDBValidKey | undefined> | null {
  return (
    inTransaction<IDBCursor | null>(store, (s) => s.index(index).openKeyCursor(null, 'prev'))?.then(
      (cursor) => cursor?.key,
    ) ?? null
  );
}

/**
 * The rows of one inclusive range of an index of `store`, in index order, read with one raw getAll
 * (SYNC.md I11): in the current transaction when it holds the store, else in a read-only one of its
 * own. A live query running it observes what Dexie's own read would: the range, and the primary keys
 * of the rows found. Null when it cannot (the database not open, no such index, another transaction
 * current, plain-Dexie mode): the caller reads through Dexie.
 */
export function rawIndexRange<T extends { id: number }>(
  db: Dexie,
  store: string,
  index: string,
  lower: IndexableType,
  upper: IndexableType,
): Promise<T[]> | null {
  const internals = dexieInternals();
  const KeyRange = internals?.keyRangeOf(db);
  if (!internals || !KeyRange) return null;
  const current = Dexie.currentTransaction?.idbtrans;
  let idb: IDBTransaction;
  if (current?.objectStoreNames.contains(store)) idb = current;
  else if (current || !db.isOpen()) return null;
  else {
    try {
      idb = db.backendDB().transaction(store, 'readonly');
    } catch {
      return null;
    }
  }
  const source = idb.objectStore(store);
  if (!source.indexNames.contains(index)) return null;
  // The database's own (an in-memory one in tests brings its own), as Dexie reads it.
  const range = KeyRange.bound(lower, upper);
  const observe = internals.liveObserver();
  observe?.(`idb://${db.name}/${store}/${index}`, new RangeSet(lower, upper));
  // Dexie's promise, so a live query or transaction awaiting it keeps its zone.
  return new Dexie.Promise<T[]>((resolve, reject) => {
    const req = source.index(index).getAll(range);
    req.onsuccess = () => {
      const rows = req.result as T[];
      observe?.(`idb://${db.name}/${store}/`, new RangeSet().addKeys(rows.map((r) => r.id)));
      resolve(rows);
    };
    req.onerror = () => reject(req.error);
  });
}
