/**
 * The one door's device half: live queries over IndexedDB and the local writes, for the feature
 * folders' queries.ts and mutations.ts (never for screens directly). The client is the one of the
 * services on screen (<ServicesProvider>): the page's, or a test's. Importing this module brings the
 * data layer's chunk with it, as every screen with items needs it right away.
 */

import Dexie, { liveQuery } from 'dexie';
import { useLiveQuery, useObservable } from 'dexie-react-hooks';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { useStore } from 'zustand';
import type { Item, ItemStatus, ItemType, Mutual, UserSummary } from '../../shared/item';
import type { SubtreeProgress } from '../../shared/progress';
import type { ItemCreateInput, ItemPatchInput } from '../../shared/schemas';
import { withLocalEcho } from '../data/changes/localEcho';
import { ValidationError } from '../data/changes/repositoryErrors';
import type { OutpostClient } from '../data/client';
import { mutualsOf, type StoredMutuals } from '../data/contacts/mutuals';
import { ApiError } from '../data/net/apiClient';
import type { SearchRow } from '../data/search/search';
import { getMeta, META_KEYS } from '../data/store/db';
import type { LocalItem } from '../data/store/types';
import { clientOf, pageServices } from './dataServices';
import { servicesLoaded, useServices } from './services';

export type { LocalItem };

/** The client of the services on screen; before the data layer has started, the page's own (made, not started). */
function useClient(): OutpostClient {
  const services = useServices();
  const client = servicesLoaded(services) ? clientOf(services) : undefined;
  return client ?? (clientOf(pageServices()) as OutpostClient);
}

export interface ViewerState {
  user: UserSummary;
  isGuest: boolean;
  online: boolean;
}

export function useViewer(): ViewerState {
  const c = useClient();
  const user = useStore(c.auth, (s) => s.user);
  const isGuest = useStore(c.auth, (s) => !s.isAuthenticated);
  const online = useStore(c.status, (s) => s.online);
  return { user, isGuest, online };
}

/**
 * Re-run live queries when the viewer changes (sign-in, sign-out), not only on writes; null until the
 * remembered account is restored, and the lists wait for it (a signed-in user never sees the guest's).
 */
function useViewerKey(c: OutpostClient): string | null {
  return useStore(c.auth, (s) => (s.restored ? `${s.isAuthenticated ? 'u' : 'g'}${s.user.id}` : null));
}

const NO_MUTUALS: Mutual[] = [];

/** Mutual contacts for the assignee pickers, from the device (kept fresh by the data layer); none for a guest. */
export function useMutuals(): Mutual[] {
  const c = useClient();
  const viewer = useViewer();
  const stored = useLiveQuery(() => getMeta<StoredMutuals>(c.db, META_KEYS.mutuals), [c]);
  return useMemo(
    () => (viewer.isGuest ? NO_MUTUALS : mutualsOf(stored, viewer.user.id)),
    [viewer.isGuest, viewer.user.id, stored],
  );
}

/** The local writes; each resolves once the change is stored on the device (and queued). */
export interface ItemWrites {
  create: (payload: ItemCreateInput) => Promise<LocalItem>;
  /**
   * Resolves with the item as stored after the write (and its immediate send, when there was one).
   * Writes sharing an undo `group` are undone together (one form's save).
   */
  update: (id: number, patch: ItemPatchInput, undo?: { group: string }) => Promise<LocalItem>;
  setStatus: (id: number, status: ItemStatus) => Promise<void>;
  assign: (id: number, userId: number, undo?: { group: string }) => Promise<void>;
  remove: (id: number) => Promise<void>;
}

export function useItemWrites(): ItemWrites {
  const c = useClient();
  return useMemo(
    () => ({
      create: (payload) => c.items.create(payload),
      update: (id, patch, undo) => c.items.update(id, patch, undo),
      setStatus: async (id, status) => {
        await c.items.changeStatus(id, status);
      },
      assign: async (id, userId, undo) => {
        await c.items.assign(id, userId, undo);
      },
      remove: async (id) => {
        await c.items.remove(id);
      },
    }),
    [c],
  );
}

/** A write the server or the local rules refused as invalid input (the spec's 'Invalid input' toast). */
export function isInvalidInput(error: unknown): boolean {
  return (error instanceof ApiError && error.status === 422) || error instanceof ValidationError;
}

