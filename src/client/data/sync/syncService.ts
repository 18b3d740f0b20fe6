import { signedOutNotice } from '../../../shared/serverEvents';
import type { AuthStore } from '../../stores/authStore';
import type { ToastStore } from '../../stores/toastStore';
import { type Connectivity, onTabVisible, serverChanges } from '../net/connectivity';
import type { LazyEngine } from './lazyEngine';

/**
 * The sync engine's triggers (and its chunk) only for an account: started at sign-in, with the event
 * stream only for a signed-in user who is online, following sign-in, sign-out and the network.
 */
export const syncService = {
  name: 'sync',
  start({
    auth,
    connectivity,
    engine,
    notifications,
    options,
    toasts,
    updateMutuals,
  }: {
    auth: AuthStore;
    connectivity: Connectivity;
    engine: LazyEngine;
    /** The notifications part (loaded on first use): the event stream tells it the unread count. */
    notifications: () => Promise<{ onUnread: (unread: number) => unknown }>;
    options: { baseUrl: string; openPath: (path: string) => void };
    toasts: ToastStore;
    updateMutuals: (force?: boolean, version?: string) => Promise<void>;
  }): () => void {
    let stopEngine: (() => void) | null = null;
    const startEngine = () => {
      stopEngine ??= engine.start({
        onOnlineChange: (cb) => connectivity.subscribe(cb),
        onVisible: onTabVisible,
        onServerChange: serverChanges({
          baseUrl: options.baseUrl,
          onNotification: (unread) => void notifications().then((n) => n.onUnread(unread)),
          onMutuals: (version) => void updateMutuals(false, version),
          // E7: signed out at once, and told why, rather than a guest found out by the next sync.
          onSignedOut: (reason) =>
            void auth
              .getState()
              .sessionEnded()
              .then((acted) => {
                if (!acted) return;
                toasts.getState().push({
                  ...signedOutNotice(reason),
                  key: 'signed-out',
                  duration: 15_000,
                  action: { label: 'Sign in', onClick: () => options.openPath('/login') },
                });
              }),
          wanted: () => connectivity.isOnline() && !auth.getState().isAnonymous,
          onWantedChange: (cb) => {
            const offAuth = auth.subscribe((state, prev) => {
              if (state.isAnonymous !== prev.isAnonymous || state.user.id !== prev.user.id) cb();
            });
            const offOnline = connectivity.subscribe(() => cb());
            return () => {
              offAuth();
              offOnline();
            };
          },
        }),
      });
    };
    if (auth.getState().isAuthenticated) startEngine();
    const offLogin = auth.subscribe((state) => {
      if (state.isAuthenticated) startEngine();
    });
    return () => {
      offLogin();
      stopEngine?.();
    };
  },
};
