import { useServices } from '../app/services';

/** Marks entries read (some, or all without ids); resolves once the device shows them read. */
export function useMarkRead(): (ids?: number[]) => Promise<void> {
  const { notifications } = useServices();
  return (ids) => notifications.markRead(ids);
}

/** Loads the next page of older entries. */
export function useLoadMore(): () => Promise<void> {
  const { notifications } = useServices();
  return () => notifications.loadMore();
}

/** Turns Web Push on (asking for permission) or off for this browser. */
export function usePushToggle() {
  const { notifications } = useServices();
  return { enable: () => notifications.enablePush(), disable: () => notifications.disablePush() };
}
