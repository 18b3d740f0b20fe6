import { readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, gzip, constants as zlibConstants } from 'node:zlib';
import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig, minify, type Plugin, type Rolldown } from 'vite';
import { VitePWA } from 'vite-plugin-pwa';
import { patternSource, ROUTE_TABLE, readsServerData, routeAlso } from './src/client/app/routeTable';

/** Where `npm run dev` runs the API (scripts/dev.ts starts it there). */
export const DEV_API_PORT = 3001;
export const DEV_CLIENT_PORT = 3000;

const apiTarget = `http://127.0.0.1:${DEV_API_PORT}`;

const gzipAsync = promisify(gzip);
const brotliAsync = promisify(brotliCompress);

/**
 * Writes a .gz and a .br beside every text file of the build, once, at build time: the server's
 * static files are served with `preCompressed` (src/server/app.ts), so a phone downloads ~4× less
 * and the server never compresses per request.
 */
function precompress(): Plugin {
  let outDir = '';
  return {
    name: 'outpost-precompress',
    apply: 'build',
    enforce: 'post',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    async closeBundle() {
      const files = (await readdir(outDir, { recursive: true })).filter((f) =>
        /\.(js|css|html|svg|webmanifest|json)$/.test(f),
      );
      await Promise.all(
        files.map(async (file) => {
          const full = path.join(outDir, file);
          const body = await readFile(full);
          if (body.length < 1024) return;
          await writeFile(`${full}.gz`, await gzipAsync(body, { level: 9 }));
          await writeFile(
            `${full}.br`,
            await brotliAsync(body, { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 11 } }),
          );
        }),
      );
    },
  };
}

/**
 * Moves the build's manifest (.vite/manifest.json) out of the served folder before the files are
 * precompressed: which chunk holds which module is for the browser specs, not for visitors.
 */
function manifestOutside(): Plugin {
  let outDir = '';
  return {
    name: 'outpost-manifest-outside',
    apply: 'build',
    enforce: 'post',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    async closeBundle() {
      const written = path.join(outDir, '.vite', 'manifest.json');
      // Beside the folder it describes (dist/client-manifest.json, scripts/lib/clientBuild.ts
      // clientManifest), so a build into another folder (a bench's --outDir) keeps its own.
      await rename(written, `${outDir}-manifest.json`);
      await rm(path.join(outDir, '.vite'), { recursive: true, force: true });
    },
  };
}

/**
 * The sync engine and the features' sync parts, as data/sync/lazyEngine.ts and the sign-in's steps
 * load them: one chunk (syncEngineChunk), and downloaded from the sign-in form (SIGN_IN_MODULES).
 */
const SYNC_ENGINE_MODULES = [
  'data/sync/index',
  'data/sync/kinds',
  'data/sync/guestUpgrade',
  'data/sync/deviceWipe',
  'data/comments/commentSync',
  'data/timeEntries/timeSync',
  'data/attachments/attachmentSync',
] as const;

/**
 * What a sign-in loads as it runs, downloaded from the sign-in form (router.tsx prefetchSignIn): asked
 * for at the click instead, these thirty chunks took HTTP/1.1's six connections from the sign-in's
 * own requests and its first page (scale --timeline). First what Home waits for: the sign-in's steps
 * (data/client.ts onLogin) and a guest's celebration (app/GlobalOverlays.tsx); then, after Home's
 * chunks, what comes after its first rows: the sync engine with the funnel and the features' sync
 * parts (data/sync/lazyEngine.ts), the signed-in header's saved views and the server commands
 * Home's first signed-in render sends (the views' refresh, a shared campaign's departure check).
 */
const SIGN_IN_MODULES = {
  beforeHome: ['data/signInSteps', 'data/sync/deviceWipe', 'sync/UpgradeOverlay'],
  afterHome: [
    ...SYNC_ENGINE_MODULES,
    'data/changes/applyLocalChange',
    'views/ViewsNav',
    'data/commands/views',
    'data/commands/sharing',
  ],
} as const;

