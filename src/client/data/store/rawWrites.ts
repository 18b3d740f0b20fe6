/**
 * Writes made with one raw IndexedDB request each inside the caller's Dexie transaction (SYNC.md
 * I10), for an edit in place: Dexie's table call and its middleware cost a write script before its
 * request leaves, and an edit in place needs none of what they do but one thing. Dexie's live queries
 * learn what a transaction changed from the ranges its observability layer sets on it, read when it
 * commits; these writes set the same ranges themselves: the primary key, and every index key the
 * write moved (both the old and the new one), so the lists that show the row re-run and no other.
 * Only a write whose route is raw (changes/writeRoute.ts chooses it) makes them.
 */
import Dexie, { cmp, type IndexableType, RangeSet } from 'dexie';
import type { DexieInternals } from './dexieInternals';

interface IndexShape {
  name: string;
  keyPath: string | string[];
  multiEntry: boolean;
}

/** The indexes of each store, read once per database connection (the schema does not change while open). */
const shapes = new WeakMap<IDBDatabase, Map<string, IndexShape[]>>();

function indexesOf(store: IDBObjectStore): IndexShape[] {
  const db = store.transaction.db;
  let byStore = shapes.get(db);
  if (!byStore) {
    byStore = new Map();
    shapes.set(db, byStore);
  }
  let found = byStore.get(store.name);
  if (!found) {
    found = [...store.indexNames].map((name) => {
      const index = store.index(name);
      return { name, keyPath: index.keyPath, multiEntry: index.multiEntry };
    });
    byStore.set(store.name, found);
  }
  return found;
}

function isValidKey(key: unknown): key is IDBValidKey {
  if (typeof key === 'number') return !Number.isNaN(key);
  if (typeof key === 'string') return true;
  if (key instanceof Date) return !Number.isNaN(key.getTime());
  if (Array.isArray(key)) return key.every(isValidKey);
  return key instanceof ArrayBuffer || ArrayBuffer.isView(key);
}

function valueAt(row: Record<string, unknown>, path: string): unknown {
  if (!path.includes('.')) return row[path];
  let at: unknown = row;
  for (const part of path.split('.')) at = (at as Record<string, unknown> | undefined)?.[part];
  return at;
}

/** The key `row` has in an index, as IndexedDB derives it; null when the row is not in the index. */
function indexKeyOf(row: object | null, keyPath: string | string[]): IDBValidKey | null {
  if (!row) return null;
  const r = row as Record<string, unknown>;
  const key = Array.isArray(keyPath) ? keyPath.map((p) => valueAt(r, p)) : valueAt(r, keyPath);
  return isValidKey(key) ? key : null;
}

function markKeys(
  internals: DexieInternals,
  idb: IDBTransaction,
  part: string,
  keys: readonly IDBValidKey[],
): void {
  if (keys.length === 0) return;
  const set = new RangeSet();
  for (const key of keys) set.addKey(key as IndexableType);
  internals.markChanged(idb, part, set);
}

/**
 * Marks on the transaction what writing `now` over `old` (null: none) changed in `store`, as Dexie's
 * observability layer would.
 */
function markWrite(
  internals: DexieInternals,
  idb: IDBTransaction,
  store: IDBObjectStore,
  key: IDBValidKey,
  old: object | null,
  now: object,
): void {
  const prefix = `idb://${idb.db.name}/${store.name}/`;
  markKeys(internals, idb, prefix, [key]);
  for (const index of indexesOf(store)) {
    const was = indexKeyOf(old, index.keyPath);
    const is = indexKeyOf(now, index.keyPath);
    if (was !== null && is !== null && cmp(was as IndexableType, is as IndexableType) === 0) continue;
    const moved = [was, is].filter((k): k is IDBValidKey => k !== null);
    markKeys(
      internals,
      idb,
      prefix + index.name,
      index.multiEntry ? moved.flatMap((k) => (Array.isArray(k) ? k : [k])) : moved,
    );
  }
}

/**
 * Puts (or, with `add`, adds) `value` to `store` raw in `idb`, marking what it changed for live
 * queries once it succeeds; `old` is the row it replaces (null: none). A failure is the caller's to
 * handle: unhandled, it aborts `idb`.
 */
export function issueWrite(
  internals: DexieInternals,
  idb: IDBTransaction,
  storeName: string,
  value: object,
  old: object | null,
  add = false,
): IDBRequest<IDBValidKey> {
  const store = idb.objectStore(storeName);
  const req = add ? store.add(value) : store.put(value);
  // Marked once the key is known (an auto-incremented one is known only now); before the commit all the same.
  req.onsuccess = () => markWrite(internals, idb, store, req.result, old, value);
  return req;
}

/**
 * Puts (or, with `add`, adds) `value` to `store` raw in `idb`, the current Dexie read-write
 * transaction, marking what it changed for live queries; `old` is the row it replaces (null: none).
 * Answers the key stored under. Only for a write whose route is raw (changes/writeRoute.ts).
 */
export function rawWrite(
  internals: DexieInternals,
  idb: IDBTransaction,
  storeName: string,
  value: object,
  old: object | null,
  add = false,
): Promise<IDBValidKey> {
  const req = issueWrite(internals, idb, storeName, value, old, add);
  // Dexie's promise, so the transaction awaiting it alongside Dexie's own requests stays open.
  return new Dexie.Promise<IDBValidKey>((resolve, reject) => {
    req.addEventListener('success', () => resolve(req.result));
    // As Dexie's own requests: a failed one does not abort the transaction by itself; its caller
    // decides (a write on a stale guess fails its check first, and is made again).
    req.onerror = (event) => {
      event.preventDefault();
      reject(req.error);
    };
  });
}

/** The current Dexie transaction's IndexedDB one when it may write every one of `stores`; else null. */
export function rawWriteTransaction(stores: readonly string[]): IDBTransaction | null {
  const idb = Dexie.currentTransaction?.idbtrans;
  return idb && idb.mode === 'readwrite' && stores.every((s) => idb.objectStoreNames.contains(s))
    ? idb
    : null;
}
