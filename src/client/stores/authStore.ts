import { useStore } from 'zustand';
import { createStore } from 'zustand/vanilla';
import type { UserSummary } from '../../shared/item';
import { type ApiClient, isNetworkError } from '../data/net/apiClient';

export const AUTH_STORAGE_KEY = 'auth-storage';
export const GUEST_NAME = 'Guest User';

/** The guest user: id 0, 'Guest User', empty phone, timestamps set now. */
export function guestUser(now: string = new Date().toISOString()): UserSummary {
  return { id: 0, name: GUEST_NAME, phone: '', created_at: now, updated_at: now };
}

export interface AuthState {
  user: UserSummary;
  isAuthenticated: boolean;
  isAnonymous: boolean;
  checking: boolean;
  /**
   * False until the device's remembered account has been read (restore) or the server has answered:
   * lists wait for it, so a signed-in user never sees the guest's view first.
   */
  restored: boolean;
  initGuest: () => void;
  /** Signs the device back in as the account it remembers, before the server is asked (local-first start). */
  restore: () => Promise<void>;
  checkSession: () => Promise<void>;
  /**
   * As the sign-in form opens: fetches the anti-forgery cookie now (when the page has none), so the
   * Sign In click sends the sign-in at once. Failing (offline) is not an error: the click fetches it.
   */
  prepareLogin: () => Promise<void>;
  login: (phone: string, name: string, code?: string) => Promise<UserSummary>;
  /**
   * Signs in with a passkey alone (no phone typed), then runs exactly the steps a phone sign-in runs:
   * remembered, and a guest's items moved up (onLogin).
   */
  loginWithPasskey: () => Promise<UserSummary>;
  /**
   * After single sign-on brought the browser back with a session: asks the server who it is, then
   * runs the steps a phone sign-in runs. `wasGuest` is what the device was when it left for the
   * provider (the page load in between may have checked the session already).
   */
  finishOidcSignIn: (wasGuest: boolean) => Promise<UserSummary>;
  /** Signs out; `everywhere` ends the person's sessions on every device too. */
  logout: (options?: { everywhere?: boolean }) => Promise<void>;
  /** Changes the signed-in user's display name on the server (PATCH /api/me, N13), then here. */
  rename: (name: string) => Promise<UserSummary>;
  /** N15: adds a phone (with its texted code in `otp` mode) to a person who has none. */
  addPhone: (phone: string, code?: string) => Promise<UserSummary>;
  /**
   * E7: the server said this device's session has ended (its event stream's last event): what a
   * logout does on the device, without calling the server. False when it did nothing: already a
   * guest, or a sign-in or logout of this tab is under way (its own outcome decides).
   */
  sessionEnded: () => Promise<boolean>;
  /** Back to guest without calling the server (after logout, or a 401 that still speaks for the session). */
  toGuest: () => void;
  /** Counts sign-ins and logouts begun and ended: a request's answer speaks for the epoch it left in. */
  epoch: () => number;
  /**
   * A 401 for a request that left in epoch `sentAt`: back to guest, unless a sign-in or logout has
   * begun since (its own outcome decides). Without an epoch, back to guest.
   */
  unauthorized: (sentAt?: number) => void;
}

export interface AuthDeps {
  api: () => ApiClient;
  /** The last signed-in user, kept in IndexedDB so an offline start stays signed in. */
  remember?: (user: UserSummary | null) => Promise<void>;
  recall?: () => Promise<UserSummary | null>;
  /** After a login: `wasGuest` says whether guest data should move into the account. */
  onLogin?: (user: UserSummary, wasGuest: boolean) => Promise<void>;
  /** As a sign-in's request leaves: loads what onLogin runs while it is out. */
  beforeLogin?: () => void;
  /** As the server accepts a sign-in, before the screen updates or anything is stored (SYNC.md L16). */
  signInAnswered?: (user: UserSummary) => void;
  onLogout?: () => Promise<void>;
  /** The passkey ceremony (server options, the browser's prompt, the server's session): its user. */
  passkeySignIn?: () => Promise<UserSummary>;
}

export type AuthStore = ReturnType<typeof createAuthStore>;

/**
 * Auth: starts as the account the device remembers (else guest), then the session check on start
 * confirms it or falls back to guest; login, logout (failures ignored), 401 → guest.
 */
