import { expect, type Locator, type Page, test } from '@playwright/test';
import { dayFromToday, dayWords } from './lib/days';
import { takePictures } from './lib/pictures';
import { Outpost, uniqueTitle } from './pages/Outpost';

// Issue 53 parts 4 and 5: Calendar and Timeline (ARCHITECTURE §5), as a guest, from the device.

const label = dayWords;

/** Adds an item with the page's quick-add card, its dates said in the title and read into chips first. */
async function addWithDates(app: Outpost, type: 'todo' | 'task', text: string) {
  const form = app.quickAddForm();
  const field = form.getByRole('textbox', { name: `${type === 'todo' ? 'Todo' : 'Task'} title` });
  await expect(async () => {
    if (!(await field.isVisible())) await form.getByRole('textbox').first().click();
    const chip = form.getByRole('radio', { name: type === 'todo' ? 'Todo' : 'Task', exact: true });
    if ((await chip.count()) > 0) {
      await form.getByText(type === 'todo' ? 'Todo' : 'Task', { exact: true }).click({ timeout: 2_000 });
      await expect(chip).toBeChecked({ timeout: 2_000 });
    }
  }).toPass({ timeout: 20_000 });
  await field.fill(text);
  await expect(
    form.getByRole('list', { name: 'Understood from the title' }).getByRole('listitem'),
  ).not.toHaveCount(0);
  await form.getByRole('button', { name: `Add ${type}` }).click();
  await expect(field).toHaveValue('');
}

async function dragBy(page: Page, from: Locator, dx: number, to?: Locator) {
  const a = (await from.boundingBox())!;
  const b = to ? (await to.boundingBox())! : null;
  const x = a.x + a.width / 2;
  const y = a.y + a.height / 2;
  await page.mouse.move(x, y);
  await page.mouse.down();
  await page.mouse.move(x + 6, y + 2, { steps: 3 });
  const tx = b ? b.x + b.width / 2 : x + dx;
  // Into the day's empty lower half, well inside the window (near its edge the page would scroll).
  const ty = b ? b.y + b.height * 0.6 : y;
  await page.mouse.move(tx, ty, { steps: 10 });
  await page.waitForTimeout(100);
  await page.mouse.up();
}

