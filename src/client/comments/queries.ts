import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import type { Comment } from '../../shared/comments';
import type { HistoryEntry } from '../../shared/history';
import type { Paginated } from '../../shared/item';
import { useDoor } from '../app/door';
import { SERVER_LIST_KEY } from '../app/queryKeys';

/** Query keys of an item's timeline: server lists, so the door's change signal refetches them. */
export const commentsKey = (itemId: number) => [SERVER_LIST_KEY, 'comments', itemId] as const;
export const historyKey = (itemId: number) => [SERVER_LIST_KEY, 'history', itemId] as const;

const nextPage = (last: Paginated<unknown>) =>
  last.current_page < last.last_page ? last.current_page + 1 : undefined;

/** An item's comments, oldest first, a page of 50 at a time. */
export function useComments(itemId: number, enabled: boolean) {
  const { send } = useDoor();
  const query = useInfiniteQuery({
    queryKey: commentsKey(itemId),
    queryFn: ({ pageParam, signal }) => send('comments.list', { itemId, page: pageParam, signal }),
    initialPageParam: 1,
    getNextPageParam: nextPage,
    enabled,
  });
  const comments: Comment[] = query.data?.pages.flatMap((p) => p.data) ?? [];
  return { query, comments, total: query.data?.pages[0]?.total ?? 0 };
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
    queryKey: [SERVER_LIST_KEY, 'people', itemId],
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
