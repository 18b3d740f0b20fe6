import type { WriteEffect } from '../http/idempotency';

/**
 * How many committed transactions of this process wrote entries that wait for a push. A writer marks
 * its transaction (`mark`, inside it) and counts it once it has committed (`committed`); each outbox
 * drains when the count moved since it last looked, so a commit that wrote nothing to push costs no
 * query (most users never subscribe to push). Counted after the commit, never before: a drain set off
 * by someone else's commit must not take the signal of a transaction whose rows it cannot see yet.
 */
const marked = new WeakSet<object>();

export const outboxSignal = {
  writes: 0,
  /** Inside a transaction: it wrote an entry to push. */
  mark(tx: object): void {
    marked.add(tx);
  },
  /** After `tx` committed: counts it when it was marked (the caller then pokes the outbox). */
  committed(tx: object | null): void {
    if (tx && marked.delete(tx)) outboxSignal.writes += 1;
  },
};

const pushHooks = { committed: (tx: object) => outboxSignal.committed(tx) };

/**
 * Web Push as a write effect (registered by app.ts): a committed write's entries to push count before
 * the commit's listeners poke the outbox (the change bus is registered after it).
 */
export const pushOutboxEffect: WriteEffect = () => pushHooks;
