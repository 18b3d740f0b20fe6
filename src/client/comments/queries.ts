import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import type { Comment } from '../../shared/comments';
import { type HistoryEntry, historyChanges } from '../../shared/history';
import type { Paginated } from '../../shared/item';
import { useDoor } from '../app/door';
import { SERVER_LIST_KEY } from '../app/queryKeys';
import { type LiveQuery, useLive } from '../data/live';
import type { DeviceHistoryEntry, DeviceHistoryRow } from '../data/store/historyStore';
import type { LocalComment } from '../data/store/types';

/** Query keys of an item's timeline: server lists, so the door's change signal refetches them. */
export const historyKey = (itemId: number) => [SERVER_LIST_KEY, 'history', itemId] as const;
export const peopleKey = (itemId: number) => [SERVER_LIST_KEY, 'people', itemId] as const;

const nextPage = (last: Paginated<unknown>) =>
  last.current_page < last.last_page ? last.current_page + 1 : undefined;

/** An item's comments on the device, oldest first (SYNC.md K8): offline and for guests too. */
const deviceComments: LiveQuery<number, LocalComment[]> = (reads, itemId) => reads.comments(itemId);

const NONE: LocalComment[] = [];

/** Whether a stored comment is a create the server has not answered yet ('Pending sync'). */
export const isUnsent = (c: LocalComment) => c.id < 0 && c._syncStatus === 'pending' && !c._refused;

/** A comment the server refused to store (K20): kept on the device, shown 'Not sent', never counted. */
const isRefusedCreate = (c: LocalComment) => c.id < 0 && !!c._refused;

/** An item's comments as stored on the device, live: every write and pull shows at once. */
export function useDeviceComments(itemId: number): LocalComment[] | undefined {
  return useLive(deviceComments, itemId);
}

/**
 * An item's comments, oldest first, read live from the device (K8): the ones the server has or that
 * stay on the device (a guest's); a create still on its way is `usePendingComments`'s. `loaded` once
 * the device has answered; the device holds every comment, so there are no pages.
 */
export function useComments(itemId: number): { loaded: boolean; comments: Comment[]; total: number } {
  const stored = useDeviceComments(itemId);
  return useMemo(() => {
    const rows = stored ?? NONE;
    // Refused comments stay in place in the timeline (K20), but only stored ones are counted.
    const comments: Comment[] = rows.filter((c) => !isUnsent(c));
    const total = rows.filter((c) => !isUnsent(c) && !isRefusedCreate(c)).length;
    return { loaded: stored !== undefined, comments, total };
  }, [stored]);
}

/** A guest item's history on the device, oldest first (SYNC.md K19). */
const NO_HISTORY: DeviceHistoryEntry[] = [];

const NO_ROWS: DeviceHistoryRow[] = [];

const deviceHistory: LiveQuery<number | null, DeviceHistoryRow[]> = (reads, itemId) =>
  itemId === null ? NO_ROWS : reads.history(itemId);

/** A stored entry as the timeline reads it: changes by name (never ids), with what a restore plans from. */
export function toTimelineEntry(row: DeviceHistoryRow): DeviceHistoryEntry {
  return {
    id: row.id ?? 0,
    user: row.user,
    at: row.at,
    action: row.action,
    changes: historyChanges(row.metadata),
    metadata: row.metadata,
  };
}

/**
 * A guest's history of an item, read live from the device (K19): every change shows at once. Empty
 * for a signed-in reader, whose history is the server's (`useHistory`).
 */
export function useDeviceHistory(itemId: number, guest: boolean): DeviceHistoryEntry[] {
  const rows = useLive(deviceHistory, guest ? itemId : null);
  return useMemo(() => (rows ? rows.map(toTimelineEntry) : NO_HISTORY), [rows]);
}

/** An item's history, newest first, 20 entries a page. */
export function useHistory(itemId: number, enabled: boolean) {
  const { send } = useDoor();
  const query = useInfiniteQuery({
    queryKey: historyKey(itemId),
    queryFn: ({ pageParam, signal }) => send('comments.history', { itemId, page: pageParam, signal }),
    initialPageParam: 1,
    getNextPageParam: nextPage,
    enabled,
  });
  const entries: HistoryEntry[] = query.data?.pages.flatMap((p) => p.data) ?? [];
  return { query, entries };
}

/** Who sees the item: the people the composer's @ picker offers. */
export function usePeople(itemId: number, enabled: boolean) {
  const { send } = useDoor();
  return useQuery({
    queryKey: peopleKey(itemId),
    queryFn: ({ signal }) => send('comments.people', { itemId, signal }),
    enabled,
    staleTime: 60_000,
  }).data;
}

/** Whether the reader muted the item. */
export function useMuted(itemId: number, enabled: boolean) {
  const { send } = useDoor();
  return useQuery({
    queryKey: [SERVER_LIST_KEY, 'mute', itemId],
    queryFn: ({ signal }) => send('comments.muted', { itemId, signal }),
    enabled,
  }).data;
}
