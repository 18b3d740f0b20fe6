import { expect, type Page, test } from '@playwright/test';
import { uniqueTitle } from './pages/Outpost';
import { Trees } from './pages/Trees';

// Issue 14: undo, trash and restore, export and import, as a guest (no server needed for any of it).

/** Deletes a row's item through its row actions and the confirm dialog (tasks and campaigns ask). */
async function deleteRow(app: Trees, page: Page, title: string, type: 'task' | 'todo') {
  if (app.isPhone) {
    await app
      .row(title)
      .getByRole('button', { name: `More actions for ${title}` })
      .click();
    await page.getByRole('menuitem', { name: 'Delete' }).click();
  } else {
    await app.row(title).hover();
    await app
      .row(title)
      .getByRole('button', { name: `Delete ${title}` })
      .click();
  }
  if (type === 'task') {
    const alert = page.getByRole('dialog', { name: 'Delete this task?' });
    await alert.getByRole('button', { name: 'Delete' }).click();
    await expect(alert).toBeHidden();
  }
  await expect(app.row(title)).toHaveCount(0);
}

test("a task deleted with its todos comes back with the toast's Undo, also after a reload; Ctrl+Z takes back completing a todo", async ({
  page,
}) => {
  const app = await Trees.guest(page);
  const task = uniqueTitle('Undo task');
  const [done, open] = [uniqueTitle('Undo todo a'), uniqueTitle('Undo todo b')];
  const todos = [done, open];
  await app.quickAdd('task', task);
  await app.open(task);
  for (const todo of todos) await app.quickAdd('todo', todo, 'Add todo');
  await app.goto('/');
  await expect(app.row(task)).toBeVisible();

  await deleteRow(app, page, task, 'task');
  await expect(app.toast('Task deleted')).toBeVisible();
  await page
    .locator('ol > li')
    .filter({ hasText: 'Task deleted' })
    .getByRole('button', { name: 'Undo' })
    .click();
  await expect(app.toast('Undone')).toBeVisible();
  await expect(app.row(task)).toBeVisible();

  await page.reload();
  await expect(app.row(task)).toBeVisible();
  await app.open(task);
  for (const todo of todos) await expect(app.row(todo)).toBeVisible();

  // Ctrl+Z outside a text field (the focus is on the status button just pressed) takes back the newest change.
  await app.tickTodo(done);
  await page.keyboard.press('Control+z');
  const reopened = app.row(done).getByRole('button', { name: `Mark as done: ${done}` });
  await expect(reopened).toBeVisible();
  await page.reload();
  await expect(reopened).toBeVisible();
  await expect(app.row(open).getByRole('button', { name: `Mark as done: ${open}` })).toBeVisible();
});

test('Preferences › Trash restores a deleted todo', async ({ page }) => {
  const app = await Trees.guest(page);
  const keep = uniqueTitle('Trash keep');
  const gone = uniqueTitle('Trash gone');
  await app.quickAdd('todo', keep);
  await app.quickAdd('todo', gone);
  await deleteRow(app, page, gone, 'todo');

  await app.gotoPreferences();
  const trash = app.main.getByRole('region', { name: 'Trash' });
  await expect(trash.getByText(gone, { exact: true })).toBeVisible();
  // A guest's own trash does not say 'by Guest User' (P7).
  await expect(trash.getByText(/deleted by Guest User/)).toHaveCount(0);
  await trash.getByRole('button', { name: `Restore ${gone}` }).click();
  await expect(app.toast('Restored')).toBeVisible();
  await expect(trash.getByTestId('trash-empty')).toBeVisible();
  // The button left with its entry: focus is on the trash list, not lost to the page (P7).
  await expect(trash.getByRole('region', { name: 'Trash entries' })).toBeFocused();
  await app.goto('/');
  await expect(app.row(gone)).toBeVisible();
  await expect(app.row(keep)).toBeVisible();
});

