import { expect, type Page, test } from '@playwright/test';
import { savePicture } from './lib/pictures';
import { Outpost } from './pages/Outpost';

// Issue 32, ARCHITECTURE §5 'Quick add reads what you mean': a guest types a phrase, sees what it was
// read as, removes one part (its word stays in the title), and the saved item has the rest.

/** Tomorrow in the browser's zone as a row shows it ('Nov 26'), and as YYYY-MM-DD. */
async function tomorrowIn(page: Page): Promise<{ shown: string; iso: string }> {
  return page.evaluate(() => {
    const d = new Date();
    d.setDate(d.getDate() + 1);
    const pad = (n: number) => String(n).padStart(2, '0');
    return {
      shown: d.toLocaleDateString(undefined, { month: 'short', day: 'numeric' }),
      iso: `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`,
    };
  });
}

test('a guest types a phrase, sees its chips, removes one, and saves the title that is left with its due date', async ({
  page,
}) => {
  await page.emulateMedia({ reducedMotion: 'reduce' });
  const app = new Outpost(page);
  await app.skipOnboarding();
  await app.goto('/');
  await expect(app.heading('Home')).toBeVisible();
  // A campaign on the device for '#household' to find.
  await app.quickAdd('campaign', 'Household chores');

  const form = app.quickAddForm();
  const title = form.getByRole('textbox', { name: 'Todo title' });
  await expect(async () => {
    if (!(await title.isVisible())) await form.getByRole('textbox').first().click();
    await form.getByText('Todo', { exact: true }).click({ timeout: 2_000 });
    await expect(form.getByRole('radio', { name: 'Todo', exact: true })).toBeChecked({ timeout: 2_000 });
  }).toPass({ timeout: 20_000 });
  await title.click();
  await title.pressSequentially('Pay rent tomorrow 5pm p1 #household +bills');

  const chips = form.getByRole('list', { name: 'Understood from the title' });
  await expect(chips.getByRole('listitem')).toHaveText([
    'Tomorrow, 17:00',
    'Priority 1',
    'Household chores',
    'bills',
  ]);

  // The chips at both sizes, light and dark, for a person to look at.
  for (const [width, height, size] of [
    [390, 844, 'phone'],
    [1280, 800, 'desktop'],
  ] as const) {
    await page.setViewportSize({ width, height });
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme, reducedMotion: 'reduce' });
      if (scheme === 'dark') await expect(page.locator('html')).toHaveClass(/\bdark\b/);
      else await expect(page.locator('html')).not.toHaveClass(/\bdark\b/);
      await form.scrollIntoViewIfNeeded();
      await savePicture(page, { path: `test-results/screenshots/quickAdd/${size}-${scheme}.png` });
      await savePicture(form, { path: `test-results/screenshots/quickAdd/${size}-${scheme}-card.png` });
    }
  }
  await page.emulateMedia({ colorScheme: 'light', reducedMotion: 'reduce' });

  // Tab from the title reaches the chips' remove buttons, in order.
  await title.focus();
  await page.keyboard.press('Tab');
  await expect(
    chips.getByRole('button', { name: 'Remove due date and reminder tomorrow 5pm' }),
  ).toBeFocused();
  await page.keyboard.press('Tab');
  const removePriority = chips.getByRole('button', { name: 'Remove priority p1' });
  await expect(removePriority).toBeFocused();
  await page.keyboard.press('Enter');
  // Its word is back in the title; focus stays among the chips.
  await expect(chips.getByRole('listitem')).toHaveText(['Tomorrow, 17:00', 'Household chores', 'bills']);
  await expect(chips.getByRole('button', { name: 'Remove parent #household' })).toBeFocused();
  await expect(title).toHaveValue('Pay rent tomorrow 5pm p1 #household +bills');

  await form.getByRole('button', { name: 'Add todo' }).click();
  await expect(title).toHaveValue('');
  await expect(chips).toBeHidden();

  // The todo is saved as 'Pay rent p1', due tomorrow, under the campaign: its page lists it with the date.
  const tomorrow = await tomorrowIn(page);
  await app.row('Household chores').getByRole('link', { name: 'Household chores' }).click();
  await expect(page).toHaveURL(/\/campaigns\/-?\d+$/);
  const row = app.row('Pay rent p1');
  await expect(row).toBeVisible();
  await expect(row).toContainText(tomorrow.shown);
  await expect(app.row('Pay rent tomorrow 5pm p1 #household +bills')).toHaveCount(0);
  // And the reminder is 17:00 tomorrow on this device's clock.
  const stored = await page.evaluate(async (wanted) => {
    const open = indexedDB.open('Outpost');
    const db = await new Promise<IDBDatabase>((resolve, reject) => {
      open.onsuccess = () => resolve(open.result);
      open.onerror = () => reject(open.error);
    });
    const all = await new Promise<{ title: string; due_date: string; remind_at: string }[]>((resolve) => {
      const request = db.transaction('items').objectStore('items').getAll();
      request.onsuccess = () => resolve(request.result);
    });
    db.close();
    const item = all.find((i) => i.title === wanted);
    if (!item) return null;
    const at = new Date(item.remind_at);
    return { due: item.due_date, hour: at.getHours(), minute: at.getMinutes() };
  }, 'Pay rent p1');
  expect(stored).toEqual({ due: tomorrow.iso, hour: 17, minute: 0 });
});