export function createAuthStore(deps: AuthDeps) {
  let restoring: Promise<void> | null = null;
  // A session check answers for the cookie it was sent with: a login or logout begun or ended while
  // it was out (the first screen's check often leaves with the login's own request) makes its answer
  // stale, and a 401 for the retired visitor's session must not sign the new account out.
  let authMoves = 0;
  let authInFlight = 0;
  /** Whether a sign-in or logout has begun since epoch `seen`: an answer from then no longer decides. */
  const movedSince = (seen: number) => authInFlight > 0 || authMoves !== seen;
  const moving = async <T>(work: () => Promise<T>): Promise<T> => {
    authMoves++;
    authInFlight++;
    try {
      return await work();
    } finally {
      authInFlight--;
      authMoves++;
    }
  };
  const store = createStore<AuthState>()((set, get) => {
    /** What every way of signing in does once the server has started the session. */
    const signedIn = async (user: UserSummary, wasGuest: boolean) => {
      deps.signInAnswered?.(user);
      set({ user, isAuthenticated: true, isAnonymous: false, restored: true });
      // Both at once: IndexedDB still stores the account first (its transaction is asked for first),
      // while the sign-in's steps load beside it instead of after it.
      const remembered = Promise.resolve(deps.remember?.(user));
      // Awaited below; a failure meanwhile is not an unhandled one.
      remembered.catch(() => undefined);
      await deps.onLogin?.(user, wasGuest);
      await remembered;
      return user;
    };
    return {
      user: guestUser(),
      isAuthenticated: false,
      isAnonymous: true,
      checking: false,
      restored: false,
      initGuest: () => {
        if (!get().isAuthenticated) set({ user: guestUser(), isAnonymous: true });
      },
      restore: () => {
        restoring ??= (async () => {
          let known: UserSummary | null = null;
          try {
            known = (await deps.recall?.()) ?? null;
          } catch {
            // Unreadable storage: the session check decides.
          }
          // The server has answered or the user has acted meanwhile: a late read must never undo that.
          if (get().restored) return;
          if (known) set({ user: known, isAuthenticated: true, isAnonymous: false });
          set({ restored: true });
        })();
        return restoring;
      },
      toGuest: () => {
        set({ user: guestUser(), isAuthenticated: false, isAnonymous: true, restored: true });
        void deps.remember?.(null);
      },
      epoch: () => authMoves,
      unauthorized: (sentAt) => {
        if (sentAt !== undefined && movedSince(sentAt)) return;
        get().toGuest();
      },
      checkSession: async () => {
        set({ checking: true });
        const seen = authMoves;
        const stale = () => movedSince(seen);
        try {
          const { data } = await deps.api().get<{ user: UserSummary }>('/me');
          if (stale()) return;
          set({ user: data.user, isAuthenticated: true, isAnonymous: false, restored: true });
          await deps.remember?.(data.user);
        } catch (error) {
          if (stale()) return;
          // Offline is not signed out: keep the last known user so queued changes still go up later.
          const known = isNetworkError(error) ? await deps.recall?.() : null;
          if (known) {
            set({ user: known, isAuthenticated: true, isAnonymous: false, restored: true });
          } else get().toGuest();
        } finally {
          set({ checking: false });
        }
      },
      prepareLogin: () =>
        deps
          .api()
          .ensureCsrfCookie()
          .catch(() => undefined),
      login: (phone, name, code) =>
        moving(async () => {
          const wasGuest = !get().isAuthenticated;
          const body: Record<string, string> = { phone, name };
          if (code !== undefined) body.code = code;
          const answer = deps.api().postWithCsrf<{ user: UserSummary }>('/login', body);
          // After the sign-in has left, not before: the thirty modules it loads would otherwise take
          // the browser's six connections ahead of it.
          deps.beforeLogin?.();
          const { data } = await answer;
          return signedIn(data.user, wasGuest);
        }),
      loginWithPasskey: () =>
        moving(async () => {
          const wasGuest = !get().isAuthenticated;
          if (!deps.passkeySignIn) throw new Error('Passkeys are not available here.');
          deps.beforeLogin?.();
          return signedIn(await deps.passkeySignIn(), wasGuest);
        }),
      finishOidcSignIn: (wasGuest) =>
        moving(async () => {
          const { data } = await deps.api().get<{ user: UserSummary }>('/me');
          return signedIn(data.user, wasGuest);
        }),
      rename: async (name) => {
        const api = deps.api();
        const { data } = await api.patch<{ user: UserSummary }>('/me', { name });
        if (get().isAuthenticated && get().user.id === data.user.id) {
          set({ user: data.user });
          await deps.remember?.(data.user);
        }
        return data.user;
      },
      addPhone: async (phone, code) => {
        const api = deps.api();
        const { data } = await api.post<{ user: UserSummary }>(
          '/me/phone',
          code ? { phone, code } : { phone },
        );
        if (get().isAuthenticated && get().user.id === data.user.id) {
          set({ user: data.user });
          await deps.remember?.(data.user);
        }
        return data.user;
      },
      sessionEnded: async () => {
        if (authInFlight > 0 || !get().isAuthenticated) return false;
        await moving(async () => {
          // As a logout: the account's secrets and memory go before the screen says guest. Queued
          // changes stay (Q4), to go up when the account signs in here again.
          await Promise.all([deps.onLogout?.(), deps.remember?.(null)]);
          get().toGuest();
        });
        return true;
      },
      logout: (options) =>
        moving(async () => {
          if (get().isAuthenticated) {
            try {
              const api = deps.api();
              await api.csrfCookie();
              await api.post('/logout', options?.everywhere ? { everywhere: true } : undefined);
            } catch {
              // The spec: a failed logout call is ignored; the device returns to guest regardless.
            }
          }
          // The account's secrets and its memory go before the screen says guest: a page closed or
          // reloaded the moment it does must not start again as the account or keep its calendar link.
          await Promise.all([deps.onLogout?.(), deps.remember?.(null)]);
          get().toGuest();
        }),
    };
  });
  return store;
}

/**
 * The API client's hooks for an auth store (its `authEpoch` and `onUnauthorized`): each request
 * carries the epoch it left in, and its 401 goes to the store's `unauthorized`. `store` is read at
 * request time, so a client made before its store can be wired.
 */
export function unauthorizedHooks(store: () => { getState: () => AuthState }) {
  return {
    authEpoch: () => store().getState().epoch(),
    onUnauthorized: (sentAt: number | undefined) => store().getState().unauthorized(sentAt),
  };
}

export function useAuth<T>(store: AuthStore, selector: (s: AuthState) => T): T {
  return useStore(store, selector);
}
