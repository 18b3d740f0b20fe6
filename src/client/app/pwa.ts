/// <reference types="vite-plugin-pwa/vanillajs" />
import type { ToastInput } from '../stores/toastStore';

/** How often an open tab asks the server for a new service worker (a tab may stay open for days). */
export const UPDATE_CHECK_MS = 60 * 60 * 1000;

export interface PwaDeps {
  toast: (input: ToastInput) => string;
  /**
   * Loads `virtual:pwa-register` (main.tsx passes the import): only Vite's build knows that module, so
   * this file stays importable in unit tests.
   */
  register: () => Promise<typeof import('virtual:pwa-register').registerSW>;
  /** Reloads the page (tests pass a spy). */
  reload?: () => void;
}

/**
 * Registers the service worker (precached shell: a reload with no network still opens the app).
 * A new version waits and says 'Update available' with a Reload action, which activates it and
 * reloads every tab; an open tab checks for one hourly and whenever it becomes visible again, so
 * nobody keeps a stale shell forever.
 */
export async function registerPwa(deps: PwaDeps): Promise<void> {
  if (typeof navigator === 'undefined' || !('serviceWorker' in navigator)) return;
  const registerSW = await deps.register();
  const reload = deps.reload ?? (() => window.location.reload());
  let prompted = false;
  let registered: ServiceWorkerRegistration | undefined;
  let reloading = false;
  const reloadOnce = () => {
    if (reloading) return;
    reloading = true;
    reload();
  };
  const updateSW = registerSW({
    immediate: true,
    onNeedRefresh() {
      if (prompted) return;
      prompted = true;
      deps.toast({
        title: 'Update available',
        description: 'A new version of Outpost is ready.',
        // Stays until the user acts: an update that vanishes after 5 s is easy to miss.
        duration: Number.POSITIVE_INFINITY,
        action: {
          label: 'Reload',
          onClick: () => {
            // The page reloads once the new worker controls it. Not left to updateSW(true): that only
            // reloads a page a worker already controlled when it loaded, so a tab opened on the very
            // first visit would have stayed on the old version.
            navigator.serviceWorker.addEventListener('controllerchange', reloadOnce, { once: true });
            // The worker being activated says so too: a reload must not hang on one missed
            // controllerchange (the browser suite once waited for it in vain).
            const waiting = registered?.waiting;
            waiting?.addEventListener('statechange', () => {
              if (waiting.state === 'activated') reloadOnce();
            });
            void updateSW(false);
          },
        },
      });
    },
    onRegisteredSW(_url, registration) {
      if (!registration) return;
      registered = registration;
      const check = () => {
        // An update check while offline only fails; the next one will do.
        if (navigator.onLine) registration.update().catch(() => {});
      };
      setInterval(check, UPDATE_CHECK_MS);
      document.addEventListener('visibilitychange', () => {
        if (document.visibilityState === 'visible') check();
      });
    },
  });
}
