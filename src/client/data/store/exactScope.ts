/**
 * A read-write transaction on items gets the stores its writes' side effects need added by the
 * store's middlewares (sideEffects.ts, historyStore.ts: counters, meta, the guest's history). A raw
 * edit in place writes none of them: opened through exactScope, it holds only the stores it names,
 * and commits as a narrower transaction (fewer stores for IndexedDB to lock).
 */
let exact = false;

/** Opens a transaction with `open` (synchronously) holding only the stores it names. */
export function exactScope<T>(open: () => T): T {
  exact = true;
  try {
    return open();
  } finally {
    exact = false;
  }
}

/** Whether the transaction being opened now is to hold only the stores it names. */
export const scopeIsExact = (): boolean => exact;