/**
 * Writes each screen's chunks into the built public/theme-init.js, which runs in the document's head
 * and starts their download at once (modulepreload), beside the main chunk: otherwise a screen's chunk
 * is only asked for once the main chunk has arrived and run, and its imports one round trip later
 * still. Per route (src/client/app/routeTable.ts): the screen's chunk with every chunk it imports
 * statically, plus the QueryClient's and the server reads' where the screen reads server data, and the
 * modules it loads as it opens (`also`: drag and drop on the screens that reorder); and the data layer's chunks
 * (src/client/data/client.ts, data/page.ts), which every screen with items starts right after
 * its first paint; and what a sign-in loads (SIGN_IN_MODULES). Runs before vite-plugin-pwa's and precompress()'s closeBundle, so the service
 * worker's revision and the .br/.gz copies are of the written file.
 */
function firstScreenPreloads(): Plugin {
  let outDir = '';
  /** Each chunk once (files), then the routes and the data layer as indexes into it: a smaller head script. */
  let plan: {
    files: string[];
    routes: [string, number[]][];
    data: number[];
    signIn: [number[], number[]];
  } | null = null;
  return {
    name: 'outpost-first-screen-preloads',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    generateBundle(_, bundle) {
      const chunks = Object.values(bundle).filter((o) => o.type === 'chunk');
      const byModule = (file: string) => {
        const suffix = path.join('src', 'client', file);
        const isIt = (id: string | null) => id?.replace(/\.tsx?$/, '').endsWith(suffix) ?? false;
        // A screen is its chunk's entry; a shared module (the data client) is one of its chunk's modules.
        const chunk =
          chunks.find((c) => isIt(c.facadeModuleId)) ?? chunks.find((c) => c.moduleIds.some(isIt));
        if (!chunk) throw new Error(`firstScreenPreloads: no chunk for src/client/${file}`);
        return chunk;
      };
      // What index.html already loads (the entry and its static imports) is never listed again.
      const entry = chunks.find((c) => c.isEntry);
      if (!entry) throw new Error('firstScreenPreloads: no entry chunk');
      const withImports = (fileName: string, into = new Set<string>()): Set<string> => {
        if (into.has(fileName)) return into;
        into.add(fileName);
        const chunk = chunks.find((c) => c.fileName === fileName);
        for (const dep of chunk?.imports ?? []) withImports(dep, into);
        return into;
      };
      const initial = withImports(entry.fileName);
      const files = (...modules: string[]) => {
        const all = new Set<string>();
        for (const m of modules) withImports(byModule(m).fileName, all);
        return [...all].filter((f) => !initial.has(f)).map((f) => `/${f}`);
      };
      const index: string[] = [];
      const indexes = (list: string[]) =>
        list.map((file) => {
          if (!index.includes(file)) index.push(file);
          return index.indexOf(file);
        });
      plan = {
        files: index,
        routes: ROUTE_TABLE.map((route) => [
          patternSource(route.path),
          indexes(
            files(
              route.module,
              ...routeAlso(route),
              ...(readsServerData(route) ? ['app/queryProvider', 'data/commands/server'] : []),
            ),
          ),
        ]),
        data: indexes(files('data/client', 'data/page')),
        signIn: [indexes(files(...SIGN_IN_MODULES.beforeHome)), indexes(files(...SIGN_IN_MODULES.afterHome))],
      };
    },
    async writeBundle() {
      if (!plan) throw new Error('firstScreenPreloads: the bundle was not read');
      const file = path.join(outDir, 'theme-init.js');
      const text = await readFile(file, 'utf8');
      if (!text.includes("'__OUTPOST_PRELOADS__'"))
        throw new Error('firstScreenPreloads: no placeholder in theme-init.js');
      // Minified here: public/ files are copied as they are, comments and all, and this one is on
      // every first load.
      const { code, errors } = await minify(
        'theme-init.js',
        text.replace("'__OUTPOST_PRELOADS__'", JSON.stringify(plan)),
        { compress: true, mangle: true },
      );
      if (errors.length > 0) throw new Error(`firstScreenPreloads: ${errors[0]?.message}`);
      await writeFile(file, code);
    },
  };
}

/** Every module `roots` import statically, the roots included. */
function reachFrom(imports: ReadonlyMap<string, readonly string[]>, roots: Iterable<string>): Set<string> {
  const seen = new Set<string>();
  const stack = [...roots];
  for (let id = stack.pop(); id !== undefined; id = stack.pop()) {
    if (seen.has(id)) continue;
    seen.add(id);
    stack.push(...(imports.get(id) ?? []));
  }
  return seen;
}

