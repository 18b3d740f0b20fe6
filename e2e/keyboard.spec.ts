import { expect, test } from '@playwright/test';
import { chunkUrl } from './pages/chunks';
import { KeyboardPage } from './pages/KeyboardPage';
import { uniqueTitle } from './pages/Outpost';

/** A short tag no other spec's titles contain, so search counts only this spec's items. */
function tag(): string {
  return `kq${Math.random().toString(36).slice(2, 7)}`;
}

async function guestHome(page: import('@playwright/test').Page, theme: 'light' | 'dark' = 'light') {
  await page.emulateMedia({ colorScheme: theme, reducedMotion: 'reduce' });
  const app = new KeyboardPage(page);
  await app.presetTheme(theme);
  await app.skipOnboarding();
  await app.goto('/');
  await expect(app.heading('Home')).toBeVisible();
  return app;
}

test('Ctrl+K keeps what is typed while the dialog loads, ranks by relevance and says how many more there are', async ({
  page,
}, testInfo) => {
  test.setTimeout(90_000);
  const app = await guestHome(page);
  const word = tag();
  // Oldest first: the exact title is the oldest item, yet it must come first.
  const exact = word;
  const others = [`Weekly ${word} review`, `Pre${word}post`];
  const prefixed = Array.from({ length: 10 }, (_, i) => `${word} chore ${i + 1}`);
  await app.quickAddTodos([exact, ...others, ...prefixed]);

  await test.step('keys typed while the chunk loads land in the input', async () => {
    // A slow network for the dialog's chunk: it arrives well after the keys below.
    await page.route(chunkUrl('src/client/search/SearchDialog.tsx'), async (route) => {
      await new Promise((resolve) => setTimeout(resolve, 1200));
      await route.continue();
    });
    await page.reload();
    await expect(app.heading('Home')).toBeVisible();
    await page.locator('body').click({ position: { x: 1, y: 1 } });
    await page.keyboard.press('Control+k');
    await page.keyboard.type(word, { delay: 20 });
    const dialog = app.searchDialog();
    const input = dialog.getByRole('combobox', { name: 'Search items' });
    await expect(input).toHaveValue(word);
    await expect(input).toBeFocused();
    // Keys after the dialog opened go on the end (nothing is left selected to be typed over).
    await page.keyboard.type(' ');
    await expect(input).toHaveValue(`${word} `);
  });

  await test.step('exact title, then title prefix, then the rest; "Showing 10 of 12 results"', async () => {
    const dialog = app.searchDialog();
    const options = dialog.getByRole('option');
    await expect(options).toHaveCount(10);
    await expect(options.first()).toContainText(exact);
    await expect(options.first().locator('p').first()).toHaveText(exact);
    for (let i = 1; i < 10; i++) await expect(options.nth(i)).toContainText(`${word} chore`);
    await expect(dialog.getByRole('status')).toHaveText('Showing 10 of 13 results');
    await app.screenshot(testInfo, 'search-dialog-light');
    expect(await app.seriousA11yViolations()).toEqual([]);
    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();
  });

  await test.step('the same in dark mode (a fresh load, the chunk slow again)', async () => {
    await page.emulateMedia({ colorScheme: 'dark', reducedMotion: 'reduce' });
    await app.presetTheme('dark');
    await page.reload();
    await expect(app.heading('Home')).toBeVisible();
    await expect(page.locator('html')).toHaveClass(/\bdark\b/);
    await page.locator('body').click({ position: { x: 1, y: 1 } });
    await page.keyboard.press('Control+k');
    await page.keyboard.type(word, { delay: 20 });
    const dialog = app.searchDialog();
    await expect(dialog.getByRole('combobox', { name: 'Search items' })).toHaveValue(word);
    await expect(dialog.getByRole('status')).toHaveText('Showing 10 of 13 results');
    await app.screenshot(testInfo, 'search-dialog-dark');
    expect(await app.seriousA11yViolations()).toEqual([]);
  });
});