test('Calendar: an item moves a day by keyboard and by pointer, undoably; Timeline: a bar end drags and keys move it', async ({
  page,
}) => {
  test.setTimeout(240_000);
  await page.emulateMedia({ reducedMotion: 'reduce' });
  const app = new Outpost(page);
  await app.skipOnboarding();
  await app.goto('/');
  await expect(app.heading('Home')).toBeVisible();

  const today = dayFromToday(0);
  const todo = uniqueTitle('Water the ferns');
  await addWithDates(app, 'todo', `${todo} today`);

  // The desktop nav leads to the calendar, after Upcoming.
  await page.getByRole('navigation').getByRole('link', { name: 'Calendar', exact: true }).first().click();
  await expect(app.heading('Calendar')).toBeVisible();
  const chip = page.locator(`[data-item-id][data-own="true"]`).filter({ hasText: todo }).first();
  await expect(chip).toHaveAttribute('aria-label', `${todo}, todo, ${label(today)}`);
  await expect(page.locator('[aria-current="date"]')).toHaveCount(1);

  // Keyboard: Right moves it a day, announced; the toast's Undo takes it back.
  await chip.focus();
  await page.keyboard.press('ArrowRight');
  await expect(page.getByTestId('calendar-announcement')).toHaveText(
    `${todo}: Moved to ${label(dayFromToday(1))}.`,
  );
  await expect(chip).toHaveAttribute('aria-label', `${todo}, todo, ${label(dayFromToday(1))}`);
  await expect(chip).toBeFocused();
  await page.keyboard.press('Shift+ArrowRight');
  await expect(chip).toHaveAttribute(
    'aria-label',
    `${todo}, todo, ${label(dayFromToday(1))} to ${label(dayFromToday(2))}`,
  );
  await app.toast(`Now ${label(dayFromToday(1))} to ${label(dayFromToday(2))}`).waitFor();
  await page.locator('ol > li').last().getByRole('button', { name: 'Undo' }).click();
  await expect(chip).toHaveAttribute('aria-label', `${todo}, todo, ${label(dayFromToday(1))}`);

  // Pointer: dragged onto another day of the grid, both dates move.
  const target = (await page.locator(`[data-day="${dayFromToday(3)}"]`).count()) > 0 ? 3 : -2;
  await page
    .locator(`[data-day="${dayFromToday(target)}"]`)
    .evaluate((el) => el.scrollIntoView({ block: 'center' }));
  await dragBy(page, chip, 0, page.locator(`[data-day="${dayFromToday(target)}"]`));
  await expect(chip).toHaveAttribute('aria-label', `${todo}, todo, ${label(dayFromToday(target))}`);
  await expect(page.getByTestId('calendar-announcement')).toHaveText(
    `${todo}: Moved to ${label(dayFromToday(target))}.`,
  );
  // Reloaded, the device still has it there (stored, not only drawn).
  await page.reload();
  await expect(chip).toHaveAttribute('aria-label', `${todo}, todo, ${label(dayFromToday(target))}`);
  expect(await app.seriousA11yViolations()).toEqual([]);
  await takePictures(page, app, 'planViews', 'calendar', { focus: chip });
  // The list view (a phone's first view when it opens the calendar).
  await app.goto(`/calendar?view=list&date=${dayFromToday(target)}`);
  await expect(page.getByRole('button', { name: 'List', exact: true })).toHaveAttribute(
    'aria-pressed',
    'true',
  );
  await expect(chip).toBeVisible();
  await takePictures(page, app, 'planViews', 'calendar-list');
  await app.goto(`/calendar?view=week&date=${dayFromToday(target)}`);
  await expect(chip).toBeVisible();
  await takePictures(page, app, 'planViews', 'calendar-week');

  // Timeline: a campaign's task from today to in 3 days.
  await app.goto('/');
  const campaign = uniqueTitle('Spring launch');
  await app.quickAdd('campaign', campaign);
  await app.row(campaign).getByRole('link', { name: campaign }).first().click();
  await expect(app.heading(campaign)).toBeVisible();
  const task = uniqueTitle('Design review');
  await addWithDates(app, 'task', `${task} from today to in 3 days`);
  await page.getByRole('link', { name: 'Timeline', exact: true }).click();
  await expect(app.heading(`${campaign}: Timeline`)).toBeVisible();
  const bar = page.locator('[data-bar]').first();
  await expect(bar).toHaveAttribute('aria-label', `${task}, ${label(today)} to ${label(dayFromToday(3))}`);

  // Its end dragged two days on (the week scale: 14 px a day).
  await bar.hover();
  await dragBy(page, page.locator('[data-handle="end"]').first(), 28);
  await expect(bar).toHaveAttribute('aria-label', `${task}, ${label(today)} to ${label(dayFromToday(5))}`);
  await expect(page.getByTestId('timeline-announcement')).toHaveText(
    `${task}: Now ${label(today)} to ${label(dayFromToday(5))}.`,
  );
  // Keys: Left moves the whole bar a day back.
  await bar.focus();
  await page.keyboard.press('ArrowLeft');
  await expect(bar).toHaveAttribute(
    'aria-label',
    `${task}, ${label(dayFromToday(-1))} to ${label(dayFromToday(4))}`,
  );
  expect(await app.seriousA11yViolations()).toEqual([]);
  await takePictures(page, app, 'planViews', 'timeline', { focus: bar });

  // All campaigns: the same task under its campaign's group.
  await app.goto('/timeline');
  await expect(app.heading('Timeline')).toBeVisible();
  await expect(page.getByRole('link', { name: campaign })).toBeVisible();
  await expect(page.locator('[data-bar]').filter({ has: page.locator(':scope') })).not.toHaveCount(0);
});
