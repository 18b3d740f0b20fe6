import type { Service } from '../service';

/** The badge follows the network for everyone, signed in or not. */
export const connectivityService: Service = {
  name: 'connectivity',
  start({ status, connectivity }) {
    status.getState().setOnline(connectivity.isOnline());
    return connectivity.subscribe((online) => status.getState().setOnline(online));
  },
};
