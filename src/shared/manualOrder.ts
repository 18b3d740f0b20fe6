/**
 * How every device sorts a list in manual order (ARCHITECTURE §5 'Order'): by sort key, then uuid.
 * Apart from the keys' making (sortKey.ts) and the moves (order.ts), so a screen that only shows a
 * list in order does not load the fractional-index library with it.
 */

/** Orders two items by sort key (code units, not locale), then by uuid: every device agrees. */
export function compareBySortKey(
  a: { sort_key: string; uuid: string | null },
  b: { sort_key: string; uuid: string | null },
): number {
  if (a.sort_key !== b.sort_key) return a.sort_key < b.sort_key ? -1 : 1;
  const ua = a.uuid ?? '';
  const ub = b.uuid ?? '';
  return ua < ub ? -1 : ua > ub ? 1 : 0;
}

/**
 * A copy of `items` in manual order: by sort key (code units), ties by uuid, as every device sorts; a
 * row stored before the field (no key) reads as '' and comes first.
 */
export function inManualOrder<T extends { sort_key?: string | null; uuid?: string | null }>(
  items: readonly T[],
): T[] {
  return [...items].sort((a, b) =>
    compareBySortKey(
      { sort_key: a.sort_key ?? '', uuid: a.uuid ?? null },
      { sort_key: b.sort_key ?? '', uuid: b.uuid ?? null },
    ),
  );
}
