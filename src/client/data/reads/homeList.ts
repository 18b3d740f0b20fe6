import Dexie, { type ObservabilitySet } from 'dexie';
import { byCreatedDesc } from '../../../shared/sort';
import { HOME_INDEX, type OutpostDb } from '../store/db';
import { keysOfPart } from '../store/mutatedParts';
import type { LocalItem, Viewer } from '../store/types';

/**
 * Home's All list kept in memory per database and scope, patched with the rows each committed change
 * names instead of re-read whole. With tens of thousands of top-level items a re-read costs hundreds
 * of milliseconds; a patch reads the changed rows only.
 *
 * A live query calls homeAll: it reads one row of the table with values over the whole primary key
 * range, so Dexie re-runs it after any write to items (this tab's or another's); the run then reads
 * the rows named since the last run (Dexie's 'storagemutated', the same signal store/queueCounts.ts follows) and
 * answers the same array when none of them is on the list. A change that names a range (clear, a
 * range delete) reads the list again.
 */

type Scope = 'guest' | 'account';

interface ScopeList {
  /** Newest first (src/shared/sort.ts 'home'); replaced, never changed in place, once handed out. */
  rows: LocalItem[];
  byId: Map<number, LocalItem>;
}

interface HomeState {
  lists: Partial<Record<Scope, ScopeList>>;
  dirty: Set<number>;
  rebuild: boolean;
  /** One patch or read at a time; a run arriving meanwhile waits for it, then looks again. */
  busy: Promise<unknown> | null;
}

const MAX_DIRTY = 5_000;
const states = new WeakMap<OutpostDb, HomeState>();

const scopeOf = (viewer: Viewer): Scope => (viewer.isGuest ? 'guest' : 'account');
const statusesOf = (scope: Scope): LocalItem['_syncStatus'][] =>
  scope === 'guest' ? ['local'] : ['pending', 'synced'];
const onList = (item: LocalItem | undefined, scope: Scope): item is LocalItem =>
  !!item && item._top === 1 && item._deleted !== 1 && statusesOf(scope).includes(item._syncStatus);

/** Home's All rows of one sync status, in the index's order (oldest created first). */
export function topRange(db: OutpostDb, status: LocalItem['_syncStatus']) {
  return db.items.where(HOME_INDEX).between([status, 1, Dexie.minKey], [status, 1, Dexie.maxKey], true, true);
}

/** Merges lists already newest first into one. */
export function mergeNewestFirst(lists: LocalItem[][]): LocalItem[] {
  if (lists.length === 1) return lists[0]!;
  const [a = [], b = []] = lists;
  const out: LocalItem[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) out.push(byCreatedDesc(a[i]!, b[j]!) <= 0 ? a[i++]! : b[j++]!);
  while (i < a.length) out.push(a[i++]!);
  while (j < b.length) out.push(b[j++]!);
  return out;
}

function stateOf(db: OutpostDb): HomeState {
  let state = states.get(db);
  if (state) return state;
  const created: HomeState = { lists: {}, dirty: new Set(), rebuild: true, busy: null };
  state = created;
  const itemsPart = `idb://${db.name}/items/`;
  const onMutated = (parts: ObservabilitySet) => {
    const part = parts[itemsPart];
    if (!part || part.d === 0) return;
    const keys = keysOfPart(part);
    if (keys === null || created.dirty.size + keys.length > MAX_DIRTY) {
      created.rebuild = true;
      created.dirty.clear();
      return;
    }
    for (const key of keys) if (typeof key === 'number') created.dirty.add(key);
  };
  Dexie.on('storagemutated', onMutated);
  db.on('close', () => {
    Dexie.on('storagemutated').unsubscribe(onMutated);
    states.delete(db);
  });
  states.set(db, created);
  return created;
}

/** Index of `item` in a newest-first list, or where it would go. */
function positionOf(rows: LocalItem[], item: LocalItem): number {
  let low = 0;
  let high = rows.length;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if (byCreatedDesc(rows[mid]!, item) < 0) low = mid + 1;
    else high = mid;
  }
  return low;
}

async function readList(db: OutpostDb, scope: Scope): Promise<ScopeList> {
  const lists = await Promise.all(statusesOf(scope).map((s) => topRange(db, s).toArray()));
  const rows = mergeNewestFirst(lists.map((l) => l.reverse().filter((i) => i._deleted !== 1)));
  return { rows, byId: new Map(rows.map((r) => [r.id, r])) };
}

function patch(list: ScopeList, changed: readonly (LocalItem | undefined)[], keys: number[], scope: Scope) {
  let rows: LocalItem[] | null = null;
  keys.forEach((id, n) => {
    const before = list.byId.get(id);
    const after = changed[n];
    const stays = onList(after, scope);
    if (!before && !stays) return;
    rows ??= list.rows.slice();
    if (before) {
      const at = positionOf(rows, before);
      if (rows[at]?.id === id) rows.splice(at, 1);
      else
        rows.splice(
          rows.findIndex((r) => r.id === id),
          1,
        );
      list.byId.delete(id);
    }
    if (stays) {
      rows.splice(positionOf(rows, after), 0, after);
      list.byId.set(id, after);
    }
  });
  if (rows) list.rows = rows;
}

/** Home's All list for the viewer's scope, newest first; the same array while nothing on it changed. */
export async function homeAll(db: OutpostDb, viewer: Viewer): Promise<LocalItem[]> {
  const state = stateOf(db);
  const scope = scopeOf(viewer);
  // Any write to items re-runs the caller's live query (see the top of this file).
  await db.items.limit(1).toArray();
  for (;;) {
    if (state.busy) {
      await state.busy.catch(() => undefined);
      continue;
    }
    if (state.rebuild) {
      state.rebuild = false;
      state.dirty.clear();
      state.lists = {};
    }
    const list = state.lists[scope];
    if (!list) {
      const reading = readList(db, scope);
      state.busy = reading;
      try {
        state.lists[scope] = await reading;
      } catch (error) {
        state.rebuild = true;
        throw error;
      } finally {
        state.busy = null;
      }
      continue;
    }
    if (state.dirty.size > 0) {
      const keys = [...state.dirty];
      state.dirty.clear();
      const reading = db.items.bulkGet(keys);
      state.busy = reading;
      try {
        const changed = await reading;
        for (const s of Object.keys(state.lists) as Scope[]) patch(state.lists[s]!, changed, keys, s);
      } catch (error) {
        state.rebuild = true;
        throw error;
      } finally {
        state.busy = null;
      }
      continue;
    }
    return list.rows;
  }
}