test('a guest export imported again creates nothing new; after Clear Local Data it brings the same items back', async ({
  page,
}) => {
  const app = await Trees.guest(page);
  const titles = [uniqueTitle('Export one'), uniqueTitle('Export two')];
  for (const title of titles) await app.quickAdd('todo', title);

  await app.gotoPreferences();
  const data = app.main.getByRole('region', { name: 'Data', exact: true });
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    data.getByRole('button', { name: 'Export JSON' }).click(),
  ]);
  expect(download.suggestedFilename()).toMatch(/^outpost-\d{4}-\d{2}-\d{2}\.json$/);
  const file = await download.path();
  await expect(app.main.getByTestId('storage-line')).toContainText('Stored on this device: 2 items');

  await data.getByTestId('import-file').setInputFiles(file);
  await expect(data.getByTestId('import-summary')).toContainText('nothing new to create');
  await expect(data.getByTestId('import-summary')).toContainText('2 items already here will be skipped');
  await expect(data.getByRole('button', { name: /^Import \d/ })).toHaveCount(0);
  expect(await app.seriousA11yViolations()).toEqual([]);

  // A guest's items exist only here: Clear Local Data asks the spec's question, says so beside it and
  // offers the export first.
  await app.pressClearLocalData();
  const question = page.getByTestId('data-loss-confirm');
  await expect(question).toHaveAccessibleDescription(
    'Are you sure you want to clear all local data? This cannot be undone.',
  );
  await expect(question).toContainText('2 items exist only on this device and would be lost.');
  await expect(question.getByRole('button', { name: 'Export first' })).toBeVisible();
  await question.getByRole('button', { name: 'Cancel' }).click();
  await app.goto('/');
  for (const title of titles) await expect(app.row(title)).toHaveCount(1);

  // Cleared, the device is empty; importing the export brings back the same items.
  await app.gotoPreferences();
  await app.pressClearLocalData();
  await question.getByRole('button', { name: 'Clear and lose 2 items' }).click();
  await expect(page.getByText('No items yet! Create your first campaign to get started.')).toBeVisible();
  for (const title of titles) await expect(app.row(title)).toHaveCount(0);

  await app.gotoPreferences();
  await data.getByTestId('import-file').setInputFiles(file);
  await expect(data.getByTestId('import-summary')).toContainText('will create 2 todos');
  await data.getByRole('button', { name: 'Import 2 items' }).click();
  await expect(data.getByTestId('import-result')).toHaveText('Imported: 2 new items.');
  await app.goto('/');
  for (const title of titles) await expect(app.row(title)).toHaveCount(1);
});

test("importing a Todoist CSV makes a campaign named after the file, a section's tasks its todos, and 'every day' a daily task", async ({
  page,
}) => {
  const app = await Trees.guest(page);
  const campaign = uniqueTitle('Move house');
  // As Todoist exports a project: a BOM, CRLF, sections, INDENT levels, a note, quoted commas and a
  // repeating DATE in words.
  const csv = [
    '\uFEFFTYPE,CONTENT,DESCRIPTION,PRIORITY,INDENT,AUTHOR,RESPONSIBLE,DATE,DATE_LANG,TIMEZONE,DURATION,DURATION_UNIT',
    'task,Water the plants,,3,1,Sam (123),,every day,en,Europe/London,,',
    'section,Kitchen,,,,,,,,,,',
    'task,"Buy plates, bowls",Cheap ones,4,1,Sam (123),,2030-05-01,en,Europe/London,,',
    'task,Blue ones,,4,2,Sam (123),,,en,Europe/London,,',
    'note,"Ask Alex, maybe",,,,Sam (123),,,,,,',
    'task,Glasses,,1,3,Sam (123),,1 May 2030,en,Europe/London,,',
    '',
    'section,Garden,,,,,,,,,,',
    'task,Mow the lawn,,1,1,Sam (123),,every saturday,en,Europe/London,,',
    '',
  ].join('\r\n');

  await app.gotoPreferences();
  const data = app.main.getByRole('region', { name: 'Data', exact: true });
  await data
    .getByTestId('import-file')
    .setInputFiles({ name: `${campaign}.csv`, mimeType: 'text/csv', buffer: Buffer.from(csv) });
  await expect(data.getByTestId('import-summary')).toHaveText(
    `“${campaign}.csv” will create 1 campaign, 3 tasks and 4 todos.`,
  );
  await data.getByRole('button', { name: 'Import 8 items' }).click();
  await expect(data.getByTestId('import-result')).toHaveText('Imported: 8 new items.');

  await app.goto('/');
  await app.open(campaign);
  for (const task of ['Water the plants', 'Kitchen', 'Garden']) await expect(app.row(task)).toBeVisible();
  // 'every day' is a daily task, due from today.
  await expect(app.row('Water the plants').locator('[data-repeat]')).toHaveText(/Every day/);
  await app.open('Kitchen');
  for (const todo of ['Buy plates, bowls', 'Blue ones', 'Glasses']) await expect(app.row(todo)).toBeVisible();
});
