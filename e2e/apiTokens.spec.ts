import { expect, test } from '@playwright/test';
import { takePictures } from './lib/pictures';
import { ApiTokens } from './pages/ApiTokens';
import { Collab } from './pages/Collab';
import { freshPhone, Outpost, uniqueTitle } from './pages/Outpost';

// Issue 51 part 1: a personal access token made in Preferences works from a script (Node's fetch, no
// cookie, no anti-forgery token) through the app's own write path, and stops the moment it is revoked.

test('Preferences › API tokens: make a token, see its secret once, write with it from a script, revoke it', async ({
  page,
  baseURL,
}) => {
  const app = await Collab.signedIn(page, freshPhone(), 'Token Maker');
  const tokens = new ApiTokens(page);
  await app.goto('/preferences');
  await expect(tokens.section).toBeVisible();
  await expect(tokens.section.getByText(/No tokens yet/)).toBeVisible();

  const secret = await tokens.create('CI bot', ['Read', 'Write'], '30 days');
  await expect(tokens.section.getByText('Copy it now: it will not be shown again.')).toBeVisible();
  await expect(tokens.section.getByRole('button', { name: 'Copy token' })).toBeVisible();
  await expect(tokens.entry('CI bot')).toContainText('Never');
  await takePictures(page, app, 'apiTokens', 'secret', { focus: tokens.section.getByTestId('new-token') });
  expect(await app.seriousA11yViolations()).toEqual([]);

  // Once: after Done, and after a reload, the secret is nowhere on the page.
  await tokens.section.getByRole('button', { name: 'Done' }).click();
  await expect(tokens.secretField).toHaveCount(0);
  await app.goto('/preferences');
  await expect(tokens.entry('CI bot')).toBeVisible();
  expect(await page.content()).not.toContain(secret.slice(4));

  // A script: Node's own fetch, only the Authorization header.
  const title = uniqueTitle('Opened by CI');
  await app.goto('/campaigns');
  const made = await fetch(`${baseURL}/api/items`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${secret}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ title, type: 'campaign' }),
  });
  expect(made.status, await made.clone().text()).toBe(201);
  await expect(app.main.getByText(title, { exact: true })).toBeVisible({ timeout: 15_000 });

  await app.goto('/preferences');
  await expect(tokens.entry('CI bot')).not.toContainText('Never');
  await takePictures(page, app, 'apiTokens', 'list', { focus: tokens.section });

  await tokens.entry('CI bot').getByRole('button', { name: 'Revoke CI bot' }).click();
  await expect(page.getByRole('alertdialog')).toBeVisible();
  await takePictures(page, app, 'apiTokens', 'revoke');
  await page.getByRole('alertdialog').getByRole('button', { name: 'Cancel' }).click();
  await tokens.revoke('CI bot');
  await expect(tokens.section.getByText(/No tokens yet/)).toBeVisible();

  const refused = await fetch(`${baseURL}/api/items`, { headers: { Authorization: `Bearer ${secret}` } });
  expect(refused.status).toBe(401);
  expect(((await refused.json()) as { message: string }).message).toMatch(/unknown, revoked or expired/);
});

test('Preferences › API tokens tells a guest that tokens need an account, and asks the server nothing', async ({
  page,
}) => {
  const asked: string[] = [];
  page.on('request', (request) => {
    if (new URL(request.url()).pathname.startsWith('/api/tokens')) asked.push(request.url());
  });
  await page.emulateMedia({ reducedMotion: 'reduce' });
  const app = new Outpost(page);
  await app.onboardAsGuest();
  await app.goto('/preferences');
  const section = new ApiTokens(page).section;
  await expect(section.getByText(/API tokens belong to an account: sign in/)).toBeVisible();
  await expect(section.getByRole('button', { name: 'Create token' })).toHaveCount(0);
  // The sections above load lazily; the picture waits for the page to stop growing.
  await expect(page.getByText('Loading…')).toHaveCount(0);
  await takePictures(page, app, 'apiTokens', 'guest', { focus: section });
  expect(asked).toEqual([]);
});
