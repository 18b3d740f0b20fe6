import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/App';
import { registerPwa } from './app/pwa';
import { preloadRoute } from './app/router';
import { appServices } from './app/services';
import { onboardingStore } from './stores/onboardingStore';
import './styles.css';

// The first screen's chunk starts downloading now, in parallel with React's first render.
preloadRoute(window.location.pathname, onboardingStore.getState().hasCompletedOnboarding);

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');

createRoot(root).render(
  <StrictMode>
    <App />
  </StrictMode>,
);

// The dev server has no service worker (it would cache modules Vite is still changing).
if (import.meta.env.PROD) {
  void registerPwa({
    toast: (input) => appServices().toasts.getState().push(input),
    register: async () => (await import('virtual:pwa-register')).registerSW,
  });
}
