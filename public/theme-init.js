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

// Shows the right parts of the static app shell (index.html), and starts downloading the chunks of the
// screen this address shows, now, beside the main chunk: the app loads each screen lazily, and would
// otherwise only ask for its chunk once the main chunk has arrived and run. The build writes the plan
// here (vite.config.ts, firstScreenPreloads): the chunks' URLs and, as indexes into them, each route
// pattern's chunks and the data layer's, which every screen but sign-in and onboarding starts after its
// first paint. A visitor who has not finished onboarding is sent there (RootLayout), so that is the
// screen preloaded. The onboarding key and shape match src/client/stores/onboardingStore.ts.
(() => {
  const exempt = /^\/(login|onboarding)\/?$/i;
  let onboarded = false;
  try {
    onboarded = Boolean(
      JSON.parse(localStorage.getItem('onboarding-storage') || '{}').state?.hasCompletedOnboarding,
    );
  } catch {
    // Storage blocked or unreadable: the app sends the visitor to onboarding.
  }
  const target = onboarded || exempt.test(location.pathname) ? location.pathname : '/onboarding';
  // The static app shell (index.html) has no header on onboarding and shows the brand only on Home.
  document.documentElement.dataset.shell = /^\/onboarding\/?$/i.test(target)
    ? 'off'
    : target === '/'
      ? 'home'
      : 'page';
  const plan = '__OUTPOST_PRELOADS__';
  if (typeof plan === 'string') return; // The dev server: no build, no plan.
  const asked = new Set();
  const add = (wanted) => {
    for (const i of wanted) {
      if (asked.has(i)) continue;
      asked.add(i);
      const link = document.createElement('link');
      link.rel = 'modulepreload';
      link.crossOrigin = '';
      // Low, like the entry script (vite.config.ts): the stylesheet comes first, for the shell's paint.
      link.fetchPriority = 'low';
      link.href = plan.files[i];
      document.head.append(link);
    }
  };
  const preload = (pathname) => {
    const route = plan.routes.find(([pattern]) => new RegExp(pattern, 'i').test(pathname));
    const wanted = new Set(route ? route[1] : []);
    if (!exempt.test(pathname)) for (const i of plan.data) wanted.add(i);
    add(wanted);
  };
  preload(target);
  // For the screen a moment away (Home, from the sign-in form: src/client/app/router.tsx prefetchRoute).
  // Low priority matters there: over HTTP/1.1's six connections, a screen's thirty chunks asked for at
  // the usual priority would hold the sign-in's own requests back behind them.
  window.__outpostPrefetch = preload;
  // From the sign-in form, what a sign-in loads as it runs: first what Home waits for (its steps, the
  // celebration), then Home's chunks, then the sync engine (vite.config.ts SIGN_IN_MODULES).
  window.__outpostPrefetchSignIn = () => {
    add(plan.signIn[0]);
    preload('/');
    add(plan.signIn[1]);
  };
})();

// Holds Ctrl/Cmd+K and the keys typed after it until the app's own shortcut handler listens
// (src/client/search/typeahead.ts takeEarlyKeys): pressed while the page still loads, before any of
// the app's code has run, they would otherwise be lost.
(() => {
  const held = { open: false, typed: '' };
  const onKey = (event) => {
    if ((event.metaKey || event.ctrlKey) && !event.altKey && event.key.toLowerCase() === 'k') {
      event.preventDefault();
      held.open = !held.open;
      held.typed = '';
      return;
    }
    if (!held.open || event.ctrlKey || event.metaKey || event.altKey || event.isComposing) return;
    if (event.key === 'Escape') {
      held.open = false;
      held.typed = '';
    } else if (event.key === 'Backspace') held.typed = held.typed.slice(0, -1);
    else if (event.key.length === 1) held.typed += event.key;
    else return;
    event.preventDefault();
  };
  addEventListener('keydown', onKey, true);
  window.__outpostEarlyKeys = () => {
    removeEventListener('keydown', onKey, true);
    return held;
  };
})();
