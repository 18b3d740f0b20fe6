/**
 * ARCHITECTURE §6 'Children of an item are declared once': `src/client/data/sync/` keeps an item's
 * children through the declarations (src/shared/itemChildren.ts), so it names no feature's store and
 * no queue field of one kind. A sync module (not its tests) is a problem where its code (comments
 * aside) names:
 * - a child kind's store, or a feature's own store (the file store), as `db.<store>` or any
 *   `.<store>`, as an object's key, or in quotes: that code belongs to the feature, or to
 *   sync/children.ts's loops over the declarations, or to the store layer's lists (store/db.ts
 *   OWNED_STORES);
 * - a queue field of one child kind (`commentId`, `timeEntry`, `attachment`: rows name their child by
 *   `child` since version 21) or a feature store's constant (`FILE_BLOBS_STORE`), as any identifier,
 *   property or string of that one name (a word in a message is not code naming it).
 */
import { FILE_BLOBS_STORE } from '../../src/client/data/store/fileBlobs';
import { QUEUE_CHILD_FIELDS_V20 } from '../../src/client/data/store/queueChildFieldsV20';
import { ITEM_CHILD_STORES } from '../../src/shared/itemChildren';

/** What sync/ never names: stores (by name) and identifiers. */
export interface SyncForbidden {
  stores: readonly string[];
  identifiers: readonly string[];
}

/** Every child kind's store and the file store; the queue fields of one kind and the file store's constant. */
export const SYNC_FORBIDDEN: SyncForbidden = {
  stores: [...ITEM_CHILD_STORES, FILE_BLOBS_STORE],
  identifiers: [...Object.keys(QUEUE_CHILD_FIELDS_V20), 'FILE_BLOBS_STORE'],
};

/** Whether `file` is one of sync/'s own modules (its tests may name any store). */
function isSyncModule(file: string): boolean {
  return /^src\/client\/data\/sync\/[^/]+\.tsx?$/.test(file) && !/\.test\.tsx?$/.test(file);
}

/**
 * `text` with its comments blanked, every line where it was: a block comment's text becomes spaces, a
 * line comment goes to the line's end. A `//` after a colon or a quote is taken for a URL's, not a
 * comment (good enough for the sync modules, which a lint reads, not a compiler).
 */
export function withoutComments(text: string): string {
  return text
    .replace(/\/\*[\s\S]*?\*\//g, (comment) => comment.replace(/[^\n]/g, ' '))
    .replace(/(^|[^:'"`\\])\/\/.*$/gm, '$1');
}

/**
 * `code` with the text of its quoted strings blanked, but a string that is one name (`'comments'`,
 * `'commentId'`): a word in a message or a URL is not code naming it. Template literals stay as they
 * are (their `${…}` is code).
 */
export function withoutProse(code: string): string {
  return code.replace(/(['"])((?:\\.|(?!\1)[^\\\n])*)\1/g, (whole, quote: string, body: string) =>
    /^[\w$]*$/.test(body) ? whole : `${quote}${' '.repeat(body.length)}${quote}`,
  );
}

const escaped = (name: string) => name.replace(/[$]/g, '\\$');

/** The lines of `text` (a file at `file`) where a sync module names a child kind's store or field, or a feature store. */
export function syncChildrenProblems(
  file: string,
  text: string,
  forbidden: SyncForbidden = SYNC_FORBIDDEN,
): string[] {
  if (!isSyncModule(file)) return [];
  const code = withoutProse(withoutComments(text));
  const lineOf = (index: number) => code.slice(0, index).split('\n').length;
  const problems: string[] = [];
  for (const store of forbidden.stores) {
    const named = new RegExp(`\\.\\s*${store}(?![\\w$])|^\\s*${store}\\s*:|(['"\`])${store}\\1`, 'gm');
    for (const match of code.matchAll(named)) {
      problems.push(
        `${file}:${lineOf(match.index)} names the '${store}' store: sync/ keeps an item's children through src/shared/itemChildren.ts (sync/children.ts) and the stores of features through the store layer's lists`,
      );
    }
  }
  for (const name of forbidden.identifiers) {
    const named = new RegExp(`(?<![\\w$])${escaped(name)}(?![\\w$])`, 'g');
    for (const match of code.matchAll(named)) {
      problems.push(
        `${file}:${lineOf(match.index)} names '${name}', a queue field of one child kind or a feature store's constant: a queue row names its child by \`child\` (src/shared/itemChildren.ts queueKey), and sync/ reaches a feature's store through the store layer's lists`,
      );
    }
  }
  return problems;
}
