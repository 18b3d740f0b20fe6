import type { SyncStatusStore } from '../../stores/syncStatusStore';

/** Each finished sync run is a moment the server is reachable: stale mutuals are refreshed then. */
export const mutualsService = {
  name: 'mutuals',
  start: ({
    status,
    updateMutuals,
  }: {
    status: SyncStatusStore;
    /** See service.ts ServiceContext.updateMutuals. */
    updateMutuals: () => Promise<void>;
  }): (() => void) =>
    status.subscribe((state, prev) => {
      if (state.lastSyncAt !== prev.lastSyncAt) void updateMutuals();
    }),
};
