import { expect, test } from '@playwright/test';
import { AppPage } from './pages/AppPage';

/**
 * The sign-in page (issue 62, sign-in polish): the phone form first with the one primary button, the
 * other ways under an 'or' divider, and the server's sign-in methods asked once a page. Desktop only:
 * the layout is one column at every size.
 */

test.beforeEach(() => {
  test.skip(test.info().project.name !== 'desktop', 'runs in the desktop project only');
});

test('asks the server for its sign-in methods once, also after the first key press loads the data layer', async ({
  page,
}) => {
  const app = new AppPage(page);
  await app.skipOnboarding();
  let asked = 0;
  page.on('request', (r) => {
    if (new URL(r.url()).pathname === '/api/auth/methods') asked++;
  });
  await app.goto('/login');
  await expect(page.getByRole('button', { name: 'Sign in with a passkey' })).toBeVisible();
  // The passkey button does not wait for the answer, so the ask may leave just after it shows.
  await expect.poll(() => asked).toBe(1);
  // The first key press starts the data layer (door.tsx useDataLayer), whose door takes over; the
  // device's database is open once it has started.
  await page.getByLabel('Phone number').pressSequentially('+1555');
  await page.waitForFunction(async () =>
    (await indexedDB.databases()).some((d) => d.name?.startsWith('Outpost')),
  );
  await page.getByLabel('Name').fill('Once');
  // Time for the new door to render and ask, had it not found the answer kept.
  await page.waitForTimeout(1500);
  await expect(page.getByRole('button', { name: 'Sign in with a passkey' })).toBeVisible();
  expect(asked).toBe(1);
});

test('the phone form comes first with the only primary button; the other ways are quieter, under it', async ({
  page,
}) => {
  const app = new AppPage(page);
  await app.skipOnboarding();
  await app.goto('/login');
  const signIn = page.getByRole('button', { name: 'Sign In', exact: true });
  const passkey = page.getByRole('button', { name: 'Sign in with a passkey' });
  const guest = page.getByRole('button', { name: 'Continue without signing in' });
  await expect(passkey).toBeVisible();
  const top = async (l: typeof signIn) => (await l.boundingBox())?.y ?? Number.NaN;
  expect(await top(page.getByLabel('Phone number'))).toBeLessThan(await top(signIn));
  expect(await top(signIn)).toBeLessThan(await top(passkey));
  expect(await top(passkey)).toBeLessThan(await top(guest));
  const background = (l: typeof signIn) => l.evaluate((el) => getComputedStyle(el).backgroundColor);
  const primary = await background(signIn);
  const filled = (colour: string) => colour !== 'rgba(0, 0, 0, 0)' && colour !== 'rgb(255, 255, 255)';
  expect(filled(primary)).toBe(true);
  // The one loud button: no other button on the page shares its fill.
  const buttons = page.getByRole('main').getByRole('button');
  for (const button of await buttons.all()) {
    if ((await button.textContent())?.trim() === 'Sign In') continue;
    expect(await background(button)).not.toBe(primary);
  }
  expect(filled(await background(guest))).toBe(false);
});