/** A chunk of exactly the modules `test` names (their other imports stay where the bundler puts them). */
function groupOf(name: string, test: (id: string) => boolean): Rolldown.CodeSplittingGroup {
  return { name, test, priority: 1, includeDependenciesRecursively: false };
}

/**
 * The data layer as one chunk: what src/client/data/client.ts and data/page.ts import statically, which
 * every screen but sign-in and onboarding starts after its first paint (those two never load it), and
 * the live reads the screens' queries import (data/live.ts), which need it anyway. Left
 * to itself the bundler cut it into a chunk per set of screens sharing a module, a dozen files on Home,
 * each paying its own compression and imports: ~3 KB gzip more on every screen with items (npm run
 * bench -- bundle --more). The group does not pull its modules' other imports in
 * (`includeDependenciesRecursively: false`: a module the sign-in screens share stays out), and the
 * build fails if two chunks come to import each other.
 */
function dataLayerChunk(): { plugin: Plugin; group: Rolldown.CodeSplittingGroup } {
  const imports = new Map<string, readonly string[]>();
  let members = new Set<string>();
  const reach = (roots: Iterable<string>) => reachFrom(imports, roots);
  const modulesOf = (...files: string[]) =>
    [...imports.keys()].filter((id) =>
      files.some((file) => id.replace(/\\/g, '/').endsWith(`/src/client/${file}`)),
    );
  const plugin: Plugin = {
    name: 'outpost-data-layer-chunk',
    apply: 'build',
    moduleParsed(info) {
      imports.set(info.id, info.importedIds);
    },
    buildEnd() {
      const shell = reach(modulesOf('main.tsx'));
      const signIn = reach(modulesOf('login/LoginPage.tsx', 'onboarding/OnboardingPage.tsx'));
      // The label rules ride along: every list's rows read them (items/ItemRow.tsx), and their reads
      // moved to a later chunk (data/reads/laterReads.ts); alone they would be one more file on Home.
      const alongside = [...imports.keys()].filter((id) =>
        id.replace(/\\/g, '/').endsWith('/src/shared/labels.ts'),
      );
      members = new Set(
        [...reach(modulesOf('data/client.ts', 'data/page.ts', 'data/live.ts')), ...alongside].filter(
          (id) => !shell.has(id) && !signIn.has(id),
        ),
      );
      if (members.size === 0) throw new Error('dataLayerChunk: no data layer (did data/client.ts move?)');
    },
    generateBundle(_, bundle) {
      const chunks = Object.values(bundle).filter((o) => o.type === 'chunk');
      const byName = new Map(chunks.map((c) => [c.fileName, c.imports]));
      const state = new Map<string, 'open' | 'done'>();
      const visit = (file: string, path: string[]) => {
        state.set(file, 'open');
        for (const dep of byName.get(file) ?? []) {
          if (state.get(dep) === 'open')
            throw new Error(`dataLayerChunk: chunks import each other: ${[...path, dep].join(' -> ')}`);
          if (!state.has(dep)) visit(dep, [...path, dep]);
        }
        state.set(file, 'done');
      };
      for (const c of chunks) if (!state.has(c.fileName)) visit(c.fileName, [c.fileName]);
    },
  };
  return { plugin, group: groupOf('data', (id) => members.has(id)) };
}

const dataLayer = dataLayerChunk();

/**
 * The sync engine as one chunk: the modules only the engine and the features' sync parts reach
 * (data/sync/lazyEngine.ts loads them together, as a sign-in starts). Left to itself the bundler cut
 * them into a chunk per set of importers, twenty-odd files, and over HTTP/1.1's six connections those
 * requests held back the sign-in's first page (scale --timeline). A module anything else reaches (a
 * guest's write path, a screen, the shell) stays out, so a guest still never downloads the engine.
 */
