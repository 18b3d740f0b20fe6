/**
 * UI A's thin adapter over the data layer (src/client/data, src/client/stores). Screens of the shell,
 * onboarding, sign-in, preferences, contacts and the sync dialogs talk to this interface only, so that
 * when the data layer's runtime lands (or changes) only this file follows it.
 */
import Dexie from 'dexie';
import { useLiveQuery } from 'dexie-react-hooks';
import { createContext, type ReactNode, useContext } from 'react';
import { useStore } from 'zustand';
import type { ItemStatus, UserSummary } from '../../shared/item';
import { type ApiClient, createApiClient } from '../data/apiClient';
import { DB_NAME, OutpostDb } from '../data/db';
import type { ConflictType, LocalItem } from '../data/types';
import { type AuthState, type AuthStore, createAuthStore } from '../stores/authStore';
import { type SyncStatusStore, syncStatusStore } from '../stores/syncStatusStore';
import { toast } from '../stores/toastStore';

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
  auth: AuthStore;
  api: ApiClient;
  syncStatus: SyncStatusStore;
  /** Live list of open conflicts. */
  useConflicts: () => ConflictView[];
  resolveConflicts: (choices: Record<number, ConflictChoice>) => Promise<void>;
  /** A manual sync run; rejects when it fails. */
  syncNow: () => Promise<void>;
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

/**
 * Stand-in wiring until the data layer exports its runtime (db singleton, sync engine). It uses the
 * data layer's api client, auth store and status stores; sync and conflict resolution are minimal.
 */
function createFallbackServices(): AppServices {
  const db = new OutpostDb();
  let auth: AuthStore | null = null;
  const api = createApiClient({ onUnauthorized: () => auth?.getState().toGuest() });
  auth = createAuthStore({ api: () => api });

  if (typeof window !== 'undefined') {
    window.addEventListener('online', () => syncStatusStore.getState().setOnline(true));
    window.addEventListener('offline', () => syncStatusStore.getState().setOnline(false));
  }

  return {
    auth,
    api,
    syncStatus: syncStatusStore,
    useConflicts: () =>
      useLiveQuery(
        async () => (await db.items.filter((i) => i._conflict !== null).toArray()).map(toConflictView),
        [],
        [],
      ),
    resolveConflicts: async () => {
      syncStatusStore.getState().set({ conflictCount: 0 });
    },
    syncNow: async () => {
      const s = syncStatusStore.getState();
      s.set({ syncing: true });
      try {
        await api.get('/me');
        s.set({ lastSyncAt: new Date().toISOString() });
      } finally {
        s.set({ syncing: false });
      }
    },
    clearLocalData: async () => {
      db.close();
      await Dexie.delete(DB_NAME);
      localStorage.clear();
      sessionStorage.clear();
    },
  };
}

let singleton: AppServices | null = null;

export function appServices(): AppServices {
  singleton ??= createFallbackServices();
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

export { toast };
