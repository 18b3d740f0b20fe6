/**
 * A write whose guess of the stored row turned out wrong (SYNC.md W9, ./writeGuess.ts): the check and
 * the abort. Only the write path loads it; the reads, which remember rows for the writes, do not.
 */
import { sameRecord } from '../../../shared/sameRecord';
import { LIST_KEY_FIELDS } from '../store/listKeys';
import type { LocalItem } from '../store/types';

/** Thrown inside a write's transaction when the stored row or the queue is not what it guessed. */
export class StaleGuess extends Error {
  constructor() {
    super('the stored row changed since this tab last saw it');
  }
}

/** Whether an error is (or wraps, as Dexie may) the stale-guess abort. */
export function isStaleGuess(error: unknown): boolean {
  return (
    error instanceof StaleGuess ||
    (typeof error === 'object' &&
      error !== null &&
      (error as { inner?: unknown }).inner instanceof StaleGuess)
  );
}

const derived: ReadonlySet<string> = new Set(LIST_KEY_FIELDS);

/**
 * Whether the stored row is the guessed one: every field alike but the list keys, which the store
 * derives from the others at each put (store/listKeys.ts).
 */
export function sameStoredRow(stored: LocalItem, guess: LocalItem): boolean {
  return sameRecord(stored, guess, derived);
}