function syncEngineChunk(): { plugin: Plugin; group: Rolldown.CodeSplittingGroup } {
  const statics = new Map<string, readonly string[]>();
  const lazies = new Set<string>();
  let members = new Set<string>();
  const reach = (roots: Iterable<string>) => reachFrom(statics, roots);
  const isOneOf = (id: string, files: readonly string[]) =>
    files.some((file) => id.replace(/\\/g, '/').endsWith(`/src/client/${file}`));
  const ROOTS = SYNC_ENGINE_MODULES.map((file) => `${file}.ts`);
  const plugin: Plugin = {
    name: 'outpost-sync-engine-chunk',
    apply: 'build',
    moduleParsed(info) {
      statics.set(info.id, info.importedIds);
      for (const id of info.dynamicallyImportedIds) lazies.add(id);
      if (info.isEntry) lazies.add(info.id);
    },
    buildEnd() {
      const roots = [...lazies].filter((id) => isOneOf(id, ROOTS));
      if (roots.length !== ROOTS.length)
        throw new Error(`syncEngineChunk: ${ROOTS.length - roots.length} of its roots are not loaded lazily`);
      const elsewhere = reach([...lazies].filter((id) => !isOneOf(id, ROOTS)));
      members = new Set([...reach(roots)].filter((id) => !elsewhere.has(id)));
    },
  };
  return { plugin, group: groupOf('sync', (id) => members.has(id)) };
}

const syncEngine = syncEngineChunk();

/**
 * Dexie's own ES module build in the bundle instead of its UMD file behind a wrapper (the wrapper
 * guards Node's dual-package hazard, which a single bundle cannot have): ~1.3 KB less gzip on every
 * screen. Tests in Node keep the package's default entry.
 */
function dexieModuleBuild(): Plugin {
  const file = createRequire(import.meta.url).resolve('dexie/dist/modern/dexie.mjs');
  return {
    name: 'outpost-dexie-module-build',
    apply: 'build',
    enforce: 'pre',
    resolveId(source) {
      return source === 'dexie' ? file : null;
    },
  };
}

/**
 * React's hooks as plain bindings. React ships CommonJS, and the bundler reaches a CommonJS module's
 * exports from an ES module through a getter per property (`__toESM`), so every hook call in our code,
 * dnd-kit and Radix paid a function call more: ~2 ms of a board card's lift on this machine
 * (npm run bench -- board-drag --profile; rolldown/rolldown#8719). This ES module reads React's exports
 * once and re-exports them; only it imports the package itself.
 */
function reactAsModule(): Plugin {
  const id = '\0outpost-react-module';
  const names = Object.keys(createRequire(import.meta.url)('react') as object).filter(
    (name) => name !== 'default' && /^[A-Za-z_$][\w$]*$/.test(name),
  );
  return {
    name: 'outpost-react-module',
    apply: 'build',
    enforce: 'pre',
    resolveId(source, importer) {
      return source === 'react' && importer !== id ? id : null;
    },
    load(loaded) {
      if (loaded !== id) return null;
      return `import React from 'react';\nexport default React;\nexport const { ${names.join(', ')} } = React;\n`;
    },
  };
}

/**
 * Two libraries' modules made shakeable, so what the app never uses is left out of the bundle.
 * - React Router (its production build): it names every component and context at the top level
 *   (`Form.displayName = "Form"`) and makes them with unmarked calls (`React.forwardRef(...)`), so the
 *   bundler kept each one and all it reaches: the data router's forms, fetchers and server-component
 *   error handler, which a declarative router never renders. The names go (React DevTools shows the
 *   function's own) and those calls are marked pure. ~1.9 KB gzip on every screen. And `<Link>`'s
 *   prefetch links go: they render only under a framework (data) router, and under our declarative
 *   one would throw for want of its context, so with them go the route-module link builders they
 *   reach. ~1.4 KB gzip more on every screen (Home 194.3 -> 192.9 KB).
 * - Radix's collection: the module holds the legacy collection, which Tabs and menus use, and a newer
 *   one (an ordered dictionary class) that only Accordion and the one-time password field import; the
 *   top-level calls that name its functions and class (`__name(fn, "fn")`) kept it all. They go.
 */
