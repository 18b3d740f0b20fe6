import { expect, test } from '@playwright/test';
import { Collab } from './pages/Collab';
import { FabLayout } from './pages/FabLayout';
import { freshPhone } from './pages/Outpost';
import { Trees } from './pages/Trees';

// Issue 13, item 7: a 255-character title without spaces must never widen a screen, and menus open
// inside the viewport (the assign sub-menu opened at x = -45 on phones).

const longTitle = (prefix: string) =>
  `${prefix}${Math.random().toString(36).slice(2, 8)}`.padEnd(255, 'W').slice(0, 255);

for (const theme of ['light', 'dark'] as const) {
  test(`a 255-character unbroken title wraps on every screen, menus stay inside (${theme})`, async ({
    page,
  }, testInfo) => {
    const app = await Trees.guest(page, theme);
    const campaign = longTitle('Campaign');
    const task = longTitle('Task');
    const todo = longTitle('Todo');

    await test.step('Home, with long rows', async () => {
      await app.quickAdd('campaign', campaign);
      await app.quickAdd('todo', todo);
      await expect(app.row(campaign)).toBeVisible();
      await app.expectNoSideScroll('Home');
      await app.shotAndAxe(testInfo, `long-title-rows-${theme}`);
    });

    await test.step('the row menu and the assignees stay in the viewport', async () => {
      const row = app.row(todo);
      if (app.isPhone) {
        await row.getByRole('button', { name: `More actions for ${todo}` }).click();
        const menu = page.getByRole('menu');
        await expect(menu).toBeVisible();
        await expect(menu.getByRole('menuitemradio', { name: 'Unassigned' })).toBeVisible();
        await app.expectInViewport(menu, 'actions menu with assignees');
      } else {
        await row.hover();
        await row.getByRole('button', { name: `More actions for ${todo}` }).click();
        await page.getByRole('menuitem', { name: 'Assign' }).hover();
        const sub = page
          .getByRole('menu')
          .filter({ has: page.getByRole('menuitemradio', { name: 'Unassigned' }) });
        await expect(sub).toBeVisible();
        await app.expectInViewport(sub, 'assign sub-menu');
        await app.expectInViewport(page.getByRole('menu').first(), 'actions menu');
      }
      await page.keyboard.press('Escape');
      await page.keyboard.press('Escape');
      await expect(page.getByRole('menu')).toHaveCount(0);
    });

    await test.step('the campaign list and the campaign page', async () => {
      await app.goto('/campaigns');
      await expect(app.main.getByText(campaign)).toBeVisible();
      await app.expectNoSideScroll('/campaigns');
      await app.main.getByRole('link', { name: new RegExp(campaign) }).click();
      await expect(app.heading(campaign)).toBeVisible();
      await app.quickAdd('task', task);
      await app.expectNoSideScroll('campaign page');
      await app.shotAndAxe(testInfo, `long-title-campaign-${theme}`);
    });

    await test.step('the task page and its delete dialog', async () => {
      await app.open(task);
      await app.expectNoSideScroll('task page');
      if (app.isPhone) {
        // A phone's one back control is the header's (the heading's parent link shows from md up).
        await page.getByRole('button', { name: 'Back' }).click();
        await expect(app.heading(campaign)).toBeVisible();
        await app
          .row(task)
          .getByRole('button', { name: `More actions for ${task}` })
          .click();
        await page.getByRole('menuitem', { name: 'Delete' }).click();
      } else {
        await app.main.locator('header').getByRole('link').first().click();
        await expect(app.heading(campaign)).toBeVisible();
        await app.row(task).hover();
        await app
          .row(task)
          .getByRole('button', { name: `Delete ${task}` })
          .click();
      }
      const alert = page.getByRole('dialog', { name: 'Delete this task?' });
      await expect(alert).toBeVisible();
      await app.expectInViewport(alert, 'delete dialog');
      await app.expectNoSideScroll('delete dialog');
      await alert.getByRole('button', { name: 'Cancel' }).click();
    });

    await test.step('Queue and search', async () => {
      await app.goto('/queue');
      await expect(app.row(todo)).toBeVisible();
      await app.expectNoSideScroll('/queue');
      await page.locator('body').click({ position: { x: 1, y: 1 } });
      await page.keyboard.press('Control+k');
      const dialog = page.getByRole('dialog', { name: 'Search items' });
      await expect(dialog).toBeVisible();
      await dialog.getByRole('combobox', { name: 'Search items' }).fill(todo.slice(0, 12));
      await expect(dialog.getByRole('option').first()).toBeVisible();
      await app.expectInViewport(dialog, 'search dialog');
      await app.expectNoSideScroll('search');
    });
  });
}

test('on a phone the floating add button covers neither the Activity tab nor a comment’s Edit and Delete', async ({
  page,
}) => {
  test.skip((page.viewportSize()?.width ?? 1280) >= 768, 'the floating add button is the phone’s');
  const app = await Collab.signedIn(page, freshPhone(), 'Fab Checker');
  const campaign = await app.post<{ id: number }>('/api/items', { title: 'Spring fair', type: 'campaign' });
  // A task shows the progress block, which brings the tabs down to the button's height at rest.
  await app.post('/api/items', { title: 'Book the hall', type: 'task', parent_id: campaign.id });
  for (const body of ['First', 'A second comment, long enough to wrap onto two lines on a phone', 'Third'])
    await app.post(`/api/items/${campaign.id}/comments`, { body });
  await app.goto(`/campaigns/${campaign.id}`);
  const layout = new FabLayout(page);
  await layout.expectClearOfFab(page.getByRole('tab', { name: 'Activity' }), 'the Activity tab');
  const deletes = app.main.getByRole('button', { name: 'Delete comment' });
  await expect(deletes).toHaveCount(3);
  for (let i = 0; i < 3; i++) {
    await layout.expectClearOfFab(deletes.nth(i), `comment ${i + 1}’s Delete`);
    await layout.expectClearOfFab(
      app.main.getByRole('button', { name: 'Edit comment' }).nth(i),
      `comment ${i + 1}’s Edit`,
    );
  }
});
