/** Raw IndexedDB as promises, for the benches' references (no Dexie in between). */
export function req<T>(request: IDBRequest<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
}

/** Settles when the transaction commits, fails when it errors or aborts. */
export function done(tx: IDBTransaction): Promise<void> {
  return new Promise((resolve, reject) => {
    tx.oncomplete = () => resolve();
    tx.onerror = () => reject(tx.error);
    tx.onabort = () => reject(tx.error);
  });
}

/** Deletes database `name`, if it exists (a blocked delete is left to finish later). */
export async function deleteDb(name: string): Promise<void> {
  await new Promise<void>((resolve) => {
    const r = indexedDB.deleteDatabase(name);
    r.onsuccess = () => resolve();
    r.onerror = () => resolve();
    r.onblocked = () => resolve();
  });
}

/**
 * The end of a timed reference pull begun at `t0`: its items counted (read back, so they are
 * queryable), the time taken, then database `name` closed and deleted.
 */
export async function countedAndDropped(
  db: IDBDatabase,
  name: string,
  t0: number,
): Promise<{ ms: number; count: number }> {
  const count = await req(db.transaction('items').objectStore('items').count());
  const ms = performance.now() - t0;
  db.close();
  await deleteDb(name);
  return { ms, count };
}
