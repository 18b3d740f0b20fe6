import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { Item, Paginated } from '../../shared/item';
import { type LocalItem, useApi, useLocalCampaigns, useViewer } from '../items/dataAdapter';

/** The spec's local page size for guests and offline use. */
export const LOCAL_PAGE_SIZE = 20;

export interface CampaignPageState {
  status: 'loading' | 'error' | 'ready';
  page: Paginated<Item | LocalItem> | null;
  refetch: () => void;
}

/**
 * One page of campaigns: the server's pages (react-query) when signed in and online, otherwise local
 * pages of 20 from IndexedDB, so guests and offline users page the same way.
 */
export function useCampaignPage(page: number): CampaignPageState {
  const viewer = useViewer();
  const api = useApi();
  const fromServer = !viewer.isGuest && viewer.online;
  const query = useQuery({
    queryKey: ['campaigns', 'page', viewer.user.id, page],
    queryFn: async ({ signal }) =>
      (await api.get<Paginated<Item>>(`/items?type=campaign&page=${page}`, { signal })).data,
    enabled: fromServer,
    placeholderData: keepPreviousData,
  });
  const local = useLocalCampaigns();

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
