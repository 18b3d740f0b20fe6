/**
 * The one place the feature screens meet the data layer (src/client/data, src/client/stores), so a
 * change there touches one file here. Tests swap the client with `useOutpostClientForTests`.
 */

import { useLiveQuery } from 'dexie-react-hooks';
import { useEffect, useMemo } from 'react';
import { useStore } from 'zustand';
import type { ItemStatus, ItemType, Mutual, UserSummary } from '../../shared/item';
import type { ItemCreateInput, ItemPatchInput } from '../../shared/schemas';
import type { ApiClient } from '../data/apiClient';
import { getOutpostClient, type OutpostClient } from '../data/client';
import { getMeta, META_KEYS } from '../data/db';
import { mutualsOf, type StoredMutuals } from '../data/mutuals';
import type { LocalItem } from '../data/types';

export type { LocalItem };

let override: OutpostClient | null = null;

/** Points the screens at another client (component tests make one on fake-indexeddb). */
export function setOutpostClientForTests(client: OutpostClient | null): void {
  override = client;
}

function client(): OutpostClient {
  return override ?? getOutpostClient();
}

export interface ViewerState {
  user: UserSummary;
  isGuest: boolean;
  online: boolean;
}

export function useViewer(): ViewerState {
  const c = client();
  const user = useStore(c.auth, (s) => s.user);
  const isGuest = useStore(c.auth, (s) => !s.isAuthenticated);
  const online = useStore(c.status, (s) => s.online);
  return { user, isGuest, online };
}

/**
 * Re-run live queries when the viewer changes (sign-in, sign-out), not only on writes; null until the
 * remembered account is restored, and the lists wait for it (a signed-in user never sees the guest's).
 */
function useViewerKey(): string | null {
  const c = client();
  return useStore(c.auth, (s) => (s.restored ? `${s.isAuthenticated ? 'u' : 'g'}${s.user.id}` : null));
}

const NO_MUTUALS: Mutual[] = [];

/** Mutual contacts for the assignee pickers, from the device (kept fresh by the data layer); none for a guest. */
export function useMutuals(): Mutual[] {
  const c = client();
  const viewer = useViewer();
  const stored = useLiveQuery(() => getMeta<StoredMutuals>(c.db, META_KEYS.mutuals), [c]);
  return useMemo(
    () => (viewer.isGuest ? NO_MUTUALS : mutualsOf(stored, viewer.user.id)),
    [viewer.isGuest, viewer.user.id, stored],
  );
}

export function createItem(payload: ItemCreateInput): Promise<LocalItem> {
  return client().items.create(payload);
}
export async function updateItem(id: number, patch: ItemPatchInput): Promise<void> {
  await client().items.update(id, patch);
}
export async function setItemStatus(id: number, status: ItemStatus): Promise<void> {
  await client().items.setStatus(id, status);
}
export async function assignItem(id: number, userId: number): Promise<void> {
  await client().items.assign(id, userId);
}
export async function deleteItem(id: number): Promise<void> {
  await client().items.remove(id);
}

/** A live query for the viewer: undefined until the remembered account is restored, re-run when the viewer changes. */
function useViewerQuery<T>(query: () => Promise<T> | T, deps: unknown[]): T | undefined {
  const key = useViewerKey();
  return useLiveQuery(() => (key === null ? undefined : query()), [...deps, key]);
}

/** Tells the client once the screen shows what the device holds, so the server is asked after it. */
function useShown<T>(value: T): T {
  useEffect(() => {
    if (value !== undefined) client().screenShown();
  }, [value]);
  return value;
}

export type ListTab = 'all' | ItemType;
export type LifecycleScreen = 'queue' | 'active' | 'completed';

const SCREEN_STATUS = { queue: 'pending', active: 'in_progress', completed: 'completed' } as const;

/** Home: 'all' is orphans newest first; a type tab is every item of that type, newest first. */
export function useHomeList(tab: ListTab): LocalItem[] | undefined {
  return useShown(useViewerQuery(() => client().queries.homeItems(tab), [tab]));
}

/** Queue/Active/Completed: the spec's visibility (created by or assigned to me) and sort orders. */
export function useScreenList(screen: LifecycleScreen, tab: ListTab, text: string): LocalItem[] | undefined {
  return useShown(
    useViewerQuery(() => client().queries.screenItems(screen, tab, { search: text }), [screen, tab, text]),
  );
}

/** My List: items I created, per lifecycle tab, filtered by the search text. */
export function useMyList(screen: LifecycleScreen, text: string): LocalItem[] | undefined {
  return useShown(
    useViewerQuery(
      () => client().queries.myListItems(SCREEN_STATUS[screen], { search: text }),
      [screen, text],
    ),
  );
}

const EMPTY_TITLES: ReadonlyMap<number, string> = new Map();

/** Titles of every local campaign and task, for 'in {parent}' on rows. */
export function useParentTitles(): ReadonlyMap<number, string> {
  return (
    useViewerQuery(async () => {
      const map = new Map<number, string>();
      await client()
        .db.items.where('type')
        .anyOf('campaign', 'task')
        .each((i) => {
          if (i._deleted === 0) map.set(i.id, i.title);
        });
      return map;
    }, []) ?? EMPTY_TITLES
  );
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

/** One item, live; null when it does not exist locally (or is deleted), undefined while loading. */
export function useItem(id: number): LocalItem | null | undefined {
  return useShown(
    useViewerQuery(() => {
      if (id === 0) return null;
      const { db, queries } = client();
      return observe([db.items.get(id), db.meta.get('idAliases')]).then(() => queries.itemById(id));
    }, [id]),
  );
}

/** The children of an item, newest first, live. */
export function useChildren(parentId: number): LocalItem[] | undefined {
  return useViewerQuery(() => {
    const { db, queries } = client();
    return observe([db.items.where('parent_id').equals(parentId).toArray(), db.meta.get('idAliases')]).then(
      () => queries.childrenOf(parentId),
    );
  }, [parentId]);
}

/** Every local campaign, newest first (the campaign list's guest/offline paging source). */
export function useLocalCampaigns(): LocalItem[] | undefined {
  return useHomeList('campaign');
}

/** The data layer's HTTP client, for the server-only reads (campaign pages, activity). */
export function useApi(): ApiClient {
  return client().api;
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

/** Server search when signed in and online, local search otherwise or when the server fails. */
export async function searchItems(query: string): Promise<SearchHit[]> {
  const c = client();
  const found = await c.search(query);
  const missing = found.filter((i) => i.parent_id !== null && !i.parent).map((i) => i.parent_id as number);
  const parents = new Map<number, { title: string; type: ItemType }>();
  if (missing.length > 0) {
    for (const p of await c.db.items.bulkGet(missing))
      if (p) parents.set(p.id, { title: p.title, type: p.type });
  }
  return found.map((i) => {
    const parent = i.parent ?? (i.parent_id !== null ? parents.get(i.parent_id) : undefined) ?? null;
    return {
      id: i.id,
      type: i.type,
      title: i.title,
      status: i.status,
      parent_id: i.parent_id,
      parentTitle: parent?.title ?? null,
      parentType: parent?.type ?? null,
    };
  });
}
