import { expect, test } from '@playwright/test';
import { uniqueTitle } from './pages/Outpost';
import { Trees } from './pages/Trees';

// Issue 13, items 3, 5 and 6: bulk completion asks first, Reopen keeps status and progress in
// agreement, progress counts the whole subtree, children list oldest first, and an empty All says
// where the items are.

test("campaign: nested progress, 'Complete 3 open items too?', consistent reopen", async ({
  page,
}, testInfo) => {
  // Dozens of steps, each a real write and re-render of a campaign page that now also holds its
  // board tabs and timeline: over a minute with two workers on two cores.
  test.setTimeout(150_000);
  // One walk, on the desktop only (playwright.config.ts PHONE_SPECS); its two screens are pictured
  // and audited in both themes where they show. The phone's are screens.spec's.
  const app = await Trees.guest(page, 'light');
  /** The screen as it is, pictured and audited light and dark; the walk goes on in light. */
  const bothThemes = async (name: string) => {
    for (const theme of ['light', 'dark'] as const) {
      await app.setTheme(theme);
      await app.shotAndAxe(testInfo, `${name}-${theme}`);
    }
    await app.setTheme('light');
  };
  const campaign = uniqueTitle('Bulk campaign');
  const task = uniqueTitle('Bulk task');
  const loose = uniqueTitle('Loose todo');
  const todos = ['first', 'second', 'third'].map((t) => uniqueTitle(`${t} todo`));

  await test.step('a campaign with a task of three todos and one todo of its own', async () => {
    await app.quickAdd('campaign', campaign);
    await app.open(campaign);
    await app.quickAdd('task', task);
    await app.quickAdd('todo', loose);
    await app.open(task);
    for (const todo of todos) await app.quickAdd('todo', todo, 'Add todo');
  });

  await test.step('a task lists its todos oldest first, as typed', async () => {
    expect(await app.rowTitles(todos)).toEqual(todos);
  });

  await test.step('two of three todos done: the task is 2 of 3, the campaign 2 of 4 (todos count)', async () => {
    await app.tickTodo(todos[0]!);
    await app.tickTodo(todos[1]!);
    await app.expectProgress(2, 3);
    await app.main.locator('header').getByRole('link', { name: campaign }).click();
    await expect(app.heading(campaign)).toBeVisible();
    await app.expectProgress(2, 4);
    expect(await app.rowTitles([task, loose])).toEqual([task, loose]);
    // The task's row carries its own progress through its todos.
    await expect(app.main.locator('[data-item-id]').filter({ hasText: task })).toContainText(
      '2 of 3 done · 67%',
    );
    await bothThemes('campaign-nested-progress');
  });

  await test.step('the campaign card shows the same progress', async () => {
    await app.goto('/campaigns');
    const card = app.main.getByRole('link', { name: new RegExp(campaign) });
    await expect(card).toContainText('2 of 4 done · 50%');
    await expect(card.getByRole('progressbar')).toBeVisible();
    await card.click();
    await expect(app.heading(campaign)).toBeVisible();
  });

  await test.step('Complete asks first; Cancel changes nothing', async () => {
    await app.statusButton('Complete').click();
    const alert = app.alert('Complete 3 open items too?');
    await expect(alert).toBeVisible();
    await expect(alert.getByRole('button', { name: 'Cancel' })).toBeFocused();
    await bothThemes('complete-confirm');
    await alert.getByRole('button', { name: 'Cancel' }).click();
    await expect(alert).toBeHidden();
    await expect(app.statusFact()).toContainText(/in progress/i);
    await app.expectProgress(2, 4);
  });

  await test.step('Complete completes the subtree and says so', async () => {
    await app.statusButton('Complete').click();
    await app.alert('Complete 3 open items too?').getByRole('button', { name: 'Complete' }).click();
    await expect(app.toast('Campaign completed')).toBeVisible();
    await expect(app.statusFact()).toContainText(/completed/i);
    await app.expectProgress(4, 4);
  });

  await test.step('Reopen undoes that completion: in progress, 2 of 4, never open at 100%', async () => {
    await app.statusButton('Reopen').click();
    await expect(app.statusFact()).toContainText(/in progress/i);
    await app.expectProgress(2, 4);
    await app.open(task);
    await expect(app.statusFact()).toContainText(/in progress/i);
    await app.expectProgress(2, 3);
  });
});

test('deleting a task by double click deletes one item and asks first', async ({ page }) => {
  const app = await Trees.guest(page);
  const campaign = uniqueTitle('Delete campaign');
  const tasks = ['one', 'two', 'three'].map((t) => uniqueTitle(`Delete ${t}`));
  await app.quickAdd('campaign', campaign);
  await app.open(campaign);
  for (const task of tasks) await app.quickAdd('task', task);

  const target = tasks[0]!;
  if (app.isPhone) {
    await app
      .row(target)
      .getByRole('button', { name: `More actions for ${target}` })
      .click();
    await page.getByRole('menuitem', { name: 'Delete' }).click();
  } else {
    await app.row(target).hover();
    await app
      .row(target)
      .getByRole('button', { name: `Delete ${target}` })
      .dblclick();
  }
  const alert = page.getByRole('dialog', { name: 'Delete this task?' });
  await expect(alert).toBeVisible();
  // Where the pointer is after Delete, a second click within the double-click window reaches nothing.
  // The locator's double click aims only once the button is stable and is what the point hits (a raw
  // mouse double click at a box measured earlier missed the button once on CI, cause unseen).
  await alert.getByRole('button', { name: 'Delete' }).dblclick();
  await expect(alert).toBeHidden();
  await expect(app.row(target)).toHaveCount(0);
  for (const task of tasks.slice(1)) await expect(app.row(task)).toBeVisible();
});

for (const theme of ['light', 'dark'] as const) {
  test(`Completed › All lists a finished task of a running campaign, and Queue › All its open sibling (${theme})`, async ({
    page,
  }, testInfo) => {
    // Dozens of steps, each a real write and re-render of a campaign page that now also holds its
    // board tabs and timeline: over a minute with two workers on two cores.
    test.setTimeout(150_000);
    // The same steps in both themes, on the desktop only (playwright.config.ts PHONE_SPECS): the
    // phone's screens are pictured and audited by screens.spec, which keeps CI within its time.
    const app = await Trees.guest(page, theme);
    const campaign = uniqueTitle('Hint campaign');
    const doneTask = uniqueTitle('Finished task');
    const openTask = uniqueTitle('Open task');
    await app.quickAdd('campaign', campaign);
    await app.open(campaign);
    await app.quickAdd('task', openTask);
    await app.quickAdd('task', doneTask);
    await app.open(doneTask);
    await app.statusButton('Start').click();
    await app.statusButton('Complete').click();
    await expect(app.statusFact()).toContainText(/completed/i);

    // SYNC.md I14: the top of each branch of the list's status, so the win is where a person looks.
    await app.navigate('Completed');
    await expect(page.getByRole('tab', { name: 'All' })).toHaveAttribute('aria-selected', 'true');
    await expect(app.row(doneTask)).toBeVisible();
    // The running campaign is not listed; the row names it as its place.
    await expect(app.main.locator('[data-item-id]')).toHaveCount(1);
    await expect(app.row(doneTask)).toContainText(`in ${campaign}`);
    await expect(page.getByText('No completed items yet!')).toHaveCount(0);
    await app.shotAndAxe(testInfo, `done-all-${theme}`);
    await app.navigate('Queue');
    await expect(app.row(openTask)).toBeVisible();
    await expect(app.row(doneTask)).toHaveCount(0);
  });
}
