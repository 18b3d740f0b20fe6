import { expect, test } from '@playwright/test';
import { Outpost } from './pages/Outpost';

// Issue 31, SYNC.md K19: a guest's history lives on their device, and its Restore puts a change back.
test('K19: a guest renames a todo, sees the change on its page and restores the old title', async ({
  page,
}) => {
  await page.emulateMedia({ reducedMotion: 'reduce' });
  const app = new Outpost(page);
  await app.skipOnboarding();
  await app.goto('/');
  await expect(app.heading('Home')).toBeVisible();
  await app.quickAdd('todo', 'Buy paint');

  await app.row('Buy paint').getByRole('button', { name: 'Edit title: Buy paint' }).click();
  const input = app.main.getByRole('textbox', { name: 'Title', exact: true });
  await expect(input).toBeFocused();
  await input.fill('Buy varnish');
  await input.press('Enter');
  await expect(app.row('Buy varnish')).toBeVisible();

  await app.row('Buy varnish').getByRole('link', { name: 'Open Buy varnish' }).click();
  await expect(app.heading('Buy varnish')).toBeVisible();
  const timeline = app.main.getByRole('list', { name: /^Timeline of/ });
  const change = timeline.locator('li[data-history]').filter({ hasText: 'Buy paint' });
  await expect(change).toContainText('You changed');
  await expect(change).toContainText('Buy varnish');
  await change.getByRole('button', { name: /^Restore/ }).click();
  await expect(app.heading('Buy paint')).toBeVisible();
  await expect(app.toast(/^Restored/)).toBeVisible();
  // The restore is a change of its own, on the timeline too.
  await expect(timeline.locator('li[data-history]')).toHaveCount(3);
  expect(await app.seriousA11yViolations()).toEqual([]);
});
