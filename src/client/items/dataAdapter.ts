/**
 * The one place the feature screens meet the data layer (src/client/data, src/client/stores), so a
 * change there touches one file here.
 */
import type { ItemStatus, ItemType, Mutual, UserSummary } from '../../shared/item';
import type { ItemCreateInput, ItemPatchInput } from '../../shared/schemas';
import type { LocalItem } from '../data/types';

export interface ViewerState {
  user: UserSummary;
  isGuest: boolean;
  online: boolean;
}

const GUEST: UserSummary = { id: 0, name: 'Guest User', phone: '', created_at: '', updated_at: '' };

export function useViewer(): ViewerState {
  return { user: GUEST, isGuest: true, online: false };
}

export function useMutuals(): Mutual[] {
  return EMPTY;
}
const EMPTY: Mutual[] = [];

export async function createItem(_payload: ItemCreateInput): Promise<LocalItem> {
  throw new Error('data layer not wired yet');
}
export async function updateItem(_id: number, _patch: ItemPatchInput): Promise<void> {
  throw new Error('data layer not wired yet');
}
export async function setItemStatus(_id: number, _status: ItemStatus): Promise<void> {
  throw new Error('data layer not wired yet');
}
export async function assignItem(_id: number, _userId: number): Promise<void> {
  throw new Error('data layer not wired yet');
}
export async function deleteItem(_id: number): Promise<void> {
  throw new Error('data layer not wired yet');
}

export type ListTab = 'all' | ItemType;
export type LifecycleScreen = 'queue' | 'active' | 'completed';

/** Home: 'all' is orphans newest first; a type tab is every item of that type, newest first. */
export function useHomeList(_tab: ListTab): LocalItem[] | undefined {
  return undefined;
}

/** Queue/Active/Completed: the spec's visibility (created by or assigned to me) and sort orders. */
export function useScreenList(
  _screen: LifecycleScreen,
  _tab: ListTab,
  _text: string,
): LocalItem[] | undefined {
  return undefined;
}

/** My List: items I created, per lifecycle tab, filtered by the search text. */
export function useMyList(_screen: LifecycleScreen, _text: string): LocalItem[] | undefined {
  return undefined;
}

/** Titles of every local campaign and task, for 'in {parent}' on rows. */
export function useParentTitles(): ReadonlyMap<number, string> {
  return EMPTY_TITLES;
}
const EMPTY_TITLES: ReadonlyMap<number, string> = new Map();

/** One item, live; null when it does not exist locally (or is deleted), undefined while loading. */
export function useItem(_id: number): LocalItem | null | undefined {
  return undefined;
}

/** The children of an item, newest first, live. */
export function useChildren(_parentId: number): LocalItem[] | undefined {
  return undefined;
}
