import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type BrowserContext, expect, test } from '@playwright/test';
import { repoRoot } from '../scripts/lib/paths';
import { startOwnServer, tempDataDir } from './lib/servers';
import { Outpost } from './pages/Outpost';

// This spec works offline: the service worker must serve the app and its chunks.
test.use({ serviceWorkers: 'allow' });

// About the service worker, not the layout: one viewport is enough.
test.beforeEach(() => {
  test.skip(test.info().project.name !== 'desktop', 'runs in the desktop project only');
});

/** The registration's state as the page sees it. */
function workerState() {
  return navigator.serviceWorker.getRegistration().then((r) => ({
    active: Boolean(r?.active),
    waiting: Boolean(r?.waiting),
    controlled: Boolean(navigator.serviceWorker.controller),
  }));
}

test('a new deploy shows Update available; Reload activates the new version and reloads the page', async ({
  browser,
}, testInfo) => {
  // A server of its own, the worker's delayed registration and two precache runs: more than the
  // default. 14 s alone, but past 90 s once on a loaded CI runner (its two workers both in the browser phase).
  test.setTimeout(150_000);
  // Its own server on its own copy of the build, so "deploying" a new version touches nothing shared.
  const clientDir = mkdtempSync(path.join(tmpdir(), 'outpost-e2e-client-'));
  cpSync(path.join(repoRoot, 'dist/client'), clientDir, { recursive: true });
  const data = tempDataDir();
  const server = await startOwnServer({ dataDir: data.dir, clientDir });
  let context: BrowserContext | null = null;
  try {
    const { viewport } = testInfo.project.use;
    context = await browser.newContext({ viewport, baseURL: server.url });
    const page = await context.newPage();
    const app = new Outpost(page);
    await app.skipOnboarding();

    await test.step('first visit: the worker installs and controls the page, with no update toast', async () => {
      await app.goto('/');
      await expect(app.heading('Home')).toBeVisible();
      // It registers once the page is idle after load (src/client/main.tsx).
      await page.evaluate(async () => {
        await navigator.serviceWorker.ready;
      });
      await expect
        .poll(() => page.evaluate(workerState), { timeout: 15_000 })
        .toMatchObject({ controlled: true });
      await expect(app.toast('Update available')).toHaveCount(0);
    });

    await test.step('a new version is deployed; the check on showing the tab finds it', async () => {
      const sw = path.join(clientDir, 'sw.js');
      writeFileSync(sw, `${readFileSync(sw, 'utf8')}\n// the next deploy\n`);
      // The server prefers the compressed copies; they belong to the old version.
      rmSync(`${sw}.br`, { force: true });
      rmSync(`${sw}.gz`, { force: true });
      // The app checks for a new worker when the tab becomes visible again (src/client/app/pwa.ts).
      await page.evaluate(() => document.dispatchEvent(new Event('visibilitychange')));
      await expect(app.toast('Update available')).toBeVisible({ timeout: 15_000 });
      await expect(app.toast('A new version of Outpost is ready.')).toBeVisible();
      expect(await page.evaluate(workerState)).toMatchObject({ waiting: true });
    });

    await test.step('Reload: the new worker takes over and the page reloads without the toast', async () => {
      const reloaded = page.waitForEvent('framenavigated');
      await page.getByRole('button', { name: 'Reload' }).click();
      await reloaded;
      await expect(app.heading('Home')).toBeVisible();
      await expect
        .poll(() => page.evaluate(workerState), { timeout: 15_000 })
        .toMatchObject({ active: true, waiting: false, controlled: true });
      await expect(app.toast('Update available')).toHaveCount(0);
    });
  } finally {
    await context?.close();
    await server.stop();
    data.remove();
    rmSync(clientDir, { recursive: true, force: true });
  }
});
