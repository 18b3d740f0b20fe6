import { expect, test } from '@playwright/test';
import { openDatabase, rows, sql } from '../src/server/db/client';
import { seedAccount } from '../testkit/seedAccount';
import { startOwnServer, tempDataDir } from './lib/servers';
import { freshPhone, Outpost } from './pages/Outpost';

const ITEMS = 30_000;

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

test('L7, L8: a fresh device signing in to 30,000 items shows "Syncing … of 30,000", then every screen right', async ({
  browser,
}, testInfo) => {
  test.skip(testInfo.project.name !== 'desktop', 'the pull is the same on a phone; one viewport is enough');
  test.setTimeout(240_000);
  // A server of its own, its database seeded before it starts (thousands of rows in seconds).
  const data = tempDataDir();
  const phone = freshPhone();
  const database = await openDatabase({ dataDir: data.dir });
  const seeded = await seedAccount(database.db, phone, 'First Sync', ITEMS);
  // What My List's tabs must count once everything is on the device: every item of the account by status.
  const byStatus = new Map(
    (
      await rows<{ status: string; n: number }>(
        database.db,
        sql`SELECT status, count(*)::int AS n FROM items WHERE user_id = ${seeded.userId} GROUP BY status`,
      )
    ).map((r) => [r.status, r.n]),
  );
  await database.close();
  const own = await startOwnServer({ dataDir: data.dir });
  const context = await browser.newContext({ baseURL: own.url, viewport: { width: 1280, height: 800 } });
  try {
    const page = await context.newPage();
    await page.emulateMedia({ reducedMotion: 'reduce' });
    // A local server answers in milliseconds; a moment for each of the first pages, as on a real
    // network, keeps the line on screen long enough to be read.
    let pages = 0;
    await page.route('**/api/sync?**', async (route) => {
      if (++pages <= 6) await new Promise((resolve) => setTimeout(resolve, 150));
      await route.continue();
    });
    const app = new Outpost(page);
    await app.skipOnboarding();
    await app.signIn(phone, 'First Sync');

    const line = page.getByRole('status').filter({ hasText: /^Syncing [\d,]+ of 30,000$/ });
    await expect(line).toBeVisible();
    await expect(line).toHaveAttribute('aria-live', 'polite');
    // What has arrived is on screen while the rest streams in.
    await expect(app.heading('Home')).toBeVisible();
    await expect(line).toBeHidden({ timeout: 180_000 });
    expect(await storedItems(page)).toBe(ITEMS);

    // Every item: the 300 campaigns on Home, a campaign's 10 tasks, a task's todos.
    await expect(page.getByRole('button', { name: 'View All (300 items)' })).toBeVisible();
    await app.row('Campaign 300').getByRole('link', { name: 'Campaign 300' }).click();
    await expect(
      app.main.locator('[data-item-id]').filter({ hasText: /^Task \d+ of Campaign 300/ }),
    ).toHaveCount(10);
    await app
      .row('Task 2999 of Campaign 300')
      .getByRole('link', { name: 'Task 2999 of Campaign 300' })
      .click();
    // 26,700 todos over 3,000 tasks: 8 or 9 each.
    const todos = app.main
      .locator('[data-item-id]')
      .filter({ hasText: /^Todo \d+ for Task 2999 of Campaign 300/ });
    await expect(todos.nth(7)).toBeVisible();
    expect(await todos.count()).toBeLessThanOrEqual(9);

    // My List counts every item by status from the indexes the sync kept (the seed's 20,000 open
    // and 10,000 done).
    await app.navigate('My List');
    for (const [tab, status] of [
      ['Queue', 'pending'],
      ['Active', 'in_progress'],
      ['Completed', 'completed'],
    ] as const) {
      const expected = byStatus.get(status) ?? 0;
      const badge = page.getByRole('tab', { name: new RegExp(`^${tab}`) });
      // A tab with nothing in it shows no number.
      if (expected > 0) await expect(badge).toContainText(String(expected));
      else await expect(badge).toHaveText(tab);
    }
  } finally {
    await context.close();
    await own.stop();
    data.remove();
  }
});
