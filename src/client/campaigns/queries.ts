import { keepPreviousData, useInfiniteQuery, useQuery } from '@tanstack/react-query';
import type { Item, Paginated } from '../../shared/item';
import { SERVER_LIST_KEY } from '../app/queryKeys';
import { useServices } from '../app/services';
import { type LocalItem, useHomeItems, useViewer } from '../items/queries';

/** The spec's local page size for guests and offline use. */
export const LOCAL_PAGE_SIZE = 20;

export const ACTIVITY_STALE_MS = 30_000;

export interface CampaignPageState {
  status: 'loading' | 'error' | 'ready';
  page: Paginated<Item | LocalItem> | null;
  refetch: () => void;
}

/**
 * One page of campaigns: the server's pages when signed in and online, otherwise local pages of 20
 * from the device, so guests and offline users page the same way. The server's pages are a server
 * list: the door's change signal refetches them (queryProvider), like the device's live queries.
 */
export function useCampaignPage(page: number): CampaignPageState {
  const viewer = useViewer();
  const { server } = useServices();
  const fromServer = !viewer.isGuest && viewer.online;
  const query = useQuery({
    queryKey: [SERVER_LIST_KEY, 'campaigns', viewer.user.id, page],
    queryFn: ({ signal }) => server.campaignPage(page, signal),
    enabled: fromServer,
    placeholderData: keepPreviousData,
  });
  const local = useHomeItems('campaign');

  if (fromServer) {
    if (query.isError && !query.data)
      return { status: 'error', page: null, refetch: () => void query.refetch() };
    if (!query.data) return { status: 'loading', page: null, refetch: () => void query.refetch() };
    return { status: 'ready', page: query.data, refetch: () => void query.refetch() };
  }
  if (local === undefined) return { status: 'loading', page: null, refetch: () => {} };
  const lastPage = Math.max(1, Math.ceil(local.length / LOCAL_PAGE_SIZE));
  const current = Math.min(Math.max(1, page), lastPage);
  return {
    status: 'ready',
    page: {
      data: local.slice((current - 1) * LOCAL_PAGE_SIZE, current * LOCAL_PAGE_SIZE),
      current_page: current,
      last_page: lastPage,
      per_page: LOCAL_PAGE_SIZE,
      total: local.length,
    },
    refetch: () => {},
  };
}

/**
 * A campaign's activity, page by page from the server (a server list, refreshed by the door's change
 * signal). Guests and campaigns that only exist on this device have no server history: no request.
 */
export function useCampaignActivity(campaignId: number) {
  const viewer = useViewer();
  const { server } = useServices();
  const enabled = !viewer.isGuest && campaignId > 0;
  const query = useInfiniteQuery({
    queryKey: [SERVER_LIST_KEY, 'activity', campaignId],
    queryFn: ({ pageParam, signal }) => server.activity(campaignId, pageParam, signal),
    initialPageParam: 1,
    getNextPageParam: (last) => (last.current_page < last.last_page ? last.current_page + 1 : undefined),
    staleTime: ACTIVITY_STALE_MS,
    enabled,
  });
  return { enabled, query };
}
