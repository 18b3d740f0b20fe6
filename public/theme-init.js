// Sets the theme class before the first paint, so a dark-mode user never sees a white flash.
// An external file (not an inline script) so a strict Content-Security-Policy allows it.
// The key and values match src/client/stores/themeStore.ts.
(() => {
  let theme = 'system';
  try {
    theme = localStorage.getItem('outpost-theme') || 'system';
  } catch {
    // Storage blocked: fall back to the system preference.
  }
  const dark = theme === 'dark' || (theme === 'system' && matchMedia('(prefers-color-scheme: dark)').matches);
  document.documentElement.classList.toggle('dark', dark);
})();

// Home and the other data screens need the data layer (IndexedDB, the sync engine) for their first
// paint, and the app loads it lazily; the build writes its chunk's URL here (vite.config.ts,
// dataPreloadHint) so its download starts now, beside the main chunk. /login and /onboarding (where
// a visitor who has not finished onboarding is sent) do not wait for it, so they skip the hint. The
// onboarding key and shape match src/client/stores/onboardingStore.ts.
(() => {
  const chunk = '__OUTPOST_DATA_CHUNK__';
  if (chunk.startsWith('__') || /^\/(login|onboarding)\/?$/i.test(location.pathname)) return;
  try {
    if (!JSON.parse(localStorage.getItem('onboarding-storage') || '{}').state?.hasCompletedOnboarding) return;
  } catch {
    return;
  }
  const link = document.createElement('link');
  link.rel = 'modulepreload';
  link.crossOrigin = '';
  link.href = chunk;
  document.head.append(link);
})();