/** The device's reads a live query may make (bound to the viewer). */
export type LocalReads = OutpostClient['queries'] & {
  /** One item (temporary ids resolved); null when it does not exist locally or is deleted. */
  item: (id: number) => Promise<LocalItem | null>;
  /** The children of an item, newest first. */
  children: (parentId: number) => Promise<LocalItem[]>;
  /** A page of the children of an item, oldest first, read by index from `after`. */
  childrenPage: (parentId: number, opts: { limit?: number; after?: LocalItem }) => Promise<LocalItem[]>;
  /** Progress of a campaign or task from its children (its maintained counters, one key read). */
  progress: (parentId: number) => Promise<{ total: number; completed: number }>;
  /** Titles of the given parents that are on the device, for 'in {parent}' on the rows on screen. */
  parentTitles: (ids: readonly number[]) => Promise<Map<number, string>>;
};

/** Every counter row of one parent (counters.ts, keyed [parent, scope]), for a live query to observe. */
function countersOf(db: OutpostClient['db'], parentId: number) {
  return db.counts
    .where('[parent+scope]')
    .between([parentId, Dexie.minKey], [parentId, Dexie.maxKey])
    .toArray();
}

/**
 * Starts the reads a query depends on before calling it. The data layer's itemById and childrenOf first
 * await a plain async helper (temporary-id resolution), and Dexie's live-query zone does not survive
 * that await: their own reads went unobserved and the screen never updated after a write. Reads
 * started synchronously here are observed, so Dexie re-runs the query when those rows change.
 */
function observe(reads: Promise<unknown>[]): Promise<unknown> {
  return Promise.all(reads);
}

function readsOf(c: OutpostClient): LocalReads {
  const { db, queries } = c;
  return {
    ...queries,
    item: (id) =>
      observe([db.items.get(id), db.meta.get('idAliases')]).then(() =>
        queries.itemById(id),
      ) as Promise<LocalItem | null>,
    children: (parentId) =>
      observe([db.items.where('parent_id').equals(parentId).toArray(), db.meta.get('idAliases')]).then(() =>
        queries.childrenOf(parentId),
      ),
    // A server or guest id needs no resolving: the query's own reads start at once and are observed
    // (a page of a task's 2,000 todos, not all of them). A temporary id is observed as `children` is.
    childrenPage: (parentId, opts) =>
      parentId >= 0
        ? queries.childrenOldestFirst(parentId, opts)
        : observe([db.items.where('parent_id').equals(parentId).toArray(), db.meta.get('idAliases')]).then(
            () => queries.childrenOldestFirst(parentId, opts),
          ),
    // A temporary id: its counters (whatever the scope) and the aliases are observed before resolving.
    progress: (parentId) =>
      parentId >= 0
        ? queries.progressFor(parentId)
        : observe([countersOf(db, parentId), db.meta.get('idAliases')]).then(() =>
            queries.progressFor(parentId),
          ),
    inside: (parentId) =>
      parentId >= 0
        ? queries.inside(parentId)
        : observe([countersOf(db, parentId), db.meta.get('idAliases')]).then(() => queries.inside(parentId)),
    parentTitles: async (ids) => {
      const map = new Map<number, string>();
      if (ids.length === 0) return map;
      for (const parent of await db.items.bulkGet([...ids])) {
        if (parent && parent._deleted === 0) map.set(parent.id, parent.title);
      }
      return map;
    },
  };
}

/**
 * A live query for the viewer: undefined until the remembered account is restored, re-run when the
 * viewer changes and whenever the rows it read change (in any tab). An edit in place on this device
 * shows before it commits (the local echo, src/client/data/changes/localEcho.ts).
 */
export function useLocal<T>(query: (reads: LocalReads) => Promise<T> | T, deps: unknown[]): T | undefined {
  const c = useClient();
  const key = useViewerKey(c);
  const reads = useMemo(() => readsOf(c), [c]);
  return useObservable(
    () =>
      withLocalEcho(
        liveQuery(() => (key === null ? undefined : query(reads))),
        c.echo,
      ),
    [...deps, key, reads],
  );
}

/**
 * How many rows a long list shows at first, and how many more each 'Show more' adds. Above ItemList's
 * windowing threshold (60), so a full page renders only the rows near the viewport.
 */
export const LIST_PAGE = 100;

export interface Paged<T> {
  /** The rows shown (the first pages), undefined while loading. */
  items: T[] | undefined;
  /** Whether rows beyond them exist. */
  more: boolean;
  showMore: () => void;
}

/**
 * A live list read a page at a time (by index, with a limit, see itemQueries.ts): the first LIST_PAGE
 * rows, a page more on each showMore. One row beyond the limit is asked for, so the screen knows
 * whether there is more without counting. Back to the first page whenever `deps` change.
 */
