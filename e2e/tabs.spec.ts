import { expect, test } from '@playwright/test';
import { freshPhone, Outpost, serverItems, uniqueTitle } from './pages/Outpost';

// This spec works offline: the service worker must serve the app and its chunks.
test.use({ serviceWorkers: 'allow' });

const PENDING = 'Pending sync';

test.beforeEach(() => {
  // The desktop header has the account menu this spec signs out with; the sync is the same on phones.
  test.skip(test.info().project.name !== 'desktop', 'runs in the desktop project only');
});

test('two tabs offline with changes in both: after reconnect each change is on the server exactly once; signing out in one signs out both', async ({
  page,
  context,
}) => {
  await page.emulateMedia({ reducedMotion: 'reduce' });
  const first = new Outpost(page);
  await first.skipOnboarding();
  await first.signIn(freshPhone(), 'Two Tabs');
  await first.expectHomeAfterSignIn();
  const secondPage = await context.newPage();
  await secondPage.emulateMedia({ reducedMotion: 'reduce' });
  const second = new Outpost(secondPage);
  await second.goto('/');
  await expect(second.heading('Home')).toBeVisible();
  await expect(secondPage.getByRole('button', { name: 'Account menu' })).toBeVisible();

  const fromFirst = [uniqueTitle('Tab one todo'), uniqueTitle('Tab one todo')];
  const fromSecond = [uniqueTitle('Tab two todo'), uniqueTitle('Tab two todo')];

  await test.step('offline: two todos in each tab; each tab shows all four from IndexedDB', async () => {
    await second.waitForOfflineReady();
    await context.setOffline(true);
    for (const title of fromFirst) await first.quickAdd('todo', title);
    for (const title of fromSecond) await second.quickAdd('todo', title);
    for (const title of [...fromFirst, ...fromSecond]) {
      await expect(first.row(title)).toContainText(PENDING);
      await expect(second.row(title)).toContainText(PENDING);
    }
    await expect(page.getByRole('status').filter({ hasText: /^Offline/ })).toBeVisible();
  });

  await test.step('back online: both tabs settle and each todo is on the server once', async () => {
    await context.setOffline(false);
    for (const title of [...fromFirst, ...fromSecond]) {
      await expect(first.row(title)).not.toContainText(PENDING, { timeout: 15_000 });
      await expect(second.row(title)).not.toContainText(PENDING, { timeout: 15_000 });
    }
    const titles = (await serverItems(page.request, 'type=todo')).map((item) => item.title);
    for (const title of [...fromFirst, ...fromSecond]) {
      expect(
        titles.filter((t) => t === title),
        title,
      ).toHaveLength(1);
    }
  });

  await test.step('signing out in one tab signs out the other', async () => {
    await page.getByRole('button', { name: 'Account menu' }).click();
    await page.getByRole('menuitem', { name: 'Log out' }).click();
    await expect(page.getByRole('link', { name: 'Sign In' })).toBeVisible();
    await expect(secondPage.getByRole('link', { name: 'Sign In' })).toBeVisible();
    await expect(secondPage.getByRole('button', { name: 'Account menu' })).toHaveCount(0);
  });
});
