import Dexie from 'dexie';
import {
  campaignLookup,
  evaluate,
  type FilterAst,
  type FilterContext,
  type FilterError,
  type FilterItem,
  type FilterPerson,
  parse,
} from '../../../shared/filter';
import type { View, ViewSort } from '../../../shared/filter/views';
import { getMeta, LIST_INDEX, META_KEYS, type OutpostDb } from '../store/db';
import { mutualsOf, type StoredMutuals, samplesOf } from '../store/mutuals';
import type { LocalItem, Viewer } from '../store/types';

/**
 * Saved views and the filter page from the device (ARCHITECTURE §4 'Saved views and the filter
 * language'): the query evaluated by shared/filter over every item of the viewer's scope, read once per
 * change (no index answers an arbitrary query), so an item synced from another device shows at once.
 */

/** What a query finds: the matching items in the view's order, or why it does not parse. */
export type ViewResult = { ok: true; items: LocalItem[]; total: number } | { ok: false; error: FilterError };

/** The most rows one read hands the screen (the windowed list shows them; the count says the rest). */
export const VIEW_ROWS_MAX = 2000;

function uses(ast: FilterAst, test: (term: FilterAst) => boolean): boolean {
  if (test(ast)) return true;
  if (ast.kind === 'not') return uses(ast.term, test);
  if (ast.kind === 'and' || ast.kind === 'or') return uses(ast.left, test) || uses(ast.right, test);
  return false;
}

const pri = (i: LocalItem): number => i.priority ?? 4;
const BY: Record<ViewSort, (a: LocalItem, b: LocalItem) => number> = {
  due: (a, b) =>
    (a.due_date ?? '9999') < (b.due_date ?? '9999')
      ? -1
      : (a.due_date ?? '9999') > (b.due_date ?? '9999')
        ? 1
        : pri(a) - pri(b),
  priority: (a, b) => pri(a) - pri(b) || ((a.due_date ?? '9999') < (b.due_date ?? '9999') ? -1 : 1),
  title: (a, b) => a.title.localeCompare(b.title),
  manual: (a, b) =>
    (a.sort_key ?? '') < (b.sort_key ?? '') ? -1 : (a.sort_key ?? '') > (b.sort_key ?? '') ? 1 : 0,
};

/** The people a query's names may mean: the viewer, the mutual contacts and the sample users. */
async function peopleFor(db: OutpostDb, viewer: Viewer): Promise<FilterPerson[]> {
  const [stored, users] = await Promise.all([
    getMeta<StoredMutuals>(db, META_KEYS.mutuals),
    db.users.toArray(),
  ]);
  const byId = new Map<number, FilterPerson>();
  for (const u of users) byId.set(u.id, { id: u.id, name: u.name });
  for (const m of [...mutualsOf(stored, viewer.userId), ...samplesOf(stored, viewer.userId)])
    byId.set(m.id, { id: m.id, name: m.name });
  return [...byId.values()];
}

/** The items of the viewer's scope matching `query` on `today`, ordered by `sort`. */
export async function viewItems(
  db: OutpostDb,
  viewer: Viewer,
  query: string,
  today: string,
  sort: ViewSort,
): Promise<ViewResult> {
  const parsed = parse(query);
  if (!parsed.ok) return { ok: false, error: parsed.error };
  const ast = parsed.ast;
  const scope = viewer.isGuest ? 'g' : 'a';
  const wantsComments = uses(ast, (t) => t.kind === 'search' || (t.kind === 'has' && t.what === 'comments'));
  const wantsFiles = uses(ast, (t) => t.kind === 'has' && t.what === 'files');
  const [items, people, comments, files] = await Promise.all([
    db.items
      .where(LIST_INDEX.status)
      .between([scope, Dexie.minKey, Dexie.minKey], [scope, Dexie.maxKey, Dexie.maxKey])
      .toArray(),
    peopleFor(db, viewer),
    wantsComments ? db.comments.toArray() : [],
    wantsFiles ? db.attachments.toArray() : [],
  ]);
  const commentText = new Map<number, string>();
  const commentCount = new Map<number, number>();
  for (const c of comments) {
    if (c._deleted === 1) continue;
    commentText.set(c.item_id, `${commentText.get(c.item_id) ?? ''}\n${c.body}`);
    commentCount.set(c.item_id, (commentCount.get(c.item_id) ?? 0) + 1);
  }
  const fileCount = new Map<number, number>();
  for (const f of files) if (f._deleted !== 1) fileCount.set(f.item_id, (fileCount.get(f.item_id) ?? 0) + 1);
  const context: FilterContext = {
    today,
    viewerId: viewer.userId,
    people,
    campaignOf: campaignLookup(items),
  };
  const matched = items.filter((item) => {
    if (item._deleted === 1) return false;
    const subject: FilterItem = {
      ...item,
      priority: pri(item),
      labels: item.labels ?? [],
      start_date: item.start_date ?? null,
      estimate_minutes: item.estimate_minutes ?? null,
      comments_count: commentCount.get(item.id) ?? item.comments_count ?? 0,
      files_count: fileCount.get(item.id) ?? 0,
      commentText: commentText.get(item.id) ?? '',
    };
    return evaluate(ast, subject, context);
  });
  matched.sort(BY[sort]);
  return { ok: true, items: matched.slice(0, VIEW_ROWS_MAX), total: matched.length };
}

/** The saved views the device keeps (the list last fetched), by name. */
export async function savedViews(db: OutpostDb, _viewer: Viewer): Promise<View[]> {
  const views = await db.views.toArray();
  return views.sort((a, b) => a.name.localeCompare(b.name) || a.id - b.id);
}
