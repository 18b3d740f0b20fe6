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
