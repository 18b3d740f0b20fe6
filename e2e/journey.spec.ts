import { expect, test } from '@playwright/test';
import { freshPhone, Outpost, uniqueTitle } from './pages/Outpost';

// The whole guest journey on one device, at the phone and the desktop size (the config's projects).
test('guest: onboarding, create a campaign > task > todos, toggle, lists, search, theme', async ({
  page,
}) => {
  const errors: Error[] = [];
  page.on('pageerror', (error) => errors.push(error));
  await page.emulateMedia({ reducedMotion: 'reduce', colorScheme: 'light' });
  const app = new Outpost(page);
  const campaign = uniqueTitle('Launch campaign');
  const task = uniqueTitle('Draft task');
  const done = uniqueTitle('Done todo');
  const waiting = uniqueTitle('Waiting todo');

  await test.step('onboarding: Continue Without Account through Get Started', async () => {
    await app.onboardAsGuest();
    await expect(page.getByText('No items yet! Create your first campaign to get started.')).toBeVisible();
  });

  await test.step('a campaign from Home quick-add', async () => {
    await app.quickAdd('campaign', campaign);
    await app.row(campaign).getByRole('link', { name: campaign }).click();
    await expect(page).toHaveURL(/\/campaigns\/-?\d+$/);
    await expect(app.heading(new RegExp(campaign))).toBeVisible();
    await expect(page.getByText('No tasks or todos yet. Add your first item above!')).toBeVisible();
  });

  await test.step('a task under it (Create New Item dialog on phones, quick-add on desktop)', async () => {
    if (app.isPhone) await app.createWithDialog('task', task);
    else await app.quickAdd('task', task);
    await app.row(task).getByRole('link', { name: task }).click();
    await expect(page).toHaveURL(/\/tasks\/-?\d+$/);
    await expect(app.heading(new RegExp(task))).toBeVisible();
    await expect(page.getByText('No todos yet. Add your first todo above!')).toBeVisible();
  });

  await test.step('two todos under the task', async () => {
    await app.quickAdd('todo', done, 'Add todo');
    if (app.isPhone) await app.createWithDialog('todo', waiting);
    else await app.quickAdd('todo', waiting, 'Add todo');
    await expect(app.row(done)).toBeVisible();
    await expect(app.row(waiting)).toBeVisible();
  });

  await test.step('toggle a todo done and back and done again', async () => {
    const row = app.row(done);
    await row.getByRole('button', { name: `Mark as done: ${done}` }).click();
    const undo = row.getByRole('button', { name: `Mark as not done: ${done}` });
    await expect(undo).toHaveAttribute('aria-pressed', 'true');
    await undo.click();
    await expect(row.getByRole('button', { name: `Mark as done: ${done}` })).toHaveAttribute(
      'aria-pressed',
      'false',
    );
    await row.getByRole('button', { name: `Mark as done: ${done}` }).click();
    await expect(undo).toBeVisible();
    // One of two todos done: the task (and so the campaign) is in progress.
    await expect(page.getByText('Status:', { exact: true }).locator('..')).toContainText(/in progress/i);
  });

  await test.step('Queue, Active, Completed and My List', async () => {
    await app.navigate('Queue');
    await page.getByRole('tab', { name: 'Todos' }).click();
    await expect(app.row(waiting)).toBeVisible();
    await expect(app.row(done)).toHaveCount(0);

    await app.navigate('Active');
    await expect(app.row(campaign)).toBeVisible();
    await page.getByRole('tab', { name: 'Tasks' }).click();
    await expect(app.row(task)).toBeVisible();

    await app.navigate('Completed');
    await page.getByRole('tab', { name: 'Todos' }).click();
    await expect(app.row(done)).toBeVisible();
    await expect(app.row(waiting)).toHaveCount(0);
    // The screen's own filter box.
    await page.getByRole('searchbox', { name: 'Search completed items' }).fill('no such title zz');
    await expect(page.getByText('No items match "no such title zz"')).toBeVisible();

    await app.navigate('My List');
    await expect(page.getByRole('tab', { name: /Queue/ })).toHaveAttribute('aria-selected', 'true');
    await expect(app.row(waiting)).toBeVisible();
    await page.getByRole('tab', { name: /Active/ }).click();
    await expect(app.row(campaign)).toBeVisible();
    await expect(app.row(task)).toBeVisible();
    await page.getByRole('tab', { name: /Completed/ }).click();
    await expect(app.row(done)).toBeVisible();
  });

  await test.step('search with Ctrl+K and open results with Enter', async () => {
    await app.navigate('Home');
    await app.searchAndOpen(campaign, campaign);
    await expect(page).toHaveURL(/\/campaigns\/-?\d+$/);
    await expect(app.heading(new RegExp(campaign))).toBeVisible();

    // A todo opens its parent task.
    await app.searchAndOpen(waiting, waiting);
    await expect(page).toHaveURL(/\/tasks\/-?\d+$/);
    await expect(app.heading(new RegExp(task))).toBeVisible();

    await page.keyboard.press('Control+k');
    const dialog = page.getByRole('dialog', { name: 'Search items' });
    await dialog.getByRole('combobox').fill('qqzzxx');
    await expect(dialog.getByText('No items found for "qqzzxx"')).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();
  });

  await test.step('Preferences: Dark applies and survives a reload; Light removes it', async () => {
    await app.goto('/preferences');
    await expect(app.heading('Preferences')).toBeVisible();
    const html = page.locator('html');
    await page.getByRole('radio', { name: 'Dark' }).click();
    await expect(html).toHaveClass(/\bdark\b/);
    await page.reload();
    await expect(page.getByRole('radio', { name: 'Dark' })).toBeChecked();
    await expect(html).toHaveClass(/\bdark\b/);
    await page.getByRole('radio', { name: 'Light' }).click();
    await expect(html).not.toHaveClass(/\bdark\b/);
    await page.reload();
    await expect(page.getByRole('radio', { name: 'Light' })).toBeChecked();
    await expect(html).not.toHaveClass(/\bdark\b/);
  });

  expect(errors).toEqual([]);
});

