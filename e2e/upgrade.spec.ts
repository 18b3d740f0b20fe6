import { expect, test } from '@playwright/test';
import { freshPhone, serverItems, uniqueTitle } from './pages/Outpost';
import { UpgradePage } from './pages/Upgrade';

const COUNT = 60;

test.beforeEach(() => {
  // Batching and replay are the same on a phone; sync.spec.ts opens the Upgrade dialog at phone size.
  test.skip(test.info().project.name !== 'desktop', 'runs in the desktop project only');
});

test('U1, U3: a guest with 60 items signs in: batches with progress, a dismissible dialog, each item once on the server', async ({
  page,
}, testInfo) => {
  test.setTimeout(120_000);
  await page.emulateMedia({ reducedMotion: 'reduce' });
  const app = new UpgradePage(page);
  await app.skipOnboarding();
  const prefix = uniqueTitle('Moved');
  const titles = Array.from({ length: COUNT }, (_, n) => `${prefix} ${n + 1}`);

  await test.step(`as a guest: ${COUNT} todos`, async () => {
    await app.importTodos(titles);
    await app.goto('/');
    await expect(app.heading('Home')).toBeVisible();
  });

  const batches: number[] = [];
  page.on('request', (request) => {
    if (request.method() === 'POST' && request.url().endsWith('/api/items/batch')) batches.push(Date.now());
  });
  const singles: string[] = [];
  page.on('request', (request) => {
    if (request.method() === 'POST' && request.url().endsWith('/api/items')) singles.push(request.url());
  });
  // Each batch takes a moment, as on a real network, so the progress can be seen and dismissed.
  const network = await app.slowBatches(2_500);

  await test.step('sign in: the dialog counts items sent of items to send, a batch at a time', async () => {
    await app.signIn(freshPhone(), 'Batch Mover');
    await expect(app.dialog).toBeVisible();
    await expect(app.dialog.getByRole('progressbar', { name: 'Upgrade progress' })).toBeVisible();
    await expect(app.dialog.getByText(new RegExp(`^\\d+ of ${COUNT} items$`))).toBeVisible();
    await expect.poll(async () => (await app.progress()).sent, { timeout: 15_000 }).toBeGreaterThan(0);
    const { sent } = await app.progress();
    expect(sent).toBeLessThan(COUNT);
    // A batch is about a fifth of the upload: 12 items at a time, never one by one.
    expect(sent % 12).toBe(0);
    // Later batches wait until the badge has been seen and clicked: screenshots are slow on a loaded machine.
    network.hold();
    await app.screenshot(testInfo, 'upgrade-dialog-light');
    await app.setTheme('dark');
    await app.screenshot(testInfo, 'upgrade-dialog-dark');
    await app.setTheme('light');
  });

  await test.step('dismissed, the upload goes on; the badge counts and reopens the dialog', async () => {
    await app.dialog.getByRole('button', { name: 'Continue in background' }).click();
    await expect(app.dialog).toBeHidden();
    await expect(app.badge).toBeVisible();
    await expect(app.badge).toContainText(new RegExp(`of ${COUNT} items`));
    await app.screenshot(testInfo, 'upgrade-badge-light');
    await app.setTheme('dark');
    await app.screenshot(testInfo, 'upgrade-badge-dark');
    await app.setTheme('light');
    await app.badge.click();
    await expect(app.dialog).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(app.dialog).toBeHidden();
    network.release();
    // The badge leaves when the last batch is stored.
    await expect(app.badge).toBeHidden({ timeout: 30_000 });
    await expect(page.getByRole('dialog')).toHaveCount(0);
  });

  await test.step('every item is on the server exactly once, in a handful of requests', async () => {
    const items = await serverItems(page.request);
    const moved = items.filter((item) => item.title.startsWith(prefix));
    expect(moved.map((item) => item.title).sort()).toEqual([...titles].sort());
    expect(singles).toEqual([]);
    expect(batches.length).toBeGreaterThanOrEqual(5);
    expect(batches.length).toBeLessThanOrEqual(6);
  });
});
