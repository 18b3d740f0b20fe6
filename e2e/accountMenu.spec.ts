import { expect, test } from '@playwright/test';
import { freshPhone, Outpost } from './pages/Outpost';

const LAZY_LOAD_MS = 15_000;

test.beforeEach(() => {
  // The account menu is the desktop header's; phones have the account sheet.
  test.skip(test.info().project.name !== 'desktop', 'runs in the desktop project only');
});

// The header's account button is a placeholder until its first press loads the Radix menu: the first
// press must open the menu exactly as the menu's own trigger does, by keyboard and by pointer.
test('account menu: the first Enter opens it with the first item focused; Escape returns focus; a click opens it', async ({
  page,
}) => {
  await page.emulateMedia({ reducedMotion: 'reduce' });
  const app = new Outpost(page);
  await app.skipOnboarding();
  await app.signIn(freshPhone(), 'Menu Tester');
  await page.reload();
  await expect(app.heading('Home')).toBeVisible();

  const button = page.getByRole('button', { name: 'Account menu' });
  await expect(button).toHaveAttribute('aria-haspopup', 'menu');
  await expect(button).toHaveAttribute('aria-expanded', 'false');

  await button.focus();
  await page.keyboard.press('Enter');
  // The first press loads the menu's code: give a busy machine time for that one request.
  await expect(page.getByRole('menu')).toBeVisible({ timeout: LAZY_LOAD_MS });
  await expect(page.getByRole('menuitem', { name: 'Preferences' })).toBeFocused();
  await expect(button).toHaveAttribute('aria-expanded', 'true');
  await page.keyboard.press('ArrowDown');
  await expect(page.getByRole('menuitem', { name: 'Time report' })).toBeFocused();
  await page.keyboard.press('ArrowDown');
  await expect(page.getByRole('menuitem', { name: 'Log out' })).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(page.getByRole('menu')).toHaveCount(0);
  await expect(button).toBeFocused();

  await page.reload();
  await expect(app.heading('Home')).toBeVisible();
  await button.click();
  await expect(page.getByRole('menu')).toBeVisible({ timeout: LAZY_LOAD_MS });
  await page.getByRole('menuitem', { name: 'Preferences' }).click();
  await expect(page).toHaveURL(/\/preferences$/);

  await page.reload();
  await expect(page).toHaveURL(/\/preferences$/);
  await expect(button).toHaveAttribute('aria-expanded', 'false');
  await button.focus();
  await page.keyboard.press('ArrowDown');
  await expect(page.getByRole('menuitem', { name: 'Preferences' })).toBeFocused({ timeout: LAZY_LOAD_MS });
  await page.keyboard.press('Escape');
  await button.focus();
  await page.keyboard.press(' ');
  await expect(page.getByRole('menuitem', { name: 'Preferences' })).toBeFocused();
});
