import { expect, test } from '@playwright/test';
import { freshPhone } from './pages/Outpost';
import { PolishPage } from './pages/Polish';

/**
 * Issue 50: the tutorial's sign-in logs no failed request. Its code request fetches a visitor's
 * anti-forgery cookie, and the app's session check on start read that cookie as a session and asked
 * GET /api/me, whose 401 the console showed. Desktop project only: no screen size changes it.
 */

test('the tutorial’s sign-in, through to Home, answers no request with 4xx and logs no console error', async ({
  page,
}) => {
  test.skip(test.info().project.name !== 'desktop', 'runs in the desktop project only');
  await page.emulateMedia({ reducedMotion: 'reduce' });
  const tour = new PolishPage(page);
  const failures = tour.recordFailures();
  await tour.openTutorial();
  await tour.chooseAccount('Sign In');
  // The signed-in device's first sync, which follows the sign-in: what it asks has answered by then.
  const firstSync = page.waitForResponse((r) => r.url().includes('/api/sync'));
  await tour.signInInTutorial(freshPhone(), 'Tess Tutorial');
  await tour.tutorial.getByRole('button', { name: 'Skip for Now' }).click();
  for (let step = 6; step <= 9; step++) {
    await expect(tour.tutorial.getByText(`Step ${step} of 9`)).toBeVisible();
    await tour.tutorial.getByRole('button', { name: step === 9 ? 'Get Started' : 'Next' }).click();
  }
  await expect(tour.tutorial).toHaveCount(0);
  await expect(tour.heading('Home')).toBeVisible();
  expect((await firstSync).ok()).toBe(true);
  expect(failures).toEqual([]);
});