test('sign in from onboarding: phone, the test code, skip the import, the signed-in tour', async ({
  page,
}) => {
  await page.emulateMedia({ reducedMotion: 'reduce' });
  const app = new Outpost(page);
  const phone = freshPhone();
  await app.goto('/');
  await expect(page).toHaveURL(/\/onboarding$/);
  const dialog = page.getByRole('dialog', { name: 'Welcome' });
  const next = dialog.getByRole('button', { name: 'Next' });

  await next.click();
  await dialog.getByText('Sign In', { exact: true }).click();
  await expect(dialog.getByText('Step 2 of 9')).toBeVisible();
  await next.click();

  await test.step('phone step: too short, then a real number', async () => {
    await dialog.getByLabel('Phone number').fill('12345');
    await next.click();
    await expect(dialog.getByText('Please enter a valid phone number')).toBeVisible();
    await dialog.getByLabel('Phone number').fill(phone);
    await next.click();
    await expect(app.toast('Code sent')).toBeVisible();
  });

  await test.step('code step: a wrong code, then the test code', async () => {
    await expect(dialog.getByText('Step 4 of 9')).toBeVisible();
    await expect(dialog.getByText('Testing? The code 123456 is accepted.')).toBeVisible();
    const code = dialog.getByLabel('Verification code');
    await code.fill('000000');
    await next.click();
    await expect(dialog.getByText('Please enter the correct verification code')).toBeVisible();
    await code.fill('123456');
    await next.click();
    await expect(app.toast('Welcome!')).toBeVisible();
  });

  await test.step('skip the contact import, then the tour to Get Started', async () => {
    await expect(dialog.getByText('Step 5 of 9')).toBeVisible();
    await dialog.getByRole('button', { name: 'Skip for Now' }).click();
    for (let step = 6; step <= 8; step++) {
      await expect(dialog.getByText(`Step ${step} of 9`)).toBeVisible();
      await next.click();
    }
    await dialog.getByRole('button', { name: 'Get Started' }).click();
    await expect(page).toHaveURL(/\/$/);
    await expect(app.heading('Home')).toBeVisible();
  });

  // The session cookie is the browser's; the API knows who this is.
  const me = await page.request.get('/api/me');
  expect(me.status()).toBe(200);
  const { user } = (await me.json()) as { user: { phone: string } };
  expect(user.phone).toBe(phone);
  // Signed in, the guest-only 'Local only' text is gone from the desktop header.
  if (!app.isPhone) await expect(page.getByText('Local only')).toHaveCount(0);
});
