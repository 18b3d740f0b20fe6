import { readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, gzip, constants as zlibConstants } from 'node:zlib';
import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';
import { VitePWA } from 'vite-plugin-pwa';

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
 * Writes the URL of the data layer's chunk (src/client/data/client.ts: Dexie, the sync engine) into
 * the built public/theme-init.js, which starts its download on the screens that need it for their
 * first paint (see there). Runs before vite-plugin-pwa's and precompress()'s closeBundle, so the
 * service worker's revision and the .br/.gz copies are of the written file.
 */
function dataPreloadHint(): Plugin {
  let outDir = '';
  let dataChunk: string | null = null;
  return {
    name: 'outpost-data-preload-hint',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    generateBundle(_, bundle) {
      for (const output of Object.values(bundle)) {
        if (
          output.type === 'chunk' &&
          output.moduleIds.some((id) => /src[\\/]client[\\/]data[\\/]client\.ts$/.test(id))
        ) {
          dataChunk = output.fileName;
        }
      }
    },
    async writeBundle() {
      if (!dataChunk) throw new Error('dataPreloadHint: no chunk holds src/client/data/client.ts');
      const file = path.join(outDir, 'theme-init.js');
      const text = await readFile(file, 'utf8');
      if (!text.includes('__OUTPOST_DATA_CHUNK__'))
        throw new Error('dataPreloadHint: no placeholder in theme-init.js');
      await writeFile(file, text.replace('__OUTPOST_DATA_CHUNK__', `/${dataChunk}`));
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
        // A new worker waits for the user's Reload ('prompt'); it then claims every open tab.
        clientsClaim: true,
        skipWaiting: false,
      },
    }),
    dataPreloadHint(),
    precompress(),
  ],
  build: {
    // The server serves this folder and scripts/start.ts checks its index.html for staleness.
    outDir: 'dist/client',
    emptyOutDir: true,
    rolldownOptions: {
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
