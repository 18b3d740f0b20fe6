import { type APIRequestContext, expect, test } from '@playwright/test';
import { AppPage, type Theme } from './pages/AppPage';

/** Signs in the way the app does (anti-forgery cookie, then login); the request context keeps the cookies. */
async function signInThroughApi(request: APIRequestContext) {
  expect((await request.get('/sanctum/csrf-cookie')).status()).toBe(204);
  const { cookies } = await request.storageState();
  const xsrf = cookies.find((cookie) => cookie.name.endsWith('XSRF-TOKEN'));
  if (!xsrf) throw new Error('GET /sanctum/csrf-cookie set no XSRF-TOKEN cookie');
  // A random 555 number, so runs and projects practically never share a user.
  const phone = `+1555${String(Math.floor(Math.random() * 10_000_000)).padStart(7, '0')}`;
  const login = await request.post('/api/login', {
    data: { phone, name: 'Smoke Test' },
    headers: { 'X-XSRF-TOKEN': decodeURIComponent(xsrf.value) },
  });
  expect(login.status(), await login.text()).toBe(200);
}

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

  test("a guest's page load asks the server nothing: no API request, no 401 in the console", async ({
    page,
  }) => {
    const calls: string[] = [];
    page.on('request', (request) => {
      if (new URL(request.url()).pathname.startsWith('/api/')) calls.push(request.url());
    });
    await app.goto('/');
    await expect(app.brand).toBeVisible();
    // Past the first screen, when the app would check a session and start its services.
    await page.waitForTimeout(3_000);
    await app.goto('/my-list');
    await expect(page.getByRole('heading', { level: 1, name: 'My List' })).toBeVisible();
    await page.waitForTimeout(2_000);
    expect(calls).toEqual([]);
  });

  test('serves the app on a client route (SPA fallback)', async ({ page }) => {
    const response = await app.goto('/some/client/route');

    expect(response.status()).toBe(200);
    expect(response.headers()['content-type']).toContain('text/html');
    await expect(page).toHaveTitle(/Outpost/);
    await expect(app.rendered).toBeVisible();
  });

  test('answers an unknown API route with a JSON 404, not the app', async ({ request }) => {
    await signInThroughApi(request);

    const response = await request.get('/api/does-not-exist');

    expect(response.status()).toBe(404);
    expect(response.headers()['content-type']).toContain('application/json');
    expect(await response.json()).toEqual(expect.objectContaining({ message: expect.any(String) }));
  });

  test('answers an unknown API route for a guest with a JSON error, never the app page', async ({
    request,
  }) => {
    // Without a session the server may refuse before routing (401), which also hides what exists.
    const response = await request.get('/api/does-not-exist');

    expect(response.status()).toBeGreaterThanOrEqual(400);
    expect(response.status()).toBeLessThan(500);
    expect(response.headers()['content-type']).toContain('application/json');
    expect(await response.json()).toEqual(expect.objectContaining({ message: expect.any(String) }));
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