test('the Create dialog reads its title too', async ({ page }) => {
  // The dialog opens from the phone's floating add button.
  await page.setViewportSize({ width: 390, height: 844 });
  await page.emulateMedia({ reducedMotion: 'reduce' });
  const app = new Outpost(page);
  await app.skipOnboarding();
  await app.goto('/');
  await page.getByRole('button', { name: 'Create new item' }).click();
  const dialog = page.getByRole('dialog', { name: 'Create New Item' });
  await dialog.getByRole('tab', { name: 'task' }).click();
  const title = dialog.getByLabel('Title');
  await title.click();
  await title.pressSequentially('Plan the offsite every 2 weeks on mon p2');
  const chips = dialog.getByRole('list', { name: 'Understood from the title' });
  await expect(chips.getByRole('listitem')).toHaveText([/^Every 2 weeks on Mon/, 'Priority 2']);
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme, reducedMotion: 'reduce' });
    await savePicture(page, { path: `test-results/screenshots/quickAdd/dialog-phone-${scheme}.png` });
  }
  await dialog.getByRole('button', { name: 'Create task' }).click();
  await expect(dialog).toBeHidden();
  await expect(app.row('Plan the offsite')).toBeVisible();
});

test("a day's quick add on Upcoming reads its title too", async ({ page }) => {
  await page.emulateMedia({ reducedMotion: 'reduce' });
  const app = new Outpost(page);
  await app.skipOnboarding();
  await app.goto('/upcoming');
  await page.getByRole('button', { name: 'Add to Tomorrow' }).click();
  const form = page.getByRole('form', { name: 'Add to Tomorrow' });
  const field = form.getByRole('textbox', { name: 'Todo title, due Tomorrow' });
  await field.pressSequentially('Pack the tent in 3 days');
  const chips = form.getByRole('list', { name: 'Understood from the title' });
  await expect(chips.getByRole('listitem')).toHaveCount(1);
  await form.getByRole('button', { name: 'Add', exact: true }).click();
  await expect(field).toHaveValue('');
  // The words name the day: in 3 days, not the section's tomorrow.
  const due = await page.evaluate(async () => {
    const open = indexedDB.open('Outpost');
    const db = await new Promise<IDBDatabase>((resolve, reject) => {
      open.onsuccess = () => resolve(open.result);
      open.onerror = () => reject(open.error);
    });
    const all = await new Promise<{ title: string; due_date: string }[]>((resolve) => {
      const request = db.transaction('items').objectStore('items').getAll();
      request.onsuccess = () => resolve(request.result);
    });
    db.close();
    return all.find((i) => i.title === 'Pack the tent')?.due_date ?? null;
  });
  const inThree = await page.evaluate(() => {
    const d = new Date();
    d.setDate(d.getDate() + 3);
    const pad = (n: number) => String(n).padStart(2, '0');
    return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
  });
  expect(due).toBe(inThree);
  await expect(app.row('Pack the tent')).toBeVisible();
});

test("an unsure part shows off: 'Workshop 2h' keeps its 2h until its chip is turned on", async ({ page }) => {
  // Issue 48: a number is a date or time only with a date word or a clear form.
  await page.emulateMedia({ reducedMotion: 'reduce' });
  const app = new Outpost(page);
  await app.skipOnboarding();
  await app.goto('/');
  await expect(app.heading('Home')).toBeVisible();
  // Home's card offers every type once the device holds something.
  await app.quickAdd('campaign', 'Trips');
  const form = app.quickAddForm();
  const title = form.getByRole('textbox', { name: 'Todo title' });
  await expect(async () => {
    if (!(await title.isVisible())) await form.getByRole('textbox').first().click();
    await form.getByText('Todo', { exact: true }).click({ timeout: 2_000 });
    await expect(form.getByRole('radio', { name: 'Todo', exact: true })).toBeChecked({ timeout: 2_000 });
  }).toPass({ timeout: 20_000 });
  await title.click();
  await title.pressSequentially('Hotel 24/7 support');
  const chips = form.getByRole('list', { name: 'Understood from the title' });
  const offer = chips.getByRole('button', { name: /^Use “24\/7” as due date/ });
  await expect(offer).toHaveAttribute('aria-pressed', 'false');
  await form.getByRole('button', { name: 'Add todo' }).click();
  await expect(title).toHaveValue('');
  // Saved with its words and no date.
  await expect(app.row('Hotel 24/7 support')).toBeVisible();

  await title.click();
  await title.pressSequentially('Workshop 2h');
  const workshop = chips.getByRole('button', { name: /^Use “2h” as due date and reminder/ });
  await expect(workshop).toBeVisible();
  await form.scrollIntoViewIfNeeded();
  await savePicture(form, { path: 'test-results/screenshots/quickAdd/unsure-off.png' });
  // Keyboard: Tab from the title reaches the off chip; Enter turns it on, focus stays on it.
  await title.focus();
  await page.keyboard.press('Tab');
  await expect(workshop).toBeFocused();
  await page.keyboard.press('Enter');
  const remove = chips.getByRole('button', { name: 'Remove due date and reminder 2h' });
  await expect(remove).toBeFocused();
  await savePicture(form, { path: 'test-results/screenshots/quickAdd/unsure-on.png' });
  await form.getByRole('button', { name: 'Add todo' }).click();
  await expect(title).toHaveValue('');
  await expect(app.row('Workshop')).toBeVisible();
  await expect(app.row('Workshop 2h')).toHaveCount(0);
});