export function usePagedLocal<T>(
  query: (reads: LocalReads, limit: number) => Promise<T[] | undefined>,
  deps: unknown[],
): Paged<T> {
  const depsKey = JSON.stringify(deps);
  const [paging, setPaging] = useState({ key: depsKey, pages: 1 });
  const pages = paging.key === depsKey ? paging.pages : 1;
  const limit = pages * LIST_PAGE;
  const rows = useLocal((reads) => query(reads, limit + 1), [...deps, limit]);
  const showMore = useCallback(
    () => setPaging((p) => ({ key: depsKey, pages: (p.key === depsKey ? p.pages : 1) + 1 })),
    [depsKey],
  );
  return useMemo(
    () => ({
      items: rows === undefined ? undefined : rows.length > limit ? rows.slice(0, limit) : rows,
      more: rows !== undefined && rows.length > limit,
      showMore,
    }),
    [rows, limit, showMore],
  );
}

const NO_PROGRESS: ReadonlyMap<number, SubtreeProgress> = new Map();
const NO_TITLES: ReadonlyMap<number, string> = new Map();

/** The local parent titles of `items` (the rows on screen), live: what a row costs is its own parent. */
export function useParentTitles(items: readonly { parent_id: number | null }[]): ReadonlyMap<number, string> {
  const ids = [...new Set(items.map((i) => i.parent_id).filter((p): p is number => p !== null))].sort(
    (a, b) => a - b,
  );
  const key = ids.join(',');
  // The ids' text is the dependency: the same parents give the same key on every render.
  return useLocal((reads) => reads.parentTitles(ids), [key]) ?? NO_TITLES;
}

/** Progress through the subtree of each campaign and task among `items` (the rows on screen), live. */
export function useRowProgress(
  items: readonly { id: number; type: string }[],
): ReadonlyMap<number, SubtreeProgress> {
  const ids = items.filter((i) => i.type !== 'todo').map((i) => i.id);
  const key = ids.join(',');
  // The ids' text is the dependency: the same rows give the same key on every render.
  return useLocal((reads) => reads.subtreeProgress(ids), [key]) ?? NO_PROGRESS;
}

/** Tells the data layer once the screen shows what the device holds, so the server is asked after it. */
export function useShown<T>(value: T): T {
  const c = useClient();
  useEffect(() => {
    if (value !== undefined) c.screenShown();
  }, [value, c]);
  return value;
}

export interface SearchHit {
  id: number;
  type: ItemType;
  title: string;
  status: ItemStatus;
  parent_id: number | null;
  parentTitle: string | null;
  parentType: ItemType | null;
}

/** Search: the server's when signed in and online, the device's otherwise or when the server fails. */
export function useSearchItems(): (
  query: string,
  onFirstHits?: (hits: SearchHit[]) => void,
) => Promise<SearchHit[]> {
  const c = useClient();
  return useMemo(() => {
    const hitOf = (i: Item | SearchRow, parent: { title: string; type: ItemType } | null): SearchHit => ({
      id: i.id,
      type: i.type,
      title: i.title,
      status: i.status,
      parent_id: i.parent_id,
      parentTitle: parent?.title ?? null,
      parentType: parent?.type ?? null,
    });
    /** The hits at once when every parent came with its item (the device's answer), else after one read. */
    const hitsOf = (found: readonly (Item | SearchRow)[]): SearchHit[] | Promise<SearchHit[]> => {
      const missing = found
        .filter((i) => i.parent_id !== null && !i.parent)
        .map((i) => i.parent_id as number);
      if (missing.length === 0) return found.map((i) => hitOf(i, i.parent ?? null));
      return c.db.items.bulkGet(missing).then((rows) => {
        const parents = new Map<number, { title: string; type: ItemType }>();
        for (const p of rows) if (p) parents.set(p.id, { title: p.title, type: p.type });
        return found.map((i) =>
          hitOf(i, i.parent ?? (i.parent_id !== null ? parents.get(i.parent_id) : undefined) ?? null),
        );
      });
    };
    return async (query, onFirstHits) => {
      // The device's hits, when the server is asked too, show while its answer is on the way: in
      // the same task when they can, before the request to the server is started.
      let first: Promise<void> = Promise.resolve();
      let local: readonly (Item | SearchRow)[] | null = null;
      let localHits: SearchHit[] | Promise<SearchHit[]> = [];
      const found = await c.search(
        query,
        undefined,
        onFirstHits
          ? (rows) => {
              local = rows;
              localHits = hitsOf(rows);
              if (Array.isArray(localHits)) onFirstHits(localHits);
              else first = localHits.then(onFirstHits);
            }
          : undefined,
      );
      await first;
      // The server failed and the device's answer stands: the same hits, not a copy to render again.
      return found === local ? localHits : hitsOf(found);
    };
  }, [c]);
}
