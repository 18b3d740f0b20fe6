/** The changes' parts of the client (composed by client.ts, ARCHITECTURE §6). */
import { createLocalEcho } from './localEcho';

/** Edits in place shown on the lists before they commit (./localEcho.ts). */
export const echoPart = { name: 'echo', needs: [], create: () => createLocalEcho() } as const;

/** The funnel (./applyLocalChange.ts), loaded with the first write or the sync engine. */
export const funnelPart = {
  name: 'funnel',
  needs: [],
  create: () => () => import('./applyLocalChange').then((m) => m.applyLocalChange),
} as const;
