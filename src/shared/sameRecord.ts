/**
 * Whether two JSON-like values hold the same data: the device's rows as IndexedDB stores them and an
 * item as the server sends it are compared so (a pulled row the device holds already is not written
 * again, SYNC.md L12; an edit's guess is checked against the stored row, W9). Key order does not
 * count, nor does a key present with `undefined` against one absent (neither survives JSON, nor a
 * structured clone into IndexedDB as a difference the app reads).
 */

/** Whether `a` and `b` are the same JSON-like value (deep; key order aside; undefined alike absent). */
export function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!sameJson(a[i], b[i])) return false;
    return true;
  }
  return sameRecord(a, b);
}

/** Whether two records hold the same values (as sameJson), but for the keys in `skip`. */
export function sameRecord(a: object, b: object, skip?: ReadonlySet<string>): boolean {
  const x = a as Record<string, unknown>;
  const y = b as Record<string, unknown>;
  for (const key of Object.keys(x)) if (!skip?.has(key) && !sameJson(x[key], y[key])) return false;
  // Keys only `b` has: the same only while undefined (x[key] is then undefined too).
  for (const key of Object.keys(y)) if (!skip?.has(key) && !(key in x) && y[key] !== undefined) return false;
  return true;
}
