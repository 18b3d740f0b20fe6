import { StrictMode, startTransition } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/App';
import { toast } from './app/door';
import { registerPwa } from './app/pwa';
import { preloadRoute } from './app/router';
import { onboardingStore } from './stores/onboardingStore';
import './styles.css';

/** How long the first render waits for the first screen's chunk before it shows the shell's skeleton. */
const FIRST_SCREEN_WAIT_MS = 500;
/** How long after load the service worker waits before it registers, and then at most for an idle moment. */
const PWA_DELAY_MS = 2000;
const PWA_IDLE_TIMEOUT_MS = 1000;

// The first screen's chunk starts downloading now; React renders once it is here, so the first paint
// already shows the screen rather than the skeleton first and the screen a moment later.
const firstScreen = preloadRoute(window.location.pathname, onboardingStore.getState().hasCompletedOnboarding);

function render(container: HTMLElement) {
  const root = createRoot(container);
  // A transition: React renders the first screen in small slices, so a tap or key during start-up is
  // answered at once rather than after the whole tree (the static app shell shows meanwhile).
  startTransition(() =>
    root.render(
      <StrictMode>
        <App />
      </StrictMode>,
    ),
  );
}

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');
void Promise.race([firstScreen, new Promise((resolve) => setTimeout(resolve, FIRST_SCREEN_WAIT_MS))]).then(
  () => render(root),
);

// The dev server has no service worker (it would cache modules Vite is still changing).
// Registered a few seconds after load, when the page is idle: the worker's precache (every screen's
// chunk, ~900 KB) would otherwise compete with the first screen's own requests, its data included.
if (import.meta.env.PROD) {
  const register = () =>
    void registerPwa({
      toast,
      register: async () => (await import('virtual:pwa-register')).registerSW,
    });
  const whenIdle = () =>
    setTimeout(() => {
      if ('requestIdleCallback' in window) requestIdleCallback(register, { timeout: PWA_IDLE_TIMEOUT_MS });
      else register();
    }, PWA_DELAY_MS);
  if (document.readyState === 'complete') whenIdle();
  else window.addEventListener('load', whenIdle, { once: true });
}
