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
 * one range is one. Chains Dexie promises only (the middlewares' rule, see topLevel.ts).
 */
export function getManyBySpan(
  table: DBCoreTable,
  trans: DBCoreTransaction,
  keys: readonly IndexableType[],
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
  const limit = keys.length * 2 + 50;
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