function librariesShakeable(): Plugin {
  const LINK_PREFETCH = '/* @__PURE__ */ React10.createElement(PrefetchPageLinks, { page: href })';
  const require = createRequire(import.meta.url);
  const router = path.join(path.dirname(require.resolve('react-router')), '..', 'production');
  const collection = path.dirname(require.resolve('@radix-ui/react-collection'));
  return {
    name: 'outpost-libraries-shakeable',
    apply: 'build',
    enforce: 'pre',
    resolveId(source) {
      return source === 'react-router' ? path.join(router, 'index.mjs') : null;
    },
    transform(code, id) {
      if (id.startsWith(router) && id.endsWith('.mjs')) {
        if (code.includes('function LinkWithRef') && !code.includes(LINK_PREFETCH))
          throw new Error(`librariesShakeable: ${id} has changed (Link's prefetch links)`);
        return code
          .replace(/^[A-Za-z0-9_$]+\.displayName = [^;\n]+;$/gm, '')
          .replace(
            /^((?:export )?var [A-Za-z0-9_$]+ = )(React[0-9]*\.(?:forwardRef|createContext|memo)\()/gm,
            '$1/* @__PURE__ */ $2',
          )
          .replace(LINK_PREFETCH, 'null');
      }
      if (id.startsWith(collection) && id.endsWith('.mjs')) {
        const named = code
          .replace(/^__name\([A-Za-z0-9_$]+, "[A-Za-z0-9_$]+"\);$/gm, '')
          .replace(/static \{\s*__name\(this, "[A-Za-z0-9_$]+"\);\s*\}/g, '');
        if (named === code) throw new Error(`librariesShakeable: ${id} has changed`);
        return named;
      }
      return null;
    },
  };
}

/**
 * Compiles drag and drop ahead (V8's explicit compile hints): the chunks with @dnd-kit and the board
 * start with `//# allFunctionsCalledOnLoad`, so V8 compiles their functions while the chunk streams
 * in, on a background thread. Lazily, the lift of the first drag compiled ~56 functions on the main
 * thread, ~2.5 ms of its frame (npm run bench -- board-drag). Only these chunks: eager compilation of
 * code that may never run costs memory.
 */
function compileDragAhead(): Plugin {
  const HINT = '//# allFunctionsCalledOnLoad\n';
  return {
    name: 'outpost-compile-drag-ahead',
    apply: 'build',
    enforce: 'post',
    // After the minifier, which drops comments.
    generateBundle(_, bundle) {
      for (const chunk of Object.values(bundle)) {
        if (chunk.type !== 'chunk') continue;
        const drags = chunk.moduleIds.some(
          (id) => id.includes('/@dnd-kit/') || id.endsWith('/src/client/board/CampaignBoard.tsx'),
        );
        if (drags) chunk.code = HINT + chunk.code;
      }
    },
  };
}

/**
 * Asks for the entry script at low priority. The static app shell in index.html paints from the HTML
 * and the stylesheet alone, and on a slow link the scripts (~150 KB) would otherwise share the
 * connection with the stylesheet and hold that first paint back; theme-init.js does the same for the
 * screen's chunks it preloads. The browser still starts them at once, beside the stylesheet.
 */
function lowPriorityScripts(): Plugin {
  return {
    name: 'outpost-low-priority-scripts',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(html) {
        const entry = /<script type="module" crossorigin src=/;
        if (!entry.test(html)) throw new Error('lowPriorityScripts: no entry script in index.html');
        return html.replace(entry, '<script type="module" fetchpriority="low" crossorigin src=');
      },
    },
  };
}

