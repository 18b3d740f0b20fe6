import { expect, test } from '@playwright/test';
import { takePictures } from './lib/pictures';
import { Outpost, uniqueTitle } from './pages/Outpost';

// This spec works offline: the service worker must serve the app and its chunks.
test.use({ serviceWorkers: 'allow' });

// Issue 32: priorities and labels from the UI (ARCHITECTURE §4 'Planning fields'), as a guest, from
// the device: the row menu sets them, the row shows them, /labels/{name} lists the label's items.

/** Adds an item with Home's quick-add card, its priority and labels said in the title ('p2 +errand'). */
async function addReading(app: Outpost, type: 'Todo' | 'Task', words: string, chips: number) {
  const form = app.quickAddForm();
  await expect(async () => {
    if (!(await form.getByRole('radio', { name: type, exact: true }).isVisible()))
      await form.getByRole('textbox').first().click();
    await form.getByText(type, { exact: true }).click({ timeout: 2_000 });
    await expect(form.getByRole('radio', { name: type, exact: true })).toBeChecked({ timeout: 2_000 });
  }).toPass({ timeout: 20_000 });
  const titleField = form.getByRole('textbox', { name: `${type} title` });
  await titleField.fill(words);
  // The reader loads on the field's first keystroke: the words are taken once their chips show.
  await expect(
    form.getByRole('list', { name: 'Understood from the title' }).getByRole('listitem'),
  ).toHaveCount(chips);
  await form.getByRole('button', { name: `Add ${type.toLowerCase()}` }).click();
  await expect(titleField).toHaveValue('');
}

test('a guest sets p1 and the label errand from the row menu, sees them on the row and on /labels/errand', async ({
  page,
}) => {
  test.setTimeout(180_000);
  await page.emulateMedia({ reducedMotion: 'reduce' });
  const app = new Outpost(page);
  await app.skipOnboarding();
  await app.goto('/');
  await expect(app.heading('Home')).toBeVisible();

  const milk = uniqueTitle('Buy oat milk');
  const trip = uniqueTitle('Plan the trip');
  const other = uniqueTitle('Sort the photos');
  await app.quickAdd('todo', milk);
  await addReading(app, 'Task', `${trip} p2 +Errand +travel`, 3);
  await addReading(app, 'Todo', `${other} p3 +home`, 2);

  const row = app.row(milk);
  await expect(row).toBeVisible();
  await expect(row.getByText('p1')).toHaveCount(0);

  // Priority: a sub-menu on desktop, listed in the menu on a phone.
  await row.getByRole('button', { name: `More actions for ${milk}` }).click();
  const menu = page.getByRole('menu').first();
  if (!app.isPhone) await menu.getByRole('menuitem', { name: 'Priority' }).click();
  await page.getByRole('menuitemradio', { name: 'p1', exact: true }).click();
  await expect(app.toast('Todo updated').first()).toBeVisible();
  await expect(row.getByText('p1', { exact: true })).toBeVisible();

  // Labels…: type a label and Enter; the chip shows on the row.
  await row.getByRole('button', { name: `More actions for ${milk}` }).click();
  await page.getByRole('menuitem', { name: 'Labels…' }).click();
  const dialog = page.getByRole('dialog', { name: 'Labels' });
  const field = dialog.getByRole('textbox', { name: `Add a label to ${milk}` });
  await field.fill('errand');
  await field.press('Enter');
  await expect(dialog.getByRole('link', { name: 'errand', exact: true })).toBeVisible();
  // 'ERRAND' is the same label (labels ignore case): the shared schema's message.
  await field.fill('ERRAND');
  await field.press('Enter');
  await expect(dialog.getByRole('alert')).toHaveText(
    'The label “ERRAND” is there twice (labels ignore case).',
  );
  await takePictures(page, app, 'labels', 'labels-dialog', { fullPage: true });
  // Closed by its button: the pictures' theme switches may have moved focus off the field.
  await dialog.getByRole('button', { name: 'Close' }).click();
  await expect(dialog).toBeHidden();
  const chip = row.getByRole('link', { name: 'errand', exact: true });
  await expect(chip).toBeVisible();
  await takePictures(page, app, 'labels', 'home-rows', { fullPage: true });

  // The chip leads to the label's page: both items labelled errand (ignoring case), not the third.
  await chip.click();
  await expect(page).toHaveURL(/\/labels\/errand$/);
  await expect(app.heading('errand')).toBeVisible();
  await expect(app.row(milk)).toBeVisible();
  await expect(app.row(trip)).toBeVisible();
  await expect(app.row(other)).toHaveCount(0);
  await expect(app.row(milk).getByText('p1', { exact: true })).toBeVisible();
  expect(await app.seriousA11yViolations()).toEqual([]);
  await takePictures(page, app, 'labels', 'label-page', { fullPage: true });

  // Queue's chips under the search box filter it to a label (ignoring case), and back.
  await page.goto('/queue');
  await expect(app.row(other)).toBeVisible();
  const chips = app.main.getByRole('group', { name: 'Filter by label' });
  await chips.getByRole('button', { name: /^errand, 2 items$/i }).click();
  await expect(app.row(other)).toHaveCount(0);
  await expect(app.row(milk)).toBeVisible();
  await expect(app.row(trip)).toBeVisible();
  await takePictures(page, app, 'labels', 'queue-filter', { fullPage: true });
  await chips.getByRole('button', { name: /^errand, 2 items$/i }).click();
  await expect(app.row(other)).toBeVisible();

  // The task's page: its priority select and labels editor; removing a label there shows on its row.
  await app.row(trip).getByRole('link', { name: trip }).click();
  // By role: the timeline's Restore buttons name the fields they set back ('Restore: Labels: …').
  await expect(app.main.getByRole('combobox', { name: 'Priority:' })).toHaveValue('2');
  await app.main.getByRole('button', { name: 'Remove label travel' }).click();
  await expect(app.main.getByRole('button', { name: 'Remove label travel' })).toHaveCount(0);
  const labelsField = app.main.getByRole('textbox', { name: 'Labels:' });
  await labelsField.fill('weekend');
  await labelsField.press('Enter');
  await expect(app.main.getByRole('button', { name: 'Remove label weekend' })).toBeVisible();
  await takePictures(page, app, 'labels', 'task-detail', { fullPage: true });

  // It is the device's: a reload offline still lists them.
  await page.goto('/labels/errand');
  await expect(app.row(milk)).toBeVisible();
  await page.context().setOffline(true);
  await page.reload();
  await expect(app.row(milk)).toBeVisible();
  await page.context().setOffline(false);
});
