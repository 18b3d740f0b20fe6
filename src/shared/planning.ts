/**
 * The planning fields every item carries (ARCHITECTURE §4 'Planning fields'): `priority`, `labels`
 * and `sort_key` (§5 'Order', see ./sortKey.ts). Zod-free, so the client's first screen and the
 * server's SQL helpers can use the rules without loading the schemas.
 */
import { ITEM_FIELDS } from './itemFields';
import { isBlankText } from './text';

/** p1 is the most urgent, p4 (the default) is no priority at all, as in Todoist. */
export const PRIORITIES = [1, 2, 3, 4] as const;
export type Priority = (typeof PRIORITIES)[number];
export const DEFAULT_PRIORITY = ITEM_FIELDS.priority.default as Priority;

/** A stored priority as a Priority: a row from before the field (or out of range) reads as p4. */
export function asPriority(n: number | null | undefined): Priority {
  return PRIORITIES.find((p) => p === n) ?? DEFAULT_PRIORITY;
}

export const LABELS_MAX = 10;
export const LABEL_MAX_LENGTH = 40;
/** Characters a label may not hold: quick add reads `#parent` and `@person`, and CSV and filters split on commas. */
export const LABEL_FORBIDDEN = /[#@,]/;

/**
 * What a row stored before the fields existed reads as on the device (the server backfills its own):
 * the field registry's defaults (./itemFields).
 */
export const PLANNING_DEFAULTS = {
  priority: DEFAULT_PRIORITY,
  labels: ITEM_FIELDS.labels.default as readonly string[],
  sort_key: ITEM_FIELDS.sort_key.default,
} as const;

/** Why a label (already trimmed) may not be stored, or null when it may. */
export function labelProblem(label: string): string | null {
  // Nothing but invisible characters is as empty as nothing (K27).
  if (isBlankText(label)) return 'A label cannot be empty.';
  if ([...label].length > LABEL_MAX_LENGTH) return `A label must be ${LABEL_MAX_LENGTH} characters or less.`;
  if (LABEL_FORBIDDEN.test(label)) return 'A label cannot contain #, @ or a comma.';
  return null;
}

/** The first label that repeats an earlier one ignoring case ('Work' and 'work'), or null. */
export function repeatedLabel(labels: readonly string[]): string | null {
  const seen = new Set<string>();
  for (const label of labels) {
    const key = labelKey(label);
    if (seen.has(key)) return label;
    seen.add(key);
  }
  return null;
}

/** How labels compare (without case): the same key on the server (lower()) and every device. */
export function labelKey(label: string): string {
  return label.toLowerCase();
}

/**
 * Whether two field values are the same: labels are lists, compared element by element (in order,
 * as written), so an unchanged list is not a change; everything else by identity.
 */
export function sameFieldValue(a: unknown, b: unknown): boolean {
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((v, i) => v === b[i]);
  return a === b;
}

/**
 * A list of labels as a PostgreSQL array literal (`{"a","b c"}`), for a `::text[]` parameter: the
 * SQL builder would spread a JS array into a list of parameters, and labels may hold quotes,
 * backslashes, braces and spaces, which the literal quotes.
 */
export function textArrayLiteral(values: readonly string[]): string {
  return `{${values.map((v) => `"${v.replace(/["\\]/g, (c) => `\\${c}`)}"`).join(',')}}`;
}
