/**
 * The data half of the one door (src/client/app/services.tsx): the page's client (Dexie, the sync
 * engine) and the services built on it. services.tsx loads this module after the first paint, so /login
 * and /onboarding never wait for IndexedDB; screens with items reach it sooner through ./liveData.
 */
import { useLiveQuery } from 'dexie-react-hooks';
import { createOutpostClient, type OutpostClient } from '../data/client';
import type { LocalItem } from '../data/store/types';
import { notificationStore } from '../stores/notificationStore';
import { toastStore } from '../stores/toastStore';
import { type AppServices, type ConflictVersion, type ConflictView, serverReads } from './services';

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

const clients = new WeakMap<AppServices, OutpostClient>();

/** The client under a set of services (./liveData's live queries and writes read it). */
export function clientOf(services: AppServices): OutpostClient | undefined {
  return clients.get(services);
}

/**
 * The app's services over a data layer's client (one per page: one Dexie, one sync engine). Tests make
 * one over their own client and hand it to <ServicesProvider services={…}>: the one way to inject one.
 */
export function createServices(client: OutpostClient): AppServices {
  const services: AppServices = {
    auth: client.auth,
    syncStatus: client.status,
    toasts: client.toasts,
    server: serverReads(client.api),
    contacts: {
      pickFromPhone: () => client.contacts.pickFromPhone(),
      fromCsv: (text) => client.contacts.fromCsv(text),
      import: (candidates) => client.contacts.import(candidates),
      refreshMutuals: () => client.mutuals.refresh(),
    },
    notifications: {
      store: client.notificationState,
      refresh: () => client.notifications.refresh(),
      loadMore: () => client.notifications.loadMore(),
      markRead: (ids) => client.notifications.markRead(ids),
      pushState: () => client.notifications.push.check(),
      enablePush: () => client.notifications.push.enable(),
      disablePush: () => client.notifications.push.disable(),
    },
    onIdSwap: (listener) => client.onIdSwap(listener),
    useConflicts: () =>
      useLiveQuery(
        async () => (await client.engine.listConflicts()).map((c) => toConflictView(c.local)),
        [],
        [],
      ),
    resolveConflicts: async (choices) => {
      await client.engine.resolveConflicts(choices);
    },
    syncNow: async (opts) => {
      // The engine toasts what the run came to (R1): offline, server unreachable, failed or complete.
      const result = await client.engine.sync({ manual: true, quiet: opts?.quiet ?? false });
      return { ok: result.outcome === 'synced', outcome: result.outcome, pending: result.pending };
    },
    pendingChanges: () => client.pendingChanges(),
    clearLocalData: async () => {
      await client.clearLocalData();
      // The spec clears all local storage too (onboarding, theme, persisted stores).
      localStorage.clear();
      sessionStorage.clear();
    },
    clearFinishedUpgrade: () => client.clearFinishedUpgrade(),
    safety: {
      latestUndo: async () => (await (await client.undo()).latest())?.seq ?? null,
      undo: async (seq) => (await (await client.undo()).undo(seq))?.label ?? null,
      trash: async () => (await client.undo()).list(),
      restore: async (entry) => (await client.undo()).restoreEntry(entry),
      exportFile: async (format) => (await client.transfer()).exportFile(format),
      planImport: async (file) => (await client.transfer()).planImport(file),
      runImport: async (preview, onProgress) => (await client.transfer()).runImport(preview, onProgress),
      storage: async () => (await client.transfer()).storageInfo(),
    },
  };
  clients.set(services, client);
  return services;
}

let page: AppServices | null = null;

/**
 * The page's services over the page's client, made (not started) on first use: a screen with items
 * reads the device at once, before start(). Its toasts go to the app's one queue.
 */
export function pageServices(): AppServices {
  page ??= createServices(createOutpostClient({ toastStore, notificationStore }));
  return page;
}

/** The page's services, whose client this starts (guest init, session check, sync). */
export function startAppServices(): AppServices {
  const services = pageServices();
  void clients.get(services)?.start();
  return services;
}
