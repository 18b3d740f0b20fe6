import { expect, test } from '@playwright/test';
import { PASSKEY_SIGN_IN_FAILED } from '../src/shared/passkeyFailure';
import { freshPhone, serverItems, uniqueTitle } from './pages/Outpost';
import { PasskeysPage } from './pages/Passkeys';

/**
 * Passkeys in the browser (issue 52, part 2): add one in Preferences, sign out, sign in with it alone
 * (no phone typed), remove it and see the sign-in refused; a guest's items move up on a passkey
 * sign-in exactly as on a phone sign-in. WebAuthn wants a domain, not an IP: these tests open the app
 * at localhost, the relying party the e2e server is given (PUBLIC_URL in playwright.config.ts).
 */
test.use({ baseURL: `http://localhost:${process.env.E2E_PORT}` });

test.beforeEach(() => {
  test.skip(test.info().project.name !== 'desktop', 'runs in the desktop project only');
  test.setTimeout(180_000);
});

test('a passkey added in Preferences signs in alone; removed, it is refused with the sentence', async ({
  page,
}, testInfo) => {
  const app = new PasskeysPage(page);
  await page.emulateMedia({ reducedMotion: 'reduce' });
  await app.skipOnboarding();
  const authenticator = await app.addAuthenticator();
  await app.signIn(freshPhone(), 'Pat Passkey');
  await app.expectHomeAfterSignIn();

  await test.step('Preferences › Passkeys: none yet, then one added with a name', async () => {
    await app.openPreferences();
    await expect(app.section).toContainText('No passkeys yet', { timeout: 15_000 });
    // A prompt the person does not complete: nothing is added, and the dialog says so.
    await app.setUserVerified(authenticator, false);
    await app.section.getByRole('button', { name: 'Add a passkey' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add a passkey' });
    await dialog.getByRole('button', { name: 'Continue' }).click();
    await expect(dialog.getByRole('alert')).toHaveText('No passkey was added.', { timeout: 15_000 });
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect(dialog).toBeHidden();
    await expect(app.section).toContainText('No passkeys yet');
    await app.setUserVerified(authenticator, true);
    await app.addPasskey('Work laptop');
    await expect(app.list.getByRole('listitem')).toHaveCount(1);
    await expect(app.list).toContainText('Never used');
    expect(await app.credentials(authenticator)).toHaveLength(1);
    await app.section.scrollIntoViewIfNeeded();
    await app.shots(testInfo, 'preferences-passkeys', { fullPage: false });
  });

  await test.step('rename it with the keyboard alone: Rename, the new name, Enter', async () => {
    const rename = app.list.getByRole('button', { name: 'Rename Work laptop' });
    await rename.focus();
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: 'Rename passkey' });
    await expect(dialog.getByLabel('Passkey name')).toBeFocused();
    await expect(dialog.getByLabel('Passkey name')).toHaveValue('Work laptop');
    await page.keyboard.press('ControlOrMeta+A');
    await page.keyboard.type('Desk laptop');
    await page.keyboard.press('Enter');
    await expect(dialog).toBeHidden({ timeout: 15_000 });
    await expect(app.list.getByRole('listitem')).toHaveCount(1);
    await expect(app.list).toContainText('Desk laptop');
    // Focus comes back to the row's Rename, now named after the new name.
    await expect(app.list.getByRole('button', { name: 'Rename Desk laptop' })).toBeFocused();
    const listed = await (await page.request.get('/api/passkeys')).json();
    expect(listed.passkeys.map((p: { name: string }) => p.name)).toEqual(['Desk laptop']);
  });

  await test.step('log out, then sign in with the passkey alone', async () => {
    await app.logOut();
    await app.signInWithPasskey();
    await expect(page).toHaveURL(/\/$/, { timeout: 15_000 });
    await app.expectHomeAfterSignIn();
    await expect(app.signedInMarker()).toBeVisible();
    await app.openPreferences();
    const devices = app.main.getByRole('list', { name: 'Signed-in devices' });
    await expect(devices.getByRole('listitem').first()).toContainText('Signed in with a passkey', {
      timeout: 15_000,
    });
    await expect(app.list).toContainText('Last used');
  });

  await test.step('remove it (asked first): the passkey sign-in is refused with the sentence', async () => {
    await app.removePasskey('Desk laptop');
    await expect(app.section).toContainText('No passkeys yet');
    await app.logOut();
    await app.signInWithPasskey();
    await expect(app.main.getByRole('alert')).toHaveText(PASSKEY_SIGN_IN_FAILED, { timeout: 15_000 });
    await expect(app.guestMarker()).toBeVisible();
    await app.shots(testInfo, 'sign-in-refused');
  });
});

test('a guest with a local todo signs in with a passkey: the todo is on the server afterwards', async ({
  page,
}, testInfo) => {
  const app = new PasskeysPage(page);
  await page.emulateMedia({ reducedMotion: 'reduce' });
  await app.skipOnboarding();
  await app.addAuthenticator();
  const phone = freshPhone();

  await test.step('an account with a passkey on this authenticator, then back to guest', async () => {
    await app.signIn(phone, 'Gia Guest');
    await app.expectHomeAfterSignIn();
    await app.openPreferences();
    await app.addPasskey('Phone');
    await app.logOut();
  });

  const title = uniqueTitle('Kept');
  await test.step('as a guest: a todo on this device only', async () => {
    await app.goto('/');
    await app.addTodo(title);
  });

  await test.step('the sign-in page, then the passkey: the todo moves up', async () => {
    await app.goto('/login');
    await expect(app.main.getByRole('button', { name: 'Sign in with a passkey' })).toBeVisible();
    await app.shots(testInfo, 'sign-in-page');
    await app.main.getByRole('button', { name: 'Sign in with a passkey' }).click();
    await expect(page).toHaveURL(/\/$/, { timeout: 15_000 });
    await app.expectHomeAfterSignIn();
    await expect
      .poll(async () => (await serverItems(page.request)).map((item) => item.title), { timeout: 30_000 })
      .toContain(title);
  });
});
