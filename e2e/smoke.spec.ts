import { expect, test } from '@playwright/test';
import { AppPage, type Theme } from './pages/AppPage';

test.describe('smoke', () => {
  let app: AppPage;

  test.beforeEach(async ({ page }) => {
    app = new AppPage(page);
    await app.skipOnboarding();
  });

  test('opens the home page with the Outpost brand', async ({ page }) => {
    const errors: Error[] = [];
    page.on('pageerror', (error) => errors.push(error));

    const response = await app.goto('/');

    expect(response.status()).toBe(200);
    await expect(page).toHaveTitle(/Outpost/);
    await expect(app.brand).toBeVisible();
    expect(errors).toEqual([]);
  });

  test('serves the app on a client route (SPA fallback)', async ({ page }) => {
    const response = await app.goto('/some/client/route');

    expect(response.status()).toBe(200);
    expect(response.headers()['content-type']).toContain('text/html');
    await expect(page).toHaveTitle(/Outpost/);
    await expect(app.rendered).toBeVisible();
  });

  test('answers an unknown API route with a JSON 404, not the app', async ({ request }) => {
    const response = await request.get('/api/does-not-exist');

    expect(response.status()).toBe(404);
    expect(response.headers()['content-type']).toContain('application/json');
    const body: unknown = await response.json();
    expect(body).toEqual(expect.objectContaining({ message: expect.any(String) }));
  });

  for (const theme of ['light', 'dark'] satisfies Theme[]) {
    test(`has no serious accessibility violations in ${theme} mode`, async ({ page }, testInfo) => {
      await page.emulateMedia({ colorScheme: theme, reducedMotion: 'reduce' });
      expect((await app.goto('/')).status()).toBe(200);
      await expect(app.brand).toBeVisible();
      await app.setTheme(theme);
      const html = page.locator('html');
      if (theme === 'dark') await expect(html).toHaveClass(/\bdark\b/);
      else await expect(html).not.toHaveClass(/\bdark\b/);

      await app.screenshot(testInfo, `home-${theme}`);
      expect(await app.seriousA11yViolations()).toEqual([]);
    });
  }
});
