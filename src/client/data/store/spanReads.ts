import { cmp, type DBCoreTable, type DBCoreTransaction, type IndexableType } from 'dexie';

/** Below this many keys, one read per key costs less than a range read. */
const SPAN_MIN = 8;

const keyText = (key: IndexableType) => (typeof key === 'number' ? String(key) : JSON.stringify(key));

function primaryKeyOf(table: DBCoreTable, value: Record<string, unknown>): IndexableType {
  const path = table.schema.primaryKey.keyPath;
  if (Array.isArray(path)) return path.map((p) => value[p]) as IndexableType;
  return value[path as string] as IndexableType;
}

/**
 * The stored values of `keys` (in order; undefined where none) in one bounded range read when few
 * other rows lie between the smallest and the largest key, else one read per key. A pulled page's
 * rows name hundreds of parents and counters; IndexedDB answers each get as its own request, and
 * one range is one. Chains Dexie promises only (the side effects' rule, see topFlags.ts).
 */
export function getManyBySpan(
  table: DBCoreTable,
  trans: DBCoreTransaction,
  keys: readonly IndexableType[],
  /**
   * Rows the range may read per key wanted before one read per key is cheaper: 2 for items (about a
   * kilobyte each); small rows (the counters) are cheap to read in passing, so a wider span pays.
   */
  perKey = 2,
): Promise<unknown[]> {
  if (keys.length < SPAN_MIN || table.schema.primaryKey.outbound)
    return table.getMany({ trans, keys: [...keys] });
  let low = keys[0]!;
  let high = keys[0]!;
  for (const key of keys) {
    if (cmp(key, low) < 0) low = key;
    if (cmp(key, high) > 0) high = key;
  }
  // At most this many rows are read; more in the span means the keys are spread: read each.
  const limit = keys.length * perKey + 50;
  // Keys that bound how many rows their span can hold (integer ids, [id, scope] counters) and say it
  // holds too many are read one by one at once, not after a range read of `limit` rows thrown away.
  const most = mostRowsBetween(low, high);
  if (most !== undefined && most > limit) return table.getMany({ trans, keys: [...keys] });
  return table
    .query({
      trans,
      values: true,
      limit: limit + 1,
      query: {
        index: table.schema.primaryKey,
        range: { type: 2, lower: low, upper: high, lowerOpen: false, upperOpen: false },
      },
    })
    .then((res) => {
      if (res.result.length > limit) return table.getMany({ trans, keys: [...keys] });
      const byKey = new Map<string, unknown>();
      for (const value of res.result as Record<string, unknown>[])
        byKey.set(keyText(primaryKeyOf(table, value)), value);
      return keys.map((key) => byKey.get(keyText(key)));
    });
}

/** Scopes a counter key ([parent, scope]) can have under one parent (counters.ts: 'g' and 'a'). */
const SCOPES_PER_PARENT = 2;

/**
 * The most rows a primary-key range from `low` to `high` can hold, when the keys say it: integer ids
 * (each id once), or [integer, scope] pairs; undefined for any other key.
 */
export function mostRowsBetween(low: IndexableType, high: IndexableType): number | undefined {
  if (Number.isInteger(low) && Number.isInteger(high)) return (high as number) - (low as number) + 1;
  if (Array.isArray(low) && Array.isArray(high)) {
    const [a] = low as unknown[];
    const [b] = high as unknown[];
    if (Number.isInteger(a) && Number.isInteger(b))
      return ((b as number) - (a as number) + 1) * SCOPES_PER_PARENT;
  }
  return undefined;
}
