import { type BrowserContext, expect, test } from '@playwright/test';
import { startOwnServer, tempDataDir } from './lib/servers';
import { freshPhone, Outpost, serverItems, uniqueTitle } from './pages/Outpost';

// This spec works offline: the service worker must serve the app and its chunks.
test.use({ serviceWorkers: 'allow' });

const PENDING = 'Pending sync';

// About the service worker and the sync queue, not the layout: one viewport is enough.
test.beforeEach(() => {
  test.skip(test.info().project.name !== 'desktop', 'runs in the desktop project only');
});

test('a reload with the server stopped and the network off opens the app with all local data; queued changes go up later', async ({
  browser,
}, testInfo) => {
  // Two server starts (each opens the embedded database) and a worker that registers 2 s after load:
  // 72 s in a fresh-clone CI, and over 90 s when the machine was loaded besides.
  test.setTimeout(150_000);
  // Its own server: this spec stops and restarts it, which the shared one must never do.
  const data = tempDataDir();
  const server = await startOwnServer({ dataDir: data.dir });
  let context: BrowserContext | null = null;
  try {
    const { viewport } = testInfo.project.use;
    context = await browser.newContext({ viewport, baseURL: server.url });
    const page = await context.newPage();
    await page.emulateMedia({ reducedMotion: 'reduce' });
    const app = new Outpost(page);
    await app.skipOnboarding();
    const online = uniqueTitle('Online todo');
    const offline = uniqueTitle('Offline todo');

    await test.step('first visit: sign in, add a todo, the service worker takes over', async () => {
      await app.signIn(freshPhone(), 'Offline Reloader');
      await app.expectHomeAfterSignIn();
      await app.quickAdd('todo', online);
      await expect(app.row(online)).not.toContainText(PENDING, { timeout: 10_000 });
      // The worker is active once every precached file is in Cache Storage.
      const scope = await page.evaluate(async () => (await navigator.serviceWorker.ready).scope);
      expect(scope).toBe(`${server.url}/`);
    });

    await test.step('server stopped, network off, reload: Home shows the items', async () => {
      await server.stop();
      await context?.setOffline(true);
      await page.reload();
      await expect(app.heading('Home')).toBeVisible();
      await expect(app.row(online)).toBeVisible();
      await expect(page.getByRole('status').filter({ hasText: /^Offline/ })).toBeVisible();
    });

    await test.step('another screen opens offline too (its chunk was precached)', async () => {
      await app.navigate('Completed');
      await app.navigate('Home');
    });

    await test.step('a todo added offline is Pending sync', async () => {
      await app.quickAdd('todo', offline);
      await expect(app.row(offline)).toContainText(PENDING);
    });

    await test.step('server back, network on: the todo syncs and is on the server once', async () => {
      await server.start();
      await context?.setOffline(false);
      await expect(app.row(offline)).not.toContainText(PENDING, { timeout: 15_000 });
      const titles = (await serverItems(page.request, 'type=todo')).map((item) => item.title);
      expect(titles.filter((title) => title === offline)).toHaveLength(1);
      expect(titles).toContain(online);
    });
  } finally {
    await context?.close();
    await server.stop();
    data.remove();
  }
});
