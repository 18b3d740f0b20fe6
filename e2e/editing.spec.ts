import { expect, type TestInfo, test } from '@playwright/test';
import { EditingPage } from './pages/Editing';
import { freshPhone, uniqueTitle } from './pages/Outpost';

// Issue 13, item 4: items can be edited after creation. A todo gets a due date (Edit details…), a
// task's description and reminder change on its detail page, a todo moves to another task and a task
// to another campaign (Move to…), and a reload shows every change kept, on the server too.
// Phone (390×844) and desktop (1280×800); the dialogs in light and dark, with axe.

/** Light and dark screenshots of what is on screen, and no serious or critical axe findings. */
async function captureBoth(app: EditingPage, testInfo: TestInfo, name: string) {
  for (const theme of ['light', 'dark'] as const) {
    await app.setTheme(theme);
    // Two frames, so what inherits its colour from the theme is painted anew before the shot.
    await app.page.evaluate(
      () => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))),
    );
    await app.screenshot(testInfo, `editing-${name}-${theme}`);
    expect(await app.seriousA11yViolations(), `${name} (${theme})`).toEqual([]);
  }
  await app.setTheme('light');
}

test('edits a todo, a task and their places after creation, and a reload keeps every change', async ({
  page,
}, testInfo) => {
  // Four screens in two themes each (eight axe runs and screenshots) plus a reload: on a loaded
  // two-core runner the walk takes longer than the default 30 s.
  test.slow();
  await page.emulateMedia({ reducedMotion: 'reduce' });
  const app = new EditingPage(page);
  await app.skipOnboarding();
  await app.signIn(freshPhone(), 'Edit Tester');
  await app.expectHomeAfterSignIn();

  const names = {
    home: uniqueTitle('Home campaign'),
    other: uniqueTitle('Other campaign'),
    task: uniqueTitle('Paint the fence'),
    sibling: uniqueTitle('Fix the gate'),
    todo: uniqueTitle('Buy brushes'),
  };
  const home = await app.apiCreate({ title: names.home, type: 'campaign' });
  const other = await app.apiCreate({ title: names.other, type: 'campaign' });
  const task = await app.apiCreate({ title: names.task, type: 'task', parent_id: home.id });
  const sibling = await app.apiCreate({ title: names.sibling, type: 'task', parent_id: home.id });
  const todo = await app.apiCreate({ title: names.todo, type: 'todo', parent_id: task.id });

  await test.step('Edit details… gives a todo a due date', async () => {
    await app.goto(`/tasks/${task.id}`);
    await expect(app.heading(names.task)).toBeVisible();
    await expect(app.row(names.todo)).toBeVisible();
    const dialog = await app.openEditDetails(names.todo);
    await dialog.getByLabel('Due date').fill('2031-06-01');
    await captureBoth(app, testInfo, 'edit-dialog');
    await dialog.getByRole('button', { name: 'Save changes' }).click();
    await expect(dialog).toBeHidden();
    await expect(app.toast('Todo updated')).toBeVisible();
    await expect(app.row(names.todo)).toContainText('Jun 1, 2031');
    // Focus goes back to the row's menu button, not the page.
    await expect(page.getByRole('button', { name: `More actions for ${names.todo}` })).toBeFocused();
  });

  await test.step("the task's description and reminder change on its detail page", async () => {
    await app.main.getByRole('button', { name: 'Add a description' }).click();
    const description = app.main.getByRole('textbox', { name: 'Description' });
    await expect(description).toBeFocused();
    await description.fill('Two coats, white.');
    await app.main.getByRole('button', { name: 'Save description' }).click();
    await expect(app.main.getByText('Two coats, white.', { exact: true })).toBeVisible();
    // An empty reminder waits behind 'Add reminder…'; opening it puts focus in the field.
    await expect(app.fact('Reminder')).toHaveCount(0);
    await app.main.getByRole('button', { name: 'Add reminder…' }).click();
    await expect(app.fact('Reminder')).toBeFocused();
    await app.fact('Reminder').fill('2031-05-31T17:30');
    await app.fact('Reminder').blur();
    await expect(app.toast('Task updated')).toBeVisible();
    await expect(app.fact('Reminder')).toHaveValue('2031-05-31T17:30');
    await captureBoth(app, testInfo, 'task-detail');
  });

  await test.step('Move to… takes the todo to another task', async () => {
    const dialog = await app.openMoveTo(names.todo);
    // Only the places the rules allow: both tasks and both campaigns (a todo may sit in either), and the top level.
    await expect(dialog.getByRole('option', { name: /No parent/ })).toBeVisible();
    await expect(dialog.getByRole('option').filter({ hasText: names.task })).toContainText('Current');
    await dialog.getByRole('combobox').fill(names.sibling.slice(0, 8));
    await captureBoth(app, testInfo, 'move-picker');
    await app.pickPlace(names.sibling, names.sibling);
    await expect(app.toast('Todo moved')).toBeVisible();
    await expect(app.row(names.todo)).toHaveCount(0);
  });

  await test.step('Move to… takes the task to another campaign, offering campaigns only', async () => {
    await app.goto(`/campaigns/${home.id}`);
    await expect(app.heading(names.home)).toBeVisible();
    const dialog = await app.openMoveTo(names.task);
    await expect(dialog.getByRole('option').filter({ hasText: names.sibling })).toHaveCount(0);
    await app.pickPlace(names.other.slice(0, 10), names.other);
    await expect(app.toast('Task moved')).toBeVisible();
    await expect(app.row(names.task)).toHaveCount(0);
  });

  await test.step('after a reload every change is still there, and on the server', async () => {
    await expect.poll(async () => (await app.apiItem(task.id)).parent_id, { timeout: 15_000 }).toBe(other.id);
    await page.reload();
    await app.goto(`/campaigns/${other.id}`);
    await expect(app.row(names.task)).toBeVisible();
    await app.goto(`/tasks/${task.id}`);
    await expect(app.heading(names.task)).toBeVisible();
    await expect(app.main.getByText('Two coats, white.', { exact: true })).toBeVisible();
    await expect(app.fact('Reminder')).toHaveValue('2031-05-31T17:30');
    await app.goto(`/tasks/${sibling.id}`);
    await expect(app.row(names.todo)).toContainText('Jun 1, 2031');

    const [t, d] = [await app.apiItem(task.id), await app.apiItem(todo.id)];
    expect(t).toMatchObject({ parent_id: other.id, description: 'Two coats, white.' });
    expect(t.remind_at).not.toBeNull();
    expect(d).toMatchObject({ parent_id: sibling.id, due_date: '2031-06-01' });
  });
});
