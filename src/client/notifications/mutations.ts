import { useCommand } from '../app/door';

/** Marks entries read (some, or all without ids); resolves once the device shows them read. */
export const useMarkRead = () => useCommand('notifications.markRead');

/** Loads the next page of older entries. */
export const useLoadMore = () => useCommand('notifications.loadMore');

/** Turns Web Push on (asking for permission) or off for this browser. */
export function usePushToggle() {
  return { enable: useCommand('notifications.enablePush'), disable: useCommand('notifications.disablePush') };
}
