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
