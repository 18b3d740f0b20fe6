/**
 * The one module that touches Dexie's private internals (ARCHITECTURE §6 'One place chooses a
 * write's route'; the boundary check finds their names nowhere else). The faster routes of a write or
 * a read (raw IndexedDB requests beside Dexie's, store/rawWrites.ts and store/rawReads.ts, and the
 * replaced rows a put names, store/replacedRows.ts) must tell Dexie's live queries what Dexie's own
 * calls would, and Dexie keeps that in fields it does not publish:
 *
 * - `mutatedParts` on an IDBTransaction: the ranges by `idb://db/store/index` its observability layer
 *   collects from a read-write transaction's writes, fired to the live queries when it commits;
 * - `PSD.subscr` on Dexie's promise zone: the ranges a running live query has observed so far;
 * - `_deps.IDBKeyRange` on a Dexie instance: the IDBKeyRange of the IndexedDB it opened (tests bring
 *   an in-memory one);
 * - `_cache` on a DBCore transaction: the values a put replaces, which its observability layer
 *   compares with the new ones to mark only the index keys that moved;
 * - `_explicit` on an IDBTransaction: whether its commit updates Dexie's query cache.
 *
 * They were read from Dexie 4.4.7 (package.json). On any other version, when a field is not where it
 * was, or when plain-Dexie mode is on (tests: OUTPOST_PLAIN_DEXIE=1, read by testkit/plainDexie.ts;
 * the bench: `local-writes --plain-dexie`), `dexieInternals()` answers null and every route is plain
 * Dexie's: its own transaction, table calls and middleware. Nothing then depends on a private field.
 */
import Dexie, { type DBCoreTransaction, mergeRanges, type RangeSet } from 'dexie';

/** The Dexie version whose internals this module was written against. */
export const KNOWN_DEXIE_VERSION = '4.4.7';

/** Ranges by `idb://db/store/index` (what a live query observed, what a transaction changed). */
export type ObservedRanges = Record<string, RangeSet>;

/** What the faster routes need of Dexie's internals. */
export interface DexieInternals {
  /** Adds `ranges` to what `idb` (a Dexie read-write transaction) changed, as its observability layer would. */
  markChanged(idb: IDBTransaction, part: string, ranges: RangeSet): void;
  /**
   * What adds ranges to what the live query running now observed (kept for a read's answer, which
   * comes outside its zone); null outside a live query.
   */
  liveObserver(): ((part: string, ranges: RangeSet) => void) | null;
  /** The IDBKeyRange of the IndexedDB `db` opened; null when it is not where it was. */
  keyRangeOf(db: Dexie): typeof IDBKeyRange | null;
  /** Names `values` (in the order of `keys`) as the rows the next put of `keys` in `trans` replaces. */
  nameReplaced(trans: DBCoreTransaction, keys: readonly unknown[], values: readonly unknown[]): void;
  /** What `idb` changed, as markChanged and Dexie's own writes marked it; undefined: nothing. */
  changedBy(idb: IDBTransaction): ObservedRanges | undefined;
  /** Marks `idb`, made through db.core, as explicit: its commit then updates Dexie's query cache. */
  markExplicit(idb: IDBTransaction): void;
}

interface LiveZone {
  subscr?: ObservedRanges;
}

/**
 * Adds `ranges` to `parts[part]`, as Dexie merges: a record's ranges may be plain trees, so never
 * added to in place.
 */
function addRanges(parts: ObservedRanges, part: string, ranges: RangeSet): void {
  const known = parts[part];
  if (known) mergeRanges(known, ranges);
  else parts[part] = ranges;
}

function zone(): LiveZone | undefined {
  return (Dexie.Promise as unknown as { PSD?: LiveZone }).PSD;
}

const internals: DexieInternals = {
  markChanged(idb, part, ranges) {
    const observed = idb as unknown as { mutatedParts?: ObservedRanges };
    const parts = observed.mutatedParts ?? {};
    observed.mutatedParts = parts;
    addRanges(parts, part, ranges);
  },
  liveObserver() {
    const subscr = zone()?.subscr;
    return subscr ? (part, ranges) => addRanges(subscr, part, ranges) : null;
  },
  keyRangeOf(db) {
    const deps = (db as unknown as { _deps?: { IDBKeyRange?: typeof IDBKeyRange } })._deps;
    return deps?.IDBKeyRange ?? null;
  },
  nameReplaced(trans, keys, values) {
    (trans as unknown as { _cache?: unknown })._cache = { keys, values };
  },
  changedBy: (idb) => (idb as unknown as { mutatedParts?: ObservedRanges }).mutatedParts,
  markExplicit(idb) {
    (idb as unknown as { _explicit?: boolean })._explicit = true;
  },
};

/** Whether the running Dexie is the one these internals were read from, with its zone where it was. */
export function internalsFit(semVer: string | undefined, hasZone: boolean): boolean {
  return semVer === KNOWN_DEXIE_VERSION && hasZone;
}

let plain = false;
const fits = internalsFit(
  (Dexie as unknown as { semVer?: string }).semVer,
  typeof (Dexie.Promise as unknown as { PSD?: unknown }).PSD === 'object',
);

/** Plain-Dexie mode: on, no route touches Dexie's internals (the tests' second run, the bench's --plain-dexie). */
export function setPlainDexie(on: boolean): void {
  plain = on;
}

/** Dexie's internals, or null when plain Dexie it must be (another version, a field missing, plain-Dexie mode). */
export function dexieInternals(): DexieInternals | null {
  return plain || !fits ? null : internals;
}
