import type { Service } from '../service';

/** Each finished sync run is a moment the server is reachable: stale mutuals are refreshed then. */
export const mutualsService: Service = {
  name: 'mutuals',
  start: ({ status, updateMutuals }) =>
    status.subscribe((state, prev) => {
      if (state.lastSyncAt !== prev.lastSyncAt) void updateMutuals();
    }),
};
