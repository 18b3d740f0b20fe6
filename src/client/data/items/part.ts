/** The items' parts of the client: the repository's writes and undo (composed by client.ts, ARCHITECTURE §6). */
import type { AuthStore } from '../../stores/authStore';
import type { LocalEcho } from '../changes/localEcho';
import { lazily, lazyMethods } from '../lazy';
import type { ApiClient } from '../net/apiClient';
import type { OutpostDb } from '../store/db';
import type { LazyEngine } from '../sync/lazyEngine';
import type { createItemsRepository } from './itemsRepository';
import type { UndoDeps } from './undoStack';

/** The repository's writes; undo puts fields back through the raw `write` (./undoStack.ts). */
const WRITES = [
  'create',
  'update',
  'remove',
  'toggle',
  'assign',
  'setStatus',
  'changeStatus',
  'start',
  'complete',
  'reopen',
  'write',
] as const;

/**
 * The repository's writes as methods (the items commands, undo, the transfer and tests call them):
 * the first loads it, once the remembered account is restored, so an early change is never the guest's.
 */
export const itemsPart = {
  name: 'items',
  needs: ['db', 'viewer', 'engine', 'echo', 'auth'],
  create({
    db,
    viewer,
    engine,
    echo,
    auth,
  }: {
    db: OutpostDb;
    viewer: Parameters<typeof createItemsRepository>[0]['viewer'];
    engine: LazyEngine;
    echo: LocalEcho;
    auth: AuthStore;
  }) {
    const repository = lazily(() =>
      import('./itemsRepository').then((m) =>
        m.createItemsRepository({ db, viewer, pushNow: engine.pushNow, echo }),
      ),
    );
    return lazyMethods(repository, WRITES, () => auth.getState().restore());
  },
} as const;

/** Undo and the trash (./undoStack.ts), loaded on first use (a toast's Undo, Ctrl/Cmd+Z, Preferences): not with Home. */
export const undoPart = {
  name: 'undo',
  needs: ['db', 'api', 'viewer', 'items', 'engine', 'isOnline'],
  create: ({
    db,
    api,
    viewer,
    items,
    engine,
    isOnline,
  }: Pick<UndoDeps, 'db' | 'viewer' | 'items'> & {
    api: ApiClient;
    engine: LazyEngine;
    isOnline: () => boolean;
  }) =>
    lazily(() =>
      import('./undoStack').then((m) =>
        m.createUndoStack({
          db,
          api,
          viewer,
          items,
          pushNow: engine.pushNow,
          isOnline,
        }),
      ),
    ),
} as const;
