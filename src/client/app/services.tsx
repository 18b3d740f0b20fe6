/**
 * UI A's thin adapter over the data layer (src/client/data, src/client/stores). Screens of the shell,
 * onboarding, sign-in, preferences, contacts and the sync dialogs talk to this interface only, so that
 * when the data layer's runtime lands (or changes) only this file follows it.
 */
import { useLiveQuery } from 'dexie-react-hooks';
import { createContext, type ReactNode, useContext } from 'react';
import { useStore } from 'zustand';
import type { ItemStatus, UserSummary } from '../../shared/item';
import type { ApiClient } from '../data/apiClient';
import { getOutpostClient, type OutpostClient } from '../data/client';
import type { ConflictType, LocalItem } from '../data/types';
import type { AuthState, AuthStore } from '../stores/authStore';
import type { SyncStatusStore } from '../stores/syncStatusStore';
import type { ToastInput, ToastStore } from '../stores/toastStore';

/** One version of a conflicting item, as the conflict dialog shows it. */
export interface ConflictVersion {
  title: string;
  description: string | null;
  status: ItemStatus;
  /** ISO time of the last change; null when unknown. */
  modifiedAt: string | null;
  deleted: boolean;
}

export interface ConflictView {
  id: number;
  type: ConflictType;
  /** null when there is no local version to keep. */
  local: ConflictVersion | null;
  /** null when the server deleted the item. */
  remote: ConflictVersion | null;
}

export type ConflictChoice = 'local' | 'remote';

export interface AppServices {
  /** The data layer's client, for what this adapter does not wrap (contacts import). */
  client: OutpostClient;
  auth: AuthStore;
  api: ApiClient;
  syncStatus: SyncStatusStore;
  /** The toast queue the sync engine writes to. */
  toasts: ToastStore;
  /** Live list of open conflicts. */
  useConflicts: () => ConflictView[];
  resolveConflicts: (choices: Record<number, ConflictChoice>) => Promise<void>;
  /** A manual sync run ('Sync Now'); its outcome is toasted. */
  syncNow: () => Promise<void>;
  /** Forgets a finished guest upgrade so its dialog does not come back. */
  clearFinishedUpgrade: () => Promise<void>;
  /** Deletes IndexedDB and local storage (the caller reloads). */
  clearLocalData: () => Promise<void>;
}

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

let singleton: AppServices | null = null;

/** The app's services; the first call starts the client (guest init, session check, sync triggers). */
export function appServices(): AppServices {
  if (!singleton) {
    const client = getOutpostClient();
    singleton = createServices(client);
    void client.start();
  }
  return singleton;
}

const ServicesContext = createContext<AppServices | null>(null);

export function ServicesProvider({ services, children }: { services?: AppServices; children: ReactNode }) {
  return <ServicesContext.Provider value={services ?? appServices()}>{children}</ServicesContext.Provider>;
}

export function useServices(): AppServices {
  const services = useContext(ServicesContext);
  if (!services) throw new Error('useServices needs a ServicesProvider');
  return services;
}

export function useAuthState<T>(selector: (s: AuthState) => T): T {
  return useStore(useServices().auth, selector);
}

/** The signed-in user or null for the guest. */
export function useSignedInUser(): UserSummary | null {
  const user = useAuthState((s) => s.user);
  const signedIn = useAuthState((s) => s.isAuthenticated && !s.isAnonymous);
  return signedIn ? user : null;
}

/** Shows a toast in the app's toast queue (the one the Toaster shows). */
export function toast(input: ToastInput): string {
  return appServices().toasts.getState().push(input);
}
