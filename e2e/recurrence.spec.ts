import { type BrowserContext, expect, type Locator, type Page, test } from '@playwright/test';
import { freshPhone, Outpost, uniqueTitle } from './pages/Outpost';

// This spec works offline: the service worker must serve the app and its chunks.
test.use({ serviceWorkers: 'allow' });

// Issue 16: repeating todos (ARCHITECTURE §5 Recurrence, SYNC.md N1–N4).

interface SeriesItem {
  id: number;
  title: string;
  status: string;
  due_date: string | null;
  recurrence: string | null;
  uuid: string;
  series_uuid: string | null;
}

async function signedInDevice(page: Page, phone: string): Promise<Outpost> {
  await page.emulateMedia({ reducedMotion: 'reduce' });
  const app = new Outpost(page);
  await app.skipOnboarding();
  await app.signIn(phone, 'Repeat Tester');
  await app.expectHomeAfterSignIn();
  return app;
}

/** Every row of this title on screen (the completed occurrence and the next share it). */
function rows(app: Outpost, title: string): Locator {
  return app.main.locator('[data-item-id]').filter({ has: app.page.getByText(title, { exact: true }) });
}

/** The row of the open occurrence: its todo icon offers 'Mark as done'. */
function openRow(app: Outpost, title: string): Locator {
  return rows(app, title).filter({ has: app.page.getByRole('button', { name: `Mark as done: ${title}` }) });
}

/** Adds a todo that repeats daily through the quick-add card's Repeat control. */
async function addDailyTodo(app: Outpost, title: string) {
  const form = app.quickAddForm();
  await form.getByRole('textbox').first().click();
  await form.getByText('Todo', { exact: true }).click();
  await form.getByRole('textbox', { name: 'Todo title' }).fill(title);
  const repeat = form.getByRole('combobox', { name: 'Repeat' });
  await repeat.click();
  await app.page.getByRole('option', { name: 'Daily' }).click();
  await expect(repeat).toHaveText(/Daily/);
  await form.getByRole('button', { name: 'Add todo' }).click();
  await expect(openRow(app, title)).toBeVisible();
}

async function serverSeries(page: Page, title: string): Promise<SeriesItem[]> {
  const response = await page.request.get('/api/items?type=todo&per_page=100');
  expect(response.status()).toBe(200);
  return ((await response.json()) as { data: SeriesItem[] }).data.filter((i) => i.title === title);
}

/** Tomorrow in the browser's zone, as the app counts it. */
async function tomorrowIn(page: Page): Promise<string> {
  return page.evaluate(() => {
    const d = new Date();
    d.setDate(d.getDate() + 1);
    const pad = (n: number) => String(n).padStart(2, '0');
    return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
  });
}

test('a daily todo, completed, brings tomorrow’s with the repeat icon', async ({ page }) => {
  const app = await signedInDevice(page, freshPhone());
  const title = uniqueTitle('Water the plants');
  await addDailyTodo(app, title);
  const first = openRow(app, title);
  await expect(first).toContainText('Every day');
  await expect(first.locator('[data-repeat] svg')).toBeVisible();

  await first.getByRole('button', { name: `Mark as done: ${title}` }).click();
  await expect(rows(app, title)).toHaveCount(2);
  const next = openRow(app, title);
  await expect(next).toHaveCount(1);
  await expect(next).toContainText('Every day');
  await expect(next.locator('[data-repeat] svg')).toBeVisible();

  const tomorrow = await tomorrowIn(page);
  await expect
    .poll(async () => (await serverSeries(page, title)).map((i) => [i.status, i.due_date]).sort())
    .toEqual([
      ['completed', expect.any(String)],
      ['pending', tomorrow],
    ]);

  // Custom: every N days, weeks on chosen weekdays, or months; every control labelled.
  const form = app.quickAddForm();
  await form.getByRole('textbox').first().click();
  await form.getByText('Todo', { exact: true }).click();
  await form.getByRole('combobox', { name: 'Repeat' }).click();
  await page.getByRole('option', { name: 'Custom…' }).click();
  await expect(form.getByRole('spinbutton', { name: 'Every' })).toHaveValue('1');
  await expect(form.getByRole('button', { name: 'Monday' })).toBeVisible();
  expect(await app.seriousA11yViolations()).toEqual([]);
});

test('N2: two offline devices of one user complete the same occurrence: one next occurrence after going online', async ({
  page,
  context,
  browser,
}, testInfo) => {
  // About the queue and the server, not the layout: one viewport is enough (the CI run has a budget).
  test.skip(testInfo.project.name !== 'desktop', 'runs in the desktop project only');
  const phone = freshPhone();
  const title = uniqueTitle('Feed the cat');
  const a = await signedInDevice(page, phone);
  const { viewport, isMobile, hasTouch, deviceScaleFactor, baseURL } = testInfo.project.use;
  const contextB: BrowserContext = await browser.newContext({
    viewport,
    isMobile,
    hasTouch,
    deviceScaleFactor,
    baseURL,
  });
  try {
    const b = await signedInDevice(await contextB.newPage(), phone);
    await addDailyTodo(a, title);
    await expect(openRow(a, title)).not.toContainText('Pending sync', { timeout: 15_000 });
    await expect(openRow(b, title)).toBeVisible({ timeout: 15_000 });

    for (const [app, ctx] of [
      [a, context],
      [b, contextB],
    ] as const) {
      await app.waitForOfflineReady();
      await ctx.setOffline(true);
    }
    for (const app of [a, b]) {
      await openRow(app, title)
        .getByRole('button', { name: `Mark as done: ${title}` })
        .click();
      // At once, offline: the next occurrence is on the device.
      await expect(rows(app, title)).toHaveCount(2);
      await expect(openRow(app, title)).toContainText('Pending sync');
    }

    await context.setOffline(false);
    await contextB.setOffline(false);
    await expect
      .poll(async () => (await serverSeries(page, title)).map((i) => i.status).sort(), { timeout: 20_000 })
      .toEqual(['completed', 'pending']);
    for (const app of [a, b]) {
      await expect(openRow(app, title)).not.toContainText('Pending sync', { timeout: 20_000 });
      await expect(rows(app, title)).toHaveCount(2);
    }
    // Stays one: nothing late doubles it.
    expect(await serverSeries(page, title)).toHaveLength(2);
  } finally {
    await contextB.close();
  }
});
