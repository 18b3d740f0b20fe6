import { expect, test } from '@playwright/test';
import { takePictures } from './lib/pictures';
import { BoardPage } from './pages/Board';
import { uniqueTitle } from './pages/Outpost';

// Issue 50: the Board's cards and drops, and J/K on the campaign, task and Today pages.

test('issue 50: board cards show priority, labels, done; a keyboard drop keeps focus; a task with open todos asks before Done', async ({
  page,
}) => {
  test.setTimeout(180_000);
  const app = await BoardPage.start(page);
  const campaign = uniqueTitle('Fair');
  const task = uniqueTitle('Stalls');
  const todo = uniqueTitle('Posters');
  await app.quickAdd('campaign', campaign);
  await app.open(campaign);
  await app.quickAdd('task', `${task} p1 +urgent`);
  await app.quickAdd('todo', `${todo} +errand`);

  await test.step('J goes to the rows of a campaign page, then on down', async () => {
    await app.pressJFromPage();
    await expect.poll(() => app.focusedRowText()).toContain(task);
    await page.keyboard.press('j');
    await expect.poll(() => app.focusedRowText()).toContain(todo);
  });

  await app.open(task);
  await app.quickAdd('todo', 'Tables', 'Add todo');
  await app.quickAdd('todo', 'Chairs', 'Add todo');
  await test.step('J goes to the rows of a task page', async () => {
    await app.pressJFromPage();
    await expect.poll(() => app.focusedRowText()).toContain('Tables');
  });

  await page.goBack();
  await expect(app.heading(campaign)).toBeVisible();
  await app.openBoard();
  const card = app.card(task);
  await expect(card).toContainText('p1');
  await expect(card).toContainText('urgent');
  await expect(app.card(todo)).toContainText('errand');
  await takePictures(page, app, 'board', 'cards', { focus: app.main.getByRole('region', { name: 'Board' }) });

  await test.step('a keyboard drop in another column leaves focus on the moved card', async () => {
    await app.keyboardDrop(todo, 1);
    await expect(app.column('in_progress').getByRole('link', { name: todo })).toBeVisible();
    await expect(app.handle(todo)).toBeFocused();
  });

  await test.step('a task with open todos dropped on Done asks first, then counts them', async () => {
    await app.keyboardDrop(task, 2);
    const dialog = page.getByRole('alertdialog', { name: 'Complete 2 open items too?' });
    await expect(dialog).toBeVisible();
    await dialog.getByRole('button', { name: 'Complete' }).click();
    await expect(app.toast('Task moved to Done')).toBeVisible();
    await expect(page.getByText('2 open items inside were completed too.').first()).toBeVisible();
    const done = app.column('completed').getByRole('link', { name: task });
    await expect(done).toBeVisible();
    await expect(done).toHaveCSS('text-decoration-line', 'line-through');
    await expect(app.handle(task)).toBeFocused();
    expect(await app.seriousA11yViolations()).toEqual([]);
    await takePictures(page, app, 'board', 'done', {
      focus: app.main.getByRole('region', { name: 'Board' }),
    });
  });

  await test.step('a todo card opens its page', async () => {
    await app.column('completed').getByRole('link', { name: 'Tables' }).click();
    await expect(page).toHaveURL(/\/todos\/\d+$/);
  });
});

test('issue 50: J goes to the rows of Today', async ({ page }) => {
  const app = await BoardPage.start(page);
  const call = uniqueTitle('Call');
  await app.quickAdd('todo', `${call} today`);
  await app.goto('/today');
  await expect(app.row(call)).toBeVisible();
  await app.pressJFromPage();
  await expect.poll(() => app.focusedRowText()).toContain(call);
});

test.describe('on a phone', () => {
  test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });

  test('issue 50: label and repeat pills read whole, a reminder shows in the row, one back control, no Ctrl+Enter hint, Today said once', async ({
    page,
  }) => {
    test.setTimeout(180_000);
    const app = await BoardPage.start(page);
    const water = uniqueTitle('Water');
    await app.quickAdd('todo', `${water} every day +urgent +garden p2 tomorrow 9am`);
    const row = app.row(water);
    await expect(row.locator('[data-row-reminder]')).toBeVisible();
    await expect(row.locator('[data-repeat]')).toHaveText(/Every day/);
    for (const pill of [row.getByRole('link', { name: 'urgent' }), row.locator('[data-repeat]')]) {
      // Whole on the row's line, or wrapped off it (not shown): never cut.
      const whole = await pill.evaluate((el) => {
        const box = el.getBoundingClientRect();
        const line = (el.parentElement as HTMLElement).closest('.flex-wrap')!.getBoundingClientRect();
        const shown = box.top < line.bottom;
        return el.scrollWidth <= el.clientWidth + 1 && (!shown || box.right <= line.right);
      });
      expect(whole).toBe(true);
    }
    await takePictures(page, app, 'rows', 'reminder', { focus: row });
    await page.setViewportSize({ width: 390, height: 844 });

    const campaign = uniqueTitle('Fair');
    const task = uniqueTitle('Stalls');
    await app.quickAdd('campaign', campaign);
    await app.open(campaign);
    await app.quickAdd('task', task);
    await app.open(task);
    // The header's Back alone: the heading's link to the campaign shows from the desktop's width.
    await expect(page.getByRole('button', { name: 'Back' })).toBeVisible();
    await expect(app.main.locator('[data-detail-back]')).toBeHidden();
    await page.setViewportSize({ width: 1280, height: 800 });
    await expect(app.main.locator('[data-detail-back]')).toBeVisible();
    await page.setViewportSize({ width: 390, height: 844 });
    await expect(app.main.getByText(/Enter to send/)).toHaveCount(0);

    await app.goto('/');
    await app.quickAdd('todo', `${uniqueTitle('Call')} today`);
    await app.goto('/today');
    await expect(app.heading('Today')).toBeVisible();
    await expect(app.main.getByRole('heading', { level: 2 })).toHaveText(['Due today']);
  });
});
