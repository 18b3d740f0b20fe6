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
import { type Narrowing, narrowing } from '../../../shared/filter/narrow';
import type { ViewSort } from '../../../shared/filter/views';
import { childrenOfAny } from '../store/childRows';
import { getMeta, LIST_INDEX, META_KEYS, type OutpostDb } from '../store/db';
import { mutualsOf, type StoredMutuals, samplesOf } from '../store/mutuals';
import type { LocalItem, Viewer } from '../store/types';

/**
 * Saved views and the filter page from the device (ARCHITECTURE §4 'Saved views and the filter
 * language'): the query evaluated by shared/filter over the viewer's items, read by the status or type
 * index where the query pins one (shared/filter/narrow.ts), then again only where the search log says
 * rows changed, so an item synced from another device shows at once and an edit costs its own rows.
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

/** A row of the device as the evaluator reads it (the counts its terms need from elsewhere added). */
function subjectOf(
  item: LocalItem,
  commentText: ReadonlyMap<number, string>,
  commentCount: ReadonlyMap<number, number>,
  fileCount: ReadonlyMap<number, number>,
): FilterItem {
  return {
    ...item,
    priority: pri(item),
    labels: item.labels ?? [],
    start_date: item.start_date ?? null,
    estimate_minutes: item.estimate_minutes ?? null,
    comments_count: commentCount.get(item.id) ?? item.comments_count ?? 0,
    files_count: fileCount.get(item.id) ?? 0,
    commentText: commentText.get(item.id) ?? '',
  };
}

/** The rows of `scope` a narrowing lets through, by index range (every row of the scope without one). */
function scopeRows(db: OutpostDb, scope: string, narrowed: Narrowing | null): Promise<LocalItem[]> {
  const range = (index: string, value: string) =>
    db.items.where(index).between([scope, value, Dexie.minKey], [scope, value, Dexie.maxKey]).toArray();
  if (!narrowed)
    return db.items
      .where(LIST_INDEX.status)
      .between([scope, Dexie.minKey, Dexie.minKey], [scope, Dexie.maxKey, Dexie.maxKey])
      .toArray();
  const index = narrowed.field === 'status' ? LIST_INDEX.status : LIST_INDEX.typeTab;
  return Promise.all(narrowed.values.map((value) => range(index, value))).then((parts) => parts.flat());
}

/**
 * The ancestors (parent, grandparent) of `rows` not among them: a narrowed read holds the items a
 * query may match, and `#Campaign` still needs each one's campaign.
 */
async function ancestorsOf(db: OutpostDb, rows: readonly LocalItem[]): Promise<LocalItem[]> {
  const known = new Set(rows.map((r) => r.id));
  const found: LocalItem[] = [];
  let level: readonly LocalItem[] = rows;
  for (let depth = 0; depth < 2; depth++) {
    const wanted = [...new Set(level.map((r) => r.parent_id))].filter(
      (id): id is number => typeof id === 'number' && id !== 0 && !known.has(id),
    );
    if (wanted.length === 0) break;
    const parents = (await db.items.bulkGet(wanted)).filter((r): r is LocalItem => r !== undefined);
    for (const p of parents) known.add(p.id);
    found.push(...parents);
    level = parents;
  }
  return found;
}

/**
 * What a live view kept of its last read (by database, then query): the matching rows and the search
 * log's last key when they were read. The next read takes only the rows the log names after it
 * (every write to `items`, in any tab, adds a log row in its own transaction: store/searchLog.ts), so
 * an edit costs the rows it changed, not a pass over every item (`npm run bench -- saved-view`).
 */
interface KeptMatches {
  seq: number;
  matched: ReadonlyMap<number, LocalItem>;
}
const kept = new WeakMap<OutpostDb, Map<string, KeptMatches>>();
/** Queries kept per database: the views open at once are few. */
const KEPT_QUERIES = 8;

/**
 * Whether a query's answer for an item depends on that item's row alone (and on its ancestors, which
 * `#Campaign` reads): comments, files and time live in other stores, whose writes the log does not name.
 */
