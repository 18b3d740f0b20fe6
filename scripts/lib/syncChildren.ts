/**
 * ARCHITECTURE §6 'Children of an item are declared once': `src/client/data/sync/` keeps an item's
 * children through the declarations (src/shared/itemChildren.ts), so it names no feature's store. A
 * sync module (not its tests) that names a child kind's store (as `db.<store>` or any `.<store>`, as
 * an object's key, or in quotes) is a problem: that code belongs to the feature, or to
 * sync/children.ts's loops.
 */
import { ITEM_CHILD_STORES } from '../../src/shared/itemChildren';

/** Whether `file` is one of sync/'s own modules (its tests may name any store). */
function isSyncModule(file: string): boolean {
  return /^src\/client\/data\/sync\/[^/]+\.tsx?$/.test(file) && !/\.test\.tsx?$/.test(file);
}

/** The lines of `text` (a file at `file`) where a sync module names a child kind's store. */
export function syncChildrenProblems(
  file: string,
  text: string,
  stores: readonly string[] = ITEM_CHILD_STORES,
): string[] {
  if (!isSyncModule(file)) return [];
  const problems: string[] = [];
  for (const store of stores) {
    const named = new RegExp(`\\.\\s*${store}(?![\\w$])|^\\s*${store}\\s*:|(['"\`])${store}\\1`, 'gm');
    for (const match of text.matchAll(named)) {
      const line = text.slice(0, match.index).split('\n').length;
      problems.push(
        `${file}:${line} names the '${store}' store: sync/ keeps an item's children through src/shared/itemChildren.ts (sync/children.ts)`,
      );
    }
  }
  return problems;
}
