import { expect, type Locator, type Page, test } from '@playwright/test';
import { savePicture, takePictures } from './lib/pictures';
import { Outpost, uniqueTitle } from './pages/Outpost';

// Issue 32: Today and Upcoming (ARCHITECTURE §5), as a guest, from the device.

/**
 * Adds a todo with Home's quick-add card, its due date said in the title ('3 days ago', 'today'): the
 * card reads it into a date chip, and the saved title is what is left.
 */
async function addTodoDue(app: Outpost, title: string, when: string) {
  const form = app.quickAddForm();
  // Focus expands the card and shows its type chips; an empty card collapses again when focus leaves.
  await expect(async () => {
    if (!(await form.getByRole('radio', { name: 'Todo', exact: true }).isVisible()))
      await form.getByRole('textbox').first().click();
    await form.getByText('Todo', { exact: true }).click({ timeout: 2_000 });
    await expect(form.getByRole('radio', { name: 'Todo', exact: true })).toBeChecked({ timeout: 2_000 });
  }).toPass({ timeout: 20_000 });
  const titleField = form.getByRole('textbox', { name: 'Todo title' });
  await titleField.fill(`${title} ${when}`);
  // The reader loads on the field's first keystroke: the date is taken once its chip shows.
  await expect(
    form.getByRole('list', { name: 'Understood from the title' }).getByRole('listitem'),
  ).toHaveCount(1);
  await form.getByRole('button', { name: 'Add todo' }).click();
  await expect(titleField).toHaveValue('');
}

/** The titles of the rows in a list, in order. */
async function titlesIn(list: Locator): Promise<string[]> {
  // A todo's status control is named after it: 'Mark as done: <title>'.
  return list
    .locator('[data-item-id] button[aria-label^="Mark as done: "]')
    .evaluateAll((buttons) =>
      buttons.map((b) => b.getAttribute('aria-label')!.slice('Mark as done: '.length)),
    );
}

/** Drags `from` by the mouse onto `to`, in small steps so the sensors and the sorting follow. */
async function dragTo(page: Page, from: Locator, to: Locator) {
  const a = (await from.boundingBox())!;
  const b = (await to.boundingBox())!;
  await page.mouse.move(a.x + a.width / 2, a.y + a.height / 2);
  await page.mouse.down();
  await page.mouse.move(a.x + a.width / 2, a.y + a.height / 2 + 8, { steps: 4 });
  await page.mouse.move(b.x + b.width / 2, b.y + b.height / 2, { steps: 12 });
  await page.waitForTimeout(150);
  await page.mouse.up();
}

/** Lifts a row by keyboard (Space on its grip), once the list is ready to drag. */
async function lift(page: Page, list: Locator, grip: Locator) {
  await expect(async () => {
    await grip.focus();
    await page.keyboard.press('Space');
    await expect(list.locator('li[data-dragging="true"]')).toHaveCount(1, { timeout: 1_000 });
  }).toPass({ timeout: 15_000 });
}

function section(page: Page, heading: RegExp): Locator {
  return page.locator('main section').filter({ has: page.getByRole('heading', { level: 2, name: heading }) });
}

