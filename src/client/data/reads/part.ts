/** The reads' parts of the client: who reads, and the reads bound to them (composed by client.ts, ARCHITECTURE §6). */
import type { UserSummary } from '../../../shared/item';
import type { AuthStore } from '../../stores/authStore';
import type { OutpostDb } from '../store/db';
import type { Viewer } from '../store/types';
import { viewerReads } from './viewerReads';

/** The viewer of now: the signed-in user, or the device's guest. */
export const viewerPart = {
  name: 'viewer',
  needs: ['auth'],
  create:
    ({ auth }: { auth: AuthStore }) =>
    (): Viewer & { user: UserSummary } => {
      const s = auth.getState();
      return { userId: s.isAuthenticated ? s.user.id : 0, isGuest: !s.isAuthenticated, user: s.user };
    },
} as const;

/** The device's reads for the viewer of now (./viewerReads.ts); useLive wraps them. */
export const readsPart = {
  name: 'reads',
  needs: ['db', 'viewer'],
  create: ({ db, viewer }: { db: OutpostDb; viewer: () => Viewer }) => viewerReads(db, viewer),
} as const;