test.describe('Ctrl+K while a page is still loading', () => {
  // Chunks come from the network here, where the test can slow them, not from the service worker.
  test.use({ serviceWorkers: 'block' });

  for (const [path, chunk, heading] of [
    ['/queue', 'src/client/lists/QueuePage.tsx', 'Queue'],
    ['/my-list', 'src/client/lists/MyListPage.tsx', 'My List'],
    ['/preferences', 'src/client/preferences/PreferencesPage.tsx', 'Preferences'],
  ] as const) {
    test(`opens search and keeps every key typed right after loading ${path}`, async ({ page }) => {
      const app = await guestHome(page);
      const word = tag();
      // The screen's chunk arrives well after the keys below, as on a slow phone network.
      await page.route(chunkUrl(chunk), async (route) => {
        await new Promise((resolve) => setTimeout(resolve, 2500));
        await route.continue();
      });
      await page.goto(path, { waitUntil: 'commit' });
      // As soon as anything of the app has run: the keys go in while the screen is still loading.
      await page.waitForFunction(() => document.querySelector('script[type="module"]') !== null);
      await page.keyboard.press('Control+k');
      await page.keyboard.type(word, { delay: 30 });
      const input = app.searchDialog().getByRole('combobox', { name: 'Search items' });
      await expect(input).toHaveValue(word);
      await expect(input).toBeFocused();
      // The open dialog hides the page from the accessibility tree; the screen is drawn behind it.
      await expect(page.getByRole('heading', { name: heading, level: 1, includeHidden: true })).toBeVisible();
      // The screen arriving takes neither the dialog nor the focus away.
      await page.keyboard.type('z');
      await expect(input).toHaveValue(`${word}z`);
    });
  }

  test('opens search and keeps every key typed right after a click on a nav link', async ({ page }) => {
    const app = await guestHome(page);
    const word = tag();
    await page.route(chunkUrl('src/client/lists/ActivePage.tsx'), async (route) => {
      await new Promise((resolve) => setTimeout(resolve, 2500));
      await route.continue();
    });
    const nav = page.getByRole('navigation', { name: 'Main' }).filter({ visible: true });
    await nav.getByRole('link', { name: 'Active', exact: true }).click();
    await page.keyboard.press('Control+k');
    await page.keyboard.type(word, { delay: 30 });
    const input = app.searchDialog().getByRole('combobox', { name: 'Search items' });
    await expect(input).toHaveValue(word);
    await expect(page.getByRole('heading', { name: 'Active', level: 1, includeHidden: true })).toBeVisible();
    await page.keyboard.type('z');
    await expect(input).toHaveValue(`${word}z`);
    await expect(input).toBeFocused();
  });
});

test('lists: one tab stop per list, arrows and j/k move, Enter renames a todo, the actions menu from the row; focus stays on a row after a rename and a delete', async ({
  page,
}) => {
  test.setTimeout(90_000);
  const app = await guestHome(page);
  const [a, b, c] = [uniqueTitle('Row A'), uniqueTitle('Row B'), uniqueTitle('Row C')];
  await app.quickAddTodos([a, b, c]);
  // Newest first on Home: c, b, a.
  await page.keyboard.press('Escape');
  // Escape in the (now empty) quick add keeps focus on its title field.
  await expect(app.quickAddForm().getByRole('textbox', { name: 'Todo title' })).toBeFocused();

  await test.step('Tab reaches the first row, and the next Tab leaves the list', async () => {
    const list = app.list();
    const first = list.getByRole('group').first();
    await first.focus();
    await app.expectFocused(new RegExp(`^Todo: ${c}$`));
    // Every control inside the rows is out of the tab order: one stop for the whole list.
    const tabbable = await list.evaluate(
      (el) =>
        [...el.querySelectorAll<HTMLElement>('a[href], button, input, [tabindex]')].filter(
          (e) => e.tabIndex >= 0,
        ).length,
    );
    expect(tabbable).toBe(1);
    await page.keyboard.press('Tab');
    expect(await list.evaluate((el) => el.contains(document.activeElement))).toBe(false);
    await page.keyboard.press('Shift+Tab');
    await app.expectFocused(new RegExp(`^Todo: ${c}$`));
  });

  await test.step('rows as tab stops pass axe (a named group each)', async () => {
    expect(await app.seriousA11yViolations()).toEqual([]);
  });

  await test.step('ArrowDown, j, k and ArrowUp move between rows', async () => {
    await page.keyboard.press('ArrowDown');
    await app.expectFocused(new RegExp(`^Todo: ${b}$`));
    await page.keyboard.press('j');
    await app.expectFocused(new RegExp(`^Todo: ${a}$`));
    await page.keyboard.press('k');
    await app.expectFocused(new RegExp(`^Todo: ${b}$`));
    await page.keyboard.press('ArrowUp');
    await app.expectFocused(new RegExp(`^Todo: ${c}$`));
    await page.keyboard.press('ArrowDown');
    await app.expectFocused(new RegExp(`^Todo: ${b}$`));
  });

  const renamed = `${b} renamed`;
  await test.step('Enter renames a todo; after Enter focus is back on its row', async () => {
    await page.keyboard.press('Enter');
    const field = app.main.getByRole('textbox', { name: 'Title', exact: true });
    await expect(field).toBeFocused();
    await page.keyboard.press('End');
    await page.keyboard.type(' renamed');
    await page.keyboard.press('Enter');
    await expect(app.row(renamed)).toBeVisible();
    await app.expectFocused(new RegExp(`^Todo: ${renamed}$`));
    // Escape cancels and also keeps focus on the row.
    await page.keyboard.press('F2');
    await expect(field).toBeFocused();
    await page.keyboard.press('Escape');
    await app.expectFocused(new RegExp(`^Todo: ${renamed}$`));
  });

  await test.step('Shift+F10 opens the row actions; Delete moves focus to the next row', async () => {
    await page.keyboard.press('Shift+F10');
    const menu = page.getByRole('menu');
    await expect(menu).toBeVisible();
    await expect(menu.getByRole('menuitem', { name: 'Delete' })).toBeVisible();
    await menu.getByRole('menuitem', { name: 'Delete' }).focus();
    await page.keyboard.press('Enter');
    // Deletes may ask first (an alert dialog): answer it from the keyboard too.
    const confirm = page.getByRole('alertdialog');
    await page.waitForTimeout(300);
    if (await confirm.isVisible()) {
      await confirm.getByRole('button', { name: 'Delete' }).focus();
      await page.keyboard.press('Enter');
      await expect(confirm).toBeHidden();
    }
    await expect(app.row(renamed)).toHaveCount(0);
    await app.expectFocused(new RegExp(`^Todo: ${a}$`));
  });
});

