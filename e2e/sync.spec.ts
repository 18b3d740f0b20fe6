import { type BrowserContext, expect, type Page, test } from '@playwright/test';
import { freshPhone, Outpost, serverItems, uniqueTitle } from './pages/Outpost';

// This spec works offline: the service worker must serve the app and its chunks.
test.use({ serviceWorkers: 'allow' });

/** A signed-in device: onboarding marked done, then /login with the phone and a name. */
async function signedInDevice(page: Page, phone: string, name: string): Promise<Outpost> {
  await page.emulateMedia({ reducedMotion: 'reduce' });
  const app = new Outpost(page);
  await app.skipOnboarding();
  await app.signIn(phone, name);
  await app.expectHomeAfterSignIn();
  return app;
}

const PENDING = 'Pending sync';

test('a guest signs in: the Upgrade dialog shows progress and the items reach the server', async ({
  page,
}, testInfo) => {
  await page.emulateMedia({ reducedMotion: 'reduce' });
  const app = new Outpost(page);
  await app.skipOnboarding();
  const campaign = uniqueTitle('Guest campaign');
  const task = uniqueTitle('Guest task');
  const todo = uniqueTitle('Guest todo');

  await test.step('as a guest: a campaign with a task, and a todo on its own', async () => {
    await app.goto('/');
    await app.quickAdd('campaign', campaign);
    await app.quickAdd('todo', todo);
    await app.row(campaign).getByRole('link', { name: campaign }).click();
    // The campaign's page, not Home's quick add still on screen while the route loads.
    await expect(page.getByRole('heading', { level: 1, name: campaign })).toBeVisible();
    await app.quickAdd('task', task);
    await app.navigate('Home');
  });

  // Each upload takes a moment, as on a real network, so the progress is there to be seen.
  await page.route('**/api/items', async (route) => {
    if (route.request().method() === 'POST') await new Promise((resolve) => setTimeout(resolve, 400));
    await route.continue();
  });

  await test.step('sign in: Upgrading Your Account, progress, Upgrade complete!', async () => {
    await app.signIn(freshPhone(), 'Upgrade Tester');
    const dialog = page.getByRole('dialog', { name: 'Upgrading Your Account' });
    await expect(dialog).toBeVisible();
    const progress = dialog.getByRole('progressbar', { name: 'Upgrade progress' });
    await expect(progress).toBeVisible();
    await expect(dialog.getByText(/\d of 3 items/)).toBeVisible();
    await app.screenshot(testInfo, 'upgrade-dialog');
    const complete = page.getByRole('dialog').getByText('Upgrade complete!');
    await expect(complete).toBeVisible({ timeout: 15_000 });
    await expect(page.getByRole('dialog', { name: /You're all set/ })).toBeVisible();
    // It closes itself after a short pause.
    await expect(page.getByRole('dialog')).toHaveCount(0, { timeout: 10_000 });
  });

  await test.step('the items are on the server, the hierarchy kept', async () => {
    const items = await serverItems(page.request);
    const byTitle = new Map(items.map((item) => [item.title, item]));
    expect([...byTitle.keys()]).toEqual(expect.arrayContaining([campaign, task, todo]));
    expect(byTitle.get(task)?.parent_id).toBe(byTitle.get(campaign)?.id);
    expect(byTitle.get(campaign)?.parent_id ?? null).toBeNull();
    expect(byTitle.get(todo)?.parent_id ?? null).toBeNull();
    // No copies: each item went up once.
    expect(items.filter((item) => [campaign, task, todo].includes(item.title))).toHaveLength(3);
    await expect(app.row(campaign)).toBeVisible();
    await expect(app.main.getByText(PENDING)).toHaveCount(0);
  });
});

test('offline: a new todo is Pending sync, then synced when the connection returns', async ({
  page,
  context,
}) => {
  // Sync behaviour, the same at any size; the first test here covers the phone layout.
  test.skip(test.info().project.name !== 'desktop', 'runs in the desktop project only');
  const app = await signedInDevice(page, freshPhone(), 'Offline Tester');
  const todo = uniqueTitle('Offline todo');
  const badge = page.getByRole('status').filter({ hasText: /^(Offline|Online|Syncing)/ });

  await app.waitForOfflineReady();
  await context.setOffline(true);
  await expect(badge).toHaveText(/Offline/);
  await app.quickAdd('todo', todo);
  await expect(app.row(todo)).toContainText(PENDING);
  await expect(badge).toContainText(/Offline/);
  // The browser is offline; the test's own requests are not, and the server has not seen it yet.
  expect((await serverItems(page.request, 'type=todo')).map((item) => item.title)).not.toContain(todo);

  await context.setOffline(false);
  await expect(app.row(todo)).not.toContainText(PENDING, { timeout: 15_000 });
  await expect
    .poll(async () => (await serverItems(page.request, 'type=todo')).map((item) => item.title))
    .toContain(todo);
  // Exactly once, though the create was replayed from the queue.
  expect((await serverItems(page.request, 'type=todo')).filter((item) => item.title === todo)).toHaveLength(
    1,
  );
});

test('two devices of one user: an offline edit meets an online edit, the user picks a version', async ({
  page,
  context,
  browser,
}, testInfo) => {
  // Sync behaviour, the same at any size; the first test here covers the phone layout.
  test.skip(test.info().project.name !== 'desktop', 'runs in the desktop project only');
  const phone = freshPhone();
  const original = uniqueTitle('Shared todo');
  const fromA = `${original} (device A)`;
  const fromB = `${original} (device B)`;

  const a = await signedInDevice(page, phone, 'Two Devices');
  const { viewport, isMobile, hasTouch, deviceScaleFactor, baseURL } = testInfo.project.use;
  const contextB: BrowserContext = await browser.newContext({
    viewport,
    isMobile,
    hasTouch,
    deviceScaleFactor,
    baseURL,
  });
  try {
    const b = await signedInDevice(await contextB.newPage(), phone, 'Two Devices');

    await test.step('device A adds a todo; device B sees it', async () => {
      await a.quickAdd('todo', original);
      await expect(a.row(original)).toBeVisible();
      await expect(a.row(original)).not.toContainText(PENDING, { timeout: 10_000 });
      await seesAfterSync(b, original);
    });

    await test.step('A offline renames it; B renames it online', async () => {
      await a.waitForOfflineReady();
      await context.setOffline(true);
      await renameInline(a, original, fromA);
      await expect(a.row(fromA)).toContainText(PENDING);

      await renameInline(b, original, fromB);
      await expect(b.row(fromB)).not.toContainText(PENDING, { timeout: 10_000 });
      await expect
        .poll(async () => (await serverItems(b.page.request, 'type=todo')).map((item) => item.title))
        .toContain(fromB);
    });

    await test.step('A back online: Sync Conflicts Detected; keep the local version', async () => {
      await context.setOffline(false);
      const dialog = page.getByRole('dialog', { name: 'Sync Conflicts Detected' });
      await expect(dialog).toBeVisible({ timeout: 15_000 });
      await expect(
        dialog.getByText(
          'Some items were modified both locally and on the server. Please choose which version to keep.',
        ),
      ).toBeVisible();
      const resolve = dialog.getByRole('button', { name: 'Resolve Conflicts' });
      await expect(resolve).toBeDisabled();
      await a.screenshot(testInfo, 'conflict-dialog');
      expect(await a.seriousA11yViolations()).toEqual([]);
      const conflicts = dialog.getByRole('group');
      const count = await conflicts.count();
      expect(count).toBeGreaterThan(0);
      for (let i = 0; i < count; i++) {
        await conflicts
          .nth(i)
          .getByRole('radio', { name: /Keep Local Version/ })
          .check();
      }
      await expect(resolve).toBeEnabled();
      await resolve.click();
      await expect(dialog).toBeHidden();
    });

    await test.step("A's title is on the server and on both devices", async () => {
      await expect
        .poll(async () => (await serverItems(page.request, 'type=todo')).map((item) => item.title), {
          timeout: 15_000,
        })
        .toContain(fromA);
      const titles = (await serverItems(page.request, 'type=todo')).map((item) => item.title);
      expect(titles).not.toContain(fromB);
      await expect(a.row(fromA)).toBeVisible();
      await expect(a.row(fromA)).not.toContainText(PENDING, { timeout: 10_000 });
      await seesAfterSync(b, fromA);
      await expect(b.row(fromB)).toHaveCount(0);
    });
  } finally {
    await contextB.close();
  }
});

/** Clicks a todo's title, types the new one and saves with Enter. */
async function renameInline(app: Outpost, from: string, to: string) {
  await app
    .row(from)
    .getByRole('button', { name: `Edit title: ${from}` })
    .click();
  const input = app.main.getByRole('textbox', { name: 'Title', exact: true });
  await expect(input).toBeFocused();
  await input.fill(to);
  await input.press('Enter');
  await expect(app.row(to)).toBeVisible();
}

/**
 * Waits for a device to show an item another device changed, without a reload: the server's
 * `changed` event (GET /api/events) makes the client pull (ARCHITECTURE §6).
 */
async function seesAfterSync(app: Outpost, title: string) {
  await expect(app.row(title)).toBeVisible({ timeout: 15_000 });
}
