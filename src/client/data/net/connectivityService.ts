import type { SyncStatusStore } from '../../stores/syncStatusStore';
import type { Connectivity } from './connectivity';

/** The badge follows the network for everyone, signed in or not. */
export const connectivityService = {
  name: 'connectivity',
  start({ status, connectivity }: { status: SyncStatusStore; connectivity: Connectivity }): () => void {
    status.getState().setOnline(connectivity.isOnline());
    return connectivity.subscribe((online) => status.getState().setOnline(online));
  },
};