test('Today lists overdue then due today, completes and reschedules; Upcoming shows it tomorrow', async ({
  page,
}, testInfo) => {
  test.setTimeout(180_000);
  await page.emulateMedia({ reducedMotion: 'reduce' });
  const app = new Outpost(page);
  await app.skipOnboarding();
  await app.goto('/');
  await expect(app.heading('Home')).toBeVisible();

  const late = uniqueTitle('Return the library books');
  const call = uniqueTitle('Call the plumber');
  const water = uniqueTitle('Water the ferns');
  const later = uniqueTitle('Book the venue');
  await addTodoDue(app, late, '3 days ago');
  await addTodoDue(app, call, 'today');
  await addTodoDue(app, water, 'today');
  await addTodoDue(app, later, 'in 5 days');

  // Home's card counts them and leads to Today (the phone's way there; the bar keeps the spec's five).
  const card = app.main.getByRole('link', { name: /^Today/ });
  await expect(card).toContainText('1 overdue · 2 today');
  if (app.isPhone) {
    const bar = page.getByRole('navigation', { name: 'Main' }).filter({ visible: true });
    await expect(bar.getByRole('link')).toHaveText(['Home', 'My List', 'Queue', 'Active', 'Done']);
  } else {
    const nav = page.getByRole('navigation', { name: 'Main' }).filter({ visible: true });
    await expect(nav.getByRole('link')).toHaveText([
      'Home',
      'My List',
      'Queue',
      'Active',
      'Completed',
      'Today',
      'Upcoming',
      'Calendar',
      'Campaigns',
    ]);
  }
  await card.click();
  await expect(app.heading('Today')).toBeVisible();

  // Overdue first, with how late; then today's, in the order they were made. Polled: the heading can
  // show before the list's rows do (a fresh-clone CI read an empty Overdue once).
  const overdue = section(page, /^Overdue/);
  const dueToday = section(page, /^Due today/);
  await expect.poll(() => titlesIn(overdue)).toEqual([late]);
  await expect(app.row(late)).toContainText('3 days overdue');
  await expect.poll(() => titlesIn(dueToday)).toEqual([call, water]);
  const order = await titlesIn(app.main);
  expect(order).toEqual([late, call, water]);

  // Reorder right there (SYNC.md O6): by keyboard (Space lifts, ArrowUp, Space drops), Alt+↓ from the
  // row's grip, and the pointer; a reload keeps the order. The overdue group has no grips.
  const grip = (title: string) => dueToday.getByRole('button', { name: `Move “${title}”` });
  await expect(overdue.locator('[data-drag-handle]')).toHaveCount(0);
  await lift(page, dueToday, grip(water));
  // The sensor measures the rows after the lift: a person's pace, not a burst.
  for (const key of ['ArrowUp', 'Space']) {
    await page.waitForTimeout(600);
    await page.keyboard.press(key);
  }
  await expect.poll(() => titlesIn(dueToday)).toEqual([water, call]);
  await expect(app.toast('Todo moved').first()).toBeVisible();
  await grip(water).focus();
  await page.keyboard.press('Alt+ArrowDown');
  await expect.poll(() => titlesIn(dueToday)).toEqual([call, water]);
  await expect(grip(water)).toBeFocused();
  await dragTo(page, grip(water), grip(call));
  await expect.poll(() => titlesIn(dueToday)).toEqual([water, call]);
  await page.reload();
  await expect.poll(() => titlesIn(dueToday)).toEqual([water, call]);

  if (testInfo.project.name === 'desktop') {
    // Pictures mid-drag (a keyboard lift, one place down) at both sizes and in both themes. A resize
    // cancels a drag, so each size lifts again.
    for (const [width, height, size] of [
      [1280, 800, 'desktop'],
      [390, 844, 'phone'],
    ] as const) {
      await page.setViewportSize({ width, height });
      await lift(page, dueToday, grip(water));
      await page.waitForTimeout(600);
      await page.keyboard.press('ArrowDown');
      await page.waitForTimeout(400);
      for (const theme of ['light', 'dark'] as const) {
        await page.emulateMedia({ colorScheme: theme, reducedMotion: 'reduce' });
        await app.setTheme(theme);
        await page.evaluate(
          () => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))),
        );
        await savePicture(page, {
          path: `test-results/screenshots/today/today-mid-drag-${size}-${theme}.png`,
        });
      }
      // Escape puts it back where it was.
      await page.keyboard.press('Escape');
      await expect.poll(() => titlesIn(dueToday)).toEqual([water, call]);
    }
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.emulateMedia({ colorScheme: 'light', reducedMotion: 'reduce' });
    await app.setTheme('light');
  }

  // Complete one: it leaves Today.
  await app
    .row(water)
    .getByRole('button', { name: `Mark as done: ${water}` })
    .click();
  await expect(app.toast('Todo completed')).toBeVisible();
  await expect(app.row(water)).toHaveCount(0);

  // Reschedule one to tomorrow by keyboard: the menu opens on Enter, its first choice is Tomorrow
  // (Today is where the item already is), Enter picks it.
  const reschedule = app.row(call).getByRole('button', { name: `Reschedule ${call}` });
  await reschedule.focus();
  await page.keyboard.press('Enter');
  const menu = page.getByRole('menu');
  await expect(menu.getByRole('menuitem')).toHaveText([/^Tomorrow/, /^Next week/, /^Pick a date/]);
  await expect(menu.getByRole('menuitem', { name: /^Tomorrow/ })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(app.toast('Moved to Tomorrow')).toBeVisible();
  await expect(app.row(call)).toHaveCount(0);
  expect(await app.seriousA11yViolations()).toEqual([]);

  // Upcoming: overdue on top, the rescheduled item under Tomorrow, the later one on its day.
  await page.goto('/upcoming');
  await expect(app.heading('Upcoming')).toBeVisible();
  const headings = app.main.getByRole('heading', { level: 2 });
  await expect(headings).toHaveCount(15);
  await expect(headings.nth(0)).toHaveText(/^Overdue/);
  await expect(headings.nth(1)).toHaveText(/^Today/);
  await expect(headings.nth(2)).toHaveText(/^Tomorrow/);
  await expect(section(page, /^Overdue/).getByText(late, { exact: true })).toBeVisible();
  await expect(section(page, /^Tomorrow/).getByText(call, { exact: true })).toBeVisible();
  await expect(
    headings.nth(6).locator('xpath=ancestor::section').getByText(later, { exact: true }),
  ).toBeVisible();

  // Add to a day: a todo due that day, in that day's list.
  const added = uniqueTitle('Pack the tent');
  await section(page, /^Tomorrow/)
    .getByRole('button', { name: 'Add to Tomorrow' })
    .click();
  const form = page.getByRole('form', { name: 'Add to Tomorrow' });
  await form.getByRole('textbox', { name: 'Todo title, due Tomorrow' }).fill(added);
  await page.keyboard.press('Enter');
  await expect(section(page, /^Tomorrow/).getByText(added, { exact: true })).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(form).toHaveCount(0);
  await expect(section(page, /^Tomorrow/).getByRole('button', { name: 'Add to Tomorrow' })).toBeFocused();
  expect(await app.seriousA11yViolations()).toEqual([]);

  if (testInfo.project.name !== 'desktop') return;
  // Pictures of both screens at both sizes and in both themes (looked at by hand).
  for (const name of ['today', 'upcoming'] as const) {
    await page.goto(`/${name}`);
    await expect(app.main.locator('[data-item-id]').first()).toBeVisible();
    await takePictures(app.page, app, 'today', name, { fullPage: true });
  }

  // Nothing left today: the empty state says so and names the next item due.
  await page.goto('/today');
  await app
    .row(late)
    .getByRole('button', { name: `Mark as done: ${late}` })
    .click();
  await expect(app.main.getByText('Nothing due today', { exact: true })).toBeVisible();
  await expect(app.main.getByText(/Next up: .*tomorrow/)).toBeVisible();
  expect(await app.seriousA11yViolations()).toEqual([]);
  await takePictures(app.page, app, 'today', 'today-empty', { fullPage: true });
});
