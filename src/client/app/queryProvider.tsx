import { type QueryClient, QueryClientProvider, useQueryClient } from '@tanstack/react-query';
import { type ComponentType, useEffect } from 'react';
import { type Door, useDoor } from './door';
import { createQueryClient } from './queryClient';
import { SERVER_LIST_KEY } from './queryKeys';

let held = 0;

/**
 * Holds the change signal (an import of thousands moves the queue's count thousands of times): the
 * server lists refetch once, when the caller refreshes at the end, not per item (issue 29 P19).
 * Answers the release.
 */
export function holdDataChanges(): () => void {
  held++;
  let released = false;
  return () => {
    if (!released) held--;
    released = true;
  };
}

/**
 * The data changed: something local was written (the queue's count moved) or a sync run finished that
 * may have changed the server's side (a server `changed` event pulls, a push lands, the tab shows;
 * never a periodic run that found nothing, E8). Coalesced, so a burst of writes is one call; the
 * server-only lists refetch on it (below), like the live queries re-run on IndexedDB's changes.
 */
export function onDataChange(
  services: Pick<Door, 'syncStatus'>,
  listener: () => void,
  waitMs = 150,
): () => void {
  let timer: ReturnType<typeof setTimeout> | null = null;
  const off = services.syncStatus.subscribe((state, prev) => {
    if (state.pendingCount === prev.pendingCount && state.dataVersion === prev.dataVersion) return;
    if (held > 0) return;
    if (timer !== null) clearTimeout(timer);
    timer = setTimeout(() => {
      timer = null;
      listener();
    }, waitMs);
  });
  return () => {
    off();
    if (timer !== null) clearTimeout(timer);
  };
}

let client: QueryClient | null = null;

/** The page's one QueryClient: every screen shares its cache (auth mode, campaign pages, mutuals). */
export function appQueryClient(): QueryClient {
  client ??= createQueryClient();
  return client;
}

/**
 * Server lists follow the same change signal as the device's data: a local write (the queue's count
 * moves) or a finished sync run (a server `changed` event pulls) refetches the lists on screen and
 * marks the others stale, so a campaign just created shows on /campaigns without a remount.
 */
export function FollowDataChanges() {
  const services = useDoor();
  const queryClient = useQueryClient();
  useEffect(() => followOnce(services, queryClient), [services, queryClient]);
  return null;
}

/** Who follows the change signal for a QueryClient, and how many mounted parts asked for it. */
const followers = new Map<QueryClient, { count: number; stop: () => void }>();

/**
 * One subscription per QueryClient however many parts of a page mount FollowDataChanges (Preferences
 * has three): each invalidation refetches every server list on screen, so three of them asked the
 * server three times per change (E8). Answers the release.
 */
export function followOnce(services: Pick<Door, 'syncStatus'>, queryClient: QueryClient): () => void {
  let follower = followers.get(queryClient);
  if (!follower) {
    follower = {
      count: 0,
      stop: onDataChange(services, () => void queryClient.invalidateQueries({ queryKey: [SERVER_LIST_KEY] })),
    };
    followers.set(queryClient, follower);
  }
  follower.count++;
  let released = false;
  return () => {
    if (released) return;
    released = true;
    const current = followers.get(queryClient);
    if (!current || --current.count > 0) return;
    current.stop();
    followers.delete(queryClient);
  };
}

/**
 * A screen inside the app's QueryClient. Only the screens that read server-only data (sign-in,
 * onboarding, campaigns, contacts) are wrapped, so TanStack Query loads with them and never with
 * Home or the lists, which read the device.
 */
export function withQueryClient(Screen: ComponentType): ComponentType {
  return function WithQueryClient() {
    return (
      <QueryClientProvider client={appQueryClient()}>
        <FollowDataChanges />
        <Screen />
      </QueryClientProvider>
    );
  };
}
