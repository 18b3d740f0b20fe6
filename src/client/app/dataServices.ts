/**
 * The data half of the app's services (src/client/app/services.tsx): the client (Dexie, the sync
 * engine) and what is built on it. services.tsx loads this module after the first paint, so /login
 * and /onboarding never wait for IndexedDB.
 */
import { useLiveQuery } from 'dexie-react-hooks';
import { getOutpostClient, type OutpostClient } from '../data/client';
import type { LocalItem } from '../data/types';
import type { AppServices, ConflictVersion, ConflictView } from './services';

function versionOf(item: LocalItem): ConflictVersion {
  return {
    title: item.title,
    description: item.description,
    status: item.status,
    modifiedAt: item.updated_at,
    deleted: item._deleted === 1,
  };
}

/** The conflict dialog's view of an item with an open conflict. */
export function toConflictView(item: LocalItem): ConflictView {
  const remote = item._remote;
  return {
    id: item.id,
    type: item._conflict ?? 'update',
    local: versionOf(item),
    remote: remote
      ? {
          title: remote.title,
          description: remote.description,
          status: remote.status,
          modifiedAt: remote.updated_at,
          deleted: remote.deleted_at !== null,
        }
      : null,
  };
}

/** The app's services over the data layer's client (one per page: one Dexie, one sync engine). */
export function createServices(client: OutpostClient): AppServices {
  return {
    client,
    auth: client.auth,
    api: client.api,
    syncStatus: client.status,
    toasts: client.toasts,
    useConflicts: () =>
      useLiveQuery(
        async () => (await client.engine.listConflicts()).map((c) => toConflictView(c.local)),
        [],
        [],
      ),
    resolveConflicts: async (choices) => {
      await client.engine.resolveConflicts(choices);
    },
    syncNow: async () => {
      const result = await client.engine.sync({ manual: true });
      // The engine toasts the outcome of a run; a run it skipped (offline) still needs an answer.
      if ('skipped' in result && result.skipped === 'offline') {
        client.toasts.getState().push({
          title: 'Sync failed',
          description: 'Failed to sync items. Please try again.',
          variant: 'destructive',
        });
      }
    },
    clearLocalData: async () => {
      await client.clearLocalData();
      // The spec clears all local storage too (onboarding, theme, persisted stores).
      localStorage.clear();
      sessionStorage.clear();
    },
    clearFinishedUpgrade: () => client.clearFinishedUpgrade(),
  };
}

/** The app's services over the page's client, which this starts (guest init, session check, sync). */
export function startAppServices(): AppServices {
  const client = getOutpostClient();
  const services = createServices(client);
  void client.start();
  return services;
}