export default defineConfig({
  root: import.meta.dirname,
  plugins: [
    react(),
    tailwindcss(),
    VitePWA({
      // 'prompt': a new version waits until the user takes the 'Update available' toast's Reload
      // (src/client/app/pwa.ts), so a half-filled form is never reloaded away under them.
      registerType: 'prompt',
      // The server's CSP allows no inline scripts; src/client/app/pwa.ts registers from the bundle.
      injectRegister: false,
      manifest: {
        id: '/',
        name: 'Outpost',
        short_name: 'Outpost',
        description: 'Offline-first campaigns, tasks and todos',
        start_url: '/',
        scope: '/',
        display: 'standalone',
        // Light theme colours; index.html's media-scoped theme-color metas give the dark ones.
        theme_color: '#ffffff',
        background_color: '#ffffff',
        icons: [
          { src: '/pwa-192x192.png', sizes: '192x192', type: 'image/png', purpose: 'any' },
          { src: '/pwa-512x512.png', sizes: '512x512', type: 'image/png', purpose: 'any' },
          { src: '/pwa-maskable-512x512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
        ],
        // A phone's share sheet lists Outpost: what is shared opens in quick add (public/share-sw.js
        // takes the POST; before any worker runs, src/server/share/routes.ts answers it).
        share_target: {
          action: '/share',
          method: 'POST',
          enctype: 'multipart/form-data',
          params: {
            title: 'title',
            text: 'text',
            url: 'url',
            files: [{ name: 'files', accept: ['image/*', 'application/pdf', 'text/*', '*/*'] }],
          },
        },
      },
      workbox: {
        // Every route chunk (React.lazy) is precached, so any screen opens offline, not only the one
        // visited first.
        globPatterns: ['**/*.{js,css,html,svg,png,ico,webmanifest,woff2}'],
        // Client routes are the single-page app; the API and the anti-forgery endpoint never are.
        navigateFallback: '/index.html',
        navigateFallbackDenylist: [/^\/api/, /^\/sanctum/],
        // No runtimeCaching: API responses live in IndexedDB, never in a Cache Storage copy.
        cleanupOutdatedCaches: true,
        // Web Push (show a push, open its item on click) and the share target (keep what a phone shares,
        // open quick add with it): plain scripts in public/, kept out of the bundle. The share script's
        // fetch listener comes before workbox's, which never answers a POST anyway.
        importScripts: ['push-sw.js', 'share-sw.js'],
        // A new worker waits for the user's Reload ('prompt'); it then claims every open tab.
        clientsClaim: true,
        skipWaiting: false,
      },
    }),
    dexieModuleBuild(),
    reactAsModule(),
    librariesShakeable(),
    compileDragAhead(),
    dataLayer.plugin,
    syncEngine.plugin,
    firstScreenPreloads(),
    lowPriorityScripts(),
    manifestOutside(),
    precompress(),
  ],
  build: {
    // The server serves this folder and scripts/start.ts checks its index.html for staleness.
    outDir: 'dist/client',
    emptyOutDir: true,
    // Which file holds which module, for the browser specs that slow or cut one chunk's download
    // (e2e/pages/chunks.ts); moved out of the served folder once written (manifestOutside).
    manifest: true,
    rolldownOptions: {
      output: {
        // A chunk is named by its hash alone: every screen's first load lists ~150 file names (the
        // preload map in the main chunk and in theme-init.js, each chunk's imports), and a module's
        // name in each cost Home 2.8 KB gzip and sign-in 1.9 KB (npm run bench -- bundle).
        chunkFileNames: 'assets/[hash].js',
        codeSplitting: {
          groups: [
            { name: 'shell', tags: ['$initial'], priority: 2 },
            dataLayer.group,
            syncEngine.group,
            // The small modules the data layer loads after the first screen are one chunk: the reads
            // Home does not make (data/reads/laterReads.ts), the sign-in's steps, the write path's
            // stale-guess check and the shared modules only they and later screens use. Each chunk's name is in every screen's preload map, so five small
            // chunks cost every screen more than they hold (npm run bench -- bundle).
            {
              name: 'data-later',
              test: /[\\/]src[\\/](client[\\/]data[\\/](reads[\\/](calendarQueries|labelQueries|itemPageReads)|signInSteps|changes[\\/]staleGuess)|shared[\\/](sameRecord|history))\.ts$/,
              priority: 1,
              includeDependenciesRecursively: false,
            },
          ],
        },
      },
      treeshake: {
        // The UI primitives only define components (forwardRef, displayName), so an unused one can go:
        // without this, importing one through components/ui/index.ts drags every Radix part (menus,
        // tabs, radio groups, dialogs) into the first screen's chunk. Every other module keeps the
        // bundler's own judgement (undefined).
        moduleSideEffects: (id) =>
          /[\\/]src[\\/]client[\\/]components[\\/]ui[\\/]/.test(id) ? false : undefined,
      },
    },
  },
  server: {
    port: DEV_CLIENT_PORT,
    strictPort: true,
    // No changeOrigin: the API must see the browser's Host so cookies and origin checks match
    // what production (same origin) does.
    proxy: {
      '/api': { target: apiTarget },
      '/sanctum': { target: apiTarget },
    },
  },
});
