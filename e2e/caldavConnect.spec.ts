import { expect, test } from '@playwright/test';
import { ApiTokens } from './pages/ApiTokens';
import { Collab } from './pages/Collab';
import { freshPhone } from './pages/Outpost';

// Issue 67: Preferences › API tokens › 'Connect a calendar app' makes a caldav-only password and shows
// what a calendar app asks for, which then signs a CalDAV client in (a PROPFIND from Node's fetch).

test('Connect a calendar app: a caldav password with the server URL and user name, each with Copy, that signs a CalDAV client in', async ({
  page,
  baseURL,
}) => {
  const app = await Collab.signedIn(page, freshPhone(), 'Calendar Person');
  const tokens = new ApiTokens(page);
  await app.goto('/preferences');
  await tokens.section.getByRole('button', { name: 'Connect a calendar app…' }).click();
  const dialog = page.getByRole('dialog', { name: 'Connect a calendar app' });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByLabel('Connection name')).toHaveValue('Calendar app');
  await expect(dialog.getByText('Apple Reminders and Calendar (iPhone, iPad, Mac)')).toBeVisible();
  await expect(dialog.getByText('Android: DAVx⁵ with Tasks.org or jtx Board')).toBeVisible();
  await expect(dialog.getByText('Thunderbird', { exact: true })).toBeVisible();
  await dialog.getByLabel('Connection name').fill('iPhone');
  await dialog.getByRole('button', { name: 'Create password' }).click();

  const password = dialog.getByRole('textbox', { name: 'Password', exact: true });
  await expect(password).toHaveValue(/^opk_[A-Za-z0-9_-]{43}$/);
  await expect(dialog.getByRole('textbox', { name: 'Server URL' })).toHaveValue(
    `${new URL(baseURL!).origin}/dav/`,
  );
  await expect(dialog.getByRole('textbox', { name: 'User name' })).toHaveValue('Calendar Person');
  for (const label of ['Server URL', 'User name', 'Password'])
    await expect(dialog.getByRole('button', { name: `Copy ${label}` })).toBeVisible();
  await app.lookPictures('caldav-connect', '[role="dialog"]');

  // The password signs a CalDAV client in, and nothing of /api.
  const secret = await password.inputValue();
  const basic = `Basic ${Buffer.from(`Calendar Person:${secret}`).toString('base64')}`;
  const propfind = await fetch(`${baseURL}/dav/`, {
    method: 'PROPFIND',
    headers: { Authorization: basic, Depth: '0', 'Content-Type': 'application/xml' },
    body: '<d:propfind xmlns:d="DAV:"><d:prop><d:current-user-principal/></d:prop></d:propfind>',
  });
  expect(propfind.status).toBe(207);
  expect(await propfind.text()).toContain('/dav/principals/');
  const api = await fetch(`${baseURL}/api/items`, { headers: { Authorization: `Bearer ${secret}` } });
  expect(api.status).toBe(403);

  // Shown once: closed, the password is gone; the token is in the list with its caldav scope.
  await dialog.getByRole('button', { name: 'Done' }).click();
  await expect(dialog).toHaveCount(0);
  await expect(tokens.entry('iPhone')).toContainText('caldav');
  expect(await page.content()).not.toContain(secret.slice(4));
});
