/**
 * Label rules the screens share (ARCHITECTURE §4 'Planning fields'): labels compare without case
 * (planning.ts labelKey), so matching, adding and counting all go through the key, while the name
 * shown is the one first written. Zod-free: the rows and the list screens use these on the first
 * screen.
 */
import { labelKey } from './planning';

/** Whether an item carries `label` (compared without case); a row without labels carries none. */
export function hasLabel(item: { labels?: readonly string[] | null }, label: string): boolean {
  const key = labelKey(label.trim());
  return (item.labels ?? []).some((l) => labelKey(l) === key);
}

/** The labels without `label` (compared without case). */
export function withoutLabel(labels: readonly string[], label: string): string[] {
  const key = labelKey(label);
  return labels.filter((l) => labelKey(l) !== key);
}

export interface LabelCount {
  /** As first written on the first item that carries it. */
  name: string;
  count: number;
}

/**
 * The labels that occur in a list's items with how many carry each, by name (ignoring case): the
 * chips under a list's search box.
 */
export function countLabels(items: Iterable<{ labels?: readonly string[] | null }>): LabelCount[] {
  const counts = new Map<string, LabelCount>();
  for (const item of items) {
    for (const label of item.labels ?? []) {
      const key = labelKey(label);
      const seen = counts.get(key);
      if (seen) seen.count += 1;
      else counts.set(key, { name: label, count: 1 });
    }
  }
  return [...counts.values()].sort((a, b) => {
    const x = labelKey(a.name);
    const y = labelKey(b.name);
    return x < y ? -1 : x > y ? 1 : 0;
  });
}

/** The items carrying `label`, or all of them when no label is chosen. */
export function filterByLabel<T extends { labels?: readonly string[] | null }>(
  items: readonly T[],
  label: string | null,
): readonly T[] {
  return label === null ? items : items.filter((i) => hasLabel(i, label));
}

/** The path of a label's page (/labels/{name}), its name encoded as a path segment. */
export function labelHref(label: string): string {
  return `/labels/${encodeURIComponent(label)}`;
}
