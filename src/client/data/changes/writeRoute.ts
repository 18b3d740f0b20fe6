/**
 * The one place that chooses how a local write goes to IndexedDB (ARCHITECTURE §6 'One place chooses
 * a write's route'). Every write is Dexie's by default: its transaction, its table calls, and the
 * store's middleware adding the side effects (list keys, flags, counters, search log). A faster route
 * is taken only where a bench showed it pays on a budgeted figure (bench/localWrites.ts B: a title
 * edit at 10,000 items until the list shows it), and only while Dexie's internals are usable
 * (store/dexieInternals.ts: the known Dexie version, plain-Dexie mode off): a raw route must tell
 * Dexie's live queries what it changed, which only its internals allow.
 *
 * What they earn on B (`npm run bench -- local-writes --pull-pairs 0 --edit-pairs 40`, with
 * `--no-own-transaction` and `--plain-dexie`, the three alternated, 3 rounds, a machine at load ~20 on
 * 2 cores; median ratio app/reference per round): every route 1.99×, 2.14×, 2.12×; without
 * 'ownRawTransaction' 2.27×, 2.35×, 2.32×; plain Dexie 2.47×, 3.14×, 2.56×. Each route wins every
 * round against the next; the budget is 2×.
 */
import { touchesGuestRows } from '../store/deviceHistory';
import type { LocalItem } from '../store/types';

/** How a local write goes to IndexedDB. */
export type WriteRoute =
  /** Dexie's table calls in the caller's Dexie transaction; the store's middleware adds the side effects. */
  | 'dexie'
  /**
   * An edit in place of one row: the row with its side effects' rows (its list keys and carried flag,
   * a search log row), its queue row and its undo record, one raw request each in the caller's Dexie
   * transaction, each marking what it changed for the live queries (store/rawWrites.ts).
   */
  | 'rawInTransaction'
  /**
   * An edit in place of one row made from the tab's guess (W9) before any transaction: one raw
   * read-write transaction of its own, the guess's checks and the writes all issued at once
   * (applyInPlaceEdit in changes/applyLocalChange.ts).
   */
  | 'ownRawTransaction';

/**
 * What the route of a change depends on that the change itself says: its plan's facts (an item edit's
 * come from items/itemPlan.ts `planEdit`), or for a change given as rows alone, `changeFactsOf` them.
 */
export interface ChangeFacts {
  /** Item rows put. */
  rows: number;
  /** Item ids removed. */
  removed: number;
  /** Whether the write records a guest's history beside it (SYNC.md K19). */
  guestHistory: boolean;
  /**
   * Whether the write is made from the tab's guess of the row (W9) with nothing else to read first: a
   * server or guest id (not a temporary one to resolve), no roll-up, no assignee looked up, no rule
   * checked. False for a write made inside its transaction from what it read there.
   */
  fromGuess: boolean;
}

/** What the route of one local write depends on: the change's facts, and where and how it is stored. */
export interface WriteFacts extends ChangeFacts {
  /** Whether Dexie's internals are usable (dexieInternals() answers them). */
  internals: boolean;
  /**
   * Where the write is made: in a Dexie read-write transaction holding the stores an edit in place
   * writes (items, counts, search log, queue, undo), in another transaction, or in none yet.
   */
  transaction: 'holdsStores' | 'other' | 'none';
  /**
   * Whether the one row put is an edit in place: its writer named the stored row it replaces, and no
   * top-level flag or counter moves (a title, a date, an order among the same siblings). The store
   * says so (store/sideEffects.ts inPlacePut), as it is the store's flags and counters that must not move.
   */
  inPlace: boolean;
}

/** The facts of a change given as rows: what it puts and removes, and whether it queues a request. */
export function changeFactsOf(
  rows: readonly LocalItem[],
  removed: readonly number[],
  queues: boolean,
  fromGuess = false,
): ChangeFacts {
  return {
    rows: rows.length,
    removed: removed.length,
    guestHistory: touchesGuestRows(rows, removed, queues),
    fromGuess,
  };
}

let ownRoute = true;
/**
 * Off, 'ownRawTransaction' is never chosen and such an edit goes 'rawInTransaction': what the bench's
 * `local-writes --no-own-transaction` measures that route against.
 */
export function setOwnRawTransaction(on: boolean): void {
  ownRoute = on;
}

/** The route of one local write (a table test, writeRoute.test.ts, states it for each kind of change). */
export function chooseWriteRoute(facts: WriteFacts): WriteRoute {
  if (!facts.internals) return 'dexie';
  const oneEditInPlace = facts.rows === 1 && facts.removed === 0 && facts.inPlace;
  if (!oneEditInPlace) return 'dexie';
  if (facts.transaction === 'holdsStores') return 'rawInTransaction';
  if (ownRoute && facts.transaction === 'none' && facts.fromGuess && !facts.guestHistory)
    return 'ownRawTransaction';
  return 'dexie';
}
