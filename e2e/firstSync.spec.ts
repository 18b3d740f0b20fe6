import { expect, test } from '@playwright/test';
import { openDatabase } from '../src/server/db/client';
import { seedAccount } from '../testkit/seedAccount';
import { startOwnServer, tempDataDir } from './lib/servers';
import { freshPhone, Outpost } from './pages/Outpost';

const ITEMS = 3000;

/** The items a fresh device holds, straight from its IndexedDB. */
function storedItems(page: import('@playwright/test').Page): Promise<number> {
  return page.evaluate(
    () =>
      new Promise<number>((resolve, reject) => {
        const open = indexedDB.open('Outpost');
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const request = open.result.transaction('items').objectStore('items').count();
          request.onsuccess = () => {
            open.result.close();
            resolve(request.result);
          };
        };
      }),
  );
}

test('S12: a fresh device signing in to 3,000 items shows "Syncing … of 3,000", then every item', async ({
  browser,
}, testInfo) => {
  test.skip(testInfo.project.name !== 'desktop', 'the pull is the same on a phone; one viewport is enough');
  test.setTimeout(120_000);
  // A server of its own, its database seeded before it starts (thousands of rows in seconds).
  const data = tempDataDir();
  const phone = freshPhone();
  const database = await openDatabase({ dataDir: data.dir });
  await seedAccount(database.db, phone, 'First Sync', ITEMS);
  await database.close();
  const own = await startOwnServer({ dataDir: data.dir });
  const context = await browser.newContext({ baseURL: own.url, viewport: { width: 1280, height: 800 } });
  try {
    const page = await context.newPage();
    await page.emulateMedia({ reducedMotion: 'reduce' });
    // A local server answers in milliseconds; a moment per page, as on a real network, keeps the
    // line on screen long enough to be read.
    await page.route('**/api/sync?**', async (route) => {
      await new Promise((resolve) => setTimeout(resolve, 150));
      await route.continue();
    });
    const app = new Outpost(page);
    await app.skipOnboarding();
    await app.signIn(phone, 'First Sync');

    const line = page.getByRole('status').filter({ hasText: /^Syncing [\d,]+ of 3,000$/ });
    await expect(line).toBeVisible();
    await expect(line).toHaveAttribute('aria-live', 'polite');
    // What has arrived is on screen while the rest streams in.
    await expect(app.heading('Home')).toBeVisible();
    await expect(line).toBeHidden({ timeout: 60_000 });
    expect(await storedItems(page)).toBe(ITEMS);

    // Every item: the 30 campaigns on Home, a campaign's 10 tasks, a task's todos.
    await expect(page.getByRole('button', { name: 'View All (30 items)' })).toBeVisible();
    await app.row('Campaign 30').getByRole('link', { name: 'Campaign 30' }).click();
    await expect(
      app.main.locator('[data-item-id]').filter({ hasText: /^Task \d+ of Campaign 30/ }),
    ).toHaveCount(10);
    await app.row('Task 299 of Campaign 30').getByRole('link', { name: 'Task 299 of Campaign 30' }).click();
    // 2,670 todos over 300 tasks: 8 or 9 each.
    const todos = app.main
      .locator('[data-item-id]')
      .filter({ hasText: /^Todo \d+ for Task 299 of Campaign 30/ });
    await expect(todos.nth(7)).toBeVisible();
    expect(await todos.count()).toBeLessThanOrEqual(9);
  } finally {
    await context.close();
    await own.stop();
    data.remove();
  }
});
