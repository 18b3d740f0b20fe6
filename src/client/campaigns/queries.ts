import { keepPreviousData, useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { localHistory } from '../../shared/activity';
import { type Item, type Paginated, paginated } from '../../shared/item';
import type { SubtreeProgress } from '../../shared/progress';
import { useDoor } from '../app/door';
import { SERVER_LIST_KEY } from '../app/queryKeys';
import { type LiveQuery, useLive } from '../data/live';
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
  const { send } = useDoor();
  const fromServer = !viewer.isGuest && viewer.online;
  const query = useQuery({
    queryKey: [SERVER_LIST_KEY, 'campaigns', viewer.user.id, page],
    queryFn: ({ signal }) => send('server.campaignPage', { page, signal }),
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
    page: paginated(
      local.slice((current - 1) * LOCAL_PAGE_SIZE, current * LOCAL_PAGE_SIZE),
      current,
      LOCAL_PAGE_SIZE,
      local.length,
    ),
    refetch: () => {},
  };
}

/** A campaign's local history: 'created' and 'completed' of it and everything under it. */
const localActivityQuery: LiveQuery<
  { campaignId: number; local: boolean; actor: { id: number; name: string } },
  ReturnType<typeof localHistory>
> = async (reads, { campaignId, local, actor }) => {
  if (!local) return [];
  const root = await reads.item(campaignId);
  if (!root) return [];
  const children = await reads.children(root.id);
  const grandchildren = await Promise.all(
    children.filter((c) => c.type !== 'todo').map((c) => reads.children(c.id)),
  );
  return localHistory([root, ...children, ...grandchildren.flat()], actor);
};

const campaignProgressQuery: LiveQuery<number[], Map<number, SubtreeProgress>> = async (reads, ids) => {
  const all = await reads.subtreeProgress(ids);
  return new Map([...all].filter(([, progress]) => progress.total > 0));
};

/** Where the feed comes from: the server's pages, or the device's own history (guests). */
export type ActivitySource = 'server' | 'local';

/**
 * A campaign's activity. Signed in: page by page from the server (a server list, refreshed by the
 * door's change signal), kept for the whole session so offline still shows what was last loaded, not
 * asked for while offline, and asked again as soon as the connection returns. Guests and campaigns
 * that only exist on this device have no server history: a local one from what the device holds
 * ('created' and 'completed' of the campaign and everything under it).
 */
export function useCampaignActivity(campaignId: number) {
  const viewer = useViewer();
  const { send } = useDoor();
  const source: ActivitySource = !viewer.isGuest && campaignId > 0 ? 'server' : 'local';
  const query = useInfiniteQuery({
    queryKey: [SERVER_LIST_KEY, 'activity', campaignId],
    queryFn: ({ pageParam, signal }) => send('server.activity', { campaignId, page: pageParam, signal }),
    initialPageParam: 1,
    getNextPageParam: (last) => (last.current_page < last.last_page ? last.current_page + 1 : undefined),
    staleTime: ACTIVITY_STALE_MS,
    gcTime: Number.POSITIVE_INFINITY,
    enabled: source === 'server' && viewer.online,
  });
  const { refetch } = query;
  const wasOnline = useRef(viewer.online);
  useEffect(() => {
    if (viewer.online && !wasOnline.current && source === 'server') void refetch();
    wasOnline.current = viewer.online;
  }, [viewer.online, source, refetch]);
  const actor = viewer.isGuest ? { id: 0, name: 'You' } : viewer.user;
  const local = useLive(localActivityQuery, {
    campaignId,
    local: source === 'local',
    actor: { id: actor.id, name: actor.name },
  });
  return { source, online: viewer.online, query, local };
}

/**
 * Progress through the whole subtree of each of `ids` (the campaigns on the page), from their
 * maintained counters (one key read each, never every task and todo on the device), live; a campaign
 * with nothing inside has no entry (no progress line). Undefined while loading.
 */
export function useCampaignProgress(
  ids: readonly number[],
): ReadonlyMap<number, SubtreeProgress> | undefined {
  return useLive(campaignProgressQuery, [...ids]);
}
