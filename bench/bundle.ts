/**
 * `npm run bench -- bundle`: the JavaScript the first screen really loads. The built app runs on the
 * real server; headless Chromium opens /login, /onboarding (a new visitor's first screen) and Home
 * (a returning visitor: onboarding done) in fresh profiles and records every script response until
 * the network is idle. Bodies are gzipped here at level 9, so the figure does not depend on whether
 * the server compresses. Budget: at most 170 KB gzip per screen (stretch 130 KB).
 *
 * `--client-dir D` serves a client built elsewhere (a before/after comparison: build the other commit
 * with `npx vite build --outDir D`); `--verbose` lists every script with its size; `--more` measures
 * ten other screens too, for information.
 *
 * Service workers are blocked: Workbox precaches every chunk in the background after the first
 * screen is up, which is not what the first screen waits for. For the same reason the chunks a screen
 * prefetches for the next one (the sign-in form fetches Home's at low priority after its first paint,
 * src/client/app/router.tsx prefetchRoute, for issue 69's first row) are listed apart and not counted.
 */
import { gzipSync } from 'node:zlib';
import { type Browser, chromium } from 'playwright-core';
import { chromiumArgs, chromiumAvailable, chromiumPath } from '../scripts/lib/chromium';
import { ONBOARDED_STORAGE, startAppServer } from './lib/appServer';
import { check, heading, info, skip } from './lib/report';

const BUDGET_KB = 170;
const STRETCH_KB = 130;

interface Screen {
  name: string;
  path: string;
  onboarded: boolean;
  /** Something only the finished screen shows, so lazy chunks have been asked for. */
  ready: string;
}

const SCREENS: Screen[] = [
  { name: '/login', path: '/login', onboarded: false, ready: 'form' },
  { name: '/onboarding', path: '/onboarding', onboarded: false, ready: '[role="dialog"]' },
  { name: 'Home (onboarded)', path: '/', onboarded: true, ready: 'main h1, main h2' },
];

/** `--more`: the other screens a returning visitor may open first, measured for information (no budget). */
const MORE_SCREENS: Screen[] = [
  '/my-list',
  '/today',
  '/upcoming',
  '/calendar',
  '/timeline',
  '/campaigns',
  '/contacts',
  '/notifications',
  '/reports/time',
  '/preferences',
].map((path) => ({ name: path, path, onboarded: true, ready: 'main h1, main h2' }));

interface Loaded {
  url: string;
  raw: number;
  gzip: number;
  /** Fetched for the next screen (a low-priority prefetch), not run by this one. */
  prefetched?: boolean;
}

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