test('Enter and Ctrl+Enter add from a campaign title in the quick add, Ctrl+Enter from the Create New Item dialog', async ({
  page,
}) => {
  const app = await guestHome(page);
  const form = app.quickAddForm();
  await form.getByRole('textbox').first().click();
  await form.getByText('Campaign', { exact: true }).click();
  const title = form.getByRole('textbox', { name: 'Campaign title' });
  const campaign = uniqueTitle('Kbd campaign');
  await title.fill(campaign);
  await title.press('Enter');
  await expect(title).toHaveValue('');
  await expect(app.row(campaign)).toBeVisible();
  const second = uniqueTitle('Kbd campaign');
  await form.getByText('Campaign', { exact: true }).click();
  await title.fill(second);
  await title.press('Control+Enter');
  await expect(title).toHaveValue('');
  await expect(app.row(second)).toBeVisible();

  // The Create New Item dialog (the phone's add button; on desktop the same dialog from the store).
  if (app.isPhone) {
    await page.getByRole('button', { name: 'Create new item' }).click();
    const dialog = page.getByRole('dialog', { name: 'Create New Item' });
    await expect(dialog).toBeVisible();
    const task = uniqueTitle('Kbd task');
    await dialog.getByRole('tab', { name: 'task' }).click();
    await dialog.getByLabel('Title').fill(task);
    await dialog.getByLabel(/Description/).fill('From the keyboard');
    await dialog.getByLabel(/Description/).press('Control+Enter');
    await expect(dialog).toBeHidden();
    await expect(app.toast('Item created')).toBeVisible();
  }
});

for (const theme of ['light', 'dark'] as const) {
  test(`'?' opens the shortcut help outside text fields (${theme})`, async ({ page }, testInfo) => {
    const app = await guestHome(page, theme);
    // In a text field '?' is just a character.
    const field = app.quickAddForm().getByRole('textbox').first();
    await field.click();
    await page.keyboard.type('?');
    await expect(field).toHaveValue('?');
    await expect(app.shortcutHelp()).toHaveCount(0);
    await field.fill('');
    await page.keyboard.press('Escape');

    await app.heading('Home').click();
    await page.keyboard.press('?');
    const help = app.shortcutHelp();
    await expect(help).toBeVisible();
    for (const text of [
      'Search items',
      'Next item',
      'Previous item',
      'Show these shortcuts',
      'Open the item',
    ]) {
      await expect(help.getByText(text, { exact: false }).first()).toBeVisible();
    }
    await expect(help.locator('kbd', { hasText: 'K' }).first()).toBeVisible();
    await expect(help.locator('kbd', { hasText: 'Enter' }).first()).toBeVisible();
    await expect(help.locator('kbd', { hasText: 'Esc' }).first()).toBeVisible();
    await expect(help.locator('kbd', { hasText: 'J' })).toBeVisible();
    await app.screenshot(testInfo, `shortcut-help-${theme}`);
    expect(await app.seriousA11yViolations()).toEqual([]);
    await page.keyboard.press('Escape');
    await expect(help).toBeHidden();
  });
}
