import { type IndexableType, type IntervalTree, RangeSet } from 'dexie';

/** Keys named by a mutated part (a Dexie RangeSet tree), or null when it holds a range (clear, bulk writes). */
export function keysOfPart(part: IntervalTree | undefined): IndexableType[] | null {
  if (!part || part.d === 0) return [];
  const keys: IndexableType[] = [];
  for (const node of RangeSet(part)) {
    if (node.from !== node.to) return null;
    keys.push(node.from);
  }
  return keys;
}
