/**
 * Whether this process wrote entries that wait for a push since the outbox last looked. Set inside
 * the writing transaction, read after the commit: without it, every commit on every instance would
 * cost the outbox a query, also for the many users who never subscribed to push.
 */
export const outboxSignal = { pending: false };
