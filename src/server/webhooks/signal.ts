/**
 * How many committed transactions of this process wrote webhook deliveries, as outboxSignal does
 * for pushes: the sender drains when the count moved, so a commit that wrote none costs no query.
 * Counted after the commit, never before: a drain must not look for rows it cannot see yet.
 */
const marked = new WeakSet<object>();

export const webhookSignal = {
  writes: 0,
  /** Inside a transaction: it wrote a delivery. */
  mark(tx: object): void {
    marked.add(tx);
  },
  /** After `tx` committed: counts it when it was marked (the caller then pokes the sender). */
  committed(tx: object | null): void {
    if (tx && marked.delete(tx)) webhookSignal.writes += 1;
  },
};
