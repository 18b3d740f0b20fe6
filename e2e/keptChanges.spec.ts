import { type Browser, expect, type TestInfo, test } from '@playwright/test';
import { freshPhone, uniqueTitle } from './pages/Outpost';
import { Sharing } from './pages/Sharing';

/**
 * Issue 50: a member removed while offline loses nothing silently. Their offline comment is kept with
 * the item's changes (SYNC.md Q20), the toast says who removed them (Q22), and Preferences › Data
 * lists the changes that could not be applied until they are exported or dismissed (Q23). Desktop
 * only: the pictures take the phone's size inside the test.
 */

async function secondBrowser(browser: Browser, testInfo: TestInfo) {
  const { viewport, baseURL } = testInfo.project.use;
  return browser.newContext({ viewport, baseURL, serviceWorkers: 'block' });
}

test.beforeEach(() => {
  test.skip(test.info().project.name !== 'desktop', 'runs in the desktop project only');
  test.setTimeout(300_000);
});

test('Q20, Q22, Q23, Q24: a removed editor’s offline comment is kept, named with who removed them, the task’s page says so,, and listed in Preferences › Data until dismissed', async ({
  page,
  browser,
}, testInfo) => {
  const ownerPhone = freshPhone();
  const memberPhone = freshPhone();
  const owner = await Sharing.signedIn(page, ownerPhone, 'Alice Owner');
  const context = await secondBrowser(browser, testInfo);
  try {
    const member = await Sharing.signedIn(await context.newPage(), memberPhone, 'Bob Editor');
    await owner.post('/api/contacts/sync', { contacts: [memberPhone] });
    await member.post('/api/contacts/sync', { contacts: [ownerPhone] });
    const title = uniqueTitle('Spring fair');
    const taskTitle = uniqueTitle('Book the hall');
    const campaign = await owner.post<{ id: number }>('/api/items', { title, type: 'campaign' });
    const task = await owner.post<{ id: number }>('/api/items', {
      title: taskTitle,
      type: 'task',
      parent_id: campaign.id,
    });
    await owner.refreshMutuals('Bob Editor');
    await owner.openCampaign(campaign.id, title);
    await owner.openShare();
    await owner.addMember('Bob Editor', 'Editor');

    await member.goto(`/tasks/${task.id}`);
    await expect(member.heading(taskTitle)).toBeVisible({ timeout: 20_000 });

    await test.step('offline, Bob comments; Alice removes him', async () => {
      await context.setOffline(true);
      const field = member.main.getByRole('textbox', { name: 'Comment' });
      await field.fill('The hall is free on Friday');
      await field.press('Control+Enter');
      await expect(member.main.getByText('Pending sync').first()).toBeVisible();
      await owner.removeMember('Bob Editor');
      await owner.closeShare();
    });

    await test.step('back online: one toast says what happened, and nothing says the text is on the item', async () => {
      await context.setOffline(false);
      const toast = member.page.getByText('1 change could not be applied: you no longer have access', {
        exact: true,
      });
      await expect(toast).toBeVisible({ timeout: 30_000 });
      await expect(
        member.page.getByText(`You were removed from “${title}” by Alice Owner`).first(),
      ).toBeVisible();
      await expect(member.page.getByText('Comment not sent')).toHaveCount(0);
    });

    await test.step('Q24: the task’s page says what happened, not “it may have been deleted”', async () => {
      await member.goto(`/tasks/${task.id}`);
      await expect(member.main.getByText('Task not found')).toBeVisible({ timeout: 15_000 });
      await expect(member.main.getByText(`You were removed from “${title}” by Alice Owner.`)).toBeVisible({
        timeout: 15_000,
      });
      await member.shots(testInfo, 'removed-task-page', { fullPage: false });
    });

    await test.step('Preferences › Data lists it with Export and Dismiss', async () => {
      await member.goto('/preferences');
      const list = member.main.getByRole('list', { name: 'Changes that could not be applied' });
      await expect(list).toBeVisible({ timeout: 15_000 });
      await expect(list).toContainText(`Comment on “${taskTitle}”: “The hall is free on Friday”`);
      await expect(list).toContainText(`You were removed from “${title}” by Alice Owner`);
      await member.main.locator('#pref-kept').scrollIntoViewIfNeeded();
      await member.shots(testInfo, 'kept-changes', { fullPage: true });
      const download = member.page.waitForEvent('download');
      await member.main.getByRole('button', { name: 'Export', exact: true }).click();
      const file = await download;
      expect(file.suggestedFilename()).toMatch(/^outpost-not-applied-\d{4}-\d{2}-\d{2}\.json$/);
      await member.main.getByRole('button', { name: 'Dismiss', exact: true }).click();
      const dialog = member.page.getByRole('alertdialog', { name: 'Dismiss 1 change?' });
      await dialog.getByRole('button', { name: 'Dismiss' }).click();
      await expect(list).toHaveCount(0);
    });
  } finally {
    await context.close();
  }
});
