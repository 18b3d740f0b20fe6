import { type BrowserContext, expect, type Page, test } from '@playwright/test';
import { freshPhone, Outpost, uniqueTitle } from './pages/Outpost';
import { Time } from './pages/Time';

/** A signed-in device: onboarding marked done, then /login with the phone and a name. */
async function signedInDevice(page: Page, phone: string, name: string): Promise<Outpost> {
  await page.emulateMedia({ reducedMotion: 'reduce' });
  const app = new Outpost(page);
  await app.skipOnboarding();
  await app.signIn(phone, name);
  await app.expectHomeAfterSignIn();
  return app;
}

test('a timer started on a row runs in the header and tab title everywhere, stops on a second device, and counts in the report', async ({
  page,
  browser,
}, testInfo) => {
  test.skip(testInfo.project.name !== 'desktop', 'runs in the desktop project only');
  test.setTimeout(120_000);
  const phone = freshPhone();
  const title = uniqueTitle('Timed todo');
  const a = await signedInDevice(page, phone, 'Time Keeper');
  const time = new Time(a);

  await test.step('start the timer on a row: the header and the tab title show it', async () => {
    await a.quickAdd('todo', `${title} est 1h`);
    await expect(a.row(title)).toBeVisible();
    await time.startOnRow(title);
    await time.expectRunning(title);
    await expect(page).toHaveTitle(new RegExp(`^▶ 0:\\d\\d:\\d\\d · ${title}$`));
    await a.shotsInto(testInfo, 'time', 'row-running', false);
  });

  await test.step('navigate: the timer is still in the header, ticking', async () => {
    await a.navigate('My List');
    await time.expectRunning(title);
    await expect(page).toHaveTitle(/^▶ 0:00:0[2-9]|^▶ 0:00:[1-5]\d|^▶ 0:0[1-9]/, { timeout: 10_000 });
  });

  const { viewport, isMobile, hasTouch, deviceScaleFactor, baseURL } = testInfo.project.use;
  const contextB: BrowserContext = await browser.newContext({
    viewport,
    isMobile,
    hasTouch,
    deviceScaleFactor,
    baseURL,
  });
  try {
    await test.step('a second device of the same person sees the timer and stops it', async () => {
      const b = await signedInDevice(await contextB.newPage(), phone, 'Time Keeper');
      const onB = new Time(b);
      await onB.expectRunning(title);
      await onB.stopInHeader(title);
      await onB.expectNoneRunning();
    });
    await test.step('the first device learns it ended: the header and the tab title let go', async () => {
      await time.expectNoneRunning();
      await expect(page).not.toHaveTitle(/^▶/);
    });
  } finally {
    await contextB.close();
  }

  await test.step('an entry added by hand on the item page: spent past the estimate turns amber', async () => {
    await a.navigate('Home');
    await a.row(title).hover();
    await a
      .row(title)
      .getByRole('link', { name: `Open ${title}` })
      .click();
    await expect(page.getByRole('heading', { level: 1, name: title })).toBeVisible();
    const day = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
    await time.addOnPage(day, '09:00', '10:20', 'Planning');
    await expect(page.locator('[data-page-spent]')).toHaveText(/1 h 2\d m \/ 1 h/);
    await expect(page.locator('[data-time-entry]')).toHaveCount(2);
  });

  await test.step('the report sums it by campaign, person and week, with the total', async () => {
    await a.goto('/reports/time');
    await expect(page.getByRole('heading', { level: 1, name: 'Time report' })).toBeVisible();
    await expect(page.locator('[data-report-total]')).toContainText(/1 h 2\d m/);
    await expect(page.getByRole('region', { name: 'By person' }).getByText('Time Keeper')).toBeVisible();
    await a.shotsInto(testInfo, 'time', 'report', true);
  });
});

test('a guest’s timer that has run 8 hours says so once, from the device alone', async ({
  page,
}, testInfo) => {
  test.skip(testInfo.project.name !== 'desktop', 'runs in the desktop project only');
  // The page's clock, not the machine's: eight hours pass in one call.
  await page.clock.install();
  await page.emulateMedia({ reducedMotion: 'reduce' });
  const app = new Outpost(page);
  await app.skipOnboarding();
  await app.goto('/');
  const title = uniqueTitle('Long timer');
  await app.quickAdd('todo', title);
  const time = new Time(app);
  await time.startOnRow(title);
  await time.expectRunning(title);
  const alert = page.getByText('Timer running for 8 hours');
  await page.clock.fastForward('07:59:00');
  await expect(page).toHaveTitle(new RegExp(`^▶ 7:59:\\d\\d · ${title}$`));
  await expect(alert).toHaveCount(0);
  await page.clock.fastForward('01:05');
  await expect(alert.first()).toBeVisible();
  await expect(page.getByText(`“${title}” is still being timed.`).first()).toBeVisible();
  // Half an hour on, the toast has timed out and nothing raised it again: told once.
  await page.clock.fastForward('30:00');
  await expect(page).toHaveTitle(new RegExp(`^▶ 8:3\\d:\\d\\d · ${title}$`));
  await expect(alert).toHaveCount(0);
});