async function measure(browser: Browser, base: string, screen: Screen): Promise<Loaded[]> {
  const context = await browser.newContext({ serviceWorkers: 'block' });
  if (screen.onboarded) {
    await context.addInitScript(
      ([key, value]) => localStorage.setItem(key as string, value as string),
      [ONBOARDED_STORAGE.key, ONBOARDED_STORAGE.value],
    );
  }
  // What the screen prefetches for the next one (the sign-in form, Home: src/client/app/router.tsx
  // prefetchRoute and prefetchSignIn) is told apart: the links that call adds, and when it was made.
  // A string, not a function: the bench's compiler names a function's inner arrows (__name), which the
  // page does not have.
  await context.addInitScript(`(() => {
    const told = (name) => {
      let wrapped;
      Object.defineProperty(window, name, {
        configurable: true,
        get: () => wrapped,
        set(preload) {
          wrapped = (...args) => {
            const before = new Set([...document.querySelectorAll('link[rel="modulepreload"]')].map((l) => l.href));
            window.__benchPrefetch ??= { at: Date.now(), hrefs: [] };
            preload(...args);
            for (const l of document.querySelectorAll('link[rel="modulepreload"]'))
              if (!before.has(l.href)) window.__benchPrefetch.hrefs.push(l.href);
          };
        },
      });
    };
    told('__outpostPrefetch');
    // The sign-in form's: Home's chunks and what a sign-in loads as it runs (prefetchSignIn).
    told('__outpostPrefetchSignIn');
  })();`);
  const page = await context.newPage();
  const asked = new Map<string, number>();
  page.on('request', (request) => {
    if (!asked.has(request.url())) asked.set(request.url(), Date.now());
  });
  const pending: Promise<Loaded | null>[] = [];
  page.on('response', (response) => {
    const url = response.url();
    const type = response.headers()['content-type'] ?? '';
    if (!/javascript/.test(type) && !/\.m?js(\?|$)/.test(url)) return;
    pending.push(
      response
        .body()
        .then((body) => ({ url, raw: body.length, gzip: gzipSync(body, { level: 9 }).length }))
        .catch(() => null),
    );
  });
  await page.goto(base + screen.path, { waitUntil: 'networkidle' });
  await page.waitForSelector(screen.ready, { timeout: 15_000 });
  await page.waitForLoadState('networkidle');
  const prefetch = await page.evaluate(
    () => (window as unknown as { __benchPrefetch?: { at: number; hrefs: string[] } }).__benchPrefetch,
  );
  const loaded = (await Promise.all(pending)).filter((l): l is Loaded => l !== null);
  await context.close();
  // A chunk the screen itself asked for before the prefetch stays the screen's.
  const ahead = new Set(prefetch?.hrefs ?? []);
  return loaded.map((l) => ({
    ...l,
    prefetched: ahead.has(l.url) && (asked.get(l.url) ?? 0) >= (prefetch?.at ?? Number.POSITIVE_INFINITY),
  }));
}

export async function run(args: string[]): Promise<void> {
  if (!chromiumAvailable()) {
    skip('first-screen JavaScript', `no Chromium at ${chromiumPath}`);
    return;
  }
  const verbose = args.includes('--verbose');
  const dirAt = args.indexOf('--client-dir');
  const clientDir = dirAt >= 0 ? args[dirAt + 1] : undefined;
  const server = await startAppServer(120_000, clientDir ? { clientDir } : {});
  const browser = await chromium.launch({ executablePath: chromiumPath, args: chromiumArgs });
  try {
    for (const screen of args.includes('--more') ? [...SCREENS, ...MORE_SCREENS] : SCREENS) {
      const budgeted = SCREENS.includes(screen);
      heading(`${screen.name} (${server.url}${screen.path})`);
      const all = await measure(browser, server.url, screen);
      const loaded = all.filter((l) => !l.prefetched);
      const ahead = all.filter((l) => l.prefetched);
      const raw = loaded.reduce((sum, l) => sum + l.raw, 0);
      const gzip = loaded.reduce((sum, l) => sum + l.gzip, 0);
      if (verbose) {
        for (const l of [...all].sort((a, b) => b.gzip - a.gzip)) {
          console.log(
            `    ${kb(l.gzip).padStart(9)} gzip ${kb(l.raw).padStart(9)} raw  ${new URL(l.url).pathname}${l.prefetched ? '  (prefetched for the next screen)' : ''}`,
          );
        }
      }
      info(screen.name, 'script files', String(loaded.length));
      info(screen.name, 'JS raw', kb(raw));
      if (ahead.length > 0)
        info(
          screen.name,
          'prefetched for the next screen',
          `${ahead.length} files, ${kb(ahead.reduce((sum, l) => sum + l.gzip, 0))} gzip (not counted)`,
        );
      if (!budgeted) {
        info(screen.name, 'JS gzip', kb(gzip));
        continue;
      }
      check({
        subject: screen.name,
        metric: 'JS gzip',
        value: kb(gzip),
        budget: `<= ${BUDGET_KB} KB`,
        ok: gzip <= BUDGET_KB * 1024,
      });
      check({
        subject: screen.name,
        metric: 'JS gzip (stretch)',
        value: kb(gzip),
        budget: `<= ${STRETCH_KB} KB`,
        ok: gzip <= STRETCH_KB * 1024,
        enforced: false,
      });
    }
  } finally {
    await browser.close();
    await server.stop();
  }
}
