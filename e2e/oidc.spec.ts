import { expect, test } from '@playwright/test';
import { OIDC_FAILURES } from '../src/shared/oidc';
import { E2E_OIDC_ACCOUNTS } from '../testkit/e2eOidc';
import { OidcPage } from './pages/Oidc';
import { freshPhone, serverItems, uniqueTitle } from './pages/Outpost';

/**
 * Single sign-on end to end (issue 52, part 1): the sign-in page's button, a real OpenID provider
 * (oidc-provider over https on the run's own certificate, which the app server trusts through
 * NODE_EXTRA_CA_CERTS) with its own sign-in page, and back. The app is opened at localhost, its
 * PUBLIC_URL, because the provider sends the browser back to the registered redirect URI there.
 */
test.use({
  baseURL: `http://localhost:${process.env.E2E_PORT}`,
  // The browser meets the provider's self-signed certificate; only the app server is told to trust it.
  ignoreHTTPSErrors: true,
});

test.beforeEach(() => {
  test.skip(test.info().project.name !== 'desktop', 'runs in the desktop project only');
  test.setTimeout(180_000);
});

test('a guest signs in with the provider: back signed in under the claims’ name, the todo moved up', async ({
  page,
}, testInfo) => {
  const app = new OidcPage(page);
  await page.emulateMedia({ reducedMotion: 'reduce' });
  await app.skipOnboarding();
  const title = uniqueTitle('Before single sign-on');

  await test.step('as a guest: a todo on this device only', async () => {
    await app.goto('/');
    await app.addTodo(title);
  });

  await test.step('the sign-in page shows the provider’s button above the phone form', async () => {
    await app.goto('/login');
    await expect(app.oidcButton).toBeVisible();
    await app.shots(testInfo, 'sign-in-page');
  });

  await test.step('at the provider: sign in as Olga; back home, signed in, the todo on the server', async () => {
    await app.leaveForProvider();
    await app.signInAtProvider('olga');
    await expect(page).toHaveURL(/^http:\/\/localhost:\d+\/$/, { timeout: 20_000 });
    await app.expectHomeAfterSignIn();
    await expect(app.signedInMarker()).toBeVisible();
    const account = await app.openAccount();
    await expect(account).toContainText(E2E_OIDC_ACCOUNTS.olga.name);
    await page.keyboard.press('Escape');
    await expect
      .poll(async () => (await serverItems(page.request)).map((item) => item.title), { timeout: 30_000 })
      .toContain(title);
    const me = await (await page.request.get('/api/me')).json();
    expect(me.user).toMatchObject({ name: E2E_OIDC_ACCOUNTS.olga.name, phone: '' });
  });

  await test.step('Preferences › Phone: no phone yet; one added with the keyboard', async () => {
    await app.openPreferences();
    await expect(app.phoneSection).toContainText('You signed in without a phone');
    await app.phoneSection.scrollIntoViewIfNeeded();
    await app.shots(testInfo, 'preferences-phone', { fullPage: false });
    const phone = freshPhone();
    await app.phoneSection.getByLabel('Phone number').fill(phone);
    await app.phoneSection.getByLabel('Phone number').press('Enter');
    await expect(app.phoneSection).toContainText(/Your phone number is \+\d+/, { timeout: 15_000 });
    const me = await (await page.request.get('/api/me')).json();
    expect(me.user.phone).toMatch(/^\+\d{10,15}$/);
  });
});

test('cancelled at the provider: the sign-in page says so in one sentence, still a guest', async ({
  page,
}, testInfo) => {
  const app = new OidcPage(page);
  await page.emulateMedia({ reducedMotion: 'reduce' });
  await app.skipOnboarding();
  await app.leaveForProvider();

  await test.step('an unknown username is refused at the provider', async () => {
    await app.signInAtProvider('nobody-here');
    await expect(app.provider.getByRole('alert')).toHaveText('No such account.');
  });

  await test.step('Cancel: back on the sign-in page with the sentence', async () => {
    await app.cancelAtProvider();
    await expect(page).toHaveURL(/\/login\?error=oidc_denied$/, { timeout: 20_000 });
    await expect(app.main.getByRole('alert')).toHaveText(OIDC_FAILURES.oidc_denied);
    await expect(app.guestMarker()).toBeVisible();
    await expect(app.oidcButton).toBeEnabled();
    await app.shots(testInfo, 'sign-in-cancelled');
  });
});
