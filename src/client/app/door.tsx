/**
 * The one door to the data for every screen (ARCHITECTURE §6): `send(name, args)` over the data
 * layer's command map (data/commands/map.ts), `useLive` for the device's live reads
 * (data/live.ts), and the stores the shell shows at once (auth, sync status, toasts, the bell).
 * This module is in the first screen's chunk; the data layer (Dexie, the repository, the sync engine)
 * loads after the first paint, and each command namespace on its first command.
 */
import { createContext, type ReactNode, useContext, useEffect, useMemo, useState } from 'react';
import { useStore } from 'zustand';
import { createStore } from 'zustand/vanilla';
import type { UserSummary } from '../../shared/item';
import type { OutpostClient } from '../data/client';
import type { ArgsOf, CommandName, Namespace, ResultOf, Send } from '../data/commands/map';
import { createApiClient } from '../data/net/apiClient';
import { type AuthState, type AuthStore, guestUser, unauthorizedHooks } from '../stores/authStore';
import { type NotificationStore, notificationStore } from '../stores/notificationStore';
import { createSyncStatusStore, type SyncStatusStore } from '../stores/syncStatusStore';
import { type ToastInput, type ToastStore, toastStore } from '../stores/toastStore';

export type { Send };

/**
 * Loads a command namespace's code now, so its first command works offline even before a service
 * worker holds the chunk.
 */
export function preloadCommands(namespace: Namespace): void {
  void import('../data/commands/map').then((m) => m.preloadCommands(namespace));
}

export interface Door {
  /** The data layer's client (the page's or a test's); null until the data layer has loaded. */
  client: OutpostClient | null;
  /** Runs a command: `send('items.update', { id, patch })`. */
  send: Send;
  auth: AuthStore;
  syncStatus: SyncStatusStore;
  /** The app's one toast queue (screens, the sync engine, the service worker's update notice). */
  toasts: ToastStore;
  /** The bell's count and the notifications page's entries. */
  notifications: NotificationStore;
}

let loaded: Door | null = null;
let loading: Promise<Door> | null = null;
const loadedListeners = new Set<(door: Door) => void>();

/**
 * Loads the data layer (Dexie, the sync engine) and starts the page's client, once per page. The shell
 * asks for it when the screen needs items (useDataLayer); anything that needs it sooner (a sign-in,
 * Sync Now) waits for the same promise.
 */
export function loadDoor(): Promise<Door> {
  loading ??= import('../data/page').then(
    (m) => {
      const door = m.createDoor(m.startPageClient());
      loaded = door;
      for (const listener of loadedListeners) listener(door);
      return door;
    },
    (error: unknown) => {
      loading = null;
      throw error;
    },
  );
  return loading;
}

/**
 * Starts the data layer for the screen on show. A screen with items (`needsItems`) starts it right
 * after its first paint, so the first paint never waits for IndexedDB. The sign-in and onboarding
 * screens show no items: they start it on the visitor's first press, key or input (a password manager
 * or the browser's autofill fills the form without a key), well before they can finish, and otherwise
 * leave it to the screen that follows.
 */
export function useDataLayer(needsItems: boolean): void {
  useEffect(() => {
    if (loaded) return;
    const start = () => {
      loadDoor().catch((error: unknown) => console.error('Outpost: the data layer failed to load', error));
    };
    if (!needsItems) {
      const events = ['pointerdown', 'keydown', 'input'] as const;
      const once = () => {
        for (const name of events) window.removeEventListener(name, once, true);
        start();
      };
      for (const name of events) window.addEventListener(name, once, true);
      return () => {
        for (const name of events) window.removeEventListener(name, once, true);
      };
    }
    // After the first paint: a timer queued from the next frame runs after it is drawn.
    let timer = 0;
    const frame = requestAnimationFrame(() => {
      timer = window.setTimeout(start, 0);
    });
    return () => {
      cancelAnimationFrame(frame);
      window.clearTimeout(timer);
    };
  }, [needsItems]);
}

let shell: Door | null = null;

/**
 * The door before the data layer has loaded: a guest, the module-level stores (the Toaster shows the
 * same toasts), and a `send` that runs the server's reads at once (they need only an API client) and
 * every other command once the data layer is up. DoorProvider swaps in the real door as soon as it is.
 */