function keptWorks(ast: FilterAst): boolean {
  return !uses(ast, (t) => t.kind === 'search' || t.kind === 'has' || t.kind === 'tracked');
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
  const wantsCampaign = uses(ast, (t) => t.kind === 'campaign');
  const people = await peopleFor(db, viewer);
  const context = (lookup: Iterable<LocalItem>): FilterContext => ({
    today,
    viewerId: viewer.userId,
    people,
    campaignOf: wantsCampaign ? campaignLookup(lookup) : () => null,
  });
  const done = (matched: Iterable<LocalItem>): ViewResult => {
    const list = [...matched].sort(BY[sort]);
    return { ok: true, items: list.slice(0, VIEW_ROWS_MAX), total: list.length };
  };
  const byQuery = kept.get(db) ?? new Map<string, KeptMatches>();
  kept.set(db, byQuery);
  const key = `${scope}|${viewer.userId}|${today}|${people.map((p) => `${p.id}:${p.name}`).join(',')}|${query}`;
  const before = keptWorks(ast) ? byQuery.get(key) : undefined;
  if (before) {
    const log = await db.searchLog.where(':id').above(before.seq).toArray();
    if (log.length === 0) return done(before.matched.values());
    const first = log[0]?.seq;
    const ids = new Set<number>();
    let whole = first !== before.seq + 1;
    for (const row of log) {
      if (row.range || !row.ids) whole = true;
      else for (const id of row.ids) ids.add(id);
    }
    if (!whole) {
      const rows = await db.items.bulkGet([...ids]);
      const live = rows.filter((r): r is LocalItem => r !== undefined);
      // A campaign renamed, moved or gone changes what `#Campaign` says of the rows under it, which
      // the write did not touch: a changed row that is anyone's parent sends the read back to all.
      const parentsChanged =
        wantsCampaign &&
        (live.some((r) => r.type !== 'todo') ||
          (await childrenOfAny(db.items, [...ids])
            .limit(1)
            .count()) > 0);
      if (!parentsChanged) {
        const lookup = wantsCampaign ? [...live, ...(await ancestorsOf(db, live))] : [];
        const ctx = context(lookup);
        const matched = new Map(before.matched);
        for (const id of ids) matched.delete(id);
        for (const row of live)
          if (
            row._scope === scope &&
            row._deleted !== 1 &&
            evaluate(ast, subjectOf(row, NONE, NONE, NONE), ctx)
          )
            matched.set(row.id, row);
        const seq = log.at(-1)?.seq ?? before.seq;
        if (seq > (byQuery.get(key)?.seq ?? 0)) byQuery.set(key, { seq, matched });
        return done(matched.values());
      }
    }
  }
  return readWhole(db, ast, scope, key, byQuery, context, done);
}

const NONE: ReadonlyMap<number, never> = new Map<number, never>();

/** The whole read: every row a narrowing lets through, judged by the evaluator, kept for the next read. */
async function readWhole(
  db: OutpostDb,
  ast: FilterAst,
  scope: string,
  key: string,
  byQuery: Map<string, KeptMatches>,
  context: (lookup: Iterable<LocalItem>) => FilterContext,
  done: (matched: Iterable<LocalItem>) => ViewResult,
): Promise<ViewResult> {
  const wantsComments = uses(ast, (t) => t.kind === 'search' || (t.kind === 'has' && t.what === 'comments'));
  const wantsFiles = uses(ast, (t) => t.kind === 'has' && t.what === 'files');
  const narrowed = narrowing(ast);
  // The log's last key first: a write after it is read again next time, never missed.
  const [lastSeq, items, comments, files] = await Promise.all([
    db.searchLog.orderBy(':id').lastKey() as Promise<number | undefined>,
    scopeRows(db, scope, narrowed),
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
  const wantsCampaign = uses(ast, (t) => t.kind === 'campaign');
  const lookup = wantsCampaign && narrowed ? [...items, ...(await ancestorsOf(db, items))] : items;
  const ctx = context(lookup);
  const matched = new Map<number, LocalItem>();
  for (const item of items)
    if (item._deleted !== 1 && evaluate(ast, subjectOf(item, commentText, commentCount, fileCount), ctx))
      matched.set(item.id, item);
  if (keptWorks(ast)) {
    byQuery.delete(key);
    if (byQuery.size >= KEPT_QUERIES) byQuery.delete(byQuery.keys().next().value as string);
    byQuery.set(key, { seq: lastSeq ?? 0, matched });
  }
  return done(matched.values());
}
