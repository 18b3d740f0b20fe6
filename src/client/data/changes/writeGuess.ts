/**
 * A write's guess of what it replaces (SYNC.md W9). An edit in place must start from the row as
 * stored, and reading it first costs the write a round trip to IndexedDB before it can put anything.
 * A tab that has just read or written the row usually knows it already, and the queue's last seq with
 * it. The write then puts at once from that guess and, in the same transaction, reads the stored row
 * and the last seq as they were before its put (requests run in the order they were made); when they
 * differ from the guess it aborts, so nothing of it is stored, and is made again from a fresh read.
 * The check and its abort are ./staleGuess.ts (the write path's alone, so the reads load none of it).
 */
import type { LocalItem } from '../store/types';

/** The rows a tab remembers; the oldest fall out first. */
const KEEP = 500;

/** What one tab's writes have last seen: rows by id, and the highest queue seq. */
export interface WriteGuesses {
  /** The row as this tab last read or stored it, if it remembers one. */
  row(id: number): LocalItem | undefined;
  /** The highest queue seq this tab has read or written (undefined before its first look). */
  lastSeq(): number | undefined;
  /** Remembers rows as stored (read in a transaction, or just committed). */
  sawRows(rows: readonly LocalItem[]): void;
  /** Remembers the queue's last seq as read or written. */
  sawSeq(seq: number): void;
  /** Forgets a row (its write failed, or it was removed). */
  forget(id: number): void;
}

const byDb = new WeakMap<object, WriteGuesses>();

/** The memory of the writes this tab makes to one database (each client opens its own). */
export function writeGuessesOf(db: object): WriteGuesses {
  let guesses = byDb.get(db);
  if (!guesses) {
    guesses = createWriteGuesses();
    byDb.set(db, guesses);
  }
  return guesses;
}

/** An empty memory for one tab's writes. */
export function createWriteGuesses(): WriteGuesses {
  const rows = new Map<number, LocalItem>();
  let seq: number | undefined;
  return {
    row: (id) => rows.get(id),
    lastSeq: () => seq,
    sawRows(list) {
      for (const row of list) {
        rows.delete(row.id);
        rows.set(row.id, row);
      }
      while (rows.size > KEEP) rows.delete(rows.keys().next().value as number);
    },
    sawSeq(value) {
      seq = Math.max(seq ?? 0, value);
    },
    forget(id) {
      rows.delete(id);
    },
  };
}