function shellDoor(): Door {
  if (shell) return shell;
  const later = () => loadDoor();
  const auth: AuthStore = createStore<AuthState>()(() => ({
    user: guestUser(),
    isAuthenticated: false,
    isAnonymous: true,
    checking: false,
    restored: false,
    initGuest: () => {},
    restore: async () => (await later()).auth.getState().restore(),
    toGuest: () => void later().then((d) => d.auth.getState().toGuest()),
    sessionEnded: async () => (await later()).auth.getState().sessionEnded(),
    epoch: () => loaded?.auth.getState().epoch() ?? 0,
    unauthorized: (sentAt) => void later().then((d) => d.auth.getState().unauthorized(sentAt)),
    checkSession: async () => (await later()).auth.getState().checkSession(),
    // The shell's own API client: the sign-in form asks before the data layer is loaded, and must not load it.
    prepareLogin: () => api.ensureCsrfCookie().catch(() => undefined),
    login: async (phone, name, code) => (await later()).auth.getState().login(phone, name, code),
    loginWithPasskey: async () => (await later()).auth.getState().loginWithPasskey(),
    finishOidcSignIn: async (wasGuest) => (await later()).auth.getState().finishOidcSignIn(wasGuest),
    logout: async (options) => (await later()).auth.getState().logout(options),
    rename: async (name) => (await later()).auth.getState().rename(name),
    addPhone: async (phone, code) => (await later()).auth.getState().addPhone(phone, code),
  }));
  // Same origin, same cookies and XSRF header as the client's; a 401 sends the client's auth to guest.
  const api = createApiClient(unauthorizedHooks(() => auth));
  const send = (async (name: string, args?: unknown) => {
    // Loaded on the first server read, not with the first screen: the screens that read server data
    // preload it with their chunk (vite.config.ts, firstScreenPreloads).
    if (name.startsWith('server.')) {
      const { commands } = await import('../data/commands/server');
      if (name in commands) {
        const handler = commands[name as keyof typeof commands] as (
          c: { api: typeof api },
          a: unknown,
        ) => unknown;
        return handler({ api }, args);
      }
    }
    return ((await later()).send as (n: string, a?: unknown) => Promise<unknown>)(name, args);
  }) as Send;
  shell = {
    client: null,
    send,
    auth,
    syncStatus: createSyncStatusStore(typeof navigator === 'undefined' ? true : navigator.onLine),
    toasts: toastStore,
    notifications: notificationStore,
  };
  return shell;
}

const PAGE_FACTS = {};

/**
 * What a fact kept for a door's life is kept under: one key for the page's two doors (the shell's and
 * the data layer's, which takes over on the first press and asks the same server), so a fact the
 * shell read is not asked again; a test's own door is its own.
 */
export function factScope(send: Send): object {
  return send === shell?.send || send === loaded?.send ? PAGE_FACTS : send;
}

/** The page's door: the data layer's once loaded, the shell's (see shellDoor) before. */
export function pageDoor(): Door {
  return loaded ?? shellDoor();
}

/** Runs a command on the page's door, from outside React (a global shortcut, a toast's action). */
export const send: Send = ((name: string, args?: unknown) =>
  (pageDoor().send as (n: string, a?: unknown) => Promise<unknown>)(name, args)) as Send;

const DoorContext = createContext<Door | null>(null);

export function DoorProvider({ door, children }: { door?: Door; children: ReactNode }) {
  const [current, setCurrent] = useState(pageDoor);
  useEffect(() => {
    if (door) return;
    // Loaded between this render and now: show it (no listener will fire again).
    if (loaded) return setCurrent(loaded);
    loadedListeners.add(setCurrent);
    return () => {
      loadedListeners.delete(setCurrent);
    };
  }, [door]);
  return <DoorContext.Provider value={door ?? loaded ?? current}>{children}</DoorContext.Provider>;
}

export function useDoor(): Door {
  const door = useContext(DoorContext);
  if (!door) throw new Error('useDoor needs a DoorProvider');
  return door;
}

/** The `send` of the door on screen (a test's own, or the page's). */
export function useSend(): Send {
  return useDoor().send;
}

/** One command of the door on screen, as a function of its argument: `useCommand('notifications.markRead')`. */
export function useCommand<N extends CommandName>(
  name: N,
): (...args: undefined extends ArgsOf<N> ? [args?: ArgsOf<N>] : [args: ArgsOf<N>]) => Promise<ResultOf<N>> {
  const send = useSend() as (n: string, a?: unknown) => Promise<unknown>;
  return useMemo(() => (args?: unknown) => send(name, args) as Promise<ResultOf<N>>, [send, name]);
}

export function useAuthState<T>(selector: (s: AuthState) => T): T {
  return useStore(useDoor().auth, selector);
}

/** The signed-in user or null for the guest. */
export function useSignedInUser(): UserSummary | null {
  const user = useAuthState((s) => s.user);
  const signedIn = useAuthState((s) => s.isAuthenticated && !s.isAnonymous);
  return signedIn ? user : null;
}

/** Shows a toast in the app's one toast queue (the one the Toaster shows), from outside React. */
export function toast(input: ToastInput): string {
  return pageDoor().toasts.getState().push(input);
}

/** The toast queue of the door on screen (a test's own, or the app's one queue). */
export function useToast(): (input: ToastInput) => string {
  return useDoor().toasts.getState().push;
}
