/**
 * Reads made with one raw IndexedDB request inside the caller's Dexie transaction. A write's first
 * reads sit on its critical path: Dexie's table and collection calls cost a fraction of a millisecond
 * to a millisecond of script each before their request leaves, and a read needs none of its
 * middleware (no side effect and no live query watches a read-write transaction's reads). Outside a
 * transaction holding the store they answer null, and the caller reads through Dexie.
 */
import Dexie from 'dexie';

function inTransaction<T>(store: string, request: (s: IDBObjectStore) => IDBRequest): Promise<T> | null {
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
